// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/handler.hpp"

#include "io/apiserver/documents.hpp"
#include "io/apiserver/eviction.hpp"
#include "io/apiserver/protobuf_body.hpp"
#include "io/apiserver/protobuf_reply.hpp"
#include "io/apiserver/reviews.hpp"
#include "io/apiserver/scale.hpp"
#include "io/apiserver/table.hpp"

#include <boost/json.hpp>

#include <charconv>
#include <exception>
#include <random>

namespace tessera::apiserver {

namespace json = boost::json;

namespace {

// ---- request parsing
// ---------------------------------------------------------

int hex_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%' && i + 2 < s.size()) {
      int hi = hex_value(s[i + 1]);
      int lo = hex_value(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += (plus_is_space && c == '+') ? ' ' : c;
  }
  return out;
}

struct query {
  std::vector<std::pair<std::string, std::string>> params;

  const std::string* find(std::string_view key) const {
    for (const auto& [k, v] : params)
      if (k == key)
        return &v;
    return nullptr;
  }
  std::string get(std::string_view key) const {
    auto* v = find(key);
    return v ? *v : std::string{};
  }
};

query parse_query(std::string_view q) {
  query out;
  while (!q.empty()) {
    auto amp = q.find('&');
    auto part = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view{} : q.substr(amp + 1);
    if (part.empty())
      continue;
    auto eq = part.find('=');
    if (eq == std::string_view::npos)
      out.params.emplace_back(percent_decode(part, true), std::string{});
    else
      out.params.emplace_back(percent_decode(part.substr(0, eq), true),
                              percent_decode(part.substr(eq + 1), true));
  }
  return out;
}

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> out;
  while (!path.empty()) {
    if (path.front() == '/') {
      path.remove_prefix(1);
      continue;
    }
    auto slash = path.find('/');
    out.push_back(percent_decode(path.substr(0, slash), false));
    path = slash == std::string_view::npos ? std::string_view{}
                                           : path.substr(slash);
  }
  return out;
}

std::optional<bool> parse_bool(std::string_view s) {
  if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE"
      || s == "True")
    return true;
  if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE"
      || s == "False")
    return false;
  return std::nullopt;
}

std::optional<std::int64_t> parse_int(std::string_view s) {
  std::int64_t n = 0;
  auto [p, e] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (e != std::errc{} || p != s.data() + s.size() || s.empty())
    return std::nullopt;
  return n;
}

/// A boolean query parameter: nullopt when absent, error when malformed.
api_result<std::optional<bool>> bool_param(const query& q,
                                           std::string_view key) {
  auto* v = q.find(key);
  if (!v)
    return std::optional<bool>{};
  auto b = parse_bool(*v);
  if (!b)
    return status::bad_request("invalid value for " + std::string{key} + ": \""
                               + *v + "\"");
  return std::optional<bool>{*b};
}

api_result<std::optional<std::int64_t>> int_param(const query& q,
                                                  std::string_view key) {
  auto* v = q.find(key);
  if (!v || v->empty())
    return std::optional<std::int64_t>{};
  auto n = parse_int(*v);
  if (!n)
    return status::bad_request("invalid value for " + std::string{key} + ": \""
                               + *v + "\"");
  return std::optional<std::int64_t>{*n};
}

api_result<bool> dry_run_param(const query& q) {
  bool dry = false;
  for (const auto& [k, v] : q.params)
    if (k == "dryRun") {
      if (v != "All")
        return status::bad_request("Invalid dryRun value: \"" + v
                                   + "\" (supported values: \"All\")");
      dry = true;
    }
  return dry;
}

