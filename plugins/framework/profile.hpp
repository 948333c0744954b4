// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `profile`: one scheduling profile at run time — the schedulerName, the
/// instantiated plugins, and for each extension point the plugins in the
/// configured order (with score weights). Built from an effective
/// `config::profile_config` through a registry; immutable afterwards and
/// shared by every actor (`profile_ptr`). Also runs the per-node parts of the
/// framework that several actors need: the filter chain (with nominated
/// pods), AddPod / RemovePod across plugins.
#pragma once

#include "config/scheduler_config.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/registry.hpp"
#include "support/error.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::plugins {

struct weighted_score_plugin {
  const score_plugin* plugin = nullptr;
  std::int64_t weight = 1;
  /// The same plugin as a feasible_summarizer, when it is one.
  const feasible_summarizer* summarizer = nullptr;
};

class profile {
public:
  /// Instantiates the plugins of `cfg` from `reg`. `global_percentage` is
  /// the configuration's percentageOfNodesToScore, used when the profile sets
  /// none. Errors name the plugin (`"Foo" does not exist`, or a plugin that
  /// does not implement an extension point it is enabled at).
  [[nodiscard]] static expected<std::shared_ptr<const profile>>
  build(const config::profile_config& cfg, const registry& reg,
        std::int32_t global_percentage);

  const std::string& scheduler_name() const noexcept {
    return scheduler_name_;
  }
  /// 0 = adaptive.
  std::int32_t percentage_of_nodes_to_score() const noexcept {
    return percentage_;
  }
  /// Number of cycle_state slots (one per plugin).
  std::size_t slot_count() const noexcept {
    return plugins_.size();
  }
  /// A fresh cycle state for this profile.
  cycle_state new_cycle_state() const {
    return cycle_state{plugins_.size()};
  }

  const std::vector<const pre_enqueue_plugin*>& pre_enqueue() const noexcept {
    return pre_enqueue_;
  }
  const queue_sort_plugin* queue_sort() const noexcept {
    return queue_sort_;
  }
  const std::vector<const pre_filter_plugin*>& pre_filter() const noexcept {
    return pre_filter_;
  }
  const std::vector<const filter_plugin*>& filter() const noexcept {
    return filter_;
  }
  const std::vector<const post_filter_plugin*>& post_filter() const noexcept {
    return post_filter_;
  }
  const std::vector<const pre_score_plugin*>& pre_score() const noexcept {
    return pre_score_;
  }
  const std::vector<weighted_score_plugin>& score() const noexcept {
    return score_;
  }
  const std::vector<const reserve_plugin*>& reserve() const noexcept {
    return reserve_;
  }
  const std::vector<const permit_plugin*>& permit() const noexcept {
    return permit_;
  }
  const std::vector<const pre_bind_plugin*>& pre_bind() const noexcept {
    return pre_bind_;
  }
  const std::vector<const bind_plugin*>& bind() const noexcept {
    return bind_;
  }
  const std::vector<const post_bind_plugin*>& post_bind() const noexcept {
    return post_bind_;
  }
  /// Plugins (enabled at PreFilter or PreScore) that implement node_scanner.
  const std::vector<const node_scanner*>& scanners() const noexcept {
    return scanners_;
  }
  /// Every plugin, by slot.
  const std::vector<std::shared_ptr<plugin>>& plugins() const noexcept {
    return plugins_;
  }
  /// Opportunistic batching: true when every plugin the profile runs at
  /// PreFilter, Filter, PreScore or Score can sign pods.
  bool batchable() const noexcept {
    return batchable_;
  }
  /// Whether `p` has a signature: the profile is batchable and no plugin
  /// finds `p` unsignable.
  bool signable(const model::pod& p, const cluster_context& cluster) const;
  /// For two signable pods: equal signatures (every signing plugin reads
  /// equal fields).
  bool same_signature(const model::pod& a, const model::pod& b) const;
  /// The plugin named `name`, or nullptr.
  const plugin* find(std::string_view name) const noexcept;

