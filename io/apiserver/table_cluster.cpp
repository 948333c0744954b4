// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// kubectl's columns for the kinds besides pods, nodes and storage: the
// cells kube-apiserver's printers fill for a server-side Table (always the
// wide set; kubectl hides priority-1 columns without `-o wide`).
#include "io/apiserver/table_kind.hpp"
#include "io/apiserver/time_format.hpp"
#include "model/json_access.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::apiserver {

namespace json = boost::json;
using model::array_at;
using model::bool_at;
using model::int_at;
using model::object_at;
using model::string_at;

namespace {

constexpr table_column event_columns[] = {
  {"Last Seen", "string", "",
   "The time at which the most recent occurrence "
   "of this event was recorded.",
   0},
  {"Type", "string", "", "Type of this event (Normal, Warning).", 0},
  {"Reason", "string", "", "Why the action was taken.", 0},
  {"Object", "string", "", "The object that this event is about.", 0},
  {"Subobject", "string", "", "The part of the object the event is about.", 1},
  {"Source", "string", "", "The component reporting this event.", 1},
  {"Message", "string", "",
   "A human-readable description of the status of "
   "this operation.",
   0},
  {"First Seen", "string", "",
   "The time at which the event was first "
   "recorded.",
   1},
  {"Count", "string", "", "The number of times this event has occurred.", 1},
  {"Name", "string", "name", table_name_description, 1},
};

constexpr table_column namespace_columns[] = {
  table_name_column,
  {"Status", "string", "", "The status of the namespace", 0},
  table_age_column,
};

constexpr table_column budget_columns[] = {
  table_name_column,
  {"Min Available", "string", "",
   "The minimum number of pods that must be "
   "available after an eviction.",
   0},
  {"Max Unavailable", "string", "",
   "The maximum number of pods that may be "
   "unavailable after an eviction.",
   0},
  {"Allowed Disruptions", "integer", "",
   "Number of pod disruptions that are "
   "currently allowed.",
   0},
  table_age_column,
};

constexpr table_column priority_class_columns[] = {
  table_name_column,
  {"Value", "integer", "", "The integer value of this priority class.", 0},
  {"Global-Default", "boolean", "",
   "Whether this is the default priority "
   "class for pods without one.",
   0},
  table_age_column,
  {"PreemptionPolicy", "string", "",
   "The policy for preempting pods with "
   "lower priority.",
   1},
};

constexpr table_column lease_columns[] = {
  table_name_column,
  {"Holder", "string", "", "The holder of the lease.", 0},
  table_age_column,
};

constexpr table_column service_columns[] = {
  table_name_column,
  {"Type", "string", "", "How the service is exposed.", 0},
  {"Cluster-IP", "string", "", "The IP address of the service.", 0},
  {"External-IP", "string", "", "The external addresses of the service.", 0},
  {"Port(s)", "string", "", "The ports the service exposes.", 0},
  table_age_column,
  {"Selector", "string", "",
   "The labels of the pods the service routes "
   "to.",
   1},
};

constexpr table_column replica_set_columns[] = {
  table_name_column,
  {"Desired", "integer", "", "The number of desired replicas.", 0},
  {"Current", "integer", "", "The number of actual replicas.", 0},
  {"Ready", "integer", "", "The number of ready replicas.", 0},
  table_age_column,
  template_containers_column,
  template_images_column,
  template_selector_column,
};

constexpr table_column stateful_set_columns[] = {
  table_name_column,
  {"Ready", "string", "", "Number of the pod with ready state.", 0},
  table_age_column,
  template_containers_column,
  template_images_column,
};

constexpr table_column csi_node_columns[] = {
  table_name_column,
  {"Drivers", "integer", "", "The number of CSI drivers on the node.", 0},
  table_age_column,
};

constexpr table_column csi_driver_columns[] = {
  table_name_column,
  {"AttachRequired", "boolean", "",
   "Whether the driver needs an attach operation.", 0},
  {"PodInfoOnMount", "boolean", "",
   "Whether the driver needs pod information on mount.", 0},
  {"StorageCapacity", "boolean", "",
   "Whether the driver publishes its storage capacity.", 0},
  {"TokenRequests", "string", "", "The audiences of the tokens it needs.", 0},
  {"RequiresRepublish", "boolean", "",
   "Whether the driver wants volumes republished periodically.", 0},
  {"Modes", "string", "", "The volume lifecycle modes it supports.", 0},
  table_age_column,
};

constexpr table_column capacity_columns[] = {
  table_name_column,
  {"StorageClassName", "string", "", "The class the capacity is for.", 0},
  {"Capacity", "string", "", "The capacity available.", 0},
};

constexpr table_column attachment_columns[] = {
  table_name_column,
  {"Attacher", "string", "", "The CSI driver that attaches the volume.", 0},
  {"PV", "string", "", "The persistent volume to attach.", 0},
  {"Node", "string", "", "The node to attach the volume to.", 0},
  {"Attached", "boolean", "", "Whether the volume is attached.", 0},
  table_age_column,
};

/// An int-or-string field as text; "N/A" when absent.
std::string int_or_string_at(const json::object* o, std::string_view key) {
  auto* v = o ? o->if_contains(key) : nullptr;
  if (!v || v->is_null())
    return "N/A";
  if (auto* s = v->if_string())
    return std::string{s->data(), s->size()};
  return json::serialize(*v);
}

/// kubectl's age of a timestamp field ("<unknown>" when absent).
std::string age_at(const json::object* o, std::string_view key,
                   std::chrono::system_clock::time_point now) {
  auto t = parse_time(string_at(o, key));
  if (!t)
    return "<unknown>";
  return format_age(now - *t);
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty())
      out += ',';
    out += p;
  }
  return out;
}

} // namespace