/// fieldValidation of a create (POST), update (PUT) or patch: Warn when
/// absent, kube-apiserver's default.
api_result<field_validation> field_validation_param(const query& q,
                                                    std::string_view method) {
  auto* v = q.find("fieldValidation");
  if (!v || v->empty())
    return field_validation::warn;
  if (auto fv = parse_field_validation(*v))
    return *fv;
  std::string_view options = method == "POST"  ? "CreateOptions"
                             : method == "PUT" ? "UpdateOptions"
                                               : "PatchOptions";
  return status::invalid(
    options, "meta.k8s.io", "",
    {status::unsupported_value("fieldValidation", *v,
                               R"("", "Ignore", "Strict", "Warn")")});
}

// ---- content negotiation
// -------------------------------------------------------

enum class media { json, table, none };

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

media negotiate(std::string_view accept, bool table_capable) {
  if (trim(accept).empty())
    return media::json;
  while (!accept.empty()) {
    auto comma = accept.find(',');
    auto range = trim(accept.substr(0, comma));
    accept = comma == std::string_view::npos ? std::string_view{}
                                             : accept.substr(comma + 1);
    auto semi = range.find(';');
    auto type = trim(range.substr(0, semi));
    std::string_view as, g;
    auto params = semi == std::string_view::npos ? std::string_view{}
                                                 : range.substr(semi + 1);
    while (!params.empty()) {
      auto s2 = params.find(';');
      auto p = trim(params.substr(0, s2));
      params = s2 == std::string_view::npos ? std::string_view{}
                                            : params.substr(s2 + 1);
      auto eq = p.find('=');
      if (eq == std::string_view::npos)
        continue;
      auto k = p.substr(0, eq);
      auto v = p.substr(eq + 1);
      if (k == "as")
        as = v;
      if (k == "g")
        g = v;
    }
    // A protobuf reply is the JSON reply transcoded after dispatch.
    if (type == "application/vnd.kubernetes.protobuf" && as.empty())
      return media::json;
    if (type == "application/json" || type == "*/*"
        || type == "application/*") {
      if (as.empty())
        return media::json;
      if (as == "Table" && g == "meta.k8s.io" && table_capable)
        return media::table;
      // Other transformations (PartialObjectMetadata) are not offered.
    }
  }
  return media::none;
}

/// Whether the first media range of `accept` kube-apiserver could serve is
/// protobuf (client-go's typed clients send "protobuf, json").
bool prefers_protobuf(std::string_view accept) {
  while (!accept.empty()) {
    auto comma = accept.find(',');
    auto range = trim(accept.substr(0, comma));
    accept = comma == std::string_view::npos ? std::string_view{}
                                             : accept.substr(comma + 1);
    if (range.empty())
      continue;
    if (is_protobuf_media_type(range))
      return range.find("as=") == std::string_view::npos;
    return false;
  }
  return false;
}

/// Whether `accept` lists a JSON range without a transformation (`as=`).
bool accepts_plain_json(std::string_view accept) {
  if (trim(accept).empty())
    return true;
  while (!accept.empty()) {
    auto comma = accept.find(',');
    auto range = trim(accept.substr(0, comma));
    accept = comma == std::string_view::npos ? std::string_view{}
                                             : accept.substr(comma + 1);
    auto type = trim(range.substr(0, range.find(';')));
    if ((type == "application/json" || type == "*/*" || type == "application/*")
        && range.find("as=") == std::string_view::npos)
      return true;
  }
  return false;
}

/// Turns a JSON reply into protobuf for a client that prefers it. Replies
/// without a schema (discovery, Tables) stay JSON when the client takes
/// JSON too, and are 406 for a client that takes protobuf only; so does an
/// object with fields the schema lacks when the client also takes JSON,
/// which loses nothing.
void transcode_to_protobuf(http_reply& r, std::string_view accept) {
  if (r.watch || r.content_type != "application/json")
    return;
  auto pb = encode_protobuf_reply(r.body);
  if (!pb) {
    if (!accepts_plain_json(accept))
      r = status_reply(status::not_acceptable(accept));
    return;
  }
  if (!pb->dropped.empty() && accepts_plain_json(accept))
    return;
  r.body = std::move(pb->bytes);
  r.content_type = std::string{protobuf_content_type};
}

