// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/admission.hpp"

#include "model/json_access.hpp"
#include "model/labels.hpp"
#include "model/quantity.hpp"
#include "support/names.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>

namespace tessera::apiserver::admission {

namespace json = boost::json;
using model::array_at;
using model::object_at;
using model::string_at;

namespace {

json::object& ensure_object(json::object& parent, std::string_view key) {
  auto& v = parent[key];
  if (!v.is_object())
    v = json::object{};
  return v.as_object();
}

void set_default(json::object& o, std::string_view key, json::value v) {
  auto* cur = o.if_contains(key);
  if (!cur || cur->is_null())
    o[key] = std::move(v);
}

bool image_has_tag(std::string_view image) {
  if (image.find('@') != std::string_view::npos)
    return true;
  auto slash = image.rfind('/');
  auto colon = image.rfind(':');
  return colon != std::string_view::npos
         && (slash == std::string_view::npos || colon > slash);
}

/// Numbers in a resource list become quantity strings ("cpu: 8" -> "8"),
/// as the API server's Quantity round trip renders them.
void quantities_as_strings(json::object* list) {
  if (!list)
    return;
  for (auto& kv : *list)
    if (kv.value().is_number())
      kv.value() = json::string(json::serialize(kv.value()), list->storage());
}

void default_container(json::object& c) {
  set_default(c, "terminationMessagePath", "/dev/termination-log");
  set_default(c, "terminationMessagePolicy", "File");
  auto image = string_at(c, "image");
  bool latest
    = !image_has_tag(image)
      || (image.size() >= 7 && image.substr(image.size() - 7) == ":latest");
  set_default(c, "imagePullPolicy", latest ? "Always" : "IfNotPresent");
  auto& res = ensure_object(c, "resources");
  quantities_as_strings(object_at(res, "limits"));
  quantities_as_strings(object_at(res, "requests"));
  if (auto* limits = object_at(res, "limits")) {
    json::object copy = *limits;
    auto& requests = ensure_object(res, "requests");
    for (auto& kv : copy)
      if (!requests.contains(kv.key()))
        requests.emplace(kv.key(), kv.value());
  }
  if (auto* ports = c.if_contains("ports"))
    if (auto* arr = ports->if_array())
      for (auto& p : *arr)
        if (auto* po = p.if_object())
          set_default(*po, "protocol", "TCP");
}

void default_pod(json::object& pod) {
  auto& spec = ensure_object(pod, "spec");
  set_default(spec, "schedulerName", "default-scheduler");
  set_default(spec, "restartPolicy", "Always");
  set_default(spec, "terminationGracePeriodSeconds", 30);
  set_default(spec, "dnsPolicy", "ClusterFirst");
  set_default(spec, "enableServiceLinks", true);
  set_default(spec, "securityContext", json::object{});
  for (std::string_view list : {"containers", "initContainers"})
    if (auto* v = spec.if_contains(list))
      if (auto* arr = v->if_array())
        for (auto& c : *arr)
          if (auto* co = c.if_object())
            default_container(*co);
}

void default_node(json::object& node) {
  auto* status = node.if_contains("status");
  if (!status || !status->is_object())
    return;
  auto& st = status->as_object();
  quantities_as_strings(object_at(st, "capacity"));
  quantities_as_strings(object_at(st, "allocatable"));
  auto* cap = st.if_contains("capacity");
  auto* alloc = st.if_contains("allocatable");
  if (cap && cap->is_object() && (!alloc || alloc->is_null()))
    st["allocatable"] = *cap;
}

void default_namespace(json::object& ns) {
  auto& meta = ensure_object(ns, "metadata");
  auto name = std::string{string_at(meta, "name")};
  if (!name.empty())
    ensure_object(meta, "labels")["kubernetes.io/metadata.name"] = name;
  auto& spec = ensure_object(ns, "spec");
  set_default(spec, "finalizers", json::array{"kubernetes"});
  auto& status = ensure_object(ns, "status");
  set_default(status, "phase", "Active");
}

/// The API defaults of a workload's pod template (spec.template).
void default_template(json::object& spec) {
  if (auto* t = spec.if_contains("template"); t && t->is_object())
    default_pod(t->as_object());
}

void default_deployment(json::object& d) {
  auto& spec = ensure_object(d, "spec");
  set_default(spec, "replicas", 1);
  set_default(spec, "revisionHistoryLimit", 10);
  set_default(spec, "progressDeadlineSeconds", 600);
  auto& strategy = ensure_object(spec, "strategy");
  set_default(strategy, "type", "RollingUpdate");
  if (strategy.at("type") == "RollingUpdate") {
    auto& rolling = ensure_object(strategy, "rollingUpdate");
    set_default(rolling, "maxUnavailable", "25%");
    set_default(rolling, "maxSurge", "25%");
  }
  default_template(spec);
}

void default_daemon_set(json::object& ds) {
  auto& spec = ensure_object(ds, "spec");
  set_default(spec, "revisionHistoryLimit", 10);
  auto& strategy = ensure_object(spec, "updateStrategy");
  set_default(strategy, "type", "RollingUpdate");
  if (strategy.at("type") == "RollingUpdate") {
    auto& rolling = ensure_object(strategy, "rollingUpdate");
    set_default(rolling, "maxUnavailable", 1);
    set_default(rolling, "maxSurge", 0);
  }
  default_template(spec);
}

void default_stateful_set(json::object& sts) {
  auto& spec = ensure_object(sts, "spec");
  set_default(spec, "replicas", 1);
  set_default(spec, "podManagementPolicy", "OrderedReady");
  set_default(spec, "revisionHistoryLimit", 10);
  auto& strategy = ensure_object(spec, "updateStrategy");
  set_default(strategy, "type", "RollingUpdate");
  if (strategy.at("type") == "RollingUpdate")
    set_default(ensure_object(strategy, "rollingUpdate"), "partition", 0);
  auto& retention = ensure_object(spec, "persistentVolumeClaimRetentionPolicy");
  set_default(retention, "whenDeleted", "Retain");
  set_default(retention, "whenScaled", "Retain");
  default_template(spec);
}

void default_job(json::object& job) {
  auto& spec = ensure_object(job, "spec");
  auto* completions = spec.if_contains("completions");
  auto* parallelism = spec.if_contains("parallelism");
  if ((!completions || completions->is_null())
      && (!parallelism || parallelism->is_null()))
    spec["completions"] = 1;
  set_default(spec, "parallelism", 1);
  set_default(spec, "backoffLimit", 6);
  set_default(spec, "completionMode", "NonIndexed");
  set_default(spec, "suspend", false);
  set_default(spec, "manualSelector", false);
  set_default(spec, "podReplacementPolicy", "TerminatingOrFailed");
  default_template(spec);
}

void default_priority_class(json::object& pc) {
  set_default(pc, "preemptionPolicy", "PreemptLowerPriority");
}

// Storage objects: the API server's defaults.
void default_persistent_volume(json::object& pv) {
  auto& spec = ensure_object(pv, "spec");
  set_default(spec, "persistentVolumeReclaimPolicy", "Retain");
  set_default(spec, "volumeMode", "Filesystem");
}

void default_persistent_volume_claim(json::object& pvc) {
  set_default(ensure_object(pvc, "spec"), "volumeMode", "Filesystem");
}

void default_storage_class(json::object& sc) {
  set_default(sc, "reclaimPolicy", "Delete");
  set_default(sc, "volumeBindingMode", "Immediate");
}

void default_csi_driver(json::object& d) {
  auto& spec = ensure_object(d, "spec");
  set_default(spec, "attachRequired", true);
  set_default(spec, "podInfoOnMount", false);
  set_default(spec, "storageCapacity", false);
}

/// Milli-value of a quantity, or nullopt when unparsable.
std::optional<std::int64_t> milli(const json::value& v) {
  std::string text;
  if (auto* s = v.if_string())
    text.assign(s->data(), s->size());
  else if (v.is_int64())
    text = std::to_string(v.as_int64());
  else if (v.is_uint64())
    text = std::to_string(v.as_uint64());
  else if (v.is_double())
    text = json::serialize(v);
  else
    return std::nullopt;
  auto q = model::quantity::parse(text);
  if (!q)
    return std::nullopt;
  auto m = q->milli_value();
  if (!m)
    return std::nullopt;
  return *m;
}

void add_invalid_name(std::vector<status_cause>& causes, std::string_view name,
                      bool label) {
  if (name.size()
      > (label ? max_dns1123_label_length : max_dns1123_subdomain_length)) {
    causes.push_back(
      status::invalid_value("metadata.name", name,
                            label ? "must be no more than 63 characters"
                                  : "must be no more than 253 characters"));
    return;
  }
  causes.push_back(status::invalid_value(
    "metadata.name", name,
    label ? "a lowercase RFC 1123 label must consist of lower case "
            "alphanumeric characters or '-', and must start and end with an "
            "alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
            "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
          : "a lowercase RFC 1123 subdomain must consist of lower case "
            "alphanumeric characters, '-' or '.', and must start and end "
            "with an alphanumeric character (e.g. 'example.com', regex used "
            "for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)"
            "*')"));
}

void add_label_problems(std::vector<status_cause>& causes,
                        const json::object& labels) {
  for (const auto& kv : labels) {
    std::string_view key = kv.key();
    auto key_problem = model::label_key_problem(key);
    if (!key_problem.empty())
      causes.push_back(
        status::invalid_value("metadata.labels", key, key_problem));
    auto* value = kv.value().if_string();
    if (!value) {
      causes.push_back(status::invalid_value("metadata.labels",
                                             json::serialize(kv.value()),
                                             "label values must be strings"));
      continue;
    }
    std::string_view v{value->data(), value->size()};
    if (model::label_value_problem(v).empty())
      continue;
    causes.push_back(status::invalid_value(
      "metadata.labels", v,
      v.size() > max_qualified_name_part_length
        ? "must be no more than 63 characters"
        : "a valid label must be an empty string or consist of alphanumeric "
          "characters, '-', '_' or '.', and must start and end with an "
          "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
          "'12345', regex used for validation is "
          "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"));
  }
}

/// Calls `fn(path, resources)` for the `resources` of every container and
/// init container of a pod spec (`path`: "spec.containers[0].resources").
template <class F>
void for_each_container_resources(const json::object& spec, F fn) {
  for (std::string_view kind : {"initContainers", "containers"}) {
    auto* cs = spec.if_contains(kind);
    if (!cs || !cs->is_array())
      continue;
    for (std::size_t i = 0; i < cs->as_array().size(); ++i) {
      auto* c = cs->as_array()[i].if_object();
      if (const json::object* res = c ? object_at(*c, "resources") : nullptr)
        fn("spec." + std::string{kind} + "[" + std::to_string(i)
             + "].resources",
           *res);
    }
  }
}

/// Calls `fn(path, name, value)` for every quantity in the resource lists
/// of `obj` (`path` names the list: "spec.containers[0].resources.limits").
template <class F>
void for_each_quantity(storage_kind storage, const json::object& obj, F fn) {
  auto list = [&](const json::object* parent, std::string_view key,
                  const std::string& path) {
    if (!parent)
      return;
    if (auto* l = object_at(*parent, key))
      for (const auto& kv : *l)
        fn(path, std::string_view{kv.key()}, kv.value());
  };
  const json::object* spec = object_at(obj, "spec");
  switch (storage) {
  case storage_kind::pod:
    if (!spec)
      return;
    for_each_container_resources(
      *spec, [&](const std::string& base, const json::object& res) {
        list(&res, "requests", base + ".requests");
        list(&res, "limits", base + ".limits");
      });
    list(spec, "overhead", "spec.overhead");
    list(object_at(*spec, "resources"), "requests", "spec.resources.requests");
    list(object_at(*spec, "resources"), "limits", "spec.resources.limits");
    break;
  case storage_kind::node:
    list(object_at(obj, "status"), "capacity", "status.capacity");
    list(object_at(obj, "status"), "allocatable", "status.allocatable");
    break;
  case storage_kind::persistent_volume_claim:
    if (spec) {
      list(object_at(*spec, "resources"), "requests",
           "spec.resources.requests");
      list(object_at(*spec, "resources"), "limits", "spec.resources.limits");
    }
    break;
  case storage_kind::persistent_volume:
    list(spec, "capacity", "spec.capacity");
    break;
  default:
    break;
  }
}

/// A quantity's text as sent (numbers as JSON writes them); nullopt for
/// other JSON types.
std::optional<std::string> quantity_text(const json::value& v) {
  if (auto* s = v.if_string())
    return std::string{s->data(), s->size()};
  if (v.is_number())
    return json::serialize(v);
  return std::nullopt;
}

/// Requests above the limit of the same resource, per container.
void add_request_above_limit(std::vector<status_cause>& causes,
                             const json::object& pod) {
  const json::object* spec = object_at(pod, "spec");
  if (!spec)
    return;
  for_each_container_resources(*spec, [&](const std::string& base,
                                          const json::object& res) {
    const json::object* req = object_at(res, "requests");
    const json::object* lim = object_at(res, "limits");
    if (!req || !lim)
      return;
    for (const auto& kv : *req) {
      auto* l = lim->if_contains(kv.key());
      if (!l)
        continue;
      auto rt = quantity_text(kv.value());
      auto lt = quantity_text(*l);
      if (!rt || !lt)
        continue;
      auto rq = model::quantity::parse(*rt);
      auto lq = model::quantity::parse(*lt);
      if (rq && lq && *rq > *lq)
        causes.push_back(status::invalid_value(base + ".requests", *rt,
                                               "must be less than or equal to "
                                                 + std::string{kv.key()}
                                                 + " limit of " + *lt));
    }
  });
}

} // namespace

bool is_dns_name(std::string_view name, bool label) {
  if (label)
    return name.size() <= max_dns1123_label_length && is_dns1123_label(name);
  // Object names: the subdomain characters, without the per-label checks.
  if (name.empty() || name.size() > max_dns1123_subdomain_length)
    return false;
  auto alnum
    = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(name.front()) || !alnum(name.back()))
    return false;
  for (char c : name)
    if (!(alnum(c) || c == '-' || c == '.'))
      return false;
  return true;
}

