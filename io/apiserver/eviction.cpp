// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/eviction.hpp"

#include "io/apiserver/admission.hpp"
#include "io/apiserver/time_format.hpp"
#include "model/cluster_objects.hpp"
#include "model/disruption_budget_status.hpp"
#include "model/json_access.hpp"
#include "model/pod.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <utility>
#include <variant>
#include <vector>

namespace tessera::apiserver {

namespace json = boost::json;
using admission::pod_ready;
using model::int_at;
using model::object_at;
using model::string_at;

namespace {

/// What kube-apiserver answers a successful eviction with.
constexpr std::string_view evicted
  = R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201})";

constexpr std::string_view violation
  = "Cannot evict pod as it would violate the pod's disruption budget.";

/// Upstream refuses evictions while budgets list more pods than this as
/// disrupted (its controller has fallen behind).
constexpr std::size_t max_disrupted_pods = 2000;

/// How long a disruptedPods entry counts, as the disruption controller's
/// deletion timeout.
constexpr auto disrupted_pod_timeout = std::chrono::minutes(2);

/// Attempts at the budget's status update when other writers race it.
constexpr int status_update_attempts = 20;

const resource_info& pods() {
  return primary_resource(storage_kind::pod);
}
const resource_info& budgets() {
  return primary_resource(storage_kind::pod_disruption_budget);
}

/// The 429 while a budget's status cannot be trusted or changed.
api_status budget_busy(std::string_view budget) {
  return status::too_many_requests(
    std::string{violation}, 10,
    {{"DisruptionBudget",
      "The disruption budget " + std::string{budget}
        + " is still being processed by the server.",
      ""}});
}

/// Sets the DisruptionAllowed condition as the disruption controller's
/// helper does, keeping lastTransitionTime when the status is unchanged.
void set_allowed_condition(json::object& status, std::int32_t allowed,
                           const std::string& now) {
  bool ok = allowed > 0;
  json::object c;
  c["type"] = "DisruptionAllowed";
  c["status"] = ok ? "True" : "False";
  c["observedGeneration"] = int_at(&status, "observedGeneration");
  c["lastTransitionTime"] = now;
  c["reason"] = ok ? "SufficientPods" : "InsufficientPods";
  c["message"] = "";
  auto& conds = status["conditions"];
  if (!conds.is_array())
    conds = json::array{};
  for (auto& old : conds.as_array()) {
    auto* o = old.if_object();
    if (!o || string_at(o, "type") != "DisruptionAllowed")
      continue;
    if (string_at(o, "status") == c["status"].as_string())
      if (auto* t = o->if_contains("lastTransitionTime"))
        c["lastTransitionTime"] = *t;
    old = std::move(c);
    return;
  }
  conds.as_array().push_back(std::move(c));
}

/// The model's view of a stored object of kind T; null when it has none.
template <class T> std::shared_ptr<const T> model_of(const stored_object& o) {
  auto m = o.to_model();
  if (!m)
    return nullptr;
  auto* p = std::get_if<std::shared_ptr<const T>>(&*m);
  return p ? *p : nullptr;
}

struct budget_view {
  object_ptr object;
  model::disruption_budget_ptr model;
};

/// The budgets of the pod's namespace whose non-empty selector matches it.
api_result<std::vector<budget_view>> budgets_of(store& st,
                                                const model::pod& pod) {
  auto list = st.list(budgets(), pod.ns.str());
  if (!list)
    return list.err();
  std::vector<budget_view> out;
  for (const auto& o : list->items) {
    // Null never happens: the server refuses budgets it cannot decode.
    auto b = model_of<model::disruption_budget>(*o);
    if (!b)
      continue;
    const auto& sel = b->selector;
    if (sel.is_nothing() || sel.is_everything() || !sel.matches(pod.labels))
      continue;
    out.push_back({o, b});
  }
  return out;
}

/// The namespace's pods as the model sees them.
api_result<std::vector<model::pod_ptr>> pods_in(store& st,
                                                std::string_view ns) {
  auto list = st.list(pods(), ns);
  if (!list)
    return list.err();
  std::vector<model::pod_ptr> out;
  for (const auto& o : list->items)
    if (auto p = model_of<model::pod>(*o))
      out.push_back(std::move(p));
  return out;
}