/// The answer of a review resource (POST only, never stored), or null.
using review_fn = http_reply (*)(const handler_config&, std::string_view);
review_fn review_of(std::string_view resource) {
  if (resource == "tokenreviews")
    return token_review_reply;
  if (resource == "subjectaccessreviews")
    return access_review_reply;
  if (resource == "selfsubjectaccessreviews")
    return self_access_review_reply;
  if (resource == "selfsubjectreviews")
    return self_subject_review_reply;
  return nullptr;
}

bool json_body_type(std::string_view ct) {
  auto semi = ct.find(';');
  auto type = trim(ct.substr(0, semi));
  return type.empty() || type == "application/json" || type == "*/*";
}

// ---- replies
// ---------------------------------------------------------------------

/// What a successful binding returns (the create handler fills `code`).
constexpr std::string_view bind_success
  = R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201})";

http_reply json_reply(int code, std::string body) {
  http_reply r;
  r.status = code;
  r.body = std::move(body);
  return r;
}

/// One `Warning: 299 - "<text>"` header per warning (RFC 7234 warn-code
/// 299, no agent), as kube-apiserver sends them.
void add_warnings(http_reply& r, const std::vector<std::string>& warnings) {
  for (const auto& w : warnings) {
    std::string value = "299 - \"";
    for (char c : w) {
      if (c == '"' || c == '\\')
        value += '\\';
      value += c;
    }
    value += '"';
    r.headers.emplace_back("Warning", std::move(value));
  }
}

http_reply text_reply(int code, std::string body) {
  http_reply r;
  r.status = code;
  r.content_type = "text/plain; charset=utf-8";
  r.body = std::move(body);
  return r;
}

std::string success_status(const resource_info& res, const stored_object* obj,
                           int code) {
  json::object s;
  s["kind"] = "Status";
  s["apiVersion"] = "v1";
  s["metadata"] = json::object{};
  s["status"] = "Success";
  if (obj) {
    json::object d;
    d["name"] = obj->name();
    if (!res.group.empty())
      d["group"] = res.group;
    d["kind"] = res.name;
    d["uid"] = obj->uid();
    s["details"] = std::move(d);
  }
  if (code)
    s["code"] = code;
  return json::serialize(s);
}

std::string list_body(const resource_info& res, const list_result& l) {
  std::size_t size = 128;
  for (const auto& o : l.items)
    size += o->json().size();
  std::string out;
  out.reserve(size);
  out += "{\"kind\":\"";
  out += res.list_kind;
  out += "\",\"apiVersion\":\"";
  out += res.api_version();
  out += "\",\"metadata\":{\"resourceVersion\":\"";
  out += std::to_string(l.resource_version);
  out += '"';
  if (!l.continue_token.empty()) {
    out += ",\"continue\":\"";
    out += l.continue_token;
    out += '"';
    if (l.remaining_item_count >= 0)
      out
        += ",\"remainingItemCount\":" + std::to_string(l.remaining_item_count);
  }
  out += "},\"items\":[";
  bool first = true;
  for (const auto& o : l.items) {
    if (!first)
      out += ',';
    first = false;
    o->append_item(out);
  }
  out += "]}";
  return out;
}

// ---- resource requests
// -------------------------------------------------------------

struct resource_path {
  const resource_info* resource = nullptr;
  std::string ns;
  std::string name;
  std::string sub;
  bool namespaced_path = false;
};

