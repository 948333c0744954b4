// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/node_declared_features/node_declared_features.hpp"

#include "model/node_info.hpp"

#include <algorithm>

namespace tessera::plugins {

namespace {

struct cycle_data final : plugin_state {
  std::vector<model::symbol> required;
};

bool restarts_all(const std::vector<model::container>& containers) noexcept {
  return std::any_of(
    containers.begin(), containers.end(),
    [](const model::container& c) { return c.restarts_all_containers; });
}

} // namespace

node_declared_features::node_declared_features()
  : reason_unsatisfied_("node(s) didn't match Pod's required features"),
    restart_all_containers_(restart_all_containers),
    user_namespaces_host_network_(user_namespaces_host_network) {
}

std::vector<model::symbol>
node_declared_features::required_features(const model::pod& p) const {
  std::vector<model::symbol> out;
  if (restarts_all(p.containers) || restarts_all(p.init_containers))
    out.push_back(restart_all_containers_);
  if (p.host_network && !p.host_users)
    out.push_back(user_namespaces_host_network_);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<cluster_event_with_hint>
node_declared_features::events_to_register() const {
  // The cache reports a declared-feature change as its own action, so an
  // update hint only has to tell an added node from a changed one.
  auto node_hint = [](const model::pod&, const model::object* old_object,
                      const model::object* new_object) {
    const model::node* after = object_as<model::node_ptr>(new_object);
    const model::node* before = object_as<model::node_ptr>(old_object);
    if (after == nullptr || before == nullptr)
      return queueing_hint::queue;
    return before->declared_features == after->declared_features
             ? queueing_hint::skip
             : queueing_hint::queue;
  };
  // The fields the rules read are immutable today; the hint still compares
  // what the old and new pod need, so a future mutable field is covered.
  auto pod_hint
    = [this](const model::pod& waiting, const model::object* old_object,
             const model::object* new_object) {
        const model::pod* updated = object_as<model::pod_ptr>(new_object);
        const model::pod* previous = object_as<model::pod_ptr>(old_object);
        if (updated == nullptr || previous == nullptr)
          return queueing_hint::queue;
        if (!updated->same_identity(waiting))
          return queueing_hint::skip;
        return required_features(*previous) == required_features(*updated)
                 ? queueing_hint::skip
                 : queueing_hint::queue;
      };
  return {
    {{event_resource::node, action::add | action::update_node_declared_feature},
     node_hint},
    {{event_resource::pod, action::update}, pod_hint},
  };
}

pre_filter_result
node_declared_features::pre_filter(cycle_state& state, const model::pod& p,
                                   const cluster_context&) const {
  auto required = required_features(p);
  if (required.empty())
    return {status::skip(), std::nullopt};
  auto data = std::make_shared<cycle_data>();
  data->required = std::move(required);
  state.write(slot(), std::move(data));
  return {};
}

status node_declared_features::filter(const cycle_state& state,
                                      const model::pod& p,
                                      model::node_view node) const {
  // Without PreFilter's record (a filter re-run outside a full cycle) the
  // rules are cheap enough to apply again.
  const auto* data
    = slot() < state.size() ? state.read<cycle_data>(slot()) : nullptr;
  std::vector<model::symbol> inferred;
  if (data == nullptr)
    inferred = required_features(p);
  const auto& required = data != nullptr ? data->required : inferred;
  if (required.empty())
    return {};
  const model::node* n = node.get_node();
  static const std::vector<model::symbol> none;
  const auto& declared = n != nullptr ? n->declared_features : none;
  if (std::includes(declared.begin(), declared.end(), required.begin(),
                    required.end()))
    return {};
  return {code::unschedulable_and_unresolvable, reason_unsatisfied_};
}

std::shared_ptr<plugin> make_node_declared_features() {
  return std::make_shared<node_declared_features>();
}

} // namespace tessera::plugins
