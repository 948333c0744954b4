// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/rest_client.hpp"

#include "metrics/scheduler_metrics.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <charconv>
#include <thread>

namespace tessera::io {

namespace {

// `r` with the credentials' bearer token, when they have one.
http_request with_bearer_token(const http_request& r, const credentials& c) {
  http_request req = r;
  if (!c.token.empty())
    req.headers.push_back({"Authorization", "Bearer " + c.token});
  return req;
}

std::string pod_path(std::string_view ns, std::string_view name) {
  std::string p = "/api/v1/namespaces/";
  p += ns;
  p += "/pods/";
  p += name;
  return p;
}

std::string events_path(std::string_view ns, bool v1) {
  std::string p
    = v1 ? "/apis/events.k8s.io/v1/namespaces/" : "/api/v1/namespaces/";
  p += ns;
  p += "/events";
  return p;
}

std::string leases_path(std::string_view ns) {
  std::string p = "/apis/coordination.k8s.io/v1/namespaces/";
  p += ns;
  p += "/leases";
  return p;
}

error shut_down_error() {
  return make_error(ec::unavailable, "client is shutting down");
}

bool success(int status) {
  return status >= 200 && status < 300;
}

} // namespace

// helpers

ec code_for_status(int s) noexcept {
  switch (s) {
  case 400:
  case 422:
    return ec::invalid_input;
  case 404:
    return ec::not_found;
  case 409:
    return ec::conflict;
  case 410:
  case 429:
    return ec::exhausted;
  case 504:
    return ec::timeout;
  case 401:
  case 403:
    return ec::invalid_input;
  default:
    return s >= 500 ? ec::unavailable : ec::internal;
  }
}

std::optional<std::chrono::milliseconds>
retry_delay(const http_response& r, std::chrono::milliseconds cap) {
  const std::string* h = r.header("Retry-After");
  if (h == nullptr)
    return std::nullopt;
  // client-go honours integer seconds only.
  int seconds = 0;
  auto [ptr, e] = std::from_chars(h->data(), h->data() + h->size(), seconds);
  if (e != std::errc{} || seconds < 0)
    return std::nullopt;
  return std::min<std::chrono::milliseconds>(std::chrono::seconds(seconds),
                                             cap);
}

error status_error(const http_response& r) {
  api_status st = decode_status(r.body, r.status);
  return make_error(code_for_status(r.status), st.message);
}

std::string url_escape(std::string_view v) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    auto u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z')
        || (u >= '0' && u <= '9') || u == '-' || u == '.' || u == '_'
        || u == '~') {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  return out;
}

// cancel_scope

void cancel_scope::cancel() {
  std::lock_guard guard{mutex_};
  cancelled_.store(true);
  if (active_ != nullptr)
    active_->cancel();
}

bool cancel_scope::attach(http_client* c) {
  std::lock_guard guard{mutex_};
  if (cancelled_.load())
    return false;
  active_ = c;
  return true;
}

void cancel_scope::detach() {
  std::lock_guard guard{mutex_};
  active_ = nullptr;
}

// rest_client

rest_client::rest_client(rest_client_config config)
  : config_(std::move(config)),
    credentials_(config_.credentials
                   ? config_.credentials
                   : std::make_shared<credential_provider>(config_.target)),
    limiter_(config_.qps, config_.burst) {
}

rest_client::~rest_client() {
  shutdown();
}

void rest_client::shutdown() {
  shut_down_.store(true);
  limiter_.stop();
  std::lock_guard guard{pool_mutex_};
  for (auto* c : busy_)
    c->cancel();
  wake_.notify_all();
}

client_config rest_client::make_client_config(const credentials& c) const {
  client_config cc;
  cc.host = config_.target.url.host;
  cc.port = config_.target.url.port;
  cc.tls = config_.target.tls;
  cc.tls.enabled = config_.target.url.tls;
  cc.tls.client_cert_pem = c.client_cert_pem;
  cc.tls.client_key_pem = c.client_key_pem;
  cc.user_agent = config_.user_agent;
  cc.connect_timeout = config_.connect_timeout;
  cc.request_timeout = config_.request_timeout;
  return cc;
}

rest_client::pooled rest_client::acquire(const credentials& c) {
  {
    std::lock_guard guard{pool_mutex_};
    while (!idle_.empty()) {
      pooled p = std::move(idle_.back());
      idle_.pop_back();
      if (p.cert_generation == c.cert_generation)
        return p;
    }
  }
  stats_.connections.fetch_add(1, std::memory_order_relaxed);
  return {std::make_unique<http_client>(make_client_config(c)),
          c.cert_generation};
}

void rest_client::release(pooled p) {
  std::lock_guard guard{pool_mutex_};
  if (idle_.size() < config_.max_idle_connections && !shut_down_.load())
    idle_.push_back(std::move(p));
}