/// Resolves `/api/v1/...` or `/apis/g/v/...` segments after the version.
std::optional<resource_path> resolve(std::string_view group,
                                     std::string_view version,
                                     const std::vector<std::string>& seg,
                                     std::size_t at) {
  resource_path p;
  std::size_t n = seg.size() - at;
  if (n == 0)
    return std::nullopt;
  if (seg[at] == "namespaces" && n >= 3) {
    const resource_info* r = find_resource(group, version, seg[at + 2]);
    if (r && r->namespaced) {
      p.resource = r;
      p.ns = seg[at + 1];
      p.namespaced_path = true;
      if (n >= 4)
        p.name = seg[at + 3];
      if (n >= 5)
        p.sub = seg[at + 4];
      if (n > 5)
        return std::nullopt;
      return p;
    }
  }
  const resource_info* r = find_resource(group, version, seg[at]);
  if (!r)
    return std::nullopt;
  p.resource = r;
  if (n >= 2)
    p.name = seg[at + 1];
  if (n >= 3)
    p.sub = seg[at + 2];
  if (n > 3)
    return std::nullopt;
  // A namespaced resource addressed without a namespace can only be listed
  // or watched across all namespaces.
  if (r->namespaced && !p.name.empty())
    return std::nullopt;
  return p;
}

/// Parses a Binding body into a store binding.
api_result<binding> parse_binding(std::string_view body, std::string_view ns,
                                  std::string_view url_name) {
  // Bindings are small: parse them without touching the heap.
  unsigned char scratch[4096];
  json::monotonic_resource arena(scratch, sizeof scratch);
  json::error_code ec;
  auto v = json::parse(body, ec, &arena);
  if (ec || !v.is_object())
    return status::bad_request("couldn't get version/kind; json parse error: "
                               + (ec ? ec.message() : "not an object"));
  const auto& o = v.as_object();
  binding b;
  b.ns = std::string{ns};
  auto str = [](const json::object* obj, std::string_view key) {
    if (obj)
      if (auto* x = obj->if_contains(key))
        if (auto* s = x->if_string())
          return std::string{s->data(), s->size()};
    return std::string{};
  };
  const json::object* meta = nullptr;
  if (auto* m = o.if_contains("metadata"))
    meta = m->if_object();
  const json::object* target = nullptr;
  if (auto* t = o.if_contains("target"))
    target = t->if_object();
  b.name = str(meta, "name");
  if (!url_name.empty() && b.name != url_name)
    return status::bad_request("name in URL does not match name in Binding "
                               "object");
  auto ns_body = str(meta, "namespace");
  if (!ns_body.empty() && ns_body != ns)
    return status::bad_request("the namespace of the provided object does not "
                               "match the namespace sent on the request");
  b.uid = str(meta, "uid");
  b.resource_version = str(meta, "resourceVersion");
  if (meta)
    if (auto* a = meta->if_contains("annotations"); a && a->is_object())
      for (const auto& kv : a->as_object())
        if (kv.value().is_string())
          b.annotations.emplace_back(std::string{kv.key()},
                                     std::string{kv.value().as_string()});
  auto kind = str(target, "kind");
  if (!kind.empty() && kind != "Node")
    return status::invalid(
      "Binding", "", b.name,
      {status::unsupported_value("target.kind", kind, "\"Node\"")});
  b.node = str(target, "name");
  if (b.node.empty())
    return status::invalid("Binding", "", b.name,
                           {status::required("target.name")});
  return b;
}

api_result<delete_options> parse_delete_options(const query& q,
                                                std::string_view body) {
  delete_options opts;
  auto dry = dry_run_param(q);
  if (!dry)
    return dry.err();
  opts.dry_run = *dry;
  auto grace = int_param(q, "gracePeriodSeconds");
  if (!grace)
    return grace.err();
  opts.grace_period_seconds = *grace;
  if (auto* p = q.find("propagationPolicy")) {
    if (auto err = check_propagation_policy(*p))
      return *err;
    opts.propagation_policy = *p;
  } else if (auto orphan = bool_param(q, "orphanDependents");
             orphan && *orphan) {
    opts.propagation_policy = **orphan ? "Orphan" : "Background";
  }
  if (trim(body).empty())
    return opts;
  if (auto err = read_delete_options(body, opts))
    return *err;
  return opts;
}

} // namespace

