// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// `tessera run`: schedule the pods of a kube-apiserver (see run.hpp).
#include "cmd/run.hpp"

#include "actors/pipeline.hpp"
#include "adapters/api_client/api_sink.hpp"
#include "adapters/api_client/api_source.hpp"
#include "cmd/ops_hooks.hpp"
#include "cmd/scheduler_setup.hpp"
#include "io/event_recorder.hpp"
#include "io/kubeconfig.hpp"
#include "io/leader_election.hpp"
#include "io/rest_client.hpp"
#include "support/flags.hpp"
#include "support/log.hpp"
#include "support/thread_body.hpp"
#include "support/thread_name.hpp"
#include "support/version.hpp"

#include <arpa/inet.h>
#include <caf/all.hpp>

#include <array>
#include <csignal>
#include <cstdio>
#include <pthread.h>
#include <random>
#include <set>
#include <thread>
#include <tuple>

namespace tessera::cmd {

// run_control / run_status

void run_control::request_stop() {
  {
    std::lock_guard guard{mutex_};
    stop_ = true;
  }
  cv_.notify_all();
}

bool run_control::stop_requested() const {
  std::lock_guard guard{mutex_};
  return stop_;
}

bool run_control::wait_for(std::chrono::milliseconds d) {
  std::unique_lock lock{mutex_};
  cv_.wait_for(lock, d, [this] { return stop_; });
  return stop_;
}

std::string run_status::identity() const {
  std::lock_guard guard{mutex_};
  return identity_;
}

void run_status::set_identity(std::string id) {
  std::lock_guard guard{mutex_};
  identity_ = std::move(id);
}

namespace {

constexpr int max_bind_threads = 1024;

/// Upstream's front-proxy authentication flags, which tessera refuses.
constexpr std::array<const char*, 6> requestheader_flags
  = {"requestheader-client-ca-file",       "requestheader-allowed-names",
     "requestheader-username-headers",     "requestheader-group-headers",
     "requestheader-extra-headers-prefix", "requestheader-uid-headers"};

/// Everything `tessera run` was told, validated: the one place flags land.
struct run_options {
  knob_flags knobs;
  std::string kubeconfig;
  std::string master;
  std::string context;
  /// The --leader-elect* flags, with the configuration's defaults; they
  /// override the file only when given.
  config::leader_election_config leader_election;
  serving_options serving;
  double qps = 50;
  int burst = 100;
  std::string content_type;
  std::chrono::milliseconds shutdown_grace{3000};
  int bind_threads = 0;
  int verbosity = 0;
  std::string logging_format = "text";
  /// Delegated authentication and authorization of the secure port (the
  /// rest lands in `serving`).
  std::string authentication_kubeconfig;
  std::string authorization_kubeconfig;
  std::vector<std::string> always_allow_paths;
  /// Front-proxy (request header) authentication: not supported.
  std::array<std::vector<std::string>, 6> requestheader;

