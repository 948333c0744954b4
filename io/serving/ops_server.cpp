// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/serving/ops_server.hpp"

#include "io/http_server.hpp"
#include "io/serving/self_signed.hpp"
#include "support/internal_error.hpp"
#include "support/log.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace tessera::serving {

namespace net = boost::asio;

namespace {

constexpr auto io_timeout = std::chrono::seconds(30);

struct parsed_target {
  std::string_view path;
  bool verbose = false;
  std::vector<std::string_view> excluded;
};

parsed_target parse_target(std::string_view target) {
  parsed_target out;
  auto q = target.find('?');
  out.path = target.substr(0, q);
  if (q == std::string_view::npos)
    return out;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    auto amp = query.find('&');
    std::string_view param = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{}
                                          : query.substr(amp + 1);
    auto eq = param.find('=');
    std::string_view key = param.substr(0, eq);
    std::string_view value = eq == std::string_view::npos
                               ? std::string_view{}
                               : param.substr(eq + 1);
    if (key == "verbose")
      out.verbose = true;
    else if (key == "exclude")
      out.excluded.push_back(value);
  }
  return out;
}

// Kubernetes' healthz handler: every check, or the one named in the path.
ops_reply run_checks(std::string_view endpoint,
                     const std::vector<health_check>& checks,
                     const parsed_target& t, std::string_view only) {
  ops_reply r;
  if (!only.empty()) {
    for (const auto& c : checks)
      if (c.name == only) {
        std::string why = c.check();
        if (why.empty()) {
          r.body = "ok";
        } else {
          TLOG_V(2, "health check failed", "check", c.name, "reason", why);
          r.status = 500;
          r.body = "internal server error: " + c.name + " failed\n";
        }
        return r;
      }
    r.status = 404;
    r.body = "404 page not found\n";
    return r;
  }
  std::string listing;
  bool failed = false;
  for (const auto& c : checks) {
    if (std::find(t.excluded.begin(), t.excluded.end(), c.name)
        != t.excluded.end()) {
      listing += "[+]" + c.name + " excluded: ok\n";
      continue;
    }
    std::string why = c.check();
    if (why.empty()) {
      listing += "[+]" + c.name + " ok\n";
    } else {
      failed = true;
      listing += "[-]" + c.name + " failed: reason withheld\n";
      TLOG_V(2, "health check failed", "endpoint", endpoint, "check", c.name,
             "reason", why);
    }
  }
  if (failed) {
    r.status = 500;
    r.body = listing + std::string{endpoint} + " check failed\n";
  } else if (t.verbose) {
    r.body = listing + std::string{endpoint} + " check passed\n";
  } else {
    r.body = "ok";
  }
  return r;
}

ops_reply not_found() {
  return {404, "text/plain; charset=utf-8", "404 page not found\n"};
}

} // namespace

ops_reply route(const ops_providers& p, std::string_view method,
                std::string_view target) {
  if (method != "GET" && method != "HEAD")
    return {405, "text/plain; charset=utf-8", "method not allowed\n"};
  parsed_target t = parse_target(target);
  if (t.path == "/metrics") {
    if (!p.metrics)
      return not_found();
    return {200, "text/plain; version=0.0.4; charset=utf-8", p.metrics()};
  }
  if (t.path == "/configz") {
    if (!p.configz)
      return not_found();
    return {200, "application/json", p.configz()};
  }
  for (std::string_view endpoint : {"healthz", "livez", "readyz"}) {
    const auto& checks = endpoint == "readyz" ? p.readyz : p.livez;
    std::string base = "/" + std::string{endpoint};
    if (t.path == base)
      return run_checks(endpoint, checks, t, {});
    if (t.path.size() > base.size() + 1 && t.path.starts_with(base + "/"))
      return run_checks(endpoint, checks, t, t.path.substr(base.size() + 1));
  }
  return not_found();
}

namespace {

io::http_server_config base_config(const io::accept_limits& limits) {
  return {.name = "ops",
          .limits = limits,
          .read_timeout = io_timeout,
          .write_timeout = io_timeout,
          .echo_version = true};
}

/// The wire form of `r`; HEAD answers carry no body.
io::server_reply to_response(ops_reply r, bool head) {
  io::server_reply res;
  res.status = r.status;
  res.content_type = std::move(r.content_type);
  res.headers = {{"X-Content-Type-Options", "nosniff"}};
  if (!head)
    res.body = std::move(r.body);
  return res;
}

} // namespace

struct ops_server::impl final : io::http_handler {
  impl(ops_providers p, const io::accept_limits& limits)
    : providers(std::move(p)), http(*this, base_config(limits)) {
  }

