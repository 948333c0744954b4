// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// Decoding of v1.Namespace, scheduling.k8s.io/v1 PriorityClass, policy/v1
// PodDisruptionBudget, and the selectors of v1 Service and
// ReplicationController and apps/v1 ReplicaSet and StatefulSet.
#include "model/json_reader.hpp"

#include <boost/json.hpp>

#include <array>
#include <charconv>

namespace tessera::model::json_detail {

namespace {

/// intstr.IntOrString as PodDisruptionBudget validation accepts it: a
/// non-negative integer or a percentage "0%".."100%".
int_or_percent read_int_or_percent(json_reader& r, const json_value& v) {
  int_or_percent out;
  if (const auto* s = v.if_string()) {
    const std::string_view text{s->data(), s->size()};
    std::int32_t number = -1;
    if (text.size() >= 2 && text.back() == '%') {
      const char* end = text.data() + text.size() - 1;
      auto res = std::from_chars(text.data(), end, number);
      if (res.ec != std::errc{} || res.ptr != end)
        number = -1;
    }
    if (number < 0 || number > 100)
      r.fail("invalid value \"" + std::string{text}
             + "\": must be an integer or a percentage between 0% and 100%");
    out.value = number;
    out.percent = true;
    return out;
  }
  out.value = get_int32(r, v);
  if (out.value < 0)
    r.fail("invalid value " + std::to_string(out.value)
           + ": must be non-negative");
  return out;
}

} // namespace

namespace_info read_namespace(json_reader& r, const json_object& o,
                              const decode_options& opts) {
  static const symbol name_label{"kubernetes.io/metadata.name"};
  namespace_info ns;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  ns.name = intern(meta.name);
  ns.uid = meta.uid;
  ns.resource_version = meta.resource_version;
  ns.labels = std::move(meta.labels);
  // The API server always labels a namespace with its own name.
  if (opts.apply_defaults && !ns.labels.contains(name_label))
    ns.labels.set(name_label, ns.name);
  ns.terminating = meta.deleting;
  with_member(r, o, "status", [&](const json_value& x) {
    with_member(r, get_object(r, x), "phase", [&](const json_value& phase) {
      if (get_string(r, phase) == "Terminating")
        ns.terminating = true;
    });
  });
  return ns;
}

priority_class read_priority_class(json_reader& r, const json_object& o,
                                   const decode_options&) {
  static constexpr std::array<std::string_view, 2> preemption_policies
    = {"PreemptLowerPriority", "Never"};
  priority_class pc;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  pc.name = meta.name;
  pc.resource_version = meta.resource_version;
  with_member(r, o, "value",
              [&](const json_value& x) { pc.value = get_int32(r, x); });
  with_member(r, o, "globalDefault",
              [&](const json_value& x) { pc.global_default = get_bool(r, x); });
  with_member(r, o, "preemptionPolicy", [&](const json_value& x) {
    pc.preemption
      = static_cast<preemption_policy>(get_enum(r, x, preemption_policies));
  });
  return pc;
}

disruption_budget read_disruption_budget(json_reader& r, const json_object& o,
                                         const decode_options&) {
  static const symbol default_namespace{"default"};
  disruption_budget pdb;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  pdb.ns
    = meta.namespace_.empty() ? default_namespace : intern(meta.namespace_);
  pdb.name = meta.name;
  pdb.uid = meta.uid;
  pdb.resource_version = meta.resource_version;
  with_member(r, o, "spec", [&](const json_value& x) {
    const auto& spec = get_object(r, x);
    with_member(r, spec, "selector", [&](const json_value& s) {
      pdb.selector = read_label_selector(r, s);
    });
    with_member(r, spec, "minAvailable", [&](const json_value& m) {
      pdb.min_available = read_int_or_percent(r, m);
    });
    with_member(r, spec, "maxUnavailable", [&](const json_value& m) {
      pdb.max_unavailable = read_int_or_percent(r, m);
    });
    if (pdb.min_available && pdb.max_unavailable)
      r.fail("minAvailable and maxUnavailable cannot both be set");
  });
  with_member(r, o, "status", [&](const json_value& x) {
    const auto& status = get_object(r, x);
    with_member(r, status, "disruptionsAllowed", [&](const json_value& d) {
      pdb.disruptions_allowed = get_int32(r, d);
    });
    with_member(r, status, "disruptedPods", [&](const json_value& d) {
      for_each_member(r, get_object(r, d),
                      [&](std::string_view name, const json_value&) {
                        pdb.disrupted_pods.emplace_back(name);
                      });
    });
  });
  return pdb;
}

workload read_workload(json_reader& r, const json_object& o,
                       workload_kind kind) {
  static const symbol default_namespace{"default"};
  workload w;
  w.kind = kind;
  object_metadata meta = read_metadata(r, o);
  require_name(r, meta);
  w.ns = meta.namespace_.empty() ? default_namespace : intern(meta.namespace_);
  w.name = meta.name;
  w.uid = meta.uid;
  w.resource_version = meta.resource_version;
  bool plain_map = kind == workload_kind::service
                   || kind == workload_kind::replication_controller;
  with_member(r, o, "spec", [&](const json_value& x) {
    with_member(r, get_object(r, x), "selector", [&](const json_value& s) {
      if (s.is_null())
        return; // nil: a Service selecting nothing, or no selector
      if (!plain_map) {
        w.selector = read_label_selector(r, s);
        return;
      }
      w.selector_map = read_label_map(r, s);
    });
  });
  return w;
}

} // namespace tessera::model::json_detail
