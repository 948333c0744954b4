// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The Job, DaemonSet and StatefulSet controllers of `workload_state`.
#include "io/apiserver/admission.hpp"
#include "io/apiserver/time_format.hpp"
#include "io/apiserver/workload_state.hpp"
#include "model/json_access.hpp"
#include "support/log.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tessera::apiserver::workloads {

namespace json = boost::json;
using model::array_at;
using model::bool_at;
using model::int_at;
using model::object_at;
using model::string_at;

namespace {

/// What a DaemonSet's pods tolerate besides their template's tolerations,
/// as upstream's controller adds it: node conditions and cordons.
json::array daemon_tolerations(bool host_network) {
  json::array out;
  auto add = [&](std::string_view key, std::string_view effect) {
    out.push_back(
      json::object{{"key", key}, {"operator", "Exists"}, {"effect", effect}});
  };
  add("node.kubernetes.io/not-ready", "NoExecute");
  add("node.kubernetes.io/unreachable", "NoExecute");
  add("node.kubernetes.io/disk-pressure", "NoSchedule");
  add("node.kubernetes.io/memory-pressure", "NoSchedule");
  add("node.kubernetes.io/pid-pressure", "NoSchedule");
  add("node.kubernetes.io/unschedulable", "NoSchedule");
  if (host_network)
    add("node.kubernetes.io/network-unavailable", "NoSchedule");
  return out;
}

bool tolerates(const json::array& tolerations, const json::object& taint) {
  for (const auto& t : tolerations) {
    auto* to = t.if_object();
    if (!to)
      continue;
    auto effect = string_at(to, "effect");
    if (!effect.empty() && effect != string_at(taint, "effect"))
      continue;
    auto key = string_at(to, "key");
    bool exists = string_at(to, "operator") == "Exists";
    if (key.empty() && exists)
      return true;
    if (key == string_at(taint, "key")
        && (exists || string_at(to, "value") == string_at(taint, "value")))
      return true;
  }
  return false;
}

/// Whether a DaemonSet with pod spec `spec` (its tolerations completed)
/// runs a pod on `node`: the node selector matches and every NoSchedule
/// or NoExecute taint is tolerated. Node affinity terms of the template
/// are not consulted.
bool daemon_fits(const stored_object& node, const json::object* spec) {
  if (auto* selector = object_at(spec, "nodeSelector"))
    for (const auto& kv : *selector) {
      auto have = node.attrs().label(kv.key());
      auto* want = kv.value().if_string();
      if (!have || !want || *have != *want)
        return false;
    }
  auto doc = node.parse();
  const json::array* taints
    = array_at(object_at(doc.value().as_object(), "spec"), "taints");
  if (!taints)
    return true;
  static const json::array none;
  const json::array* tolerations = array_at(spec, "tolerations");
  for (const auto& t : *taints) {
    auto* to = t.if_object();
    if (!to || string_at(to, "effect") == "PreferNoSchedule")
      continue;
    if (!tolerates(tolerations ? *tolerations : none, *to))
      return false;
  }
  return true;
}

/// The ordinal of a StatefulSet's pod `<set>-<n>`; -1 for other names.
std::int64_t ordinal_of(std::string_view set, std::string_view pod) {
  if (pod.size() <= set.size() + 1 || pod.substr(0, set.size()) != set
      || pod[set.size()] != '-')
    return -1;
  auto digits = pod.substr(set.size() + 1);
  if (digits.empty() || digits.size() > 9
      || !std::all_of(digits.begin(), digits.end(),
                      [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::atoll(std::string{digits}.c_str());
}

} // namespace

bool workload_state::sync_job(owner_entry& j) {
  auto doc = j.obj->parse();
  const auto& root = doc.value().as_object();
  const json::object* meta = object_at(root, "metadata");
  if (meta->contains("deletionTimestamp"))
    return false;
  const json::object* spec = object_at(root, "spec");
  const json::object* old_status = object_at(root, "status");
  const json::array* old_conds = array_at(old_status, "conditions");
  if (old_conds)
    for (const auto& c : *old_conds)
      if (auto* co = c.if_object(); co && string_at(co, "status") == "True"
                                    && (string_at(co, "type") == "Complete"
                                        || string_at(co, "type") == "Failed"))
        return false;
  const bool has_completions = spec && spec->contains("completions")
                               && !spec->at("completions").is_null();
  const std::int64_t completions = int_at(spec, "completions", 1);
  const std::int64_t parallelism = int_at(spec, "parallelism", 1);
  const std::int64_t backoff = int_at(spec, "backoffLimit", 6);
  const bool suspended = bool_at(spec, "suspend");
  auto c = count(j.obj->uid());
  std::string now = format_time(st.time().wall_now());
  bool done = has_completions ? c.succeeded >= completions
                              : c.succeeded > 0 && c.active == 0;
  bool failed = c.failed > backoff;
  if (failed || suspended) {
    delete_pods(j.obj->uid(), c.active);
  } else if (!done) {
    std::int64_t want = has_completions
                          ? std::min(parallelism, completions - c.succeeded)
                          : (c.succeeded > 0 ? 0 : parallelism);
    if (c.active < want) {
      for (std::int64_t i = c.active; i < want; ++i)
        if (!create_pod(*j.obj, object_at(spec, "template"),
                        owner_reference("batch/v1", "Job", *j.obj)))
          break;
    } else if (c.active > want) {
      delete_pods(j.obj->uid(), c.active - want);
    }
  }
  c = count(j.obj->uid());
  json::object status;
  std::string start{string_at(old_status, "startTime")};
  if (!suspended)
    status["startTime"] = start.empty() ? now : start;
  status["active"] = c.active;
  status["ready"] = c.ready;
  status["terminating"] = 0;
  if (c.succeeded > 0)
    status["succeeded"] = c.succeeded;
  if (c.failed > 0)
    status["failed"] = c.failed;
  status["uncountedTerminatedPods"] = json::object{};
  json::array conds;
  if (failed) {
    std::string msg = "Job has reached the specified backoff limit";
    conds.push_back(condition(old_conds, "FailureTarget", true,
                              "BackoffLimitExceeded", msg, now, false));
    conds.push_back(condition(old_conds, "Failed", true, "BackoffLimitExceeded",
                              msg, now, false));
  } else if (done) {
    conds.push_back(
      condition(old_conds, "SuccessCriteriaMet", true, "CompletionsReached",
                "Reached expected number of succeeded pods", now, false));
    conds.push_back(condition(old_conds, "Complete", true, "CompletionsReached",
                              "Reached expected number of succeeded pods", now,
                              false));
    status["completionTime"] = now;
  } else if (suspended) {
    conds.push_back(condition(old_conds, "Suspended", true, "JobSuspended",
                              "Job suspended", now, false));
  }
  if (!conds.empty())
    status["conditions"] = std::move(conds);
  write_status(storage_kind::job, *j.obj, old_status, std::move(status));
  return !done && !failed && !suspended;
}

bool workload_state::sync_daemon_set(owner_entry& ds) {
  auto doc = ds.obj->parse();
  const auto& root = doc.value().as_object();
  const json::object* meta = object_at(root, "metadata");
  const json::object* spec = object_at(root, "spec");
  if (!spec || !spec->contains("template"))
    return false;
  const std::string hash = template_hash(spec->at("template"));
  json::value tmpl = spec->at("template");
  auto& pod_spec = model::ensure_object(tmpl.as_object(), "spec");
  auto& tolerations = model::ensure_array(pod_spec, "tolerations");
  for (auto& t : daemon_tolerations(bool_at(&pod_spec, "hostNetwork")))
    tolerations.push_back(std::move(t));
  auto& labels = model::ensure_object(
    model::ensure_object(tmpl.as_object(), "metadata"), "labels");
  labels[revision_label] = hash;
  labels["pod-template-generation"]
    = std::to_string(int_at(meta, "generation", 1));

  std::set<std::string> eligible;
  for (const auto& [name, node] : nodes)
    if (daemon_fits(*node.obj, &pod_spec))
      eligible.insert(name);
  // Active pods per node.
  std::map<std::string, std::vector<std::pair<std::string, pod_info>>> on;
  for (const auto& [k, p] : pods_of(ds.obj->uid()))
    if (p.active())
      on[p.node].emplace_back(k, p);
  bool deleting = false;
  for (const auto& [k, p] : pods_of(ds.obj->uid()))
    deleting |= p.deleting;

  const json::object* strategy = object_at(spec, "updateStrategy");
  const bool rolling = string_at(strategy, "type") != "OnDelete";
  std::int64_t max_unavailable = std::max<std::int64_t>(
    1, scaled_value(
         object_at(strategy, "rollingUpdate")
           ? object_at(strategy, "rollingUpdate")->if_contains("maxUnavailable")
           : nullptr,
         static_cast<std::int64_t>(eligible.size()), true, 1));
  std::int64_t unavailable = 0;
  for (const auto& node : eligible) {
    auto it = on.find(node);
    bool ready = it != on.end()
                 && std::any_of(it->second.begin(), it->second.end(),
                                [](const auto& kp) { return kp.second.ready; });
    unavailable += ready ? 0 : 1;
  }
  for (auto& [node, list] : on) {
    if (!eligible.contains(node)) {
      for (const auto& [k, p] : list)
        delete_pod(k, p);
      continue;
    }
    // One pod per node: the newest extra ones go.
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
      return a.second.rv < b.second.rv;
    });
    for (std::size_t i = 1; i < list.size(); ++i)
      delete_pod(list[i].first, list[i].second);
    // An outdated pod that is not ready is replaced at once, a ready one
    // only while fewer than maxUnavailable nodes lack a ready pod.
    const auto& [k, p] = list.front();
    if (rolling && p.revision != hash
        && (!p.ready || unavailable < max_unavailable)) {
      delete_pod(k, p);
      if (p.ready)
        ++unavailable;
    }
  }
  for (const auto& node : eligible) {
    if (on.contains(node))
      continue;
    create_pod(
      *ds.obj, &tmpl.as_object(),
      owner_reference("apps/v1", "DaemonSet", *ds.obj), {},
      [&](json::object& pod) {
        // The scheduler places it on `node`, as upstream's
        // controller asks with a required node affinity term.
        auto& affinity
          = model::ensure_object(model::ensure_object(pod, "spec"), "affinity");
        affinity["nodeAffinity"] = json::object{
          {"requiredDuringSchedulingIgnoredDuringExecution",
           json::object{
             {"nodeSelectorTerms",
              json::array{json::object{
                {"matchFields",
                 json::array{json::object{
                   {"key", "metadata.name"},
                   {"operator", "In"},
                   {"values", json::array{json::string{node}}}}}}}}}}}};
      });
  }

  // Status, counted per eligible node.
  std::int64_t current = 0, ready = 0, updated = 0, misscheduled = 0;
  on.clear();
  for (const auto& [k, p] : pods_of(ds.obj->uid()))
    if (p.active())
      on[p.node].emplace_back(k, p);
  for (const auto& [node, list] : on) {
    bool bound = std::any_of(list.begin(), list.end(),
                             [](const auto& kp) { return kp.second.bound; });
    if (!eligible.contains(node)) {
      misscheduled += bound ? 1 : 0;
      continue;
    }
    current += bound ? 1 : 0;
    ready += std::any_of(list.begin(), list.end(),
                         [](const auto& kp) { return kp.second.ready; })
               ? 1
               : 0;
    updated
      += std::any_of(list.begin(), list.end(),
                     [&](const auto& kp) {
                       return kp.second.bound && kp.second.revision == hash;
                     })
           ? 1
           : 0;
  }
  auto desired = static_cast<std::int64_t>(eligible.size());
  json::object status{{"currentNumberScheduled", current},
                      {"numberMisscheduled", misscheduled},
                      {"desiredNumberScheduled", desired},
                      {"numberReady", ready},
                      {"observedGeneration", int_at(meta, "generation")},
                      {"updatedNumberScheduled", updated},
                      {"numberAvailable", ready}};
  if (desired > ready)
    status["numberUnavailable"] = desired - ready;
  write_status(storage_kind::daemon_set, *ds.obj, object_at(root, "status"),
               std::move(status));
  return deleting || updated < desired || ready < desired;
}

bool workload_state::sync_stateful_set(owner_entry& sts) {
  auto doc = sts.obj->parse();
  const auto& root = doc.value().as_object();
  const json::object* meta = object_at(root, "metadata");
  const json::object* spec = object_at(root, "spec");
  if (!spec || !spec->contains("template"))
    return false;
  const std::string name{sts.obj->name()};
  const std::int64_t want = int_at(spec, "replicas", 1);
  const bool parallel = string_at(spec, "podManagementPolicy") == "Parallel";
  const bool rolling
    = string_at(object_at(spec, "updateStrategy"), "type") != "OnDelete";
  const std::string revision = name + "-" + template_hash(spec->at("template"));
  const json::array* claims = array_at(spec, "volumeClaimTemplates");

  // Pods by ordinal; other pods of the set (renamed) go.
  std::map<std::int64_t, std::pair<std::string, pod_info>> by_ordinal;
  bool deleting = false;
  for (const auto& [k, p] : pods_of(sts.obj->uid())) {
    deleting |= p.deleting;
    if (!p.active())
      continue;
    auto n = ordinal_of(name, p.name);
    if (n < 0)
      delete_pod(k, p);
    else
      by_ordinal[n] = {k, p};
  }

  auto ensure_claims = [&](std::int64_t ordinal) {
    if (!claims)
      return;
    for (const auto& c : *claims) {
      auto* co = c.if_object();
      if (!co)
        continue;
      std::string claim
        = std::string{string_at(object_at(co, "metadata"), "name")} + "-" + name
          + "-" + std::to_string(ordinal);
      if (st.get(res(storage_kind::persistent_volume_claim), sts.obj->ns(),
                 claim))
        continue;
      json::object pvc{
        {"apiVersion", "v1"},
        {"kind", "PersistentVolumeClaim"},
        {"metadata",
         json::object{{"name", claim}, {"namespace", sts.obj->ns()}}}};
      if (auto* labels = object_at(object_at(spec, "selector"), "matchLabels"))
        pvc["metadata"].as_object()["labels"] = *labels;
      if (auto* s = co->if_contains("spec"))
        pvc["spec"] = *s;
      if (st.create(res(storage_kind::persistent_volume_claim), sts.obj->ns(),
                    json::serialize(pvc)))
        note_write();
    }
  };
  auto create = [&](std::int64_t ordinal) {
    ensure_claims(ordinal);
    std::string pod_name = name + "-" + std::to_string(ordinal);
    create_pod(
      *sts.obj, object_at(spec, "template"),
      owner_reference("apps/v1", "StatefulSet", *sts.obj), pod_name,
      [&](json::object& pod) {
        auto& labels = model::ensure_object(
          model::ensure_object(pod, "metadata"), "labels");
        labels["statefulset.kubernetes.io/pod-name"] = pod_name;
        labels["apps.kubernetes.io/pod-index"] = std::to_string(ordinal);
        labels[revision_label] = revision;
        auto& pod_spec = model::ensure_object(pod, "spec");
        pod_spec["hostname"] = pod_name;
        if (auto service = string_at(spec, "serviceName"); !service.empty())
          pod_spec["subdomain"] = service;
        if (!claims)
          return;
        auto& volumes = model::ensure_array(pod_spec, "volumes");
        for (const auto& c : *claims) {
          std::string volume{
            string_at(object_at(c.if_object(), "metadata"), "name")};
          volumes.erase(std::remove_if(volumes.begin(), volumes.end(),
                                       [&](const json::value& v) {
                                         return string_at(v.if_object(), "name")
                                                == volume;
                                       }),
                        volumes.end());
          volumes.push_back(json::object{
            {"name", volume},
            {"persistentVolumeClaim",
             json::object{{"claimName", volume + "-" + pod_name}}}});
        }
      });
  };

  // Scale up in ordinal order (OrderedReady: each after the one before it
  // is Ready), scale down from the highest ordinal.
  bool blocked = deleting && !parallel;
  for (std::int64_t i = 0; i < want && !blocked; ++i) {
    auto it = by_ordinal.find(i);
    if (it == by_ordinal.end()) {
      create(i);
      blocked = !parallel;
    } else if (!it->second.second.ready) {
      blocked = !parallel;
    }
  }
  for (auto it = by_ordinal.rbegin(); it != by_ordinal.rend(); ++it) {
    if (it->first < want)
      break;
    if (blocked && !parallel)
      break;
    delete_pod(it->second.first, it->second.second);
    blocked = !parallel;
  }
  // A rolling update replaces the highest outdated pod once all are
  // running and ready (no partition).
  if (rolling && !blocked) {
    bool all_ready = static_cast<std::int64_t>(by_ordinal.size()) >= want;
    for (const auto& [n, kp] : by_ordinal)
      all_ready &= kp.second.ready;
    if (all_ready)
      for (auto it = by_ordinal.rbegin(); it != by_ordinal.rend(); ++it)
        if (it->first < want && it->second.second.revision != revision) {
          delete_pod(it->second.first, it->second.second);
          break;
        }
  }

  std::int64_t active = 0, ready = 0, updated = 0;
  for (const auto& [k, p] : pods_of(sts.obj->uid()))
    if (p.active()) {
      ++active;
      ready += p.ready ? 1 : 0;
      updated += p.revision == revision ? 1 : 0;
    }
  const json::object* old_status = object_at(root, "status");
  std::string current_revision{string_at(old_status, "currentRevision")};
  const bool done = updated == want && active == want && ready == want;
  if (current_revision.empty() || done)
    current_revision = revision;
  json::object status{{"observedGeneration", int_at(meta, "generation")},
                      {"replicas", active},
                      {"readyReplicas", ready},
                      {"currentReplicas", done ? active : active - updated},
                      {"updatedReplicas", updated},
                      {"currentRevision", current_revision},
                      {"updateRevision", revision},
                      {"collisionCount", 0},
                      {"availableReplicas", ready}};
  write_status(storage_kind::stateful_set, *sts.obj, old_status,
               std::move(status));
  return !done || deleting;
}

} // namespace tessera::apiserver::workloads