  /// The configuration with the flags above applied.
  scheduler_setup setup;
  /// Where the API server is and how to authenticate.
  io::rest_config target;
};

int runtime_error(const std::string& message) {
  std::fprintf(stderr, "tessera run: %s\n", message.c_str());
  return exit_failure;
}

bool valid_ip(const std::string& s) {
  unsigned char buf[16];
  return ::inet_pton(AF_INET, s.c_str(), buf) == 1
         || ::inet_pton(AF_INET6, s.c_str(), buf) == 1;
}

std::string user_agent(const char* suffix) {
  std::string ua = std::string{"tessera/"} + build::version;
  if (suffix != nullptr)
    ua += std::string{" "} + suffix;
  return ua;
}

void add_flags(flag_set& flags, run_options& f) {
  f.knobs.add_to(flags);
  flags.add("kubeconfig", f.kubeconfig,
            "kubeconfig file (default: KUBECONFIG, in-cluster, "
            "~/.kube/config)");
  flags.add("master", f.master,
            "API server URL; overrides the kubeconfig's server");
  flags.add("context", f.context, "kubeconfig context to use");
  flags.add("leader-elect", f.leader_election.leader_elect,
            "take a coordination.k8s.io Lease before scheduling");
  flags.add("leader-elect-lease-duration", f.leader_election.lease_duration,
            "how long a standby waits before taking over an unrenewed lease");
  flags.add("leader-elect-renew-deadline", f.leader_election.renew_deadline,
            "how long the leader retries renewing before giving up");
  flags.add("leader-elect-retry-period", f.leader_election.retry_period,
            "interval between acquire and renew attempts");
  flags.add("leader-elect-resource-lock", f.leader_election.resource_lock,
            "lock object type; only \"leases\" is supported");
  flags.add("leader-elect-resource-name", f.leader_election.resource_name,
            "Lease name");
  flags.add("leader-elect-resource-namespace",
            f.leader_election.resource_namespace, "Lease namespace");
  flags.add("bind-address", f.serving.bind_address,
            "address of the health and metrics server");
  flags.add("secure-port", f.serving.secure_port,
            "HTTPS port of the health and metrics server; 0 disables");
  flags.add("port", f.serving.port,
            "plain HTTP port of the health and metrics server; 0 disables");
  flags.add("tls-cert-file", f.serving.tls_cert_file,
            "PEM certificate of the secure port (default: self-signed, made "
            "at start)");
  flags.add("tls-private-key-file", f.serving.tls_private_key_file,
            "PEM private key matching --tls-cert-file");
  flags.add("kube-api-qps", f.qps,
            "client-side rate limit (requests/s); 0 disables; overrides "
            "clientConnection.qps");
  flags.add("kube-api-burst", f.burst,
            "client-side burst; overrides clientConnection.burst");
  flags.add("kube-api-content-type", f.content_type,
            "accepted for compatibility; tessera always sends JSON");
  flags.add("shutdown-grace-period", f.shutdown_grace,
            "on SIGTERM, how long in-flight bindings may take to finish");
  flags.add(
    "bind-threads", f.bind_threads,
    "io threads issuing bindings (default: min(bind concurrency, 16); at "
    "most 1024)");
  flags.add("authentication-kubeconfig", f.authentication_kubeconfig,
            "kubeconfig of the API server that reviews the secure port's "
            "bearer tokens (TokenReview; default: the scheduler's own "
            "connection)");
  flags.add("authorization-kubeconfig", f.authorization_kubeconfig,
            "kubeconfig of the API server that authorizes the secure port's "
            "requests (SubjectAccessReview; default: the scheduler's own "
            "connection)");
  flags.add("client-ca-file", f.serving.client_ca_file,
            "PEM bundle: clients of the secure port presenting a certificate "
            "it signed are authenticated as its CN, in the groups of its O");
  flags.add("authentication-skip-lookup", f.serving.skip_lookup,
            "do not read the client CA from the configmap "
            "kube-system/extension-apiserver-authentication");
  flags.add("authentication-tolerate-lookup-failure",
            f.serving.tolerate_lookup_failure,
            "start even when that configmap cannot be read (requests may then "
            "all be anonymous)");
  flags.add("authentication-token-webhook-cache-ttl", f.serving.auth.token_ttl,
            "how long TokenReview answers are cached");
  flags.add("authorization-webhook-cache-authorized-ttl",
            f.serving.auth.authorized_ttl,
            "how long allowing SubjectAccessReview answers are cached");
  flags.add("authorization-webhook-cache-unauthorized-ttl",
            f.serving.auth.unauthorized_ttl,
            "how long refusing SubjectAccessReview answers are cached");
  flags.add("authorization-always-allow-paths", f.always_allow_paths,
            "comma-separated paths served without authorization; a trailing "
            "* matches a prefix (default: /healthz,/readyz,/livez)");
  for (std::size_t i = 0; i < requestheader_flags.size(); ++i)
    flags.add(requestheader_flags[i], f.requestheader[i],
              "not supported: tessera does not authenticate front-proxy "
              "requests (exits 2 when given)");
  flags.add("v", f.verbosity, "log verbosity");
  flags.add("logging-format", f.logging_format, "text or json");
}

/// Leader-election and client flags win over the file only when given, as
/// upstream.
void apply_flag_overrides(const flag_set& flags, run_options& f) {
  // The flag's value replaces the file's when the flag was given.
  auto given = [&](const char* flag, auto& into, const auto& value) {
    if (flags.was_set(flag))
      into = value;
  };
  auto& le = f.setup.config.leader_election;
  const auto& from = f.leader_election;
  given("leader-elect", le.leader_elect, from.leader_elect);
  given("leader-elect-lease-duration", le.lease_duration, from.lease_duration);
  given("leader-elect-renew-deadline", le.renew_deadline, from.renew_deadline);
  given("leader-elect-retry-period", le.retry_period, from.retry_period);
  given("leader-elect-resource-lock", le.resource_lock, from.resource_lock);
  given("leader-elect-resource-name", le.resource_name, from.resource_name);
  given("leader-elect-resource-namespace", le.resource_namespace,
        from.resource_namespace);
  auto& cc = f.setup.config.client_connection;
  given("kube-api-qps", cc.qps, static_cast<float>(f.qps));
  given("kube-api-burst", cc.burst, f.burst);
  // A string list as pflag's: the flag replaces the default, each value
  // is comma-separated, and an empty value leaves no path.
  if (flags.was_set("authorization-always-allow-paths")) {
    auto& paths = f.serving.auth.always_allow_paths;
    paths.clear();
    for (const auto& value : f.always_allow_paths) {
      std::size_t start = 0;
      while (start <= value.size()) {
        auto comma = value.find(',', start);
        if (comma == std::string::npos)
          comma = value.size();
        if (comma > start)
          paths.push_back(value.substr(start, comma - start));
        start = comma + 1;
      }
    }
  }
}

io::leader_election_timing election_timing(const run_options& f) {
  const auto& le = f.setup.config.leader_election;
  return {le.lease_duration, le.renew_deadline, le.retry_period};
}

/// The problem with the effective options, or "".
std::string check_options(const run_options& f) {
  const auto& le = f.setup.config.leader_election;
  const auto& cc = f.setup.config.client_connection;
  if (le.leader_elect) {
    if (auto e = io::validate(election_timing(f)))
      return e.message;
    if (le.resource_lock != "leases")
      return "--leader-elect-resource-lock: \"" + le.resource_lock
             + "\" is not supported; use \"leases\"";
    if (le.resource_name.empty() || le.resource_namespace.empty())
      return "--leader-elect-resource-name and "
             "--leader-elect-resource-namespace must not be empty";
  }
  if (cc.qps < 0)
    return "--kube-api-qps: must not be negative";
  if (cc.qps > 0 && cc.burst < 1)
    return "--kube-api-burst: must be at least 1 when qps is set";
  if (!valid_ip(f.serving.bind_address))
    return "--bind-address: \"" + f.serving.bind_address
           + "\" is not an IP address";
  for (auto [name, port] : {std::pair{"secure-port", f.serving.secure_port},
                            std::pair{"port", f.serving.port}})
    if (port < 0 || port > 65535)
      return std::string{"--"} + name + ": " + std::to_string(port)
             + " is not in 0..65535";
  if (f.shutdown_grace.count() < 0)
    return "--shutdown-grace-period: must not be negative";
  // Each binding thread is an OS thread with its own connection: past a
  // few hundred they only cost memory and descriptors.
  if (f.bind_threads < 0 || f.bind_threads > max_bind_threads)
    return "--bind-threads: must be in 0.." + std::to_string(max_bind_threads);
  for (std::size_t i = 0; i < requestheader_flags.size(); ++i)
    if (!f.requestheader[i].empty())
      return std::string{"--"} + requestheader_flags[i]
             + ": not supported: tessera does not authenticate front-proxy "
               "(request header) clients";
  if (auto a = serving::delegated_auth::make(f.serving.auth); !a)
    return a.err().message;
  return {};
}

/// Parses and validates the flags, the configuration and the kubeconfig
/// into `f`. Returns the exit code when the run ends here (help, bad input,
/// --write-config-to), nullopt to go on.
std::optional<int> parse_options(const args& a, run_options& f) {
  flag_set flags{"tessera run [flags]\n\nSchedules the pods of a "
                 "kube-apiserver, as kube-scheduler does."};
  add_flags(flags, f);
  if (auto done = parse_verb_flags(flags, a, "run"))
    return *done;
  if (f.logging_format != "text" && f.logging_format != "json")
    return usage_error("run",
                       "invalid argument \"" + f.logging_format
                         + "\" for \"--logging-format\" flag: must be text or "
                           "json");
  log::verbosity = f.verbosity;
  log::set_format(f.logging_format == "json" ? log::format::json
                                             : log::format::text);

  auto setup = load_scheduler_setup(f.knobs);
  if (!setup)
    return usage_error("run", setup.err().message);
  f.setup = std::move(*setup);
  apply_flag_overrides(flags, f);
  if (!f.knobs.write_config_to.empty()) {
    if (auto e = write_effective_config(f.setup, f.knobs.write_config_to))
      return usage_error("run", e.message);
    return exit_ok;
  }
  if (auto problem = check_options(f); !problem.empty())
    return usage_error("run", problem);
  if (!f.content_type.empty() && f.content_type != "application/json")
    TLOG_INFO("ignoring --kube-api-content-type: tessera sends JSON",
              "requested", f.content_type);

  io::kubeconfig_options ko;
  ko.kubeconfig = !f.kubeconfig.empty()
                    ? f.kubeconfig
                    : f.setup.config.client_connection.kubeconfig;
  ko.master = f.master;
  ko.context = f.context;
  auto target = io::load_rest_config(ko);
  if (!target)
    return usage_error("run", target.err().message);
  f.target = std::move(*target);
  // The reviews go to the scheduler's own API server unless a kubeconfig
  // of their own is given.
  for (auto [flag, path, into] :
       {std::tuple{"--authentication-kubeconfig", &f.authentication_kubeconfig,
                   &f.serving.authentication_target},
        std::tuple{"--authorization-kubeconfig", &f.authorization_kubeconfig,
                   &f.serving.authorization_target}}) {
    if (path->empty()) {
      *into = f.target;
      continue;
    }
    io::kubeconfig_options own;
    own.kubeconfig = *path;
    auto loaded = io::load_rest_config(own);
    if (!loaded)
      return usage_error("run",
                         std::string{flag} + ": " + loaded.err().message);
    *into = std::move(*loaded);
  }
  return std::nullopt;
}

/// The Lease on a thread of its own: acquire, renew, release at the end.
class leadership {
public:
  leadership(io::rest_client& client, const run_options& f, run_status& status)
    : status_(status) {
    const auto& le = f.setup.config.leader_election;
    lease_ = std::make_unique<io::rest_lease_client>(
      client, le.resource_namespace, le.resource_name);
    elector_ = std::make_unique<io::leader_elector>(
      *lease_, io::make_leader_identity(), election_timing(f));
    status_.set_identity(elector_->identity());
  }
  /// release().
  ~leadership() {
    release();
  }
  leadership(const leadership&) = delete;
  leadership& operator=(const leadership&) = delete;