http_reply status_reply(const api_status& s) {
  http_reply r;
  r.status = s.code;
  r.body = s.to_json();
  if (s.retry_after_seconds > 0)
    r.headers.emplace_back("Retry-After",
                           std::to_string(s.retry_after_seconds));
  return r;
}

namespace {

/// Decodes a Binding body (for the pod `name`, or the one the body names
/// when `name` is empty), binds it and replies as the API server does.
http_reply bind_from_body(store& st, std::string_view body, std::string_view ns,
                          std::string_view name) {
  auto b = parse_binding(body, ns, name);
  if (!b)
    return status_reply(b.err());
  auto r = st.bind(*b);
  if (!r)
    return status_reply(r.err());
  return json_reply(201, std::string{bind_success});
}

} // namespace

api_handler::api_handler(store& s, handler_config config)
  : store_(s), config_(std::move(config)) {
}

http_reply api_handler::handle(const http_request_view& request) {
  stats_.requests.fetch_add(1, std::memory_order_relaxed);
  http_reply r;
  try {
    r = dispatch(request);
    // Only the API's paths have protobuf forms; /version, health and
    // metrics answer as they always do.
    if (request.target.starts_with("/api") && prefers_protobuf(request.accept))
      transcode_to_protobuf(r, request.accept);
  } catch (const std::exception& e) {
    r = status_reply(status::internal(e.what()));
  } catch (...) {
    r = status_reply(status::internal("unknown exception"));
  }
  if (r.status >= 400)
    stats_.errors.fetch_add(1, std::memory_order_relaxed);
  return r;
}

