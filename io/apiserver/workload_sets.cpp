// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The ReplicaSet and Deployment controllers of `workload_state`.
#include "io/apiserver/admission.hpp"
#include "io/apiserver/time_format.hpp"
#include "io/apiserver/workload_state.hpp"
#include "model/json_access.hpp"
#include "support/log.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::apiserver::workloads {

namespace json = boost::json;
using model::array_at;
using model::bool_at;
using model::int_at;
using model::object_at;
using model::string_at;

bool workload_state::scale_set(owner_entry& rs, std::int64_t replicas) {
  auto r = st.patch(res(storage_kind::replica_set), rs.obj->ns(),
                    rs.obj->name(), patch_type::merge,
                    R"({"spec":{"replicas":)" + std::to_string(replicas) + "}}",
                    subresource::main);
  if (!r)
    return false;
  note_write();
  rs.obj = *r;
  return true;
}

bool workload_state::sync_set(owner_entry& rs) {
  auto doc = rs.obj->parse();
  const auto& root = doc.value().as_object();
  if (object_at(root, "metadata")->contains("deletionTimestamp"))
    return false;
  const json::object* spec = object_at(root, "spec");
  std::int64_t want = int_at(spec, "replicas", 1);
  auto c = count(rs.obj->uid());
  bool busy = false;
  if (c.active < want) {
    for (std::int64_t i = c.active; i < want; ++i)
      if (!create_pod(*rs.obj, object_at(spec, "template"),
                      owner_reference("apps/v1", "ReplicaSet", *rs.obj)))
        break;
    busy = true;
  } else if (c.active > want) {
    delete_pods(rs.obj->uid(), c.active - want);
    busy = true;
  }
  c = count(rs.obj->uid());
  json::object status{
    {"replicas", c.active},
    {"fullyLabeledReplicas", c.active},
    {"readyReplicas", c.ready},
    {"availableReplicas", c.ready},
    {"observedGeneration", int_at(object_at(root, "metadata"), "generation")}};
  write_status(storage_kind::replica_set, *rs.obj, object_at(root, "status"),
               std::move(status));
  return busy || c.ready < want;
}

owner_entry* workload_state::create_set(const stored_object& d,
                                        const json::object& root,
                                        const std::string& hash,
                                        std::int64_t revision,
                                        std::int64_t replicas) {
  const json::object* spec = object_at(root, "spec");
  json::value tmpl = spec->at("template");
  auto& tmeta = model::ensure_object(tmpl.as_object(), "metadata");
  model::ensure_object(tmeta, "labels")[hash_label] = hash;
  json::object labels = tmeta.at("labels").as_object();
  json::value selector = json::object{};
  if (auto* s = spec->if_contains("selector"); s && s->is_object())
    selector = *s;
  model::ensure_object(selector.as_object(), "matchLabels")[hash_label] = hash;
  json::object set_spec{{"replicas", replicas},
                        {"selector", std::move(selector)},
                        {"template", std::move(tmpl)}};
  if (auto m = int_at(spec, "minReadySeconds"); m > 0)
    set_spec["minReadySeconds"] = m;
  json::object meta{{"name", std::string{d.name()} + "-" + hash},
                    {"namespace", d.ns()},
                    {"labels", std::move(labels)},
                    {"annotations", json::object{{revision_annotation,
                                                  std::to_string(revision)}}},
                    {"ownerReferences",
                     json::array{owner_reference("apps/v1", "Deployment", d)}}};
  json::object rs{{"apiVersion", "apps/v1"},
                  {"kind", "ReplicaSet"},
                  {"metadata", std::move(meta)},
                  {"spec", std::move(set_spec)}};
  auto r
    = st.create(res(storage_kind::replica_set), d.ns(), json::serialize(rs));
  if (!r) {
    TLOG_V(2, "workload controller: replica set create failed", "owner",
           d.key(), "error", r.err().message);
    return nullptr;
  }
  note_write();
  auto& e = sets[(*r)->uid()];
  e.obj = *r;
  e.owner = d.uid();
  return &e;
}

std::int64_t workload_state::revision_of(const stored_object& rs) {
  auto doc = rs.parse();
  auto text = string_at(
    object_at(object_at(doc.value().as_object(), "metadata"), "annotations"),
    revision_annotation);
  return std::atoll(std::string{text}.c_str());
}

std::int64_t workload_state::replicas_of(const stored_object& rs) {
  auto doc = rs.parse();
  return int_at(object_at(doc.value().as_object(), "spec"), "replicas", 1);
}

std::string workload_state::hash_of(const stored_object& rs) {
  return std::string{rs.attrs().label(hash_label).value_or("")};
}