/// The replicas the disruption controller reads as a percentage or
/// maxUnavailable budget's expected pod count: the summed spec.replicas of
/// the distinct controllers (ReplicaSet, StatefulSet,
/// ReplicationController) of the pods it selects. Nullopt when one is not
/// in the store, where the controller would fail to sync: the model then
/// counts the controlled pods instead, as nothing recreates evicted pods
/// here and refusing every eviction would help no one.
std::optional<std::int64_t>
controllers_scale(store& st, const model::disruption_budget& budget,
                  const std::vector<model::pod_ptr>& pods) {
  std::vector<std::string> seen;
  std::int64_t total = 0;
  for (const auto& p : pods) {
    if (p->ns != budget.ns || !budget.selector.matches(p->labels))
      continue;
    const model::owner_reference* owner = nullptr;
    for (const auto& o : p->owners)
      if (o.controller)
        owner = &o;
    if (!owner)
      continue; // the controller skips pods nothing controls
    std::string key = owner->kind + "/" + owner->name;
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      continue;
    seen.push_back(std::move(key));
    const resource_info* res
      = owner->kind == "ReplicaSet" ? find_resource("apps", "v1", "replicasets")
        : owner->kind == "StatefulSet"
          ? find_resource("apps", "v1", "statefulsets")
        : owner->kind == "ReplicationController"
          ? find_resource("", "v1", "replicationcontrollers")
          : nullptr;
    if (!res)
      return std::nullopt;
    auto controller = st.get(*res, p->ns.str(), owner->name);
    if (!controller)
      return std::nullopt;
    auto doc = (*controller)->parse();
    const json::object* spec = object_at(doc.value().as_object(), "spec");
    total += spec && spec->contains("replicas") ? int_at(spec, "replicas") : 1;
  }
  return total;
}

/// The disruptedPods entries the disruption controller would keep: pods
/// that still exist, are not being deleted, and were evicted less than its
/// timeout ago.
json::object live_disrupted(const json::object* status,
                            const std::vector<model::pod_ptr>& pods,
                            std::chrono::system_clock::time_point now) {
  json::object out;
  const json::object* map
    = status ? object_at(*status, "disruptedPods") : nullptr;
  if (!map)
    return out;
  for (const auto& [name, when] : *map) {
    bool alive = false;
    for (const auto& p : pods)
      if (p->name == std::string_view{name} && !p->deleting)
        alive = true;
    if (!alive)
      continue;
    if (auto* s = when.if_string())
      if (auto t = parse_time(*s); t && now - *t > disrupted_pod_timeout)
        continue;
    out[name] = when;
  }
  return out;
}

