// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "cmd/ops_hooks.hpp"

#include "io/serving/configz.hpp"
#include "support/log.hpp"

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

} // namespace tessera::cmd