bool rest_client::pause(std::chrono::milliseconds d, cancel_scope* scope) {
  std::unique_lock lock{pool_mutex_};
  wake_.wait_for(lock, d, [&] {
    return shut_down_.load() || (scope != nullptr && scope->cancelled());
  });
  return !shut_down_.load() && (scope == nullptr || !scope->cancelled());
}

expected<http_response> rest_client::request(const http_request& r,
                                             cancel_scope* scope) {
  bool refreshed_auth = false;
  int retries = 0;
  for (;;) {
    if (shut_down_.load())
      return shut_down_error();
    if (scope != nullptr && scope->cancelled())
      return make_error(ec::unavailable, "request cancelled");
    if (!limiter_.acquire())
      return shut_down_error();
    auto creds = credentials_->get();
    if (!creds)
      return creds.err();
    http_request req = with_bearer_token(r, *creds);
    pooled p = acquire(*creds);
    http_client* c = p.client.get();
    if (scope != nullptr && !scope->attach(c))
      return make_error(ec::unavailable, "request cancelled");
    {
      std::lock_guard guard{pool_mutex_};
      busy_.push_back(c);
    }
    if (shut_down_.load())
      c->cancel();
    stats_.requests.fetch_add(1, std::memory_order_relaxed);
    auto sent = std::chrono::steady_clock::now();
    auto resp = c->request(req);
    // Metrics: client-go's rest_client_* families.
    if (auto* m = config_.metrics)
      metrics::record_rest_request(
        *m, r.method,
        config_.target.url.host + ":" + std::to_string(config_.target.url.port),
        resp ? resp->status : 0, metrics::seconds_since(sent));
    {
      std::lock_guard guard{pool_mutex_};
      busy_.erase(std::find(busy_.begin(), busy_.end(), c));
    }
    if (scope != nullptr)
      scope->detach();
    release(std::move(p));
    if (!resp) {
      stats_.failures.fetch_add(1, std::memory_order_relaxed);
      if (shut_down_.load())
        return shut_down_error();
      return resp.err();
    }
    if (resp->status == 401 && !refreshed_auth) {
      // The token may have rotated or expired: refresh and retry once.
      refreshed_auth = true;
      credentials_->invalidate();
      continue;
    }
    if ((resp->status == 429 || resp->status >= 500)
        && retries < config_.max_retries) {
      if (auto delay = retry_delay(*resp, config_.max_retry_after)) {
        ++retries;
        stats_.retries.fetch_add(1, std::memory_order_relaxed);
        TLOG_V(3, "retrying after Retry-After", "path", r.target, "status",
               resp->status, "delayMs", delay->count());
        if (!pause(*delay, scope))
          return shut_down_error();
        continue;
      }
    }
    if (const std::string* w = resp->header("Warning"))
      TLOG_V(1, "warning from the API server", "path", r.target, "warning", *w);
    return resp;
  }
}

expected<http_response> rest_client::call(const http_request& r,
                                          cancel_scope* scope) {
  auto resp = request(r, scope);
  if (!resp)
    return resp;
  if (!success(resp->status))
    return status_error(*resp);
  return resp;
}

expected<std::unique_ptr<line_stream>>
rest_client::stream(const http_request& r, cancel_scope* scope) {
  bool refreshed_auth = false;
  for (;;) {
    if (shut_down_.load())
      return shut_down_error();
    if (!limiter_.acquire())
      return shut_down_error();
    auto creds = credentials_->get();
    if (!creds)
      return creds.err();
    http_request req = with_bearer_token(r, *creds);
    http_client opener{make_client_config(*creds)};
    if (scope != nullptr && !scope->attach(&opener))
      return make_error(ec::unavailable, "request cancelled");
    {
      std::lock_guard guard{pool_mutex_};
      busy_.push_back(&opener);
    }
    if (shut_down_.load())
      opener.cancel();
    stats_.requests.fetch_add(1, std::memory_order_relaxed);
    auto s = opener.stream(req);
    {
      std::lock_guard guard{pool_mutex_};
      busy_.erase(std::find(busy_.begin(), busy_.end(), &opener));
    }
    if (scope != nullptr)
      scope->detach();
    if (!s) {
      stats_.failures.fetch_add(1, std::memory_order_relaxed);
      if (shut_down_.load())
        return shut_down_error();
      return s.err();
    }
    if ((*s)->status() == 401 && !refreshed_auth) {
      refreshed_auth = true;
      credentials_->invalidate();
      continue;
    }
    return s;
  }
}

// typed calls

error rest_client::bind(std::string_view ns, std::string_view name,
                        std::string_view uid, std::string_view node) {
  http_request r;
  r.method = "POST";
  r.target = pod_path(ns, name) + "/binding";
  r.body = encode_binding(ns, name, uid, node);
  r.content_type = "application/json";
  auto resp = call(r);
  return resp ? error{} : resp.err();
}

