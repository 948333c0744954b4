// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/decode.hpp"
#include "model/document_file.hpp"
#include "model/json_access.hpp"
#include "perf/harness/go_template.hpp"
#include "perf/harness/templates.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace tessera::perf {

namespace json = boost::json;
using model::array_at;
using model::ensure_array;
using model::ensure_object;
using model::object_at;
using model::string_at;

namespace {

expected<json::value> parse(const object_template& t) {
  boost::system::error_code ec;
  auto v = json::parse(t.json, ec);
  if (ec || !v.is_object())
    return make_error(ec::internal, t.file + ": template is not an object");
  return v;
}

/// Field names of the objects templates describe, for the
/// case-insensitive match upstream's decoder does.
constexpr std::string_view known_fields[] = {
  "apiVersion",
  "kind",
  "metadata",
  "name",
  "generateName",
  "namespace",
  "labels",
  "annotations",
  "finalizers",
  "spec",
  "status",
  "containers",
  "initContainers",
  "image",
  "ports",
  "containerPort",
  "hostPort",
  "protocol",
  "resources",
  "requests",
  "limits",
  "affinity",
  "nodeAffinity",
  "podAffinity",
  "podAntiAffinity",
  "requiredDuringSchedulingIgnoredDuringExecution",
  "preferredDuringSchedulingIgnoredDuringExecution",
  "nodeSelectorTerms",
  "matchExpressions",
  "matchFields",
  "key",
  "operator",
  "values",
  "weight",
  "podAffinityTerm",
  "labelSelector",
  "matchLabels",
  "topologyKey",
  "namespaces",
  "namespaceSelector",
  "matchLabelKeys",
  "mismatchLabelKeys",
  "topologySpreadConstraints",
  "maxSkew",
  "whenUnsatisfiable",
  "minDomains",
  "nodeAffinityPolicy",
  "nodeTaintsPolicy",
  "nodeSelector",
  "nodeName",
  "tolerations",
  "effect",
  "value",
  "tolerationSeconds",
  "taints",
  "priority",
  "priorityClassName",
  "preemptionPolicy",
  "schedulingGates",
  "schedulerName",
  "terminationGracePeriodSeconds",
  "overhead",
  "capacity",
  "allocatable",
  "conditions",
  "type",
  "phase",
  "unschedulable",
  "volumes",
  "persistentVolumeClaim",
  "claimName",
  "selector",
  "targetPort",
  "port",
  "accessModes",
  "persistentVolumeReclaimPolicy",
  "storageClassName",
  "volumeName",
  "volumeMode",
  "claimRef",
  "csi",
  "driver",
  "volumeHandle",
  "awsElasticBlockStore",
  "volumeID",
};

void canonical_keys(json::value& v) {
  if (auto* a = v.if_array()) {
    for (auto& e : *a)
      canonical_keys(e);
    return;
  }
  auto* o = v.if_object();
  if (o == nullptr)
    return;
  json::object out;
  for (auto& [key, value] : *o) {
    canonical_keys(value);
    std::string_view name = key;
    for (auto known : known_fields)
      if (known.size() == key.size() && known != key
          && std::equal(known.begin(), known.end(), key.begin(),
                        [](char a, char b) {
                          return std::tolower(static_cast<unsigned char>(a))
                                 == std::tolower(static_cast<unsigned char>(b));
                        }))
        name = known;
    out[name] = std::move(value);
  }
  *o = std::move(out);
}

} // namespace

namespace {

go_data template_data(std::int64_t index, std::int64_t count,
                      const template_params& params) {
  go_data data{{"Index", index}, {"Count", count}};
  for (const auto& [k, v] : params) {
    std::size_t used = 0;
    try {
      auto n = std::stoll(v, &used);
      if (used == v.size()) {
        data[k] = static_cast<std::int64_t>(n);
        continue;
      }
    } catch (const std::exception&) {
    }
    data[k] = v;
  }
  return data;
}

/// The value of a top-level `key: value` line.
std::string top_level(std::string_view text, std::string_view key) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    auto line = text.substr(
      pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    if (line.substr(0, key.size()) == key && line.size() > key.size()
        && line[key.size()] == ':') {
      auto v = line.substr(key.size() + 1);
      while (!v.empty() && (v.front() == ' ' || v.front() == '"'))
        v.remove_prefix(1);
      while (!v.empty()
             && (v.back() == ' ' || v.back() == '"' || v.back() == '\r'))
        v.remove_suffix(1);
      return std::string{v};
    }
    if (end == std::string_view::npos)
      break;
    pos = end + 1;
  }
  return {};
}

} // namespace