/// "k=v,..." of a label map, keys sorted.
std::string labels_text(const json::object* labels) {
  std::vector<std::string> parts;
  if (labels)
    for (const auto& kv : *labels)
      if (auto* v = kv.value().if_string())
        parts.push_back(std::string{kv.key()} + "=" + std::string{*v});
  std::sort(parts.begin(), parts.end());
  return joined(parts);
}

/// A label selector as kubectl prints one: "app=web,tier in (a,b),!x";
/// "<none>" when it selects everything.
std::string selector_text(const json::object* sel) {
  std::string out = labels_text(object_at(sel, "matchLabels"));
  if (auto* exprs = array_at(sel, "matchExpressions"))
    for (const auto& e : *exprs) {
      auto* eo = e.if_object();
      if (!eo)
        continue;
      std::string key{string_at(eo, "key")};
      auto op = string_at(eo, "operator");
      std::vector<std::string> values;
      if (auto* vs = array_at(eo, "values"))
        for (const auto& v : *vs)
          if (auto* s = v.if_string())
            values.emplace_back(*s);
      std::string part;
      if (op == "In" || op == "NotIn")
        part = key + (op == "In" ? " in (" : " notin (") + joined(values) + ")";
      else if (op == "Exists")
        part = key;
      else if (op == "DoesNotExist")
        part = "!" + key;
      else
        part = key + " " + std::string{op} + " (" + joined(values) + ")";
      out += (out.empty() ? "" : ",") + part;
    }
  return out.empty() ? "<none>" : out;
}

/// spec.replicas of a workload, 1 when unset (the API default).
std::int64_t desired_replicas(const json::object* spec) {
  auto* r = spec ? spec->if_contains("replicas") : nullptr;
  return r && r->is_int64() ? r->as_int64() : 1;
}