error rest_client::patch_pod_status(std::string_view ns, std::string_view name,
                                    std::string body) {
  http_request r;
  r.method = "PATCH";
  r.target = pod_path(ns, name) + "/status";
  r.body = std::move(body);
  r.content_type = "application/strategic-merge-patch+json";
  // As the scheduler's status updates: a few quick retries on conflicts and
  // server errors (10 ms, x5, 4 steps).
  auto delay = std::chrono::milliseconds(10);
  for (int step = 0;; ++step) {
    auto resp = request(r);
    error e;
    bool retriable = false;
    if (!resp) {
      e = resp.err();
      retriable = e.message.find("refused") != std::string::npos;
    } else if (!success(resp->status)) {
      e = status_error(*resp);
      retriable
        = resp->status == 409 || resp->status == 500 || resp->status == 503;
    } else {
      return {};
    }
    if (!retriable || step >= 3)
      return e;
    if (!pause(delay, nullptr))
      return e;
    delay *= 5;
  }
}

error rest_client::delete_pod(std::string_view ns, std::string_view name) {
  http_request r;
  r.method = "DELETE";
  r.target = pod_path(ns, name);
  auto resp = call(r);
  return resp ? error{} : resp.err();
}

error rest_client::create_event(const event_record& e, bool v1) {
  http_request r;
  r.method = "POST";
  r.target = events_path(e.ns, v1);
  r.body = v1 ? encode_event_v1(e) : encode_event_core(e);
  r.content_type = "application/json";
  auto resp = call(r);
  return resp ? error{} : resp.err();
}

error rest_client::patch_event(const event_record& e, bool v1) {
  http_request r;
  r.method = "PATCH";
  r.target = events_path(e.ns, v1) + "/" + e.name;
  r.body
    = v1 ? encode_event_series_patch_v1(e) : encode_event_count_patch_core(e);
  r.content_type = "application/strategic-merge-patch+json";
  auto resp = call(r);
  return resp ? error{} : resp.err();
}

bool rest_client::has_events_v1() {
  http_request r;
  r.target = "/apis/events.k8s.io/v1";
  auto resp = request(r);
  return resp && resp->status == 200;
}

expected<std::optional<lease_record>>
rest_client::get_lease(std::string_view ns, std::string_view name) {
  http_request r;
  r.target = leases_path(ns) + "/" + std::string{name};
  auto resp = request(r);
  if (!resp)
    return resp.err();
  if (resp->status == 404)
    return std::optional<lease_record>{};
  if (!success(resp->status))
    return status_error(*resp);
  auto rec = decode_lease(resp->body);
  if (!rec)
    return rec.err();
  return std::optional<lease_record>{std::move(*rec)};
}

expected<lease_record> rest_client::create_lease(std::string_view ns,
                                                 std::string_view name,
                                                 const lease_record& rec) {
  http_request r;
  r.method = "POST";
  r.target = leases_path(ns);
  lease_record fresh = rec;
  fresh.resource_version.clear();
  r.body = encode_lease(ns, name, fresh);
  r.content_type = "application/json";
  auto resp = call(r);
  if (!resp)
    return resp.err();
  return decode_lease(resp->body);
}

expected<lease_record> rest_client::update_lease(std::string_view ns,
                                                 std::string_view name,
                                                 const lease_record& rec) {
  http_request r;
  r.method = "PUT";
  r.target = leases_path(ns) + "/" + std::string{name};
  r.body = encode_lease(ns, name, rec);
  r.content_type = "application/json";
  auto resp = call(r);
  if (!resp)
    return resp.err();
  return decode_lease(resp->body);
}

expected<std::string> rest_client::get_object(const std::string& path) {
  http_request r;
  r.target = path;
  auto resp = call(r);
  if (!resp)
    return resp.err();
  return std::move(resp->body);
}

error rest_client::update_object(const std::string& path, std::string body) {
  http_request r;
  r.method = "PUT";
  r.target = path;
  r.body = std::move(body);
  r.content_type = "application/json";
  auto resp = call(r);
  return resp ? error{} : resp.err();
}

std::string object_path(model::object_kind kind, std::string_view ns,
                        std::string_view name) {
  struct route {
    model::object_kind kind;
    std::string_view prefix;
    std::string_view plural;
    bool namespaced;
  };
  static constexpr route routes[] = {
    {model::object_kind::pod, "/api/v1", "pods", true},
    {model::object_kind::node, "/api/v1", "nodes", false},
    {model::object_kind::persistent_volume, "/api/v1", "persistentvolumes",
     false},
    {model::object_kind::persistent_volume_claim, "/api/v1",
     "persistentvolumeclaims", true},
    {model::object_kind::storage_class, "/apis/storage.k8s.io/v1",
     "storageclasses", false},
  };
  for (const auto& r : routes) {
    if (r.kind != kind)
      continue;
    std::string out{r.prefix};
    if (r.namespaced)
      out += "/namespaces/" + url_escape(ns);
    out += "/";
    out += r.plural;
    out += "/" + url_escape(name);
    return out;
  }
  return {};
}

} // namespace tessera::io
