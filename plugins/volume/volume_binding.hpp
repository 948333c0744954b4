// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `volume_binding`: kube-scheduler's VolumeBinding. A pod's claims must be
/// bound to volumes reachable from the node, or (for WaitForFirstConsumer
/// classes) be bindable to a free volume there or provisionable there.
///
/// - PreFilter sorts the pod's claims (`model::sort_claims`): a missing,
///   deleting or Lost claim, or a generic ephemeral claim the pod does not
///   own, is UnschedulableAndUnresolvable with upstream's text; a claim
///   naming a class that does not exist is an Error; unbound Immediate
///   claims are UnschedulableAndUnresolvable ("pod has unbound immediate
///   PersistentVolumeClaims": the PV controller binds them first). Bound
///   volumes pinned to hostnames narrow the nodes (PreFilterResult).
/// - Filter checks the claims on the node (`model::fit_claims`) and reports
///   every failed rule, UnschedulableAndUnresolvable, as upstream does.
/// - Reserve has nothing to do here: the cache's assume chooses the volumes
///   on the newest storage state and records them (so cycles in flight
///   never take the same volume); Unreserve's revert is the cache's forget.
/// - PreBind is asynchronous API work: the binder writes the assume's plan
///   through its sink and waits up to `bindTimeoutSeconds`
///   (`api_wait_timeout`).
/// - PreScore skips: upstream scores only with StorageCapacityScoring, a
///   gate tessera does not implement.
#pragma once

#include "config/plugin_args.hpp"
#include "model/storage_view.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

namespace tessera::plugins {

class volume_binding final : public pre_filter_plugin,
                             public filter_plugin,
                             public pre_score_plugin,
                             public score_plugin,
                             public reserve_plugin,
                             public pre_bind_plugin,
                             public signs_by<same_volumes> {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "VolumeBinding";

  explicit volume_binding(const config::volume_binding_args& args);

  std::string_view name() const noexcept override {
    return plugin_name;
  }
  std::vector<cluster_event_with_hint> events_to_register() const override;

  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;
  /// Always Skip (see the file comment).
  status pre_score(cycle_state& state, const model::pod& p,
                   const cluster_context& cluster) const override;
  /// Always 0 (never reached: PreScore skips).
  std::int64_t score(const cycle_state& state, const model::pod& p,
                     const model::node_info& node) const override;
  /// Success: the cache's assume already reserved the volumes.
  status reserve(cycle_state& state, const model::pod& p,
                 model::symbol node) const override;
  /// Nothing: the cache's forget reverts the assumed volumes.
  void unreserve(cycle_state& state, const model::pod& p,
                 model::symbol node) const override;
  /// Success: the writes are the binder's asynchronous step.
  status pre_bind(cycle_state& state, const model::pod& p,
                  model::symbol node) const override;
  std::optional<std::chrono::milliseconds>
  api_wait_timeout() const noexcept override;

  const config::volume_binding_args& args() const noexcept {
    return args_;
  }

private:
  config::volume_binding_args args_;
  model::symbol reason_unbound_immediate_;
  /// Filter's reasons, interned once (model::claim_fit::reason_texts).
  std::array<model::symbol, model::claim_fit::reason_texts.size()>
    filter_reasons_;
};

std::shared_ptr<plugin>
make_volume_binding(const config::volume_binding_args& args);

} // namespace tessera::plugins