/// Container names and images of a pod template.
std::pair<std::string, std::string>
template_containers(const json::object* spec) {
  const json::object* pod_spec = object_at(object_at(spec, "template"), "spec");
  std::vector<std::string> names, images;
  if (auto* cs = array_at(pod_spec, "containers"))
    for (const auto& c : *cs)
      if (auto* co = c.if_object()) {
        names.emplace_back(string_at(co, "name"));
        images.emplace_back(string_at(co, "image"));
      }
  return {joined(names), joined(images)};
}

namespace {

/// An event field by its core/v1 name, or its events.k8s.io/v1 name when
/// the row is made for that view.
const json::value* event_field(const json::object& ev, std::string_view core,
                               std::string_view v1) {
  if (auto* v = ev.if_contains(core))
    return v;
  return ev.if_contains(v1);
}

json::array event_cells(const json::object& ev,
                        std::chrono::system_clock::time_point now) {
  auto object_field = [&](std::string_view core, std::string_view v1) {
    auto* v = event_field(ev, core, v1);
    return v ? v->if_object() : nullptr;
  };
  auto string_field = [&](std::string_view core, std::string_view v1) {
    auto* v = event_field(ev, core, v1);
    auto* s = v ? v->if_string() : nullptr;
    return s ? std::string{s->data(), s->size()} : std::string{};
  };
  auto age_field = [&](std::string_view core, std::string_view v1) {
    auto t = parse_time(string_field(core, v1));
    return t ? format_age(now - *t) : std::string{"<unknown>"};
  };
  const json::object* meta = object_at(&ev, "metadata");
  const json::object* involved = object_field("involvedObject", "regarding");
  const json::object* source = object_field("source", "deprecatedSource");
  std::string first = age_field("firstTimestamp", "deprecatedFirstTimestamp");
  if (string_field("firstTimestamp", "deprecatedFirstTimestamp").empty())
    first = age_at(&ev, "eventTime", now);
  std::string last = age_field("lastTimestamp", "deprecatedLastTimestamp");
  if (string_field("lastTimestamp", "deprecatedLastTimestamp").empty())
    last = first;
  std::int64_t count = 0;
  if (auto* c = event_field(ev, "count", "deprecatedCount"); c && c->is_int64())
    count = c->as_int64();
  if (const json::object* series = object_at(&ev, "series")) {
    last = age_at(series, "lastObservedTime", now);
    count = int_at(series, "count");
  } else if (count == 0) {
    count = 1; // a singleton event of the events.k8s.io API
  }
  std::string kind{string_at(involved, "kind")};
  std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) {
    return static_cast<char>(std::tolower(c));
  });
  auto target_name = string_at(involved, "name");
  std::string target
    = target_name.empty() ? kind : kind + "/" + std::string{target_name};
  std::string component{string_at(source, "component")};
  if (component.empty())
    component = string_field("reportingComponent", "reportingController");
  std::string instance{string_at(source, "host")};
  if (instance.empty())
    instance = string_at(&ev, "reportingInstance");
  std::string message = string_field("message", "note");
  auto blank = [](unsigned char c) { return std::isspace(c) != 0; };
  while (!message.empty() && blank(message.back()))
    message.pop_back();
  message.erase(message.begin(),
                std::find_if_not(message.begin(), message.end(), blank));
  json::array cells;
  cells.emplace_back(last);
  cells.emplace_back(string_at(&ev, "type"));
  cells.emplace_back(string_at(&ev, "reason"));
  cells.emplace_back(target);
  cells.emplace_back(string_at(involved, "fieldPath"));
  cells.emplace_back(instance.empty() ? component
                                      : component + ", " + instance);
  cells.emplace_back(message);
  cells.emplace_back(first);
  cells.emplace_back(count);
  cells.emplace_back(string_at(meta, "name"));
  return cells;
}

json::array namespace_cells(const json::object& ns,
                            std::chrono::system_clock::time_point now) {
  return named_row(ns, now, {string_at(object_at(&ns, "status"), "phase")}, {});
}