expected<object_template> instantiate_template(const object_template& t,
                                               std::int64_t index,
                                               std::int64_t count,
                                               const template_params& params) {
  if (t.go_text.empty())
    return t;
  auto text
    = render_go_template(t.go_text, template_data(index, count, params));
  if (!text)
    return make_error(ec::invalid_input, t.file + ": " + text.err().message);
  return parse_template(*text, t.file);
}

expected<object_template> parse_template(std::string_view text,
                                         const std::string& file) {
  if (has_go_actions(text)) {
    object_template t;
    t.file = file;
    t.go_text = std::string{text};
    t.kind = top_level(text, "kind");
    t.api_version = top_level(text, "apiVersion");
    // Object 0 must render; whether it decodes may depend on the
    // templateParams only the op gives.
    auto probe = render_go_template(text, template_data(0, 1, {}));
    if (!probe)
      return make_error(ec::invalid_input, file + ": " + probe.err().message);
    return t;
  }
  std::string doc;
  auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') {
    doc = std::string{text};
  } else {
    auto docs = model::yaml_documents_to_json(text);
    if (!docs)
      return make_error(ec::invalid_input, file + ": " + docs.err().message);
    if (docs->size() != 1)
      return make_error(ec::invalid_input,
                        file + ": expected exactly one document, found "
                          + std::to_string(docs->size()));
    doc = std::move((*docs)[0]);
  }
  boost::system::error_code ec;
  auto v = json::parse(doc, ec);
  if (ec)
    return make_error(ec::invalid_input,
                      file + ": invalid JSON: " + ec.message());
  if (!v.is_object())
    return make_error(ec::invalid_input, file + ": must be an object");
  canonical_keys(v);
  auto& o = v.as_object();
  object_template t;
  t.file = file;
  t.kind = string_at(o, "kind");
  t.api_version = string_at(o, "apiVersion");
  if (t.kind.empty())
    return make_error(ec::invalid_input, file + ": kind: Required value");
  if (t.api_version.empty())
    return make_error(ec::invalid_input, file + ": apiVersion: Required value");
  if (const auto* m = o.if_contains("metadata"); m && m->is_object()) {
    t.name = string_at(m->as_object(), "name");
    t.generate_name = string_at(m->as_object(), "generateName");
    t.ns = string_at(m->as_object(), "namespace");
  }
  t.json = json::serialize(v);
  // What the scheduler decodes must decode: catch a bad quantity or
  // selector here, with the file's name, rather than at the server.
  if (t.kind == "Pod" || t.kind == "Node" || t.kind == "Namespace"
      || t.kind == "PriorityClass" || t.kind == "PodDisruptionBudget"
      || t.kind == "PersistentVolume" || t.kind == "PersistentVolumeClaim") {
    json::value probe = v;
    auto& meta = ensure_object(probe.as_object(), "metadata");
    if (string_at(meta, "name").empty())
      meta["name"] = "probe";
    auto decoded = model::decode_object_json(json::serialize(probe));
    if (!decoded)
      return make_error(ec::invalid_input, file + ": " + decoded.err().message);
  }
  return t;
}

expected<object_template> load_template(const std::string& path) {
  auto text = model::read_document_file(path);
  if (!text)
    return make_error(ec::invalid_input, text.err().message);
  return parse_template(*text, path);
}

object_template default_node_template() {
  auto t = parse_template(
    R"({"apiVersion":"v1","kind":"Node","metadata":{"generateName":"node-"},)"
    R"("status":{"capacity":{"cpu":"4","memory":"32Gi","pods":"110"},)"
    R"("allocatable":{"cpu":"4","memory":"32Gi","pods":"110"},)"
    R"("conditions":[{"type":"Ready","status":"True","reason":"KubeletReady"}],)"
    R"("phase":"Running"}})",
    "<default node>");
  return std::move(*t);
}

object_template default_pod_template() {
  auto t = parse_template(
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"generateName":"pod-"},)"
    R"("spec":{"containers":[{"name":"pause",)"
    R"("image":"registry.k8s.io/pause:3.10","ports":[{"containerPort":80}],)"
    R"("resources":{"limits":{"cpu":"100m","memory":"500Mi"},)"
    R"("requests":{"cpu":"100m","memory":"500Mi"}}}]}})",
    "<base pod>");
  return std::move(*t);
}