  /// Makes the stand-in for one plugin; it must implement every plugin
  /// interface the original implements.
  using plugin_wrapper
    = std::function<std::shared_ptr<plugin>(const std::shared_ptr<plugin>&)>;
  /// A copy of this profile whose every plugin is replaced by `wrap(p)`,
  /// in the same slot and at the same extension points. plugin_metrics
  /// builds the timed profiles of sampled cycles with it.
  std::shared_ptr<const profile>
  with_wrapped_plugins(const plugin_wrapper& wrap) const;
  /// True on a with_wrapped_plugins copy: a fast path that reaches plugins
  /// other than through their virtual interfaces must take the generic
  /// path for such a profile, or the wrappers never see the calls.
  bool instrumented() const noexcept {
    return instrumented_;
  }

  /// Runs the filter chain on one node: the first non-success status, with
  /// the plugin name set; Success when all pass. Plugins skipped by PreFilter
  /// do not run. With `node_local_only`, cross-node filters are left out.
  status run_filters(const cycle_state& state, const model::pod& p,
                     model::node_view node, bool node_local_only = false) const;

  /// The filters that run_filters would call this cycle (those PreFilter
  /// did not skip), in order; for loops over many nodes.
  std::vector<const filter_plugin*>
  active_filters(const cycle_state& state) const;
  /// run_filters over `active` (from active_filters(state)).
  status run_active_filters(std::span<const filter_plugin* const> active,
                            const cycle_state& state, const model::pod& p,
                            model::node_view node) const;

  /// How this cycle's filters depend on other nodes than the one they
  /// check: `active`, a cross-node filter runs; `skip_may_change`, one was
  /// skipped only because no other pod mattered when the cycle began.
  struct cross_node_use {
    bool active = false;
    bool skip_may_change = false;
    bool any() const noexcept {
      return active || skip_may_change;
    }
  };
  cross_node_use cross_node_filters(const cycle_state& state) const;

  /// Upstream's RunFilterPluginsWithNominatedPods: when `nominated` (pods
  /// nominated to this node with priority >= the pod's, excluding the pod)
  /// is non-empty, filters run first as if they ran on the node (a
  /// node_view over it, nothing of the node copied, and a copy of the state
  /// updated by AddPod when a plugin with extensions runs), then on the node
  /// as it is; both must pass.
  status
  run_filters_with_nominated(const cycle_state& state, const model::pod& p,
                             const model::node_info& node,
                             std::span<const model::pod_ptr> nominated) const;

  /// Whether any PreFilter plugin with AddPod / RemovePod extensions runs
  /// this cycle; when none does, adding or removing pods leaves the cycle
  /// state as it is, and callers need not copy it.
  bool extensions_active(const cycle_state& state) const;

  /// Calls AddPod / RemovePod of every PreFilter plugin with extensions that
  /// was not skipped; the first failure is returned.
  status run_add_pod(cycle_state& state, const model::pod& to_schedule,
                     const model::pod_core& added, model::node_view node) const;
  status run_remove_pod(cycle_state& state, const model::pod& to_schedule,
                        const model::pod_core& removed,
                        model::node_view node) const;

  /// Events registered by the plugins, with the name of the registering
  /// plugin (the queue asks only the hints of the plugins that rejected a
  /// pod).
  struct registered_event {
    std::string plugin;
    cluster_event_with_hint event;
  };
  const std::vector<registered_event>& events() const noexcept {
    return events_;
  }

private:
  std::string scheduler_name_;
  std::int32_t percentage_ = 0;
  std::vector<std::shared_ptr<plugin>> plugins_;
  std::vector<const pre_enqueue_plugin*> pre_enqueue_;
  const queue_sort_plugin* queue_sort_ = nullptr;
  std::vector<const pre_filter_plugin*> pre_filter_;
  std::vector<const filter_plugin*> filter_;
  std::vector<const post_filter_plugin*> post_filter_;
  std::vector<const pre_score_plugin*> pre_score_;
  std::vector<weighted_score_plugin> score_;
  std::vector<const reserve_plugin*> reserve_;
  std::vector<const permit_plugin*> permit_;
  std::vector<const pre_bind_plugin*> pre_bind_;
  std::vector<const bind_plugin*> bind_;
  std::vector<const post_bind_plugin*> post_bind_;
  std::vector<const node_scanner*> scanners_;
  std::vector<registered_event> events_;
  std::vector<std::size_t> signer_slots_;
  bool batchable_ = false;
  bool instrumented_ = false;
};

using profile_ptr = std::shared_ptr<const profile>;

} // namespace tessera::plugins