json::array budget_cells(const json::object& pdb,
                         std::chrono::system_clock::time_point now) {
  const json::object* spec = object_at(&pdb, "spec");
  return named_row(pdb, now,
                   {int_or_string_at(spec, "minAvailable"),
                    int_or_string_at(spec, "maxUnavailable"),
                    int_at(object_at(&pdb, "status"), "disruptionsAllowed")},
                   {});
}

json::array priority_class_cells(const json::object& pc,
                                 std::chrono::system_clock::time_point now) {
  return named_row(pc, now,
                   {int_at(&pc, "value"), bool_at(&pc, "globalDefault")},
                   {string_at(&pc, "preemptionPolicy")});
}

json::array lease_cells(const json::object& lease,
                        std::chrono::system_clock::time_point now) {
  return named_row(
    lease, now, {string_at(object_at(&lease, "spec"), "holderIdentity")}, {});
}

json::array service_cells(const json::object& svc,
                          std::chrono::system_clock::time_point now) {
  const json::object* spec = object_at(&svc, "spec");
  std::string type{string_at(spec, "type")};
  if (type.empty())
    type = "ClusterIP";
  std::vector<std::string> external;
  if (auto* ips = array_at(spec, "externalIPs"))
    for (const auto& ip : *ips)
      if (auto* s = ip.if_string())
        external.emplace_back(*s);
  if (type == "LoadBalancer") {
    if (auto* ingress = array_at(
          object_at(object_at(&svc, "status"), "loadBalancer"), "ingress"))
      for (const auto& i : *ingress)
        if (auto* io = i.if_object()) {
          auto ip = string_at(io, "ip");
          external.emplace_back(ip.empty() ? string_at(io, "hostname") : ip);
        }
    if (external.empty())
      external.emplace_back("<pending>");
  } else if (type == "ExternalName") {
    external = {std::string{string_at(spec, "externalName")}};
  }
  std::vector<std::string> ports;
  if (auto* ps = array_at(spec, "ports"))
    for (const auto& p : *ps)
      if (auto* po = p.if_object()) {
        std::string text = std::to_string(int_at(po, "port"));
        if (auto node_port = int_at(po, "nodePort"); node_port > 0)
          text += ":" + std::to_string(node_port);
        auto protocol = string_at(po, "protocol");
        text += "/" + std::string{protocol.empty() ? "TCP" : protocol};
        ports.push_back(std::move(text));
      }
  std::string selector = labels_text(object_at(spec, "selector"));
  return named_row(svc, now,
                   {type, or_none(string_at(spec, "clusterIP")),
                    or_none(joined(external)), or_none(joined(ports))},
                   {or_none(selector)});
}

/// ReplicaSets and ReplicationControllers (whose selector is a label map).
json::array replica_set_cells(const json::object& rs,
                              std::chrono::system_clock::time_point now) {
  const json::object* spec = object_at(&rs, "spec");
  const json::object* status = object_at(&rs, "status");
  std::int64_t desired = desired_replicas(spec);
  auto [containers, images] = template_containers(spec);
  const json::object* sel = object_at(spec, "selector");
  bool label_map = sel && !sel->contains("matchLabels")
                   && !sel->contains("matchExpressions");
  return named_row(
    rs, now,
    {desired, int_at(status, "replicas"), int_at(status, "readyReplicas")},
    {containers, images,
     label_map ? or_none(labels_text(sel)) : selector_text(sel)});
}

json::array stateful_set_cells(const json::object& sts,
                               std::chrono::system_clock::time_point now) {
  const json::object* spec = object_at(&sts, "spec");
  std::int64_t desired = desired_replicas(spec);
  auto [containers, images] = template_containers(spec);
  return named_row(
    sts, now,
    {std::to_string(int_at(object_at(&sts, "status"), "readyReplicas")) + "/"
     + std::to_string(desired)},
    {containers, images});
}