label_match labels_of(const object_template& t) {
  label_match out;
  auto v = parse(t);
  if (!v)
    return out;
  if (const auto* m = v->as_object().if_contains("metadata");
      m && m->is_object())
    if (const auto* l = m->as_object().if_contains("labels");
        l && l->is_object())
      for (const auto& [k, val] : l->as_object())
        if (val.is_string())
          out.emplace(std::string{k}, std::string{val.as_string()});
  return out;
}

bool is_gated(const object_template& t) {
  auto v = parse(t);
  if (!v)
    return false;
  const auto* spec = v->as_object().if_contains("spec");
  if (spec == nullptr || !spec->is_object())
    return false;
  const auto* gates = spec->as_object().if_contains("schedulingGates");
  return gates != nullptr && gates->is_array() && !gates->as_array().empty();
}

bool matches(const label_match& selector, const label_match& labels) {
  for (const auto& [k, v] : selector) {
    auto it = labels.find(k);
    if (it == labels.end() || it->second != v)
      return false;
  }
  return true;
}

expected<std::string>
render_node(const object_template& t, const node_label_strategy& s,
            std::size_t index, const node_marks& marks,
            const node_allocatable_strategy& allocatable) {
  auto v = parse(t);
  if (!v)
    return v.err();
  auto& o = v->as_object();
  // Every access looks the path up again: an insertion may move an
  // object's storage and invalidate references into it.
  auto meta = [&]() -> json::object& { return ensure_object(o, "metadata"); };
  auto labels
    = [&]() -> json::object& { return ensure_object(meta(), "labels"); };
  // Named here rather than by the server so that the hostname label can
  // carry the name, as upstream's node preparer does.
  std::string name{string_at(meta(), "name")};
  if (name.empty()) {
    std::string prefix{string_at(meta(), "generateName")};
    name = (prefix.empty() ? std::string{"node-"} : prefix)
           + std::to_string(index);
    meta()["name"] = name;
    meta().erase("generateName");
  }
  if (!labels().contains("kubernetes.io/hostname"))
    labels()["kubernetes.io/hostname"] = name;
  switch (s.type) {
  case node_label_strategy::kind::values:
    labels()[s.key] = s.values[index % s.values.size()];
    break;
  case node_label_strategy::kind::unique:
    labels()[s.key] = name;
    break;
  case node_label_strategy::kind::none:
    break;
  }
  if (!marks.run_label_key.empty())
    labels()[marks.run_label_key] = marks.run_label_value;
  if (marks.kwok_fake) {
    ensure_object(meta(), "annotations")["kwok.x-k8s.io/node"] = "fake";
    ensure_object(meta(), "annotations")["node.alpha.kubernetes.io/ttl"] = "0";
    labels()["type"] = "kwok";
    auto& taints = ensure_array(ensure_object(o, "spec"), "taints");
    bool has = false;
    for (const auto& taint : taints)
      has |= taint.is_object()
             && string_at(taint.as_object(), "key") == "kwok.x-k8s.io/node";
    if (!has)
      taints.push_back(json::object{{"key", "kwok.x-k8s.io/node"},
                                    {"value", "fake"},
                                    {"effect", "NoSchedule"}});
  }
  if (const auto* l = meta().if_contains("labels");
      l && l->is_object() && l->as_object().empty())
    meta().erase("labels");
  if (!allocatable.node_allocatable.empty()) {
    auto& status = ensure_object(o, "status");
    if (!status.contains("allocatable"))
      if (const auto* cap = status.if_contains("capacity");
          cap && cap->is_object())
        status["allocatable"] = *cap;
    auto& alloc = ensure_object(status, "allocatable");
    for (const auto& [name, value] : allocatable.node_allocatable)
      alloc[name] = value;
  }
  return json::serialize(*v);
}

std::string render_csi_node(const std::string& node,
                            const node_allocatable_strategy& s) {
  std::string plugins;
  for (const auto& p : s.migrated_plugins)
    plugins += (plugins.empty() ? "" : ",") + p;
  json::array drivers;
  for (const auto& [name, count] : s.csi_allocatable) {
    json::object d{{"name", name}, {"nodeID", node}};
    if (count)
      d["allocatable"] = json::object{{"count", *count}};
    drivers.push_back(std::move(d));
  }
  json::object csi{
    {"apiVersion", "storage.k8s.io/v1"},
    {"kind", "CSINode"},
    {"metadata",
     json::object{{"name", node},
                  {"annotations",
                   json::object{{"storage.alpha.kubernetes.io/migrated-plugins",
                                 plugins}}}}},
    {"spec", json::object{{"drivers", std::move(drivers)}}}};
  return json::serialize(csi);
}

