// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/volume/volume_binding.hpp"

#include "model/storage_view.hpp"

namespace tessera::plugins {

namespace {

/// PreFilter's findings, read by Filter on every node.
struct binding_state final : plugin_state {
  model::storage_view_ptr view;
  model::pod_claims claims;
};

const model::symbol& hostname_label() {
  static const model::symbol key{"kubernetes.io/hostname"};
  return key;
}

/// The hostnames a bound volume's node affinity allows, when it allows
/// only listed hostnames (every term requires `kubernetes.io/hostname In`);
/// nullopt when the affinity does not narrow to names.
std::optional<std::unordered_set<model::symbol>>
eligible_hostnames(const model::persistent_volume& pv) {
  if (!pv.node_affinity || pv.node_affinity->terms.empty())
    return std::nullopt;
  std::unordered_set<model::symbol> out;
  for (const auto& term : pv.node_affinity->terms) {
    bool narrowed = false;
    for (const auto& req : term.match_expressions)
      if (req.key == hostname_label()
          && req.oper == model::node_selector_requirement::op::in) {
        out.insert(req.values.begin(), req.values.end());
        narrowed = true;
        break;
      }
    if (!narrowed)
      return std::nullopt;
  }
  return out;
}

bool uses_claim(const model::pod& p, const model::persistent_volume_claim& c) {
  if (p.ns != c.ns)
    return false;
  for (const auto& v : p.volumes)
    if (v.claim_name == c.name)
      return true;
  return false;
}

} // namespace

volume_binding::volume_binding(const config::volume_binding_args& args)
  : args_(args), reason_unbound_immediate_(
                   "pod has unbound immediate PersistentVolumeClaims") {
  for (std::size_t i = 0; i < filter_reasons_.size(); ++i)
    filter_reasons_[i] = model::symbol{model::claim_fit::reason_texts[i]};
}

std::vector<cluster_event_with_hint>
volume_binding::events_to_register() const {
  // A claim of the pod appeared or changed (bound, annotated, resized).
  auto claim_changed = [](const model::pod& waiting, const model::object*,
                          const model::object* new_object) {
    const auto* c = object_as<model::persistent_volume_claim_ptr>(new_object);
    if (c == nullptr)
      return queueing_hint::queue;
    return uses_claim(waiting, *c) ? queueing_hint::queue : queueing_hint::skip;
  };
  // Only pods with claims can have been rejected by this plugin, so the
  // remaining events queue without a closer look, as upstream's do.
  return {
    {{event_resource::persistent_volume_claim, action::add | action::update},
     claim_changed},
    {{event_resource::persistent_volume, action::add | action::update}, {}},
    {{event_resource::storage_class, action::add | action::update}, {}},
    {{event_resource::csi_storage_capacity, action::add | action::update}, {}},
    {{event_resource::csi_node, action::add | action::update}, {}},
    {{event_resource::csi_driver, action::update}, {}},
    {{event_resource::node,
      action::add | action::update_node_label | action::update_node_taint},
     {}},
  };
}

pre_filter_result
volume_binding::pre_filter(cycle_state& state, const model::pod& p,
                           const cluster_context& cluster) const {
  bool has_claims = false;
  for (const auto& v : p.volumes)
    has_claims = has_claims || !v.claim_name.empty();
  if (!has_claims)
    return {status::skip(), std::nullopt};
  auto st = std::make_shared<binding_state>();
  st->view = cluster.storage;
  if (!st->view) {
    // No storage object at all: the first claim is missing.
    for (const auto& v : p.volumes)
      if (!v.claim_name.empty())
        return {status{code::unschedulable_and_unresolvable,
                       model::symbol{"persistentvolumeclaim \"" + v.claim_name
                                     + "\" not found"}},
                std::nullopt};
  }
  if (auto problem = model::sort_claims(*st->view, p, st->claims)) {
    if (!problem->unresolvable)
      return {status::make_error(problem->message), std::nullopt};
    return {status{code::unschedulable_and_unresolvable,
                   model::symbol{problem->message}},
            std::nullopt};
  }
  if (!st->claims.immediate.empty())
    return {
      status{code::unschedulable_and_unresolvable, reason_unbound_immediate_},
      std::nullopt};
  // Bound volumes pinned to hostnames: only those nodes can take the pod.
  node_name_set nodes;
  for (const auto& c : st->claims.bound) {
    const model::persistent_volume* pv = st->view->volume(c->volume_name);
    if (pv == nullptr)
      continue;
    auto names = eligible_hostnames(*pv);
    if (!names)
      continue;
    if (!nodes) {
      nodes = std::move(names);
      continue;
    }
    std::erase_if(*nodes,
                  [&](model::symbol n) { return names->count(n) == 0; });
  }
  state.write(slot(), std::move(st));
  return {status{}, std::move(nodes)};
}

status volume_binding::filter(const cycle_state& state, const model::pod&,
                              model::node_view node) const {
  const auto* st = state.read<binding_state>(slot());
  const model::node* n = node.get_node();
  if (st == nullptr || n == nullptr)
    return status::make_error("VolumeBinding: no PreFilter state");
  model::claim_fit fit
    = model::fit_claims(*st->view, st->claims, n->labels, n->name);
  if (fit.ok())
    return {};
  status out{code::unschedulable_and_unresolvable, {}};
  for (std::size_t i = 0; i < filter_reasons_.size(); ++i)
    if (fit.failed(i))
      out.add_reason(filter_reasons_[i]);
  return out;
}

status volume_binding::pre_score(cycle_state&, const model::pod&,
                                 const cluster_context&) const {
  return status::skip();
}

std::int64_t volume_binding::score(const cycle_state&, const model::pod&,
                                   const model::node_info&) const {
  return 0;
}

status volume_binding::reserve(cycle_state&, const model::pod&,
                               model::symbol) const {
  return {};
}

void volume_binding::unreserve(cycle_state&, const model::pod&,
                               model::symbol) const {
}

status volume_binding::pre_bind(cycle_state&, const model::pod&,
                                model::symbol) const {
  return {};
}

std::optional<std::chrono::milliseconds>
volume_binding::api_wait_timeout() const noexcept {
  return std::chrono::seconds(args_.bind_timeout_seconds);
}

std::shared_ptr<plugin>
make_volume_binding(const config::volume_binding_args& args) {
  return std::make_shared<volume_binding>(args);
}

} // namespace tessera::plugins