  void start() {
    thread_ = std::thread{[this] {
      set_thread_name("leader");
      auto outcome = io::leader_elector::outcome::lost;
      // An exception must not end the process from this thread; without
      // an elector the lease counts as lost, so the scheduler stops.
      (void)run_thread_body("leader", [&] {
        outcome = elector_->run([this] { status_.set_leading(true); });
      });
      status_.set_leading(false);
      if (outcome == io::leader_elector::outcome::lost)
        lost_.store(true);
    }};
  }
  /// Waits until leading; false when stopped (or the lease lost) first.
  bool wait_until_leading(run_control& control) {
    while (!status_.leading() && !lost_.load())
      if (control.wait_for(std::chrono::milliseconds(100)))
        break;
    return status_.leading();
  }
  bool lost() const noexcept {
    return lost_.load();
  }
  /// Whether this instance may write as the leader now (see
  /// io::leader_elector::holds_lease).
  bool holds_lease() const {
    return elector_->holds_lease();
  }
  /// Stops renewing and gives the lease up (once).
  void release() {
    elector_->stop();
    if (thread_.joinable())
      thread_.join();
  }

private:
  run_status& status_;
  std::unique_ptr<io::rest_lease_client> lease_;
  std::unique_ptr<io::leader_elector> elector_;
  std::thread thread_;
  std::atomic<bool> lost_{false};
};

/// Ends blocked API calls after a stop request, so that no Retry-After and
/// no silent server holds a stopping process: before the scheduling loop
/// runs (discovery, waiting for the caches) the scheduler's and the event
/// clients are shut down at once and the lease client after a short window
/// for releasing the lease; once scheduling, everything is cut only as a
/// backstop, when the graceful shutdown overran its grace period.
class stop_watchdog {
public:
  stop_watchdog(run_control& control, std::chrono::milliseconds grace)
    : control_(control), grace_(grace) {
    thread_ = std::thread{[this] {
      set_thread_name("stop-watchdog");
      // The backstop that lets a stuck stop end: without it a stop request
      // could hang for ever, so its failure ends the process.
      run_vital_thread_body("stop-watchdog", [this] { watch(); });
    }};
  }
  ~stop_watchdog() {
    done_.store(true);
    thread_.join();
  }
  stop_watchdog(const stop_watchdog&) = delete;
  stop_watchdog& operator=(const stop_watchdog&) = delete;

