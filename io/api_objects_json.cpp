// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// JSON builders and parsers of api_objects.hpp (Boost.JSON).
#include "io/api_objects.hpp"
#include "io/kubeconfig.hpp"
#include "support/base64.hpp"

#include <boost/json.hpp>

namespace tessera::io {

namespace json = boost::json;

namespace {

const json::value* at(const json::value& v,
                      std::initializer_list<std::string_view> path) {
  const json::value* cur = &v;
  for (auto k : path) {
    if (!cur->is_object())
      return nullptr;
    cur = cur->as_object().if_contains(k);
    if (cur == nullptr)
      return nullptr;
  }
  return cur;
}

std::string text_at(const json::value& v,
                    std::initializer_list<std::string_view> path) {
  const json::value* x = at(v, path);
  if (x == nullptr || !x->is_string())
    return {};
  return std::string{x->as_string()};
}

std::optional<std::int64_t>
int_at(const json::value& v, std::initializer_list<std::string_view> path) {
  const json::value* x = at(v, path);
  if (x == nullptr)
    return std::nullopt;
  if (x->is_int64())
    return x->as_int64();
  if (x->is_uint64())
    return static_cast<std::int64_t>(x->as_uint64());
  if (x->is_double())
    return static_cast<std::int64_t>(x->as_double());
  return std::nullopt;
}

std::optional<json::value> parse(std::string_view text) {
  json::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec)
    return std::nullopt;
  return v;
}

json::object ref_json(const object_ref& r) {
  json::object o;
  o["kind"] = r.kind;
  if (!r.ns.empty())
    o["namespace"] = r.ns;
  o["name"] = r.name;
  if (!r.uid.empty())
    o["uid"] = r.uid;
  o["apiVersion"] = r.api_version;
  if (!r.resource_version.empty())
    o["resourceVersion"] = r.resource_version;
  return o;
}

json::object event_meta(const event_record& e) {
  json::object m;
  m["name"] = e.name;
  m["namespace"] = e.ns;
  return m;
}

} // namespace

api_status decode_status(std::string_view body, int http_code) {
  api_status s;
  s.code = http_code;
  if (auto v = parse(body); v && v->is_object()) {
    s.reason = text_at(*v, {"reason"});
    s.message = text_at(*v, {"message"});
    if (auto c = int_at(*v, {"code"}); c && *c > 0)
      s.code = static_cast<int>(*c);
    if (!s.message.empty() || !s.reason.empty())
      return s;
  }
  std::string_view t = body;
  while (!t.empty()
         && (t.back() == '\n' || t.back() == ' ' || t.back() == '\r'))
    t.remove_suffix(1);
  s.message = std::string{t.substr(0, 512)};
  if (s.message.empty())
    s.message = "HTTP " + std::to_string(http_code);
  return s;
}

std::string encode_binding(std::string_view ns, std::string_view name,
                           std::string_view uid, std::string_view node) {
  json::object meta;
  meta["name"] = name;
  meta["namespace"] = ns;
  if (!uid.empty())
    meta["uid"] = uid;
  json::object target;
  target["kind"] = "Node";
  target["name"] = node;
  json::object o;
  o["kind"] = "Binding";
  o["apiVersion"] = "v1";
  o["metadata"] = std::move(meta);
  o["target"] = std::move(target);
  return json::serialize(o);
}

std::string encode_pod_status_patch(const std::vector<condition_patch>& conds,
                                    bool set_nomination,
                                    std::string_view nominated_node,
                                    std::string_view uid) {
  json::object status;
  if (!conds.empty()) {
    json::array list;
    for (const auto& c : conds) {
      json::object o;
      o["type"] = c.type;
      o["status"] = c.status;
      if (!c.reason.empty())
        o["reason"] = c.reason;
      if (!c.message.empty())
        o["message"] = c.message;
      o["lastProbeTime"] = nullptr;
      if (c.last_transition)
        o["lastTransitionTime"] = format_time(*c.last_transition);
      list.push_back(std::move(o));
    }
    status["conditions"] = std::move(list);
  }
  if (set_nomination) {
    if (nominated_node.empty())
      status["nominatedNodeName"] = nullptr;
    else
      status["nominatedNodeName"] = nominated_node;
  }
  json::object patch;
  if (!uid.empty())
    patch["metadata"] = json::object{{"uid", uid}};
  patch["status"] = std::move(status);
  return json::serialize(patch);
}

