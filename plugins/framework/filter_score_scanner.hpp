// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `filter_score_scanner<Plugin>`: the `node_scanner` of a plugin whose Filter
/// and Score both read counts over every node (InterPodAffinity,
/// PodTopologySpread). Such a plugin's cycle has the same shape either way:
/// PreFilter and PreScore prepare inputs; the scan is wanted when either did
/// not skip; every shard runs one pass over its nodes that feeds the filter
/// half, the score half or both; the coordinator adds the shards' sums up and
/// turns them into the slot's Filter and Score state. This base writes that
/// shape once; the plugin (deriving from it, CRTP, and befriending it) says
/// what a node adds and what the sums become:
///
/// - `cycle_data`, its slot: `filter` and `scoring` (PreFilter's and
///   PreScore's inputs, null when they skipped), `counts` (the scan's result
///   that Filter and AddPod / RemovePod read);
/// - `scan_sums`, a `scan_partial` holding one shard's sums, with
///   `add(const scan_sums&)` for the coordinator's total;
/// - `score_needs_scan(const score_input&)`: whether a PreScore that did not
///   skip needs the scan;
/// - `scan_filter_node(filter_input, pod, node_info, node, scan_sums&)` and
///   `scan_score_node(score_input, ...)`: one node's share of each half;
/// - `finish_filter(cycle_state&, cycle_data& next, scan_sums&)` and
///   `finish_score(...)`: the totals made into `next`'s state (they may move
///   out of the sums and mark the plugin's Filter or Score skipped).
///
/// The per-node calls are direct (no virtual call, no allocation): the scan
/// loop is instantiated for the plugin's own types.
#pragma once

#include "model/node_info.hpp"
#include "model/pod.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/prefetch.hpp"
#include "plugins/framework/slot_rewrite.hpp"
#include "plugins/framework/status.hpp"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tessera::plugins {

template <class Plugin> class filter_score_scanner : public node_scanner {
public:
  /// A scan is needed when PreFilter did not skip, or PreScore did not skip
  /// and needs it.
  bool wants_scan(const cycle_state& state, const model::pod& p) const final {
    (void)p;
    return filter_scan_wanted(state) || score_scan_wanted(state);
  }

  /// One pass over this shard's `nodes` for the wanted halves.
  scan_partial_ptr
  scan(const cycle_state& state, const model::pod& p,
       std::span<const model::node_info_ptr> nodes) const final {
    auto out = std::make_unique<typename Plugin::scan_sums>();
    const Plugin& self = static_cast<const Plugin&>(*this);
    const auto* d = data(state);
    const bool filtering = filter_scan_wanted(state);
    const bool scoring = score_scan_wanted(state);
    node_prefetcher::scan(
      nodes, [&](const model::node_info& ni, const model::node& n) {
        if (filtering)
          self.scan_filter_node(*d->filter, p, ni, n, *out);
        if (scoring)
          self.scan_score_node(*d->scoring, p, ni, n, *out);
      });
    return out;
  }

  /// Adds the shards' sums up and writes a new slot with the finished halves.
  status merge(cycle_state& state, const model::pod& p,
               std::vector<scan_partial_ptr> partials) const final {
    (void)p;
    using sums_type = typename Plugin::scan_sums;
    const Plugin& self = static_cast<const Plugin&>(*this);
    const auto* current = data(state);
    const bool filtering = filter_scan_wanted(state);
    const bool scoring = score_scan_wanted(state);
    if (current == nullptr || (!filtering && !scoring))
      return {};
    sums_type total;
    for (const auto& base : partials) {
      const auto* part = dynamic_cast<const sums_type*>(base.get());
      if (part == nullptr)
        return status::make_error(std::string(Plugin::plugin_name)
                                  + ": unexpected scan partial");
      total.add(*part);
    }
    auto next = std::make_shared<typename Plugin::cycle_data>(*current);
    if (filtering)
      self.finish_filter(state, *next, total);
    if (scoring)
      self.finish_score(state, *next, total);
    state.write(slot(), std::move(next));
    return {};
  }

protected:
  /// The plugin's slot, nullptr when nothing wrote it this cycle.
  auto data(const cycle_state& state) const noexcept {
    return state.read<typename Plugin::cycle_data>(slot());
  }

  /// The slot when it holds PreFilter's input and the scan's counts, as
  /// Filter and AddPod / RemovePod need; nullptr otherwise.
  auto filter_data(const cycle_state& state) const noexcept {
    const auto* d = data(state);
    return d != nullptr && d->filter && d->counts ? d : nullptr;
  }

  /// Upstream's error when Filter or AddPod / RemovePod find no PreFilter
  /// state.
  status missing_filter_data() const {
    return status::make_error("reading \"PreFilter"
                              + std::string(Plugin::plugin_name)
                              + "\" from cycleState: not found");
  }

  /// The end of PreFilter: `input` into a copy of the slot, without the
  /// counts of an earlier scan.
  template <class Input>
  void start_filter(cycle_state& state, std::shared_ptr<Input> input) const {
    rewrite_slot<typename Plugin::cycle_data>(state, slot(), [&](auto& d) {
      d.filter = std::move(input);
      d.counts.reset();
    });
  }

private:
  bool filter_scan_wanted(const cycle_state& state) const noexcept {
    const auto* d = data(state);
    return d != nullptr && d->filter && !state.skip_filter.test(slot());
  }
  bool score_scan_wanted(const cycle_state& state) const noexcept {
    const auto* d = data(state);
    return d != nullptr && d->scoring && Plugin::score_needs_scan(*d->scoring)
           && !state.skip_score.test(slot());
  }
};

} // namespace tessera::plugins