http_reply api_handler::dispatch(const http_request_view& request) {
  // A copy whose body may be replaced by the JSON of a protobuf body.
  http_request_view req = request;
  std::string decoded_body;
  auto qpos = req.target.find('?');
  std::string_view path = req.target.substr(0, qpos);
  query q
    = parse_query(qpos == std::string_view::npos ? std::string_view{}
                                                 : req.target.substr(qpos + 1));
  const bool is_get = req.method == "GET" || req.method == "HEAD";

  // Health checks: always open.
  if (path == "/healthz" || path == "/readyz" || path == "/livez"
      || path.starts_with("/healthz/") || path.starts_with("/readyz/")
      || path.starts_with("/livez/")) {
    if (!is_get)
      return status_reply(status::method_not_allowed(req.method, ""));
    if (q.find("verbose"))
      return text_reply(200, "[+]ping ok\n[+]etcd ok\n"
                               + std::string{path.substr(1)}
                               + " check passed\n");
    return text_reply(200, "ok");
  }
  if (!config_.token.empty()) {
    std::string want = "Bearer " + config_.token;
    if (req.authorization != want)
      return status_reply(status::unauthorized());
  }
  auto seg = split_path(path);
  if (is_get && (path == "/version" || path == "/version/"))
    return json_reply(200, version_document(config_.git_version));
  if (path.starts_with("/openapi/v2") || path.starts_with("/swagger")) {
    if (!is_get)
      return status_reply(status::method_not_allowed(req.method, ""));
    // kubectl 1.20 validates against this; an empty document passes.
    http_reply r;
    r.content_type = "application/octet-stream";
    return r;
  }
  if (is_get && path == "/metrics") {
    http_reply r = text_reply(
      200, metrics_text(store_.stats(), store_.resource_version(),
                        {stats_.requests.load(), stats_.errors.load(),
                         stats_.watches.load()}));
    r.content_type = "text/plain; version=0.0.4";
    return r;
  }
  if (seg.empty() || (seg[0] != "api" && seg[0] != "apis"))
    return text_reply(404, "404 page not found\n");

  // Discovery.
  if (seg[0] == "api" && seg.size() == 1) {
    if (!is_get)
      return status_reply(status::method_not_allowed(req.method, ""));
    return json_reply(200, api_versions_document(config_.server_address));
  }
  if (seg[0] == "apis" && seg.size() == 1) {
    if (!is_get)
      return status_reply(status::method_not_allowed(req.method, ""));
    return json_reply(200, api_group_list_document());
  }
  if (seg[0] == "apis" && seg.size() == 2) {
    if (auto g = api_group_document(seg[1]))
      return json_reply(200, std::move(*g));
    return status_reply(status::path_not_found());
  }
  std::string group, version;
  std::size_t at = 0;
  if (seg[0] == "api") {
    if (seg[1] != "v1")
      return status_reply(status::path_not_found());
    version = "v1";
    at = 2;
  } else {
    group = seg[1];
    version = seg[2];
    at = 3;
    bool known = false;
    for (auto gv : api_groups())
      if (gv == group + "/" + version)
        known = true;
    if (!known)
      return status_reply(status::path_not_found());
  }
  if (seg.size() == at) {
    if (!is_get)
      return status_reply(status::method_not_allowed(req.method, ""));
    return json_reply(200, api_resource_list_document(group, version));
  }
  auto rp = resolve(group, version, seg, at);
  if (!rp)
    return status_reply(status::path_not_found());
  const resource_info& res = *rp->resource;
  const std::string& ns = rp->ns;
  // kubectl's typed client writes protobuf; the rest of the server reads
  // the same object as JSON. Decoded once the path names a resource, so a
  // wrong path is a 404 whatever its body.
  if (is_protobuf_media_type(req.content_type)
      && (req.method == "POST" || req.method == "PUT"
          || req.method == "DELETE")) {
    auto decoded = protobuf_body_to_json(req.body);
    if (!decoded)
      return status_reply(decoded.err());
    decoded_body = std::move(*decoded);
    req.body = decoded_body;
    req.content_type = "application/json";
  }
  if (auto review = review_of(res.name)) {
    if (req.method != "POST" || !rp->name.empty())
      return status_reply(status::method_not_allowed(req.method, res.name));
    return review(config_, req.body);
  }

  auto dry = dry_run_param(q);
  if (!dry)
    return status_reply(dry.err());
  write_options wopts;
  wopts.dry_run = *dry;
  std::vector<std::string> warnings;
  if (req.method == "POST" || req.method == "PUT" || req.method == "PATCH") {
    auto fv = field_validation_param(q, req.method);
    if (!fv)
      return status_reply(fv.err());
    wopts.validation = *fv;
    wopts.warnings = &warnings;
  }
  // A successful write answers with the field warnings as Warning headers.
  auto written = [&](int code, std::string body) {
    auto r = json_reply(code, std::move(body));
    add_warnings(r, warnings);
    return r;
  };

  // Namespace subresources (/api/v1/namespaces/x/status).
  subresource sub = subresource::main;
  if (!rp->sub.empty()) {
    if (rp->sub == "status" && res.has_status)
      sub = subresource::status;
    else if (rp->sub == "resize" && res.storage == storage_kind::pod
             && res.name == "pods")
      sub = subresource::resize;
    else if ((rp->sub == "binding" || rp->sub == "eviction")
             && res.storage == storage_kind::pod && res.name == "pods")
      sub = subresource::main;
    else if (rp->sub == "scale" && has_scale(res) && !rp->name.empty())
      sub = subresource::main;
    else
      return status_reply(status::path_not_found());
  }

  // Collections.
  if (rp->name.empty()) {
    if (res.name == "bindings") {
      if (req.method != "POST")
        return status_reply(status::method_not_allowed(req.method, "bindings"));
      return bind_from_body(store_, req.body, ns, "");
    }
    if (is_get) {
      auto watch = bool_param(q, "watch");
      if (!watch)
        return status_reply(watch.err());
      auto send_initial = bool_param(q, "sendInitialEvents");
      if (!send_initial)
        return status_reply(send_initial.err());
      media m = negotiate(req.accept, has_table(res));
      if (m == media::none)
        return status_reply(status::not_acceptable(req.accept));
      std::optional<std::string> rv;
      if (auto* v = q.find("resourceVersion"))
        rv = *v;
      if (watch->value_or(false)) {
        watch_options wo;
        wo.label_selector = q.get("labelSelector");
        wo.field_selector = q.get("fieldSelector");
        wo.resource_version = rv;
        wo.resource_version_match = q.get("resourceVersionMatch");
        wo.send_initial_events = *send_initial;
        auto bm = bool_param(q, "allowWatchBookmarks");
        if (!bm)
          return status_reply(bm.err());
        wo.allow_bookmarks = bm->value_or(false);
        auto timeout = int_param(q, "timeoutSeconds");
        if (!timeout)
          return status_reply(timeout.err());
        auto w = store_.watch(res, ns, wo);
        if (!w)
          return status_reply(w.err());
        stats_.watches.fetch_add(1, std::memory_order_relaxed);
        auto ws = std::make_shared<watch_stream>();
        ws->events = std::move(*w);
        if (*timeout && **timeout > 0) {
          ws->timeout = std::chrono::seconds(**timeout);
        } else {
          thread_local std::mt19937_64 rng{std::random_device{}()};
          auto base = config_.min_request_timeout.count();
          ws->timeout = std::chrono::milliseconds(
            base
            + static_cast<std::int64_t>(
              rng()
              % static_cast<std::uint64_t>(std::max<long long>(base, 1))));
        }
        ws->bookmark_interval = config_.bookmark_interval;
        if (m == media::table) {
          const resource_info* rptr = &res;
          store* sp = &store_;
          ws->render = [rptr, sp](const watch_event& ev, bool first) {
            return render_table_event(*rptr, ev, first, sp->time().wall_now());
          };
        } else if (prefers_protobuf(req.accept)
                   && protobuf_prototype(res.kind, res.api_version())) {
          ws->content_type = std::string{protobuf_watch_content_type};
          ws->render = [](const watch_event& ev, bool) {
            // Every served kind has a schema, so a frame is only missing
            // for an object that is not JSON, which the store never holds.
            return encode_protobuf_watch_frame(to_string(ev.type),
                                               ev.object->json())
              .value_or(std::string{});
          };
        }
        http_reply r;
        r.watch = std::move(ws);
        return r;
      }
      list_options lo;
      lo.label_selector = q.get("labelSelector");
      lo.field_selector = q.get("fieldSelector");
      lo.resource_version = rv;
      lo.resource_version_match = q.get("resourceVersionMatch");
      lo.continue_token = q.get("continue");
      lo.send_initial_events = *send_initial;
      auto limit = int_param(q, "limit");
      if (!limit)
        return status_reply(limit.err());
      lo.limit = limit->value_or(0);
      auto l = store_.list(res, ns, lo);
      if (!l)
        return status_reply(l.err());
      if (m == media::table)
        return json_reply(200, render_table(res, l->items, l->resource_version,
                                            l->continue_token,
                                            l->remaining_item_count,
                                            store_.time().wall_now()));
      return json_reply(200, list_body(res, *l));
    }
    if (req.method == "POST") {
      if (!json_body_type(req.content_type))
        return status_reply(status::unsupported_media_type(req.content_type));
      auto r = store_.create(res, ns, req.body, wopts);
      if (!r)
        return status_reply(r.err());
      return written(201, (*r)->json());
    }
    if (req.method == "DELETE") {
      list_options lo;
      lo.label_selector = q.get("labelSelector");
      lo.field_selector = q.get("fieldSelector");
      auto l = store_.list(res, ns, lo);
      if (!l)
        return status_reply(l.err());
      auto dopts = parse_delete_options(q, req.body);
      if (!dopts)
        return status_reply(dopts.err());
      for (const auto& o : l->items) {
        auto r = store_.remove(res, o->ns(), o->name(), *dopts);
        (void)r; // gone in between is fine
      }
      return json_reply(200, success_status(res, nullptr, 0));
    }
    return status_reply(status::method_not_allowed(req.method, res.name));
  }

  // Items.
  const std::string& name = rp->name;
  if (rp->sub == "binding") {
    if (req.method != "POST")
      return status_reply(
        status::method_not_allowed(req.method, "pods/binding"));
    if (!json_body_type(req.content_type))
      return status_reply(status::unsupported_media_type(req.content_type));
    return bind_from_body(store_, req.body, ns, name);
  }
  if (rp->sub == "eviction") {
    if (req.method != "POST")
      return status_reply(
        status::method_not_allowed(req.method, "pods/eviction"));
    if (!json_body_type(req.content_type))
      return status_reply(status::unsupported_media_type(req.content_type));
    auto e = parse_eviction(req.body, ns, name, wopts.dry_run);
    if (!e)
      return status_reply(e.err());
    auto r = evict(store_, *e);
    if (!r)
      return status_reply(r.err());
    return json_reply(201, std::move(*r));
  }
  if (rp->sub == "scale") {
    api_result<std::string> r = status::method_not_allowed(req.method, "scale");
    if (is_get) {
      r = read_scale(store_, res, ns, name);
    } else if (req.method == "PUT" || req.method == "PATCH") {
      std::optional<patch_type> type;
      if (req.method == "PATCH") {
        type = patch_type_from_content_type(req.content_type);
        if (!type)
          return status_reply(status::unsupported_media_type(req.content_type));
      } else if (!json_body_type(req.content_type)) {
        return status_reply(status::unsupported_media_type(req.content_type));
      }
      r = write_scale(store_, res, ns, name, type, req.body, wopts);
    }
    if (!r)
      return status_reply(r.err());
    return written(200, std::move(*r));
  }
  if (is_get) {
    media m = negotiate(req.accept, has_table(res) && sub == subresource::main);
    if (m == media::none)
      return status_reply(status::not_acceptable(req.accept));
    auto r = store_.get(res, ns, name);
    if (!r)
      return status_reply(r.err());
    if (m == media::table)
      return json_reply(200, render_table(res, {*r}, (*r)->resource_version(),
                                          "", -1, store_.time().wall_now()));
    return json_reply(200, (*r)->json());
  }
  if (req.method == "PUT") {
    if (!json_body_type(req.content_type))
      return status_reply(status::unsupported_media_type(req.content_type));
    auto r = store_.update(res, ns, name, req.body, sub, wopts);
    if (!r && r.err().code == 404 && sub == subresource::main
        && (res.storage == storage_kind::lease
            || res.storage == storage_kind::event)) {
      // Leases and events may be created by PUT.
      auto c = store_.create(res, ns, req.body, wopts);
      if (!c)
        return status_reply(c.err());
      return written(201, (*c)->json());
    }
    if (!r)
      return status_reply(r.err());
    return written(200, (*r)->json());
  }
  if (req.method == "PATCH") {
    auto type = patch_type_from_content_type(req.content_type);
    if (!type || *type == patch_type::apply)
      return status_reply(status::unsupported_media_type(req.content_type));
    auto r = store_.patch(res, ns, name, *type, req.body, sub, wopts);
    if (!r)
      return status_reply(r.err());
    return written(200, (*r)->json());
  }
  if (req.method == "DELETE") {
    if (sub != subresource::main)
      return status_reply(status::method_not_allowed(req.method, res.name));
    auto dopts = parse_delete_options(q, req.body);
    if (!dopts)
      return status_reply(dopts.err());
    auto r = store_.remove(res, ns, name, *dopts);
    if (!r)
      return status_reply(r.err());
    if (res.storage == storage_kind::pod
        || res.storage == storage_kind::namespace_ || !r->removed)
      return json_reply(200, r->object->json());
    return json_reply(200, success_status(res, r->object.get(), 0));
  }
  return status_reply(status::method_not_allowed(req.method, res.name));
}

} // namespace tessera::apiserver