json::array csi_node_cells(const json::object& n,
                           std::chrono::system_clock::time_point now) {
  auto* drivers = array_at(object_at(&n, "spec"), "drivers");
  return named_row(
    n, now, {static_cast<std::int64_t>(drivers ? drivers->size() : 0)}, {});
}

json::array csi_driver_cells(const json::object& d,
                             std::chrono::system_clock::time_point now) {
  const json::object* spec = object_at(&d, "spec");
  auto flag = [&](std::string_view key, bool unset) {
    auto* v = spec ? spec->if_contains(key) : nullptr;
    return v && v->is_bool() ? v->as_bool() : unset;
  };
  std::vector<std::string> audiences, modes;
  if (auto* tokens = array_at(spec, "tokenRequests"))
    for (const auto& t : *tokens)
      if (auto* to = t.if_object())
        audiences.emplace_back(string_at(to, "audience"));
  if (auto* ms = array_at(spec, "volumeLifecycleModes"))
    for (const auto& m : *ms)
      if (auto* text = m.if_string())
        modes.emplace_back(*text);
  return named_row(d, now,
                   {flag("attachRequired", true), flag("podInfoOnMount", false),
                    flag("storageCapacity", false),
                    audiences.empty() ? "<unset>" : joined(audiences),
                    flag("requiresRepublish", false), or_none(joined(modes))},
                   {});
}

json::array capacity_cells(const json::object& c,
                           std::chrono::system_clock::time_point) {
  std::string capacity{string_at(&c, "capacity")};
  json::array cells;
  cells.emplace_back(string_at(object_at(&c, "metadata"), "name"));
  cells.emplace_back(string_at(&c, "storageClassName"));
  cells.emplace_back(capacity.empty() ? "<unset>" : capacity);
  return cells;
}

json::array attachment_cells(const json::object& va,
                             std::chrono::system_clock::time_point now) {
  const json::object* spec = object_at(&va, "spec");
  std::string pv{string_at(object_at(spec, "source"), "persistentVolumeName")};
  return named_row(va, now,
                   {string_at(spec, "attacher"), pv,
                    string_at(spec, "nodeName"),
                    bool_at(object_at(&va, "status"), "attached")},
                   {});
}

} // namespace

const table_kind* cluster_table_of(storage_kind storage) noexcept {
  static const table_kind events{event_columns, event_cells};
  static const table_kind namespaces{namespace_columns, namespace_cells};
  static const table_kind budgets{budget_columns, budget_cells};
  static const table_kind classes{priority_class_columns, priority_class_cells};
  static const table_kind leases{lease_columns, lease_cells};
  static const table_kind services{service_columns, service_cells};
  static const table_kind replica_sets{replica_set_columns, replica_set_cells};
  static const table_kind stateful_sets{stateful_set_columns,
                                        stateful_set_cells};
  static const table_kind csi_nodes{csi_node_columns, csi_node_cells};
  static const table_kind attachments{attachment_columns, attachment_cells};
  static const table_kind drivers{csi_driver_columns, csi_driver_cells};
  static const table_kind capacities{capacity_columns, capacity_cells};
  switch (storage) {
  case storage_kind::event:
    return &events;
  case storage_kind::namespace_:
    return &namespaces;
  case storage_kind::pod_disruption_budget:
    return &budgets;
  case storage_kind::priority_class:
    return &classes;
  case storage_kind::lease:
    return &leases;
  case storage_kind::service:
    return &services;
  case storage_kind::replica_set:
  case storage_kind::replication_controller:
    return &replica_sets;
  case storage_kind::stateful_set:
    return &stateful_sets;
  case storage_kind::csi_node:
    return &csi_nodes;
  case storage_kind::volume_attachment:
    return &attachments;
  case storage_kind::csi_driver:
    return &drivers;
  case storage_kind::csi_storage_capacity:
    return &capacities;
  default:
    return workload_table_of(storage);
  }
}

} // namespace tessera::apiserver