std::string encode_event_v1(const event_record& e) {
  json::object o;
  o["kind"] = "Event";
  o["apiVersion"] = "events.k8s.io/v1";
  o["metadata"] = event_meta(e);
  o["eventTime"] = format_micro_time(e.event_time);
  if (e.series_count > 0) {
    json::object s;
    s["count"] = e.series_count;
    s["lastObservedTime"] = format_micro_time(e.last_observed);
    o["series"] = std::move(s);
  }
  o["reportingController"] = e.reporting_controller;
  o["reportingInstance"] = e.reporting_instance;
  o["action"] = e.action;
  o["reason"] = e.reason;
  o["regarding"] = ref_json(e.regarding);
  if (e.related)
    o["related"] = ref_json(*e.related);
  o["note"] = e.note;
  o["type"] = e.type;
  return json::serialize(o);
}

std::string encode_event_series_patch_v1(const event_record& e) {
  json::object s;
  s["count"] = e.series_count;
  s["lastObservedTime"] = format_micro_time(e.last_observed);
  json::object o;
  o["series"] = std::move(s);
  return json::serialize(o);
}

std::string encode_event_core(const event_record& e) {
  json::object o;
  o["kind"] = "Event";
  o["apiVersion"] = "v1";
  o["metadata"] = event_meta(e);
  o["involvedObject"] = ref_json(e.regarding);
  if (e.related)
    o["related"] = ref_json(*e.related);
  o["reason"] = e.reason;
  o["message"] = e.note;
  json::object source;
  source["component"] = e.reporting_controller;
  o["source"] = std::move(source);
  o["firstTimestamp"] = format_time(e.event_time);
  o["lastTimestamp"]
    = format_time(e.series_count > 0 ? e.last_observed : e.event_time);
  o["count"] = e.series_count > 0 ? e.series_count : 1;
  o["type"] = e.type;
  o["action"] = e.action;
  o["reportingComponent"] = e.reporting_controller;
  o["reportingInstance"] = e.reporting_instance;
  return json::serialize(o);
}

std::string encode_event_count_patch_core(const event_record& e) {
  json::object o;
  o["count"] = e.series_count > 0 ? e.series_count : 1;
  o["lastTimestamp"] = format_time(e.last_observed);
  return json::serialize(o);
}

std::string encode_lease(std::string_view ns, std::string_view name,
                         const lease_record& r) {
  json::object meta;
  meta["name"] = name;
  meta["namespace"] = ns;
  if (!r.resource_version.empty())
    meta["resourceVersion"] = r.resource_version;
  json::object spec;
  spec["holderIdentity"] = r.holder_identity;
  spec["leaseDurationSeconds"] = r.lease_duration_seconds;
  if (r.acquire_time)
    spec["acquireTime"] = format_micro_time(*r.acquire_time);
  if (r.renew_time)
    spec["renewTime"] = format_micro_time(*r.renew_time);
  spec["leaseTransitions"] = r.lease_transitions;
  json::object o;
  o["kind"] = "Lease";
  o["apiVersion"] = "coordination.k8s.io/v1";
  o["metadata"] = std::move(meta);
  o["spec"] = std::move(spec);
  return json::serialize(o);
}