  /// Clients to cut: `lease` gets the release window.
  void watch_clients(std::vector<io::rest_client*> clients,
                     io::rest_client* lease) {
    std::lock_guard guard{mutex_};
    clients_ = std::move(clients);
    lease_ = lease;
  }
  /// The scheduling loop runs: it stops on its own, within its grace.
  void set_scheduling() {
    scheduling_.store(true);
  }

private:
  void watch() {
    while (!done_.load())
      if (control_.wait_for(std::chrono::milliseconds(100)))
        break;
    if (done_.load())
      return;
    const auto release_window = std::chrono::seconds(2);
    auto now = std::chrono::steady_clock::now();
    bool cut_now = !scheduling_.load();
    auto cut_at = now + (cut_now ? std::chrono::milliseconds(0) : grace_)
                  + (cut_now ? std::chrono::milliseconds(0) : release_window);
    auto lease_at = cut_at + release_window;
    bool clients_cut = false;
    while (!done_.load()) {
      now = std::chrono::steady_clock::now();
      std::lock_guard guard{mutex_};
      if (!clients_cut && now >= cut_at) {
        if (!clients_.empty())
          TLOG_INFO("stopping: cancelling blocked API calls");
        for (auto* c : clients_)
          c->shutdown();
        clients_cut = true;
      }
      if (now >= lease_at) {
        if (lease_ != nullptr)
          lease_->shutdown();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  run_control& control_;
  std::chrono::milliseconds grace_;
  std::mutex mutex_;
  std::vector<io::rest_client*> clients_;
  io::rest_client* lease_ = nullptr;
  std::atomic<bool> scheduling_{false};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

/// What the scheduling phase works with.
struct run_context {
  const run_options& options;
  io::rest_client& client;
  io::rest_client& event_client;
  run_control& control;
  run_status& status;
  /// Null without leader election.
  const leadership* lease = nullptr;
  run_hooks& hooks;
  stop_watchdog& watchdog;
};

/// The pipeline over the API source and sink, from start to a clean stop:
/// runs until a stop request or the loss of the lease; returns the exit
/// code.
int schedule(run_context& rc) {
  const run_options& f = rc.options;
  const scheduler_setup& setup = f.setup;
  auto lost = [&rc] { return rc.lease != nullptr && rc.lease->lost(); };

  caf::actor_system_config caf_cfg;
  actors::configure_scheduler(caf_cfg, 0);
  // Declared before everything the actors use, so destroyed after it: its
  // destructor blocks until every actor is done (CAF awaits actors before
  // shutdown by default). Hence no actor, and no timed profile one of them
  // runs, records into rc.hooks.metrics once this function returns.
  caf::actor_system sys{caf_cfg};

  // Checked right before every write (bindings and their volume updates,
  // status patches, deletions, events): a paused leader whose lease ran out
  // stops at once.
  std::function<error()> lease_gate;
  if (rc.lease != nullptr)
    lease_gate = [lease = rc.lease]() -> error {
      if (lease->holds_lease())
        return {};
      return make_error(ec::unavailable,
                        "not the leader: the lease was not renewed within "
                        "its duration");
    };
  bool events_v1 = rc.client.has_events_v1();
  io::event_recorder_config ec;
  ec.use_events_v1 = events_v1;
  ec.write_gate = lease_gate;
  io::event_recorder events{rc.event_client, ec};
  events.start();
  adapters::api_source_config source_cfg;
  source_cfg.metrics = rc.hooks.metrics;
  // Set once the sink exists, before the source starts its reflectors.
  adapters::api_sink* report_to = nullptr;
  std::set<std::string> names;
  for (const auto& prof : setup.config.profiles)
    names.insert(prof.scheduler_name);
  source_cfg.undecodable_pod =
    [&report_to, names](const model::object_peek& pod, const std::string& why) {
      std::string name
        = pod.scheduler_name.empty() ? "default-scheduler" : pod.scheduler_name;
      if (report_to != nullptr && names.count(name) > 0)
        report_to->undecodable_pod(pod, why);
    };
  adapters::api_source source{rc.client, source_cfg};
  adapters::api_sink_config sc;
  sc.bind_threads = f.bind_threads > 0
                      ? static_cast<std::size_t>(f.bind_threads)
                      : std::min<std::size_t>(setup.bind_concurrency, 16);
  sc.write_gate = lease_gate;
  if (rc.lease != nullptr)
    sc.gated_status_patience = election_timing(f).lease_duration;
  // No binding goes out while an informer re-lists or to a node the cache
  // does not hold.
  sc.bind_gate
    = [&source](model::symbol node) { return source.check_bind_target(node); };
  adapters::api_sink sink{rc.client, events, sc};
  report_to = &sink;

  actors::pipeline_config pc;
  pc.shards = setup.shards;
  pc.max_inflight_cycles = setup.max_inflight_cycles;
  pc.bind_concurrency = setup.bind_concurrency;
  pc.seed = std::random_device{}();
  pc.queue.initial_backoff
    = std::chrono::seconds(setup.config.pod_initial_backoff_seconds);
  pc.queue.max_backoff
    = std::chrono::seconds(setup.config.pod_max_backoff_seconds);
  pc.queue.pop_from_backoff = setup.config.gates.enabled(
    config::feature_gate::scheduler_pop_from_backoff_q);
  pc.batching
    = setup.config.gates.enabled(config::feature_gate::opportunistic_batching);
  pc.metrics = rc.hooks.metrics;
  auto p = actors::start_pipeline(sys, pc, setup.profiles, source, sink,
                                  system_clock::instance());
  if (rc.hooks.on_started)
    rc.hooks.on_started(run_handles{&source, &sink, &rc.client, &rc.status});
  TLOG_INFO("scheduler started", "profiles", setup.profiles.size(), "shards",
            pc.shards, "eventsAPI", events_v1 ? "events.k8s.io/v1" : "v1");

  rc.watchdog.set_scheduling();
  while (!lost() && !rc.control.stop_requested()) {
    if (!rc.status.synced() && source.synced()) {
      rc.status.set_synced(true);
      TLOG_INFO("caches synced; scheduling");
    }
    rc.control.wait_for(std::chrono::milliseconds(50));
  }
  rc.status.set_stopping(true);
  int code = exit_ok;
  auto grace = f.shutdown_grace;
  if (lost()) {
    // Another instance may already schedule: stop at once.
    TLOG_ERROR("leader election lost; stopping");
    code = exit_failure;
    grace = std::chrono::milliseconds(0);
  } else {
    TLOG_INFO("stopping: finishing in-flight bindings", "grace",
              format_duration(grace));
  }
  // Stop popping: no new cycles start once the coordinator is gone.
  caf::anon_send_exit(p.coordinator, caf::exit_reason::user_shutdown);
  if (!sink.drain(grace))
    TLOG_WARN("abandoning bindings still in flight");
  actors::stop_pipeline(p, source);
  rc.client.shutdown();
  sink.stop();
  events.stop(code == exit_ok ? std::chrono::milliseconds(500)
                              : std::chrono::milliseconds(0));
  rc.event_client.shutdown();
  return code;
}

} // namespace

int run_scheduler(const args& a, run_hooks& hooks) {
  run_options f;
  if (auto code = parse_options(a, f))
    return *code;
  const auto& le = f.setup.config.leader_election;
  const auto& cc = f.setup.config.client_connection;
  auto creds = std::make_shared<io::credential_provider>(f.target);
  if (auto c = creds->get(); !c)
    return runtime_error("cannot get credentials: " + c.err().message);
  TLOG_INFO("connecting to the API server", "server", f.target.server, "from",
            f.target.origin, "qps", cc.qps, "burst", cc.burst);

  run_control local_control;
  run_control& control = hooks.control ? *hooks.control : local_control;
  run_status status;
  status.set_leader_election(le.leader_elect);
  if (le.leader_elect && hooks.metrics != nullptr)
    status.mirror_leading(
      &hooks.metrics->leader_election_master_status.with({le.resource_name}));
  status.set_leading(!le.leader_elect);
  // The one place servers start (health and metrics).
  f.serving.effective_config = config::write_config(f.setup.config);
  if (hooks.start_serving)
    if (auto e = hooks.start_serving(f.serving, status))
      // A certificate or key that does not load is bad input; a port in
      // use is not.
      return e.code == ec::invalid_input ? usage_error("run", e.message)
                                         : runtime_error(e.message);
  struct serving_guard {
    run_hooks& h;
    ~serving_guard() {
      if (h.stop_serving)
        h.stop_serving();
    }
  } serving_stop{hooks};

  // Clients: one for the scheduler's reads and writes, one for events and
  // one for the lease, each with its own rate limiter as upstream's.
  auto make_client = [&](const char* suffix, double qps, int burst,
                         std::chrono::milliseconds timeout) {
    io::rest_client_config rc;
    rc.target = f.target;
    rc.credentials = creds;
    rc.qps = qps;
    rc.burst = burst;
    rc.user_agent = user_agent(suffix);
    rc.request_timeout = timeout;
    rc.metrics = hooks.metrics;
    return std::make_unique<io::rest_client>(std::move(rc));
  };
  auto main_client
    = make_client(nullptr, cc.qps, cc.burst, std::chrono::seconds(60));
  auto event_client
    = make_client("events", cc.qps, cc.burst, std::chrono::seconds(30));
  // Declared before the lease so that it outlives it.
  std::unique_ptr<io::rest_client> lease_client;
  // After the clients, so that it is gone before they are.
  stop_watchdog watchdog{control, f.shutdown_grace};
  std::unique_ptr<leadership> lease;
  if (le.leader_elect) {
    lease_client = make_client(
      "leader-election", 0, 1,
      std::max(std::chrono::milliseconds(1000), le.renew_deadline / 2));
    lease = std::make_unique<leadership>(*lease_client, f, status);
    watchdog.watch_clients({main_client.get(), event_client.get()},
                           lease_client.get());
    lease->start();
    if (!lease->wait_until_leading(control))
      return lease->lost() ? exit_failure : exit_ok;
  }

  if (!le.leader_elect)
    watchdog.watch_clients({main_client.get(), event_client.get()}, nullptr);
  run_context rc{f,      *main_client, *event_client, control,
                 status, lease.get(),  hooks,         watchdog};
  int code = schedule(rc);
  // Released only now, after the pipeline stopped: a successor never
  // schedules while this instance still binds.
  lease.reset();
  TLOG_INFO("scheduler stopped", "exitCode", code);
  return code;
}

int run_main(const args& a) {
  // Block the stop signals before any thread starts (every thread inherits
  // the mask), and turn them into a stop request on a thread of their own.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  static run_control control;
  std::thread{[stop_signals] {
    set_thread_name("signals");
    // Every other thread blocks the stop signals: without this one no
    // SIGTERM could stop the process, so its failure ends the process.
    run_vital_thread_body("signals", [&stop_signals] {
      int sig = 0;
      sigset_t set = stop_signals;
      sigwait(&set, &sig);
      TLOG_INFO("received signal; shutting down", "signal", sig);
      control.request_stop();
      sigwait(&set, &sig);
      // A second signal: exit at once, as kube-scheduler does.
      std::_Exit(exit_failure);
    });
  }}.detach();
  run_hooks hooks;
  hooks.control = &control;
  // metrics + /healthz /livez /readyz /metrics /configz; it outlives
  // run_scheduler, which stops and awaits the actors recording into it.
  ops_hooks ops;
  ops.attach(hooks);
  return run_scheduler(a, hooks);
}

} // namespace tessera::cmd