void apply_defaults(storage_kind storage, json::object& obj) {
  switch (storage) {
  case storage_kind::pod:
    default_pod(obj);
    break;
  case storage_kind::node:
    default_node(obj);
    break;
  case storage_kind::namespace_:
    default_namespace(obj);
    break;
  case storage_kind::deployment:
    default_deployment(obj);
    break;
  case storage_kind::job:
    default_job(obj);
    break;
  case storage_kind::daemon_set:
    default_daemon_set(obj);
    break;
  case storage_kind::stateful_set:
    default_stateful_set(obj);
    break;
  case storage_kind::secret:
    set_default(obj, "type", "Opaque");
    break;
  case storage_kind::priority_class:
    default_priority_class(obj);
    break;
  case storage_kind::persistent_volume:
    default_persistent_volume(obj);
    break;
  case storage_kind::persistent_volume_claim:
    default_persistent_volume_claim(obj);
    break;
  case storage_kind::storage_class:
    default_storage_class(obj);
    break;
  case storage_kind::csi_driver:
    default_csi_driver(obj);
    break;
  default:
    break;
  }
}

std::optional<std::string> unparsable_quantity(storage_kind storage,
                                               const json::object& obj) {
  std::optional<std::string> bad;
  for_each_quantity(
    storage, obj,
    [&](const std::string&, std::string_view, const json::value& v) {
      if (bad)
        return;
      auto text = quantity_text(v);
      if (!text || !model::quantity::parse(*text))
        bad = "quantities must match the regular expression "
              "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    });
  return bad;
}

std::vector<status_cause> validate(storage_kind storage,
                                   const json::object& obj) {
  std::vector<status_cause> causes;
  const json::object* meta = object_at(obj, "metadata");
  auto name = meta ? string_at(*meta, "name") : std::string_view{};
  bool label = storage == storage_kind::namespace_;
  if (name.empty())
    causes.push_back(status::required("metadata.name"));
  else if (storage != storage_kind::event && !is_dns_name(name, label))
    add_invalid_name(causes, name, label);
  if (meta)
    if (auto* labels = object_at(*meta, "labels"))
      add_label_problems(causes, *labels);
  if (storage == storage_kind::pod) {
    const json::object* spec = object_at(obj, "spec");
    const json::array* containers = nullptr;
    if (spec)
      if (auto* v = spec->if_contains("containers"))
        containers = v->if_array();
    if (!containers || containers->empty()) {
      causes.push_back(status::required("spec.containers"));
    } else {
      for (std::size_t i = 0; i < containers->size(); ++i) {
        std::string base = "spec.containers[" + std::to_string(i) + "]";
        auto* c = (*containers)[i].if_object();
        if (!c) {
          causes.push_back(
            status::invalid_value(base, "", "must be an object"));
          continue;
        }
        auto cname = string_at(*c, "name");
        if (cname.empty())
          causes.push_back(status::required(base + ".name"));
        else if (!is_dns_name(cname, true))
          causes.push_back(status::invalid_value(base + ".name", cname,
                                                 "a lowercase RFC 1123 label"));
        if (string_at(*c, "image").empty())
          causes.push_back(status::required(base + ".image"));
      }
    }
  }
  if (storage == storage_kind::priority_class) {
    auto* v = obj.if_contains("value");
    if (!v || !(v->is_int64() || v->is_uint64()))
      causes.push_back(status::required("value"));
    else if (v->is_int64() && v->as_int64() > 1000000000
             && name.substr(0, 7) != "system-")
      causes.push_back(status::forbidden_field(
        "value", "maximum allowed value of a user defined priority is "
                 "1000000000"));
  }
  return causes;
}

std::vector<status_cause> validate_quantities(storage_kind storage,
                                              const json::object& obj) {
  std::vector<status_cause> causes;
  for_each_quantity(
    storage, obj,
    [&](const std::string& path, std::string_view name, const json::value& v) {
      auto text = quantity_text(v);
      if (!text)
        return;
      auto q = model::quantity::parse(*text);
      if (q && q->is_negative())
        causes.push_back(
          status::invalid_value(path + "[" + std::string{name} + "]", *text,
                                "must be greater than or equal to 0"));
    });
  if (storage == storage_kind::pod)
    add_request_above_limit(causes, obj);
  return causes;
}

bool pod_ready(const json::object& pod) {
  const auto* conds = array_at(object_at(pod, "status"), "conditions");
  if (!conds)
    return false;
  for (const auto& c : *conds)
    if (auto* co = c.if_object())
      if (string_at(co, "type") == "Ready")
        return string_at(co, "status") == "True";
  return false;
}

std::string qos_class(const json::object& pod) {
  const json::object* spec = object_at(pod, "spec");
  if (!spec)
    return "BestEffort";
  bool any = false;
  bool guaranteed = true;
  for (std::string_view list : {"containers", "initContainers"}) {
    auto* v = spec->if_contains(list);
    if (!v || !v->is_array())
      continue;
    for (const auto& c : v->as_array()) {
      auto* co = c.if_object();
      if (!co)
        continue;
      const json::object* res = object_at(*co, "resources");
      const json::object* req = res ? object_at(*res, "requests") : nullptr;
      const json::object* lim = res ? object_at(*res, "limits") : nullptr;
      for (std::string_view r : {"cpu", "memory"}) {
        auto* rq = req ? req->if_contains(r) : nullptr;
        auto* lm = lim ? lim->if_contains(r) : nullptr;
        // Plain values: GCC 12 at -O2 misreads optionals here.
        std::int64_t rq_milli = 0, lm_milli = 0;
        bool has_rq = false, has_lm = false;
        if (rq)
          if (auto m = milli(*rq)) {
            rq_milli = *m;
            has_rq = true;
          }
        if (lm)
          if (auto m = milli(*lm)) {
            lm_milli = *m;
            has_lm = true;
          }
        if ((has_rq && rq_milli != 0) || (has_lm && lm_milli != 0))
          any = true;
        if (!has_lm || !has_rq || lm_milli != rq_milli)
          guaranteed = false;
      }
    }
  }
  if (!any)
    return "BestEffort";
  return guaranteed ? "Guaranteed" : "Burstable";
}

void reset_pod_status(json::object& pod, const std::string& now) {
  json::object status;
  status["phase"] = "Pending";
  status["qosClass"] = qos_class(pod);
  if (const auto* gates = array_at(object_at(&pod, "spec"), "schedulingGates");
      gates && !gates->empty())
    status["conditions"] = json::array{json::object{
      {"type", "PodScheduled"},
      {"status", "False"},
      {"lastProbeTime", nullptr},
      {"lastTransitionTime", now},
      {"reason", "SchedulingGated"},
      {"message", "Scheduling is blocked due to non-empty scheduling gates"}}};
  pod["status"] = std::move(status);
}

void reset_storage_status(storage_kind storage, json::object& obj) {
  if (storage == storage_kind::persistent_volume
      || storage == storage_kind::persistent_volume_claim)
    obj["status"] = json::object{{"phase", "Pending"}};
  if (storage == storage_kind::namespace_)
    obj["status"] = json::object{{"phase", "Active"}};
  if (storage == storage_kind::deployment || storage == storage_kind::job
      || storage == storage_kind::daemon_set)
    obj.erase("status");
}

void default_job_selector(json::object& job, std::string_view uid) {
  auto& spec = ensure_object(job, "spec");
  if (auto* m = spec.if_contains("manualSelector");
      m && m->is_bool() && m->as_bool())
    return;
  auto& meta = ensure_object(job, "metadata");
  std::string name{string_at(meta, "name")};
  auto& labels = ensure_object(
    ensure_object(ensure_object(spec, "template"), "metadata"), "labels");
  labels["batch.kubernetes.io/controller-uid"] = uid;
  labels["batch.kubernetes.io/job-name"] = name;
  labels["controller-uid"] = uid;
  labels["job-name"] = name;
  spec["selector"] = json::object{
    {"matchLabels", json::object{{"batch.kubernetes.io/controller-uid", uid}}}};
}

void add_default_tolerations(json::object& pod) {
  auto& spec = ensure_object(pod, "spec");
  auto& tv = spec["tolerations"];
  if (!tv.is_array())
    tv = json::array{};
  auto& tols = tv.as_array();
  for (std::string_view key :
       {"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"}) {
    bool tolerated = false;
    for (const auto& t : tols) {
      auto* to = t.if_object();
      if (!to)
        continue;
      auto effect = string_at(*to, "effect");
      auto tkey = string_at(*to, "key");
      auto op = string_at(*to, "operator");
      bool key_ok = tkey == key || (tkey.empty() && op == "Exists");
      if (key_ok && (effect.empty() || effect == "NoExecute"))
        tolerated = true;
    }
    if (tolerated)
      continue;
    json::object t;
    t["key"] = key;
    t["operator"] = "Exists";
    t["effect"] = "NoExecute";
    t["tolerationSeconds"] = 300;
    tols.push_back(std::move(t));
  }
}

std::optional<api_status> resolve_priority(
  json::object& pod,
  const std::function<std::optional<priority_info>(std::string_view)>& lookup,
  const std::optional<priority_info>& global_default) {
  auto& spec = ensure_object(pod, "spec");
  const json::object* meta = object_at(pod, "metadata");
  std::string pod_name{meta ? string_at(*meta, "name") : std::string_view{}};
  auto class_name = std::string{string_at(spec, "priorityClassName")};
  priority_info info;
  if (!class_name.empty()) {
    auto found = lookup(class_name);
    if (!found)
      return status::forbidden("pods", pod_name,
                               "no PriorityClass with name " + class_name
                                 + " was found");
    info = *found;
  } else if (global_default) {
    info = *global_default;
  }
  if (auto* given = spec.if_contains("priority"); given && !given->is_null()) {
    bool same
      = (given->is_int64() && given->as_int64() == info.value)
        || (given->is_uint64()
            && given->as_uint64() == static_cast<std::uint64_t>(info.value));
    if (!same)
      return status::forbidden(
        "pods", pod_name,
        "the integer value of priority (" + json::serialize(*given)
          + ") must not be provided in pod spec; priority admission "
            "controller computed "
          + std::to_string(info.value) + " from the given PriorityClass name");
  }
  spec["priority"] = info.value;
  if (!info.preemption_policy.empty())
    spec["preemptionPolicy"] = info.preemption_policy;
  else
    set_default(spec, "preemptionPolicy", "PreemptLowerPriority");
  return std::nullopt;
}

std::optional<status_cause>
check_pod_spec_update(const json::object& old_spec,
                      const json::object& new_spec) {
  if (old_spec == new_spec)
    return std::nullopt;
  // Compare with the mutable fields blanked out.
  auto strip = [](json::object spec, const json::object& other) {
    spec.erase("activeDeadlineSeconds");
    for (std::string_view list : {"containers", "initContainers"})
      if (auto* v = spec.if_contains(list))
        if (auto* arr = v->if_array())
          for (auto& c : *arr)
            if (auto* co = c.if_object())
              co->erase("image");
    // Tolerations may only be added: keep the other side's prefix.
    (void)other;
    spec.erase("tolerations");
    spec.erase("schedulingGates");
    return spec;
  };
  if (strip(old_spec, new_spec) == strip(new_spec, old_spec)) {
    // Tolerations: the old ones must remain a prefix-free subset.
    auto* ot = old_spec.if_contains("tolerations");
    auto* nt = new_spec.if_contains("tolerations");
    if (ot && ot->is_array()) {
      for (const auto& t : ot->as_array()) {
        bool kept
          = nt && nt->is_array()
            && std::find(nt->as_array().begin(), nt->as_array().end(), t)
                 != nt->as_array().end();
        if (!kept)
          return status::forbidden_field(
            "spec.tolerations", "existing toleration can not be modified "
                                "except its tolerationSeconds");
      }
    }
    // Scheduling gates may only be removed.
    auto* og = old_spec.if_contains("schedulingGates");
    auto* ng = new_spec.if_contains("schedulingGates");
    if (ng && ng->is_array()) {
      for (const auto& g : ng->as_array()) {
        bool existed
          = og && og->is_array()
            && std::find(og->as_array().begin(), og->as_array().end(), g)
                 != og->as_array().end();
        if (!existed)
          return status::forbidden_field(
            "spec.schedulingGates", "only deletion is allowed, but found new "
                                    "scheduling gate");
      }
    }
    return std::nullopt;
  }
  auto old_node = string_at(old_spec, "nodeName");
  auto new_node = string_at(new_spec, "nodeName");
  if (old_node != new_node)
    return status::forbidden_field(
      "spec.nodeName", "pod updates may not change fields other than "
                       "`spec.containers[*].image`, "
                       "`spec.initContainers[*].image`, "
                       "`spec.activeDeadlineSeconds`, `spec.tolerations` "
                       "(only additions to existing tolerations), "
                       "`spec.terminationGracePeriodSeconds` (allow it to be "
                       "set to 1 if it was previously negative)");
  return status::forbidden_field(
    "spec", "pod updates may not change fields other than "
            "`spec.containers[*].image`, `spec.initContainers[*].image`, "
            "`spec.activeDeadlineSeconds`, `spec.tolerations` (only "
            "additions to existing tolerations), "
            "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 "
            "if it was previously negative)");
}

namespace {

/// (core name, v1 name) for the fields that are renamed between views.
constexpr std::pair<std::string_view, std::string_view> event_renames[] = {
  {"involvedObject", "regarding"},
  {"message", "note"},
  {"source", "deprecatedSource"},
  {"firstTimestamp", "deprecatedFirstTimestamp"},
  {"lastTimestamp", "deprecatedLastTimestamp"},
  {"count", "deprecatedCount"},
  {"reportingComponent", "reportingController"},
};

json::value rename_event(const json::value& in, bool to_v1) {
  json::object out;
  auto* o = in.if_object();
  if (!o)
    return out;
  out["kind"] = "Event";
  out["apiVersion"] = to_v1 ? "events.k8s.io/v1" : "v1";
  for (const auto& kv : *o) {
    std::string_view key = kv.key();
    if (key == "kind" || key == "apiVersion")
      continue;
    std::string_view mapped = key;
    for (const auto& [core, v1] : event_renames) {
      if (to_v1 && key == core)
        mapped = v1;
      if (!to_v1 && key == v1)
        mapped = core;
    }
    // Zero-valued deprecated fields are dropped in the v1 view.
    if (to_v1
        && (kv.value().is_null()
            || (mapped == "deprecatedCount" && kv.value().is_int64()
                && kv.value().as_int64() == 0)))
      continue;
    out[mapped] = kv.value();
  }
  return out;
}

} // namespace

json::value event_core_to_v1(const json::value& core) {
  return rename_event(core, true);
}

json::value event_v1_to_core(const json::value& v1) {
  return rename_event(v1, false);
}

} // namespace tessera::apiserver::admission