expected<bound_claim> render_bound_claim(const object_template& volume,
                                         const object_template& claim,
                                         const std::string& ns,
                                         std::int64_t index) {
  auto pv = parse(volume);
  if (!pv)
    return pv.err();
  auto pvc = parse(claim);
  if (!pvc)
    return pvc.err();
  bound_claim out;
  out.claim_name = "pvc-" + std::to_string(index);
  // Volumes are cluster-scoped: the namespace keeps names of different
  // ops apart.
  std::string id = "vol-" + std::to_string(index);
  out.volume_name = ns + "-" + id;

  auto& c = pvc->as_object();
  auto& cmeta = ensure_object(c, "metadata");
  cmeta["name"] = out.claim_name;
  cmeta["namespace"] = ns;
  cmeta.erase("generateName");
  ensure_object(c, "spec")["volumeName"] = out.volume_name;
  ensure_object(c, "status")["phase"] = "Bound";

  auto& v = pv->as_object();
  auto& vmeta = ensure_object(v, "metadata");
  vmeta["name"] = out.volume_name;
  vmeta.erase("generateName");
  auto& vspec = ensure_object(v, "spec");
  if (auto* csi = vspec.if_contains("csi"); csi && csi->is_object())
    csi->as_object()["volumeHandle"] = out.volume_name;
  else if (auto* ebs = vspec.if_contains("awsElasticBlockStore");
           ebs && ebs->is_object())
    ebs->as_object()["volumeID"] = id;
  vspec["claimRef"] = json::object{{"kind", "PersistentVolumeClaim"},
                                   {"namespace", ns},
                                   {"name", out.claim_name},
                                   {"apiVersion", "v1"}};
  ensure_object(v, "status")["phase"] = "Bound";

  out.claim_json = json::serialize(*pvc);
  out.volume_json = json::serialize(*pv);
  return out;
}

expected<std::string> with_claim_volume(std::string_view pod_json,
                                        const std::string& claim) {
  boost::system::error_code ec;
  auto v = json::parse(pod_json, ec);
  if (ec || !v.is_object())
    return make_error(ec::internal, "pod is not a JSON object");
  ensure_object(v.as_object(), "spec")["volumes"] = json::array{json::object{
    {"name", "vol"},
    {"persistentVolumeClaim", json::object{{"claimName", claim}}}}};
  return json::serialize(v);
}

expected<std::string> render_pod(const object_template& t, bool tolerate_kwok) {
  if (!tolerate_kwok)
    return t.json;
  auto v = parse(t);
  if (!v)
    return v.err();
  auto& spec = ensure_object(v->as_object(), "spec");
  ensure_array(spec, "tolerations")
    .push_back(json::object{{"key", "kwok.x-k8s.io/node"},
                            {"operator", "Exists"},
                            {"effect", "NoSchedule"}});
  return json::serialize(*v);
}

expected<std::string> object_name_of(std::string_view text) {
  boost::system::error_code ec;
  auto v = json::parse(text, ec);
  if (!ec && v.is_object())
    if (const auto* m = v.as_object().if_contains("metadata");
        m && m->is_object())
      if (auto name = string_at(m->as_object(), "name"); !name.empty())
        return std::string{name};
  return make_error(ec::internal, "the API answered a create without "
                                  "metadata.name");
}

bool marked_not_scheduled(std::string_view pod_json) {
  boost::system::error_code ec;
  auto v = json::parse(pod_json, ec);
  if (ec || !v.is_object())
    return false;
  if (const auto* conds
      = array_at(object_at(&v.as_object(), "status"), "conditions"))
    for (const auto& c : *conds)
      if (const auto* co = c.if_object();
          co && string_at(*co, "type") == "PodScheduled"
          && string_at(*co, "status") == "False")
        return true;
  return false;
}

expected<std::string> render_namespace(const object_template* t,
                                       const std::string& name,
                                       const node_marks& marks) {
  json::value v = json::object{{"apiVersion", "v1"}, {"kind", "Namespace"}};
  if (t != nullptr) {
    auto parsed = parse(*t);
    if (!parsed)
      return parsed.err();
    v = std::move(*parsed);
  }
  auto& meta = ensure_object(v.as_object(), "metadata");
  meta["name"] = name;
  meta.erase("generateName");
  if (!marks.run_label_key.empty())
    ensure_object(meta, "labels")[marks.run_label_key] = marks.run_label_value;
  return json::serialize(v);
}

} // namespace tessera::perf
