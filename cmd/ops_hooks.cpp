// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "cmd/ops_hooks.hpp"

#include "io/pem_check.hpp"
#include "io/rest_client.hpp"
#include "io/serving/configz.hpp"
#include "support/log.hpp"
#include "support/version.hpp"

#include <fstream>
#include <sstream>

namespace tessera::cmd {

serving::ops_providers scheduler_providers(const run_status& status) {
  serving::ops_providers p;
  auto ping = [] { return std::string{}; };
  p.livez = {{"ping", ping}};
  p.readyz = {
    {"ping", ping},
    {"sched-handler-sync",
     [&status] {
       bool standby = status.leader_election() && !status.leading();
       return status.synced() || standby
                ? std::string{}
                : std::string{"the caches have not synced yet"};
     }},
    {"shutdown",
     [&status] {
       return status.stopping() ? std::string{"shutting down"} : std::string{};
     }},
  };
  return p;
}

ops_hooks::ops_hooks() = default;

ops_hooks::~ops_hooks() {
  // The server's /metrics handler renders metrics_: stop it first.
  server_.reset();
}

void ops_hooks::attach(run_hooks& hooks) {
  hooks.metrics = &metrics_;
  hooks.start_serving = [this](const serving_options& o, const run_status& s) {
    return start(o, s);
  };
  hooks.stop_serving = [this] { server_.reset(); };
}

error ops_hooks::start(const serving_options& options,
                       const run_status& status) {
  serving::ops_server_config cfg;
  cfg.bind_address = options.bind_address;
  cfg.secure_port = options.secure_port;
  cfg.port = options.port;
  cfg.tls_cert_file = options.tls_cert_file;
  cfg.tls_private_key_file = options.tls_private_key_file;
  if (options.secure_port != 0) {
    auto auth = make_auth(options);
    if (!auth)
      return auth.err();
    cfg.auth = std::move(*auth);
  }
  auto providers = scheduler_providers(status);
  providers.metrics = [this] { return metrics_.render(); };
  if (!options.effective_config.empty()) {
    auto body = serving::configz_json(options.effective_config);
    if (!body)
      return body.err();
    providers.configz = [json = std::move(*body)] { return json; };
  }
  auto server
    = serving::ops_server::start(std::move(cfg), std::move(providers));
  if (!server)
    return server.err();
  server_ = std::move(*server);
  return {};
}

namespace {

std::unique_ptr<io::rest_client>
review_rest_client(const io::rest_config& t, const char* purpose,
                   metrics::scheduler_metrics* m) {
  io::rest_client_config rc;
  rc.target = t;
  // As upstream's delegating clients: a high limit, since it bounds how
  // fast the secure port can answer, and a short deadline.
  rc.qps = 200;
  rc.burst = 400;
  rc.request_timeout = std::chrono::seconds(10);
  rc.max_retries = 1;
  rc.max_retry_after = std::chrono::seconds(1);
  rc.user_agent = std::string{"tessera/"} + build::version + " " + purpose;
  rc.metrics = m;
  return std::make_unique<io::rest_client>(std::move(rc));
}

} // namespace

expected<std::shared_ptr<serving::delegated_auth>>
ops_hooks::make_auth(const serving_options& options) {
  serving::delegated_auth_config cfg = options.auth;
  authn_client_ = review_rest_client(options.authentication_target,
                                     "authentication", &metrics_);
  authz_client_ = review_rest_client(options.authorization_target,
                                     "authorization", &metrics_);
  token_reviews_ = serving::make_rest_review_client(*authn_client_);
  access_reviews_ = serving::make_rest_review_client(*authz_client_);
  cfg.tokens = token_reviews_.get();
  cfg.access = access_reviews_.get();
  if (!options.client_ca_file.empty()) {
    std::ifstream in{options.client_ca_file, std::ios::binary};
    if (!in)
      return make_error(ec::invalid_input, "--client-ca-file: cannot read "
                                             + options.client_ca_file);
    std::ostringstream text;
    text << in.rdbuf();
    cfg.client_ca_pem = text.str();
    if (auto why = io::check_pem(cfg.client_ca_pem, io::pem_kind::certificates);
        !why.empty())
      return make_error(ec::invalid_input,
                        "--client-ca-file: " + options.client_ca_file + ": "
                          + why);
  } else if (!options.skip_lookup) {
    auto found = serving::lookup_client_ca(*authn_client_);
    std::string problem;
    if (!found) {
      problem = found.err().message;
    } else if (*found) {
      if (auto why = io::check_pem(**found, io::pem_kind::certificates);
          !why.empty())
        problem = "client-ca-file: " + why;
    }
    if (!problem.empty()) {
      if (!options.tolerate_lookup_failure)
        return make_error(ec::unavailable,
                          "cannot read configmap kube-system/extension-"
                          "apiserver-authentication: "
                            + problem);
      TLOG_WARN("error looking up in-cluster authentication configuration; "
                "continuing without a client CA (client certificates are not "
                "accepted); set --authentication-tolerate-lookup-failure="
                "false to require it",
                "error", problem);
    } else if (*found) {
      cfg.client_ca_pem = std::move(**found);
      TLOG_INFO("client certificates of the secure port are verified "
                "against configmap kube-system/extension-apiserver-"
                "authentication");
    }
  }
  auto made = serving::delegated_auth::make(std::move(cfg));
  if (!made)
    return made.err();
  return std::shared_ptr<serving::delegated_auth>(std::move(*made));
}

} // namespace tessera::cmd