/// Checks the budget for one more disruption and records it in its status
/// (the heart of the eviction). Returns the failure, or nullopt when the
/// pod may go; `skip_budget` is set when the pod is unready and may go
/// without taking from the budget.
std::optional<api_status> take_from_budget(store& st, const json::object& pod,
                                           const model::pod& pod_model,
                                           budget_view budget, bool dry_run,
                                           bool& skip_budget) {
  const std::string name{budget.object->name()};
  for (int attempt = 0; attempt < status_update_attempts; ++attempt) {
    if (attempt > 0) {
      auto fresh = st.get(budgets(), pod_model.ns.str(), name);
      if (!fresh)
        return fresh.err();
      auto b = model_of<model::disruption_budget>(**fresh);
      if (!b)
        return status::internal("the PodDisruptionBudget cannot be read");
      budget = {*fresh, std::move(b)};
    }
    auto doc = budget.object->parse();
    auto& root = doc.value().as_object();
    const json::object* meta = object_at(root, "metadata");
    const json::object* old_status = object_at(root, "status");
    json::object status = old_status ? *old_status : json::object{};

    auto now = st.time().wall_now();
    auto pods = pods_in(st, pod_model.ns.str());
    if (!pods)
      return pods.err();
    json::object disrupted = live_disrupted(old_status, *pods, now);
    std::int64_t allowed = 0, desired = 0, healthy = 0;
    if (int_at(old_status, "observedGeneration") >= int_at(meta, "generation")
        && old_status) {
      allowed = int_at(old_status, "disruptionsAllowed");
      desired = int_at(old_status, "desiredHealthy");
      healthy = int_at(old_status, "currentHealthy");
      if (auto* d = object_at(*old_status, "disruptedPods"))
        disrupted = *d;
    } else {
      // No disruption controller runs here: stand in for it.
      model::disruption_budget b = *budget.model;
      b.disrupted_pods.clear();
      for (const auto& kv : disrupted)
        b.disrupted_pods.emplace_back(kv.key());
      std::optional<std::int64_t> scale;
      if (b.max_unavailable || (b.min_available && b.min_available->percent))
        scale = controllers_scale(st, b, *pods);
      auto counts = model::pdb_status(b, *pods, scale);
      allowed = counts.disruptions_allowed;
      desired = counts.desired_healthy;
      healthy = counts.current_healthy;
      status["expectedPods"] = counts.expected_pods;
      status["desiredHealthy"] = counts.desired_healthy;
      status["currentHealthy"] = counts.current_healthy;
    }

    if (!pod_ready(pod)) {
      const json::object* spec = object_at(root, "spec");
      if (string_at(spec, "unhealthyPodEvictionPolicy") == "AlwaysAllow"
          || (healthy >= desired && desired > 0)) {
        skip_budget = true;
        return std::nullopt;
      }
    }
    if (allowed < 0)
      return status::forbidden("poddisruptionbudget.policy", name,
                               "pdb disruptions allowed is negative");
    if (disrupted.size() > max_disrupted_pods)
      return status::forbidden("poddisruptionbudget.policy", name,
                               "DisruptedPods map too big - too many "
                               "evictions not confirmed by PDB controller");
    if (allowed == 0)
      return status::too_many_requests(
        std::string{violation}, 0,
        {{"DisruptionBudget",
          "The disruption budget " + name + " needs " + std::to_string(desired)
            + " healthy pods and has " + std::to_string(healthy) + " currently",
          ""}});
    if (dry_run)
      return std::nullopt;

    const std::string stamp = format_time(now);
    status["disruptionsAllowed"] = allowed - 1;
    if (allowed - 1 == 0)
      set_allowed_condition(status, 0, stamp);
    disrupted[pod_model.name] = stamp;
    status["disruptedPods"] = std::move(disrupted);
    root["status"] = std::move(status);
    auto written = st.update(budgets(), pod_model.ns.str(), name,
                             json::serialize(root), subresource::status);
    if (written)
      return std::nullopt;
    if (written.err().code != 409)
      return written.err();
  }
  api_status s;
  s.code = 504;
  s.reason = "Timeout";
  s.message = "Timeout: couldn't update PodDisruptionBudget \"" + name
              + "\" due to conflicts";
  s.retry_after_seconds = 10;
  s.with_details = true;
  return s;
}

} // namespace

std::optional<api_status> check_propagation_policy(std::string_view policy) {
  if (policy == "Orphan" || policy == "Background" || policy == "Foreground")
    return std::nullopt;
  return status::invalid("DeleteOptions", "meta.k8s.io", "",
                         {status::unsupported_value(
                           "propagationPolicy", policy,
                           R"("Foreground", "Background", "Orphan", "nil")")});
}