  ops_providers providers;
  std::shared_ptr<delegated_auth> auth;
  std::string certificate;
  std::uint16_t plain_port = 0;
  std::uint16_t secure_port = 0;
  std::atomic<bool> stopped{false};
  // Once closed (stopping), nothing more goes to the review threads, so
  // every answer they owe reaches the I/O thread before it stops: no
  // session is left waiting inside a handler no one will run.
  std::mutex reviews_mutex;
  bool reviews_closed = false;
  io::http_server http;
  // After the server, so destroyed (joined) first: a review finishing late
  // posts its completion to an I/O context that still exists.
  std::optional<net::thread_pool> reviews;

  /// The request's credentials, owned while a review thread reads them.
  struct pending_check {
    std::string method;
    std::string target;
    std::string path;
    std::string authorization;
    peer_certificate peer;

    auth_request view() const {
      return {method, path, authorization, peer};
    }
  };

  /// The answer once the checks decided: their refusal, or the endpoint's.
  io::server_reply decided(auth_decision d, std::string_view method,
                           std::string_view target) const {
    bool head = method == "HEAD";
    if (!d.allowed)
      return to_response(
        {d.status, std::move(d.content_type), std::move(d.body)}, head);
    return to_response(route(providers, method, target), head);
  }

  io::server_reply handle(const io::incoming_request& req) override {
    if (req.tls == nullptr || !auth)
      return to_response(route(providers, req.method, req.target),
                         req.method == "HEAD");
    auto c = std::make_shared<pending_check>();
    c->method = std::string{req.method};
    c->target = std::string{req.target};
    c->path = std::string{req.target.substr(0, req.target.find('?'))};
    c->authorization = std::string{req.authorization};
    c->peer = *req.tls;
    // Answered here when no review is due; otherwise on a review thread,
    // the endpoint then running on the I/O thread.
    if (auto quick = auth->try_check(c->view()))
      return decided(std::move(*quick), c->method, c->target);
    io::server_reply later;
    later.deferred = [this, c](std::function<void(io::reply_maker)> deliver) {
      std::lock_guard guard{reviews_mutex};
      if (reviews_closed) {
        // Stopping: no thread will review; answer at once instead.
        deliver([this, c] {
          auth_decision d;
          d.status = 503;
          d.content_type = "text/plain; charset=utf-8";
          d.body = "the server is shutting down\n";
          return decided(std::move(d), c->method, c->target);
        });
        return;
      }
      net::post(*reviews, [this, a = auth, c, deliver] {
        // An exception would leave the pool's thread (std::terminate) and
        // the request unanswered: answer 500 instead.
        auto d = std::make_shared<auth_decision>();
        try {
          *d = a->check(c->view());
        } catch (...) {
          TLOG_ERROR("request review failed", "path", c->target, "error",
                     exception_text(std::current_exception()));
          d->status = 500;
          d->content_type = "text/plain; charset=utf-8";
          d->body = "internal server error\n";
        }
        deliver([this, c, d] {
          return decided(std::move(*d), c->method, c->target);
        });
      });
    };
    return later;
  }
};

/// Listens on one port, with the flag named in the error.
error listen(ops_server::impl& i, const io::ip_address& address, int port,
             bool tls, const char* flag, std::uint16_t& bound) {
  auto got = i.http.listen(
    address.text, static_cast<std::uint16_t>(port == any_port ? 0 : port), tls);
  if (!got)
    return make_error(ec::unavailable, std::string{"--"} + flag
                                         + ": cannot listen on " + address.text
                                         + ":" + std::to_string(port) + ": "
                                         + got.err().message);
  bound = *got;
  return {};
}

namespace {

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  if (!in)
    return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0')
    return "localhost";
  return buf;
}

/// The TLS port's certificate: the configured files, or a self-signed one
/// made now for this host.
expected<certificate_pem>
secure_port_certificate(const ops_server_config& config,
                        const io::ip_address& address) {
  bool have_cert = !config.tls_cert_file.empty();
  bool have_key = !config.tls_private_key_file.empty();
  if (have_cert != have_key)
    return make_error(ec::invalid_input,
                      "--tls-cert-file and --tls-private-key-file must be "
                      "given together");
  if (have_cert) {
    auto cert = read_file(config.tls_cert_file);
    if (!cert)
      return make_error(ec::invalid_input,
                        "--tls-cert-file: cannot read " + config.tls_cert_file);
    auto key = read_file(config.tls_private_key_file);
    if (!key)
      return make_error(ec::invalid_input,
                        "--tls-private-key-file: cannot read "
                          + config.tls_private_key_file);
    return certificate_pem{std::move(*cert), std::move(*key)};
  }
  self_signed_options o;
  std::string host = host_name();
  o.common_name = host + "@" + std::to_string(std::time(nullptr));
  o.dns_names = {"localhost", host};
  o.ip_addresses = {"127.0.0.1"};
  if (!address.unspecified && !address.loopback)
    o.ip_addresses.push_back(address.text);
  auto made = make_self_signed_certificate(o);
  if (!made)
    return made.err();
  TLOG_INFO("generated a self-signed certificate for the secure port", "cn",
            o.common_name);
  return std::move(*made);
}

} // namespace

