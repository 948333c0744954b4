// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// `tessera cluster`: the embedded kwok-style API server (io/apiserver).
#include "cmd/verbs.hpp"
#include "io/apiserver/kwok.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "io/apiserver/volume_controller.hpp"
#include "io/credentials.hpp"
#include "model/decode.hpp"
#include "model/document_file.hpp"
#include "support/flags.hpp"
#include "support/log.hpp"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <optional>
#include <pthread.h>
#include <sstream>

namespace tessera::cmd {

namespace {

bool is_loopback(const std::string& address) {
  return address == "localhost" || address == "::1"
         || address.rfind("127.", 0) == 0;
}

/// A node template file as JSON (the file may be YAML or JSON).
expected<std::string> read_node_template(const std::string& path) {
  auto read = model::read_document_file(path);
  if (!read)
    return make_error(ec::invalid_input, read.err().message);
  std::string text = std::move(*read);
  auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{')
    return text;
  auto docs = model::yaml_documents_to_json(text);
  if (!docs)
    return make_error(ec::invalid_input, path + ": " + docs.err().message);
  if (docs->size() != 1)
    return make_error(ec::invalid_input,
                      path + ": expected exactly one Node document");
  return (*docs)[0];
}

constexpr int max_nodes = 1000000;
constexpr int max_threads = 1024;

} // namespace

int cluster_main(const args& a) {
  apiserver::server_config server;
  apiserver::store_config store_cfg;
  apiserver::kwok_config kwok;
  bool volume_controller = true;
  bool default_storage_class = true;
  apiserver::fake_node_options nodes;
  int node_count = 0;
  int port = 6443;
  int history = static_cast<int>(store_cfg.history_size);
  int queue_limit = static_cast<int>(store_cfg.watch_queue_limit);
  int body_limit = static_cast<int>(server.body_limit);
  std::string node_template;
  std::chrono::milliseconds bookmark_interval
    = server.handler.bookmark_interval;
  std::chrono::milliseconds min_request_timeout
    = server.handler.min_request_timeout;
  double bind_error_rate = 0;
  int verbosity = 0;
  std::string logging_format = "text";

  flag_set flags{"tessera cluster [flags]\n\nRuns an in-memory Kubernetes API "
                 "server with kwok-style fake nodes.\nPoint kubectl at it with "
                 "`kubectl --server http://127.0.0.1:6443 get nodes`."};
  flags.add("bind-address", server.bind_address,
            "address to listen on; a non-loopback address must be given "
            "explicitly");
  flags.add("port", port, "port to listen on; 0 picks a free port");
  flags.add("tls-cert", server.tls_cert_file,
            "PEM certificate chain; with --tls-key serves HTTPS");
  flags.add("tls-key", server.tls_key_file, "PEM private key");
  flags.add("token", server.handler.token,
            "require `Authorization: Bearer <token>` on every request except "
            "health checks");
  std::string token_file;
  flags.add("token-file", token_file,
            "like --token, read from this file (keeps the token out of the "
            "process list)");
  flags.add("nodes", node_count,
            "fake nodes to create at start (at most 1000000)");
  flags.add("node-template", node_template,
            "Node (YAML or JSON) to create the fake nodes from; default: 4 "
            "cpu, 32Gi, 110 pods");
  flags.add("node-prefix", nodes.name_prefix,
            "name prefix of generated nodes (a 6-digit index follows)");
  flags.add("node-taint", nodes.taint,
            "taint generated nodes with kwok.x-k8s.io/node=fake:NoSchedule");
  flags.add("zones", nodes.zones,
            "spread generated nodes over N topology.kubernetes.io/zone values");
  flags.add("manage-all-nodes", kwok.manage_all_nodes,
            "run the fake kubelet for every node, not only those annotated "
            "kwok.x-k8s.io/node=fake");
  flags.add("pod-ready-delay", kwok.pod_ready_delay,
            "delay between binding and a pod on a fake node turning Running");
  flags.add("complete-job-pods", kwok.complete_job_pods,
            "move running Job pods on fake nodes to Succeeded");
  flags.add("job-pod-run-time", kwok.job_pod_run_time,
            "how long a Job pod on a fake node runs before it succeeds");
  flags.add("default-storage-class", default_storage_class,
            "create kind's default StorageClass `standard` (a local-path "
            "provisioner binding at the first consumer), so claims without "
            "a class, a StatefulSet's among them, get volumes");
  flags.add("volume-controller", volume_controller,
            "bind claims to volumes and provision volumes for claims whose "
            "class has a provisioner, as the persistent volume controller "
            "and a provisioner would");
  flags.add("node-heartbeat", kwok.heartbeat_interval,
            "renew fake nodes' leases this often; 0 disables heartbeats");
  flags.add("history-size", history,
            "watch events kept for watches resuming from a resourceVersion");
  flags.add("watch-queue-limit", queue_limit,
            "events a watcher may buffer before it is dropped");
  flags.add("bookmark-interval", bookmark_interval,
            "interval of watch bookmarks (when the client allows them)");
  flags.add("min-request-timeout", min_request_timeout,
            "watches without timeoutSeconds end after [d, 2d)");
  flags.add("refuse-watch-list", store_cfg.refuse_watch_list,
            "answer sendInitialEvents with 422, as a server without the "
            "WatchList feature");
  flags.add("threads", server.threads, "HTTP I/O threads (at most 1024)");
  flags.add("max-body-bytes", body_limit, "largest accepted request body");
  flags.add("fault-drop-watches-every", server.fault_drop_watches_every,
            "fault injection: abort every watch connection this often");
  flags.add("fault-bind-error-rate", bind_error_rate,
            "fault injection: fraction (0..1) of bindings failing with 500");
  flags.add("fault-latency", server.fault_latency,
            "fault injection: latency added to every request");
  flags.add("fault-compact-every", server.fault_compact_every,
            "fault injection: drop the watch history this often (forces 410)");
  flags.add("v", verbosity, "log verbosity; 4 logs one line per request");
  flags.add("logging-format", logging_format, "text or json");
  if (auto done = parse_verb_flags(flags, a, "cluster"))
    return *done;
  if (port < 0 || port > 65535)
    return usage_error("cluster", "--port must be in 0..65535");
  if (node_count < 0 || history <= 0 || queue_limit <= 0 || body_limit <= 0
      || server.threads <= 0)
    return usage_error("cluster",
                       "--nodes, --history-size, --watch-queue-limit, "
                       "--max-body-bytes and --threads must be positive");
  // Both are made up front: beyond these bounds the process would run out
  // of memory or threads before it served anything.
  if (node_count > max_nodes)
    return usage_error("cluster",
                       "--nodes: must be at most " + std::to_string(max_nodes));
  if (server.threads > max_threads)
    return usage_error("cluster", "--threads: must be at most "
                                    + std::to_string(max_threads));
  if (bind_error_rate < 0 || bind_error_rate > 1)
    return usage_error("cluster", "--fault-bind-error-rate must be in 0..1");
  if (logging_format != "text" && logging_format != "json")
    return usage_error("cluster", "--logging-format must be text or json");
  if (!token_file.empty()) {
    if (!server.handler.token.empty())
      return usage_error("cluster",
                         "--token and --token-file are mutually exclusive");
    auto token = io::read_token_file(token_file);
    if (!token)
      return usage_error("cluster", "--token-file: " + token.err().message);
    server.handler.token = std::move(*token);
  }
  if (!is_loopback(server.bind_address) && !flags.was_set("bind-address"))
    return usage_error("cluster",
                       "refusing to listen on non-loopback address "
                         + server.bind_address
                         + " unless --bind-address is given explicitly");
  log::verbosity = verbosity;
  log::set_format(logging_format == "json" ? log::format::json
                                           : log::format::text);
  server.port = static_cast<std::uint16_t>(port);
  server.body_limit = static_cast<std::size_t>(body_limit);
  server.handler.bookmark_interval = bookmark_interval;
  server.handler.min_request_timeout = min_request_timeout;
  store_cfg.history_size = static_cast<std::size_t>(history);
  store_cfg.watch_queue_limit = static_cast<std::size_t>(queue_limit);
  if (!node_template.empty()) {
    auto t = read_node_template(node_template);
    if (!t)
      return usage_error("cluster", t.err().message);
    nodes.template_json = std::move(*t);
  }

  // Block the stop signals before any thread starts, then wait for them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  apiserver::store st{store_cfg};
  st.fail_binds(bind_error_rate);
  if (auto e = apiserver::create_fake_nodes(
        st, static_cast<std::size_t>(node_count), nodes)) {
    std::fprintf(stderr, "tessera cluster: creating nodes: %s\n",
                 e.message.c_str());
    return exit_usage;
  }
  if (default_storage_class) {
    auto r = st.create(
      *apiserver::find_resource("storage.k8s.io", "v1", "storageclasses"), "",
      R"({"metadata":{"name":"standard","annotations":)"
      R"({"storageclass.kubernetes.io/is-default-class":"true"}},)"
      R"("provisioner":"rancher.io/local-path","reclaimPolicy":"Delete",)"
      R"("volumeBindingMode":"WaitForFirstConsumer"})");
    (void)r;
  }
  apiserver::kwok_controller kwok_ctl{st, kwok};
  std::optional<apiserver::volume_controller> volume_ctl;
  if (volume_controller)
    volume_ctl.emplace(st);
  auto srv = apiserver::api_server::start(st, server);
  if (!srv) {
    std::fprintf(stderr, "tessera cluster: %s\n", srv.err().message.c_str());
    // A bad flag or file is a usage error; a busy port is not.
    return srv.err().code == ec::invalid_input ? exit_usage : exit_failure;
  }
  std::printf("listening on %s\n", (*srv)->url().c_str());
  std::fflush(stdout);
  TLOG_INFO("embedded cluster serving", "url", (*srv)->url(), "nodes",
            node_count, "tls", !server.tls_cert_file.empty(), "token",
            !server.handler.token.empty());
  if (!is_loopback(server.bind_address) && server.handler.token.empty())
    TLOG_WARN("serving a non-loopback address without --token: anyone who "
              "can reach it may change the cluster");
  int sig = 0;
  sigwait(&stop_signals, &sig);
  TLOG_INFO("shutting down", "signal", sig);
  (*srv)->stop();
  return exit_ok;
}

} // namespace tessera::cmd
