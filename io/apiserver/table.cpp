// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/table.hpp"

#include "io/apiserver/table_kind.hpp"
#include "io/apiserver/time_format.hpp"
#include "model/json_access.hpp"

#include <boost/json.hpp>

#include <set>
#include <span>

namespace tessera::apiserver {

namespace json = boost::json;
using model::array_at;
using model::object_at;
using model::string_at;

std::string or_none(std::string_view s) {
  return s.empty() ? std::string{"<none>"} : std::string{s};
}

std::string age_of(const json::object* meta,
                   std::chrono::system_clock::time_point now) {
  auto t = parse_time(string_at(meta, "creationTimestamp"));
  if (!t)
    return "<unknown>";
  return format_age(now - *t);
}

json::array named_row(const json::object& obj,
                      std::chrono::system_clock::time_point now,
                      json::array columns, json::array trailing) {
  const json::object* meta = object_at(&obj, "metadata");
  json::array cells;
  cells.reserve(columns.size() + trailing.size() + 2);
  cells.emplace_back(string_at(meta, "name"));
  for (auto& c : columns)
    cells.push_back(std::move(c));
  cells.emplace_back(age_of(meta, now));
  for (auto& c : trailing)
    cells.push_back(std::move(c));
  return cells;
}

namespace {

using column = table_column;

constexpr column pod_columns[] = {
  table_name_column,
  {"Ready", "string", "",
   "The aggregate readiness state of this pod for accepting traffic.", 0},
  {"Status", "string", "",
   "The aggregate status of the containers in this pod.", 0},
  {"Restarts", "integer", "",
   "The number of times the containers in this pod have been restarted.", 0},
  table_age_column,
  {"IP", "string", "",
   "IP address allocated to the pod. Routable at least within the cluster. "
   "Empty if not yet allocated.",
   1},
  {"Node", "string", "",
   "NodeName is a request to schedule this pod onto a specific node.", 1},
  {"Nominated Node", "string", "",
   "nominatedNodeName is set when this pod preempts other pods on the node.",
   1},
  {"Readiness Gates", "string", "",
   "If specified, all readiness gates will be evaluated for pod readiness.", 1},
};

constexpr column node_columns[] = {
  table_name_column,
  {"Status", "string", "", "The status of the node", 0},
  {"Roles", "string", "", "The roles of the node", 0},
  table_age_column,
  {"Version", "string", "", "Kubelet Version reported by the node.", 0},
  {"Internal-IP", "string", "",
   "List of addresses reachable to the node. Queried from cloud provider, if "
   "available.",
   1},
  {"External-IP", "string", "",
   "List of addresses reachable to the node. Queried from cloud provider, if "
   "available.",
   1},
  {"OS-Image", "string", "",
   "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux "
   "7 (wheezy)).",
   1},
  {"Kernel-Version", "string", "",
   "Kernel Version reported by the node from 'uname -r' (e.g. "
   "3.16.0-0.bpo.4-amd64).",
   1},
  {"Container-Runtime", "string", "",
   "ContainerRuntime Version reported by the node through runtime remote API "
   "(e.g. containerd://1.4.2).",
   1},
};

// kubectl's columns for volumes, claims and classes (the fields they show).
constexpr column claim_columns[] = {
  table_name_column,
  {"Status", "string", "", "The phase of the claim.", 0},
  {"Volume", "string", "", "The volume the claim is bound to.", 0},
  {"Capacity", "string", "", "The capacity of the bound volume.", 0},
  {"Access Modes", "string", "", "The access modes of the bound volume.", 0},
  {"StorageClass", "string", "", "The class the claim requests.", 0},
  {"VolumeAttributesClass", "string", "",
   "The volume attributes class the claim requests.", 0},
  table_age_column,
  {"VolumeMode", "string", "", "Filesystem or Block.", 1},
};

constexpr column volume_columns[] = {
  table_name_column,
  {"Capacity", "string", "", "The capacity of the volume.", 0},
  {"Access Modes", "string", "", "The access modes of the volume.", 0},
  {"Reclaim Policy", "string", "",
   "What happens to the volume when its claim is deleted.", 0},
  {"Status", "string", "", "The phase of the volume.", 0},
  {"Claim", "string", "", "The claim the volume is bound to.", 0},
  {"StorageClass", "string", "", "The class of the volume.", 0},
  {"VolumeAttributesClass", "string", "",
   "The volume attributes class of the volume.", 0},
  {"Reason", "string", "", "Why the volume is in its phase.", 0},
  table_age_column,
  {"VolumeMode", "string", "", "Filesystem or Block.", 1},
};

constexpr column class_columns[] = {
  table_name_column,
  {"Provisioner", "string", "", "The provisioner of the class.", 0},
  {"ReclaimPolicy", "string", "", "The reclaim policy of its volumes.", 0},
  {"VolumeBindingMode", "string", "", "When claims of the class bind.", 0},
  {"AllowVolumeExpansion", "string", "", "Whether claims may grow.", 0},
  table_age_column,
};

json::array pod_cells(const json::object& pod,
                      std::chrono::system_clock::time_point now) {
  const json::object* meta = object_at(&pod, "metadata");
  const json::object* spec = object_at(&pod, "spec");
  const json::object* status = object_at(&pod, "status");
  std::size_t total = 0;
  if (auto* cs = array_at(spec, "containers"))
    total = cs->size();
  std::size_t ready = 0;
  std::int64_t restarts = 0;
  std::string reason{string_at(status, "phase")};
  if (!string_at(status, "reason").empty())
    reason = string_at(status, "reason");
  // kubectl shows a gated pod as SchedulingGated rather than Pending.
  if (auto* conds = array_at(status, "conditions"))
    for (const auto& c : *conds)
      if (auto* co = c.if_object();
          co && string_at(co, "type") == "PodScheduled"
          && string_at(co, "reason") == "SchedulingGated")
        reason = "SchedulingGated";
  if (auto* statuses = array_at(status, "containerStatuses")) {
    for (const auto& c : *statuses) {
      auto* co = c.if_object();
      if (!co)
        continue;
      if (auto* r = co->if_contains("ready"); r && r->is_bool() && r->as_bool())
        ++ready;
      if (auto* rc = co->if_contains("restartCount"); rc && rc->is_int64())
        restarts += rc->as_int64();
      const json::object* state = object_at(co, "state");
      if (auto* w = object_at(state, "waiting");
          w && !string_at(w, "reason").empty())
        reason = string_at(w, "reason");
    }
  }
  if (meta && meta->contains("deletionTimestamp"))
    reason = "Terminating";
  if (reason.empty())
    reason = "Pending";
  return named_row(
    pod, now,
    {std::to_string(ready) + "/" + std::to_string(total), reason, restarts},
    {or_none(string_at(status, "podIP")), or_none(string_at(spec, "nodeName")),
     or_none(string_at(status, "nominatedNodeName")), "<none>"});
}

json::array node_cells(const json::object& node,
                       std::chrono::system_clock::time_point now) {
  const json::object* meta = object_at(&node, "metadata");
  const json::object* spec = object_at(&node, "spec");
  const json::object* status = object_at(&node, "status");
  std::string state = "Unknown";
  if (auto* conds = array_at(status, "conditions"))
    for (const auto& c : *conds)
      if (auto* co = c.if_object(); co && string_at(co, "type") == "Ready")
        state = string_at(co, "status") == "True" ? "Ready" : "NotReady";
  if (spec)
    if (auto* u = spec->if_contains("unschedulable");
        u && u->is_bool() && u->as_bool())
      state += ",SchedulingDisabled";
  std::set<std::string> role_set;
  if (auto* labels = object_at(meta, "labels"))
    for (const auto& kv : *labels) {
      std::string_view k = kv.key();
      constexpr std::string_view prefix = "node-role.kubernetes.io/";
      std::string_view role;
      if (k.substr(0, prefix.size()) == prefix)
        role = k.substr(prefix.size());
      else if (k == "kubernetes.io/role" && kv.value().is_string())
        role = kv.value().as_string();
      if (!role.empty())
        role_set.emplace(role);
    }
  std::string roles;
  for (const auto& r : role_set) {
    if (!roles.empty())
      roles += ',';
    roles += r;
  }
  std::string internal_ip, external_ip;
  if (auto* addrs = array_at(status, "addresses"))
    for (const auto& a : *addrs)
      if (auto* ao = a.if_object()) {
        if (string_at(ao, "type") == "InternalIP" && internal_ip.empty())
          internal_ip = string_at(ao, "address");
        if (string_at(ao, "type") == "ExternalIP" && external_ip.empty())
          external_ip = string_at(ao, "address");
      }
  const json::object* info = object_at(status, "nodeInfo");
  return named_row(node, now, {state, or_none(roles)},
                   {string_at(info, "kubeletVersion"), or_none(internal_ip),
                    or_none(external_ip), or_none(string_at(info, "osImage")),
                    or_none(string_at(info, "kernelVersion")),
                    or_none(string_at(info, "containerRuntimeVersion"))});
}

/// "RWO,ROX" as kubectl abbreviates access modes.
std::string access_modes_text(const json::object* o) {
  std::string out;
  if (auto* modes = array_at(o, "accessModes"))
    for (const auto& m : *modes) {
      auto* text = m.if_string();
      if (text == nullptr)
        continue;
      std::string_view t{text->data(), text->size()};
      std::string_view abbreviation = t == "ReadWriteOnce"      ? "RWO"
                                      : t == "ReadOnlyMany"     ? "ROX"
                                      : t == "ReadWriteMany"    ? "RWX"
                                      : t == "ReadWriteOncePod" ? "RWOP"
                                                                : t;
      out += (out.empty() ? "" : ",") + std::string{abbreviation};
    }
  return out;
}

json::array claim_cells(const json::object& pvc,
                        std::chrono::system_clock::time_point now) {
  const json::object* spec = object_at(&pvc, "spec");
  const json::object* status = object_at(&pvc, "status");
  return named_row(pvc, now,
                   {string_at(status, "phase"), string_at(spec, "volumeName"),
                    string_at(object_at(status, "capacity"), "storage"),
                    access_modes_text(status),
                    string_at(spec, "storageClassName"),
                    or_none(string_at(spec, "volumeAttributesClassName"))},
                   {string_at(spec, "volumeMode")});
}

json::array volume_cells(const json::object& pv,
                         std::chrono::system_clock::time_point now) {
  const json::object* spec = object_at(&pv, "spec");
  const json::object* status = object_at(&pv, "status");
  std::string claim;
  if (const json::object* ref = object_at(spec, "claimRef"))
    claim = std::string{string_at(ref, "namespace")} + "/"
            + std::string{string_at(ref, "name")};
  return named_row(
    pv, now,
    {string_at(object_at(spec, "capacity"), "storage"), access_modes_text(spec),
     string_at(spec, "persistentVolumeReclaimPolicy"),
     string_at(status, "phase"), claim, string_at(spec, "storageClassName"),
     or_none(string_at(spec, "volumeAttributesClassName")),
     string_at(status, "reason")},
    {string_at(spec, "volumeMode")});
}

json::array class_cells(const json::object& sc,
                        std::chrono::system_clock::time_point now) {
  const json::object* meta = object_at(&sc, "metadata");
  bool expand = false;
  if (auto* v = sc.if_contains("allowVolumeExpansion"); v && v->is_bool())
    expand = v->as_bool();
  std::string name{string_at(meta, "name")};
  const json::object* ann = object_at(meta, "annotations");
  if (string_at(ann, "storageclass.kubernetes.io/is-default-class") == "true")
    name += " (default)";
  json::array cells;
  cells.emplace_back(name);
  cells.emplace_back(string_at(&sc, "provisioner"));
  cells.emplace_back(string_at(&sc, "reclaimPolicy"));
  cells.emplace_back(string_at(&sc, "volumeBindingMode"));
  cells.emplace_back(expand ? "true" : "false");
  cells.emplace_back(age_of(meta, now));
  return cells;
}

const table_kind* table_of(storage_kind storage) noexcept {
  static const table_kind pods{pod_columns, pod_cells};
  static const table_kind nodes{node_columns, node_cells};
  static const table_kind claims{claim_columns, claim_cells};
  static const table_kind volumes{volume_columns, volume_cells};
  static const table_kind classes{class_columns, class_cells};
  switch (storage) {
  case storage_kind::pod:
    return &pods;
  case storage_kind::node:
    return &nodes;
  case storage_kind::persistent_volume_claim:
    return &claims;
  case storage_kind::persistent_volume:
    return &volumes;
  case storage_kind::storage_class:
    return &classes;
  default:
    return cluster_table_of(storage);
  }
}

json::array column_definitions(const resource_info& res) {
  json::array out;
  auto add = [&](const column& c) {
    json::object o;
    o["name"] = c.name;
    o["type"] = c.type;
    o["format"] = c.format;
    o["description"] = c.description;
    o["priority"] = c.priority;
    out.push_back(std::move(o));
  };
  for (const auto& c : table_of(res.storage)->columns)
    add(c);
  return out;
}

json::object row_for(const resource_info& res, const stored_object& obj,
                     std::chrono::system_clock::time_point now) {
  auto parsed = obj.parse();
  const auto& doc = parsed.value().as_object();
  json::object row;
  row["cells"] = table_of(res.storage)->cells(doc, now);
  json::object partial;
  partial["kind"] = "PartialObjectMetadata";
  partial["apiVersion"] = "meta.k8s.io/v1";
  if (auto* m = doc.if_contains("metadata"))
    partial["metadata"] = *m;
  row["object"] = std::move(partial);
  return row;
}

} // namespace

bool has_table(const resource_info& resource) noexcept {
  // Rows are made from the stored form, which both views of events share.
  return (resource.view == resource_view::stored
          || resource.view == resource_view::events_v1)
         && table_of(resource.storage) != nullptr && resource.verbs != "create";
}

std::string render_table(const resource_info& res,
                         const std::vector<object_ptr>& items,
                         std::uint64_t resource_version,
                         std::string_view continue_token,
                         std::int64_t remaining_item_count,
                         std::chrono::system_clock::time_point now) {
  json::object t;
  t["kind"] = "Table";
  t["apiVersion"] = "meta.k8s.io/v1";
  json::object meta;
  meta["resourceVersion"] = std::to_string(resource_version);
  if (!continue_token.empty()) {
    meta["continue"] = continue_token;
    if (remaining_item_count >= 0)
      meta["remainingItemCount"] = remaining_item_count;
  }
  t["metadata"] = std::move(meta);
  t["columnDefinitions"] = column_definitions(res);
  json::array rows;
  rows.reserve(items.size());
  for (const auto& o : items)
    rows.push_back(row_for(res, *o, now));
  t["rows"] = std::move(rows);
  return json::serialize(t);
}

std::string render_table_event(const resource_info& res, const watch_event& ev,
                               bool with_columns,
                               std::chrono::system_clock::time_point now) {
  std::string out = "{\"type\":\"";
  out += to_string(ev.type);
  out += "\",\"object\":";
  if (ev.type == event_type::bookmark || ev.type == event_type::error) {
    out += ev.object->json();
  } else {
    json::object t;
    t["kind"] = "Table";
    t["apiVersion"] = "meta.k8s.io/v1";
    t["metadata"] = json::object{
      {"resourceVersion", std::to_string(ev.object->resource_version())}};
    if (with_columns)
      t["columnDefinitions"] = column_definitions(res);
    else
      t["columnDefinitions"] = nullptr;
    t["rows"] = json::array{row_for(res, *ev.object, now)};
    out += json::serialize(t);
  }
  out += "}\n";
  return out;
}

} // namespace tessera::apiserver