std::optional<api_status> read_delete_options(std::string_view text,
                                              delete_options& opts) {
  json::error_code ec;
  auto v = json::parse(text, ec);
  if (ec || !v.is_object())
    return status::bad_request("couldn't decode DeleteOptions: "
                               + (ec ? ec.message() : "not an object"));
  const auto& o = v.as_object();
  if (auto* g = o.if_contains("gracePeriodSeconds"); g && g->is_int64())
    opts.grace_period_seconds = g->as_int64();
  if (auto* p = o.if_contains("preconditions"); p && p->is_object()) {
    const auto& po = p->as_object();
    if (auto* u = po.if_contains("uid"); u && u->is_string())
      opts.precondition_uid = std::string{u->as_string()};
    if (auto* r = po.if_contains("resourceVersion"); r && r->is_string())
      opts.precondition_resource_version = std::string{r->as_string()};
  }
  if (auto* d = o.if_contains("dryRun"); d && d->is_array())
    for (const auto& e : d->as_array())
      if (e.is_string() && e.as_string() == "All")
        opts.dry_run = true;
  if (auto* pp = o.if_contains("propagationPolicy"); pp && pp->is_string()) {
    if (auto err = check_propagation_policy(pp->as_string()))
      return err;
    opts.propagation_policy = std::string{pp->as_string()};
  }
  if (auto* od = o.if_contains("orphanDependents");
      od && od->is_bool() && opts.propagation_policy.empty())
    opts.propagation_policy = od->as_bool() ? "Orphan" : "Background";
  return std::nullopt;
}

api_result<eviction_request> parse_eviction(std::string_view body,
                                            std::string_view ns,
                                            std::string_view url_name,
                                            bool dry_run) {
  json::error_code ec;
  auto v = json::parse(body, ec);
  if (ec || !v.is_object())
    return status::bad_request("couldn't get version/kind; json parse error: "
                               + (ec ? ec.message() : "not an object"));
  const auto& o = v.as_object();
  const json::object* meta = object_at(o, "metadata");
  if (string_at(meta, "name") != url_name)
    return status::bad_request(
      "name in URL does not match name in Eviction object");
  auto body_ns = string_at(meta, "namespace");
  if (!body_ns.empty() && body_ns != ns)
    return status::bad_request("the namespace of the provided object does not "
                               "match the namespace sent on the request");
  eviction_request r;
  r.ns = std::string{ns};
  r.name = std::string{url_name};
  if (auto* d = o.if_contains("deleteOptions"); d && d->is_object())
    if (auto err = read_delete_options(json::serialize(*d), r.options))
      return *err;
  if (dry_run)
    r.options.dry_run = true;
  return r;
}

api_result<std::string> evict(store& st, const eviction_request& request) {
  auto pod = st.get(pods(), request.ns, request.name);
  if (!pod)
    return pod.err();
  auto pm = model_of<model::pod>(**pod);
  if (!pm)
    return status::internal("the pod cannot be read");
  const model::pod& pod_model = *pm;
  auto doc = (*pod)->parse();
  const auto& pod_json = doc.value().as_object();
  const std::string pod_rv = std::to_string((*pod)->resource_version());
  const bool rv_given
    = request.options.precondition_resource_version.has_value();

  auto remove = [&](bool pin_version) -> api_result<std::string> {
    delete_options o = request.options;
    if (pin_version && !rv_given)
      o.precondition_resource_version = pod_rv;
    auto r = st.remove(pods(), request.ns, request.name, o);
    if (!r)
      return r.err();
    return std::string{evicted};
  };

  // A pod that has not started, has finished or is going anyway disrupts
  // nothing more.
  if (pod_model.phase == model::pod_phase::pending || pod_model.is_terminal()
      || pod_model.deleting)
    return remove(pod_model.phase == model::pod_phase::pending
                  && !pod_model.deleting);

  auto matching = budgets_of(st, pod_model);
  if (!matching)
    return matching.err();
  if (matching->size() > 1) {
    api_status s;
    s.code = 500;
    s.message = "This pod has more than one PodDisruptionBudget, which the "
                "eviction subresource does not support.";
    return s;
  }
  if (matching->empty())
    return remove(false);
  bool skip_budget = false;
  if (auto refused
      = take_from_budget(st, pod_json, pod_model, matching->front(),
                         request.options.dry_run, skip_budget))
    return *refused;
  auto r = remove(skip_budget);
  if (!r && r.err().code == 409 && skip_budget && !rv_given)
    // The pod changed since its readiness was judged: let the client retry.
    return budget_busy(matching->front().object->name());
  return r;
}

} // namespace tessera::apiserver