expected<std::unique_ptr<ops_server>>
ops_server::start(ops_server_config config, ops_providers providers) {
  auto i = std::make_unique<impl>(std::move(providers), config.limits);
  for (auto [flag, port] : {std::pair{"secure-port", config.secure_port},
                            std::pair{"port", config.port}})
    if (port != any_port && (port < 0 || port > 65535))
      return make_error(ec::invalid_input, std::string{"--"} + flag + ": "
                                             + std::to_string(port)
                                             + " is not in 0..65535");
  auto address = io::parse_ip_address(config.bind_address);
  if (!address)
    return make_error(ec::invalid_input, "--bind-address: \""
                                           + config.bind_address
                                           + "\" is not an IP address");
  if (config.secure_port != 0) {
    auto pem = secure_port_certificate(config, *address);
    if (!pem)
      return pem.err();
    io::tls_settings tls;
    tls.certificate.pem = pem->certificate;
    tls.private_key.pem = pem->private_key;
    tls.modern_only = true;
    if (config.auth)
      tls.client_ca.pem = config.auth->config().client_ca_pem;
    // With a client CA, a certificate is asked for but the handshake
    // finishes whatever comes: the authenticator turns a certificate that
    // does not verify into a 401, as upstream's does.
    tls.require_client_certificate = false;
    if (auto f = i->http.use_tls(tls)) {
      using part = io::tls_failure::part;
      if (f->what == part::certificate)
        return make_error(ec::invalid_input,
                          "--tls-cert-file: not a PEM certificate: "
                            + f->message);
      if (f->what == part::private_key)
        return make_error(ec::invalid_input,
                          "--tls-private-key-file: not a PEM key matching the "
                          "certificate: "
                            + f->message);
      return make_error(ec::invalid_input,
                        "--client-ca-file: not a PEM certificate bundle: "
                          + f->message);
    }
    i->certificate = std::move(pem->certificate);
    if (auto e = listen(*i, *address, config.secure_port, true, "secure-port",
                        i->secure_port))
      return e;
    if (config.auth) {
      i->auth = config.auth;
      i->reviews.emplace(
        static_cast<std::size_t>(std::max(1, config.review_threads)));
    }
  }
  if (config.port != 0) {
    if (!address->loopback)
      TLOG_WARN("the plain port serves without authentication or "
                "authorization on a non-loopback address",
                "address", config.bind_address, "port", config.port);
    if (auto e
        = listen(*i, *address, config.port, false, "port", i->plain_port))
      return e;
  }
  i->http.run();
  TLOG_INFO("serving health and metrics", "address", config.bind_address,
            "securePort", i->secure_port, "port", i->plain_port,
            "delegatedAuth", i->auth != nullptr, "clientCertificates",
            i->auth != nullptr && !i->auth->config().client_ca_pem.empty());
  return std::unique_ptr<ops_server>(new ops_server(std::move(i)));
}

ops_server::ops_server(std::unique_ptr<impl> i) : impl_(std::move(i)) {
}

ops_server::~ops_server() {
  stop();
}

std::uint16_t ops_server::port() const noexcept {
  return impl_->plain_port;
}

std::uint16_t ops_server::secure_port() const noexcept {
  return impl_->secure_port;
}

const io::accept_guard& ops_server::accepts() const noexcept {
  return impl_->http.accepts();
}

const std::string& ops_server::certificate_pem() const noexcept {
  return impl_->certificate;
}

void ops_server::stop() {
  if (impl_->stopped.exchange(true))
    return;
  // Reviews in progress end at once; requests waiting for them answer as
  // if the API server were gone.
  if (impl_->auth)
    impl_->auth->shutdown();
  if (impl_->reviews) {
    {
      std::lock_guard guard{impl_->reviews_mutex};
      impl_->reviews_closed = true;
    }
    // The reviews in progress end at once (shut down) and post their
    // answers to the I/O thread, which still runs.
    impl_->reviews->join();
  }
  impl_->http.stop();
}

} // namespace tessera::serving