expected<lease_record> decode_lease(std::string_view text) {
  auto v = parse(text);
  if (!v || !v->is_object())
    return make_error(ec::invalid_input, "lease: not a JSON object");
  lease_record r;
  r.resource_version = text_at(*v, {"metadata", "resourceVersion"});
  r.holder_identity = text_at(*v, {"spec", "holderIdentity"});
  if (auto d = int_at(*v, {"spec", "leaseDurationSeconds"}))
    r.lease_duration_seconds = static_cast<std::int32_t>(*d);
  if (auto t = int_at(*v, {"spec", "leaseTransitions"}))
    r.lease_transitions = static_cast<std::int32_t>(*t);
  for (auto [key, slot] : {std::pair{"acquireTime", &r.acquire_time},
                           std::pair{"renewTime", &r.renew_time}}) {
    std::string s = text_at(*v, {"spec", key});
    if (s.empty())
      continue;
    auto t = parse_time(s);
    if (!t)
      return make_error(ec::invalid_input, std::string{"lease: spec."} + key
                                             + ": invalid time \"" + s + "\"");
    *slot = *t;
  }
  return r;
}

std::string encode_exec_info(std::string_view api_version,
                             const exec_cluster_info* cluster) {
  json::object spec;
  spec["interactive"] = false;
  if (cluster != nullptr) {
    json::object c;
    c["server"] = cluster->server;
    if (!cluster->tls_server_name.empty())
      c["tls-server-name"] = cluster->tls_server_name;
    if (cluster->insecure_skip_tls_verify)
      c["insecure-skip-tls-verify"] = true;
    if (!cluster->ca_pem.empty())
      c["certificate-authority-data"] = base64_encode(cluster->ca_pem);
    spec["cluster"] = std::move(c);
  }
  json::object o;
  o["apiVersion"] = api_version;
  o["kind"] = "ExecCredential";
  o["spec"] = std::move(spec);
  return json::serialize(o);
}

expected<exec_credential> decode_exec_credential(std::string_view text,
                                                 std::string_view api_version) {
  auto v = parse(text);
  if (!v || !v->is_object())
    return make_error(ec::invalid_input,
                      "exec plugin output is not a JSON object");
  std::string got = text_at(*v, {"apiVersion"});
  if (got != api_version)
    return make_error(ec::invalid_input, "exec plugin returned apiVersion \""
                                           + got + "\", expected \""
                                           + std::string{api_version} + "\"");
  if (text_at(*v, {"kind"}) != "ExecCredential")
    return make_error(ec::invalid_input,
                      "exec plugin output is not an ExecCredential");
  const json::value* status = at(*v, {"status"});
  if (status == nullptr || !status->is_object())
    return make_error(ec::invalid_input, "exec plugin output has no status");
  exec_credential c;
  c.token = text_at(*status, {"token"});
  c.client_cert_pem = text_at(*status, {"clientCertificateData"});
  c.client_key_pem = text_at(*status, {"clientKeyData"});
  if (c.client_cert_pem.empty() != c.client_key_pem.empty())
    return make_error(ec::invalid_input,
                      "exec plugin returned only one of "
                      "clientCertificateData and clientKeyData");
  if (c.token.empty() && c.client_cert_pem.empty())
    return make_error(ec::invalid_input,
                      "exec plugin returned neither a token nor a client "
                      "certificate");
  std::string exp = text_at(*status, {"expirationTimestamp"});
  if (!exp.empty()) {
    auto t = parse_time(exp);
    if (!t)
      return make_error(ec::invalid_input,
                        "exec plugin: status.expirationTimestamp: invalid "
                        "time \""
                          + exp + "\"");
    c.expiry = *t;
  }
  return c;
}

std::optional<watch_line_peek> peek_watch_line(std::string_view line) {
  auto v = parse(line);
  if (!v || !v->is_object())
    return std::nullopt;
  watch_line_peek p;
  p.type = text_at(*v, {"type"});
  if (p.type.empty())
    return std::nullopt;
  auto& o = p.object;
  o.resource_version = text_at(*v, {"object", "metadata", "resourceVersion"});
  o.ns = text_at(*v, {"object", "metadata", "namespace"});
  o.name = text_at(*v, {"object", "metadata", "name"});
  o.uid = text_at(*v, {"object", "metadata", "uid"});
  o.node_name = text_at(*v, {"object", "spec", "nodeName"});
  o.scheduler_name = text_at(*v, {"object", "spec", "schedulerName"});
  return p;
}

} // namespace tessera::io