bool workload_state::sync_deployment(owner_entry& d) {
  auto doc = d.obj->parse();
  const auto& root = doc.value().as_object();
  const json::object* meta = object_at(root, "metadata");
  if (meta->contains("deletionTimestamp"))
    return false;
  const json::object* spec = object_at(root, "spec");
  if (!spec || !spec->contains("template"))
    return false;
  const std::int64_t want = int_at(spec, "replicas", 1);
  const std::string hash = template_hash(spec->at("template"));
  const json::object* strategy = object_at(spec, "strategy");
  const bool recreate = string_at(strategy, "type") == "Recreate";
  const json::object* rolling = object_at(strategy, "rollingUpdate");
  std::int64_t surge = scaled_value(
    rolling ? rolling->if_contains("maxSurge") : nullptr, want, true, 0);
  std::int64_t unavailable = scaled_value(
    rolling ? rolling->if_contains("maxUnavailable") : nullptr, want, false, 0);
  if (!rolling) {
    surge = (want + 3) / 4;
    unavailable = want / 4;
  }
  if (surge == 0 && unavailable == 0)
    unavailable = 1;
  const bool paused = bool_at(spec, "paused");

  owner_entry* current = nullptr;
  std::vector<owner_entry*> old;
  std::int64_t max_revision = 0;
  for (auto& [uid, rs] : sets) {
    if (rs.owner != d.obj->uid())
      continue;
    max_revision = std::max(max_revision, revision_of(*rs.obj));
    if (hash_of(*rs.obj) == hash)
      current = &rs;
    else
      old.push_back(&rs);
  }
  std::sort(old.begin(), old.end(), [](owner_entry* a, owner_entry* b) {
    return revision_of(*a->obj) < revision_of(*b->obj);
  });
  auto old_replicas = [&] {
    std::int64_t n = 0;
    for (auto* rs : old)
      n += replicas_of(*rs->obj);
    return n;
  };
  auto old_pods = [&] {
    std::int64_t n = 0;
    for (auto* rs : old)
      n += count(rs->obj->uid()).active;
    return n;
  };

  if (!paused) {
    if (!current) {
      std::int64_t start = 0;
      if (old.empty() || (!recreate && old_replicas() == 0))
        start = want;
      else if (!recreate)
        start
          = std::clamp(want + surge - old_replicas(), std::int64_t{0}, want);
      current = create_set(*d.obj, root, hash, max_revision + 1, start);
      if (current) {
        std::string patch = R"({"metadata":{"annotations":{")"
                            + std::string{revision_annotation} + R"(":")"
                            + std::to_string(max_revision + 1) + "\"}}}";
        if (st.patch(res(storage_kind::deployment), d.obj->ns(), d.obj->name(),
                     patch_type::merge, patch, subresource::main))
          note_write();
      }
    } else if (recreate) {
      for (auto* rs : old)
        if (replicas_of(*rs->obj) > 0)
          scale_set(*rs, 0);
      if (old_pods() == 0 && replicas_of(*current->obj) != want)
        scale_set(*current, want);
    } else if (old_replicas() == 0) {
      if (replicas_of(*current->obj) != want)
        scale_set(*current, want);
    } else {
      std::int64_t total = old_replicas() + replicas_of(*current->obj);
      std::int64_t cur = replicas_of(*current->obj);
      if (cur > want)
        scale_set(*current, want);
      else if (cur < want && total < want + surge)
        scale_set(*current, std::min(want, cur + want + surge - total));
      auto cc = count(current->obj->uid());
      std::int64_t new_unavailable
        = std::max<std::int64_t>(0, replicas_of(*current->obj) - cc.ready);
      std::int64_t all_pods = cc.active + old_pods();
      std::int64_t can_drop = all_pods - (want - unavailable) - new_unavailable;
      for (auto* rs : old) {
        if (can_drop <= 0)
          break;
        std::int64_t n = replicas_of(*rs->obj);
        std::int64_t drop = std::min(n, can_drop);
        if (drop > 0 && scale_set(*rs, n - drop))
          can_drop -= drop;
      }
    }
    // Old sets without replicas beyond the history limit go.
    std::int64_t limit = int_at(spec, "revisionHistoryLimit", 10);
    std::int64_t spare = 0;
    for (auto* rs : old)
      if (replicas_of(*rs->obj) == 0 && count(rs->obj->uid()).active == 0)
        ++spare;
    for (auto* rs : old) {
      if (spare <= limit)
        break;
      if (replicas_of(*rs->obj) != 0 || count(rs->obj->uid()).active != 0)
        continue;
      if (st.remove(res(storage_kind::replica_set), rs->obj->ns(),
                    rs->obj->name()))
        note_write();
      --spare;
    }
  }

  // Status from the pods of every set of this deployment.
  pod_counts all;
  pod_counts updated;
  for (auto& [uid, rs] : sets) {
    if (rs.owner != d.obj->uid())
      continue;
    auto c = count(uid);
    all.active += c.active;
    all.ready += c.ready;
    if (&rs == current)
      updated = c;
  }
  const json::object* old_status = object_at(root, "status");
  const json::array* old_conds = array_at(old_status, "conditions");
  std::string now = format_time(st.time().wall_now());
  bool available = all.ready >= want - unavailable;
  bool complete = current && updated.active == want && all.active == want
                  && all.ready == want;
  std::string set_name{current ? current->obj->name() : d.obj->name()};
  json::array conds;
  conds.push_back(condition(
    old_conds, "Available", available,
    available ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable",
    available ? "Deployment has minimum availability."
              : "Deployment does not have minimum availability.",
    now, true));
  conds.push_back(condition(
    old_conds, "Progressing", true,
    complete ? "NewReplicaSetAvailable" : "ReplicaSetUpdated",
    "ReplicaSet \"" + set_name
      + (complete ? "\" has successfully progressed." : "\" is progressing."),
    now, true));
  json::object status{{"observedGeneration", int_at(meta, "generation")},
                      {"replicas", all.active},
                      {"updatedReplicas", updated.active},
                      {"readyReplicas", all.ready},
                      {"availableReplicas", all.ready},
                      {"conditions", std::move(conds)}};
  if (want > all.ready)
    status["unavailableReplicas"] = want - all.ready;
  write_status(storage_kind::deployment, *d.obj, old_status, std::move(status));
  return !complete && !paused;
}

} // namespace tessera::apiserver::workloads
