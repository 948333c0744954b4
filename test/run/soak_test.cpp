// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The fault soak: `tessera cluster` with every fault flag on, two `tessera
// run` with leader election, and rounds of random abuse (kill -9, SIGSTOP
// past the lease, SIGTERM, restarts of the cluster, pods and nodes coming
// and going), each followed by a settle phase and soak_checker's verdict
// read from the API. TESSERA_SOAK_SECONDS sets how long rounds keep
// starting (default 100), TESSERA_SOAK_SEED the seed of the actions
// (default random; it is printed). The seed fixes the sequence of actions
// and their parameters, not the processes' timing, so a failure's seed
// replays the same abuse, not necessarily the same interleaving.
//
// Restarting the cluster: `tessera cluster` keeps its objects in memory
// only, so a restart loses them. The driver plays the part of an etcd that
// survived the outage: it lists nodes and pods just before the kill and,
// once the new server listens on the same port, creates them again (bound
// pods with their nodeName first, then the nodes, then pending pods, so no
// scheduler ever sees a node without the pods already on it). Sometimes
// one node is left out, with its pods (the pod garbage collector's part):
// the cluster came back with fewer nodes, and a binding to that node
// after the race window is a violation. The new objects have new UIDs and
// resourceVersions above the old ones, so the schedulers see an outage,
// 410s and a relist.
#include "io/http_client.hpp"
#include "support/time_format.hpp"
#include "test/run/run_fixture.hpp"
#include "test/run/soak_checker.hpp"
#include "test/support/api_client.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <random>
#include <set>
#include <sstream>

namespace tessera::test {
namespace {

using steady = std::chrono::steady_clock;
using wall = std::chrono::system_clock;

/// Output kept of each child (its tail is printed on a failure).
constexpr std::size_t output_kept = 16 * 1024;

/// The lease of elected_run_args: a pause longer than this loses it.
constexpr auto lease = 2s;

/// How long after a node vanished a binding to it is a race, not a
/// violation: a binding decided before the scheduler saw the deletion and
/// sent before its cache dropped the node (a scheduler paused by SIGSTOP
/// with a binding on the wire sends it seconds late). The same holds for a
/// node the cluster came back without: a scheduler holds bindings from the
/// moment any informer's watch breaks (or ends within its first second)
/// until every such informer listed again, so only a binding already past
/// that check (a paused scheduler's) can still reach the new server.
constexpr auto vanish_race_window = 5s;

/// How long a settle phase may take before the cluster counts as stuck:
/// after an outage a scheduler holds bindings until every informer listed
/// again, and an informer's backoff grows while the server stays away
/// (it starts again from 0.8 s once a watch lasted).
constexpr auto settle_limit = 90s;

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v)
    return fallback;
  char* end = nullptr;
  auto n = std::strtoull(v, &end, 10);
  if (*end != '\0') {
    std::fprintf(stderr, "%s must be a whole number, not '%s'\n", name, v);
    std::exit(2);
  }
  return n;
}

/// A node shape of the soak (allocatable).
struct node_shape {
  int cpu_milli;
  int memory_mi;
  int pods;
};

/// A pod shape: its one container's requests.
struct pod_shape {
  int cpu_milli;
  int memory_mi;
};

/// Shapes chosen so that cpu runs out first, then pods or memory on some
/// nodes: there are always pending pods, and a deletion frees room for
/// some of them. The last pod shape fits no node at all.
const std::vector<node_shape> node_shapes
  = {{2000, 4096, 8}, {4000, 2048, 6}, {1000, 8192, 12}};
const std::vector<pod_shape> pod_shapes
  = {{100, 64}, {250, 256}, {500, 512}, {1000, 1024}, {250, 1536}, {8000, 64}};

class soak {
public:
  soak(std::uint64_t seed, std::chrono::seconds duration, bool verbose)
    : seed_(seed), duration_(duration), verbose_(verbose), rng_(seed) {
  }

  /// Runs rounds until the duration is over or a check fails.
  void run() {
    port_ = free_port();
    if (!start_cluster())
      return;
    for (int i = 0; i < 4; ++i)
      add_node();
    for (auto& s : schedulers_)
      s.proc = std::make_unique<child_process>(elected_run_args(url_));
    log("started 2 schedulers");
    create_pods(20);
    auto end = steady::now() + duration_;
    int round = 0;
    while (steady::now() < end && !failed_) {
      ++round_;
      round = round_;
      auto t0 = steady::now();
      int actions = pick(3, 7);
      for (int i = 0; i < actions && !failed_; ++i) {
        act();
        idle(ms(pick(100, 1500)));
      }
      if (failed_)
        break;
      resume_all();
      auto settle_start = steady::now();
      auto o = settle();
      auto now = steady::now();
      if (!o)
        break;
      std::printf("soak round %d: %.1fs actions, settled in %.1fs: %zu nodes, "
                  "%zu pods bound, %zu pending; %d scheduler restarts, %d "
                  "cluster restarts\n",
                  round, secs(settle_start - t0), secs(now - settle_start),
                  o->nodes.size(), o->bound(), o->pending(),
                  scheduler_restarts_, cluster_restarts_);
      std::fflush(stdout);
    }
    std::printf(
      "soak done: seed %llu, %d rounds, %d scheduler restarts, %d "
      "cluster restarts, %d pods created, %d raced orphans (bound < %.1fs "
      "after their node vanished), %s\n",
      static_cast<unsigned long long>(seed_), round, scheduler_restarts_,
      cluster_restarts_, pods_created_, raced_orphans_, secs(max_orphan_lag_),
      failed_ ? "FAILED" : "ok");
    std::fflush(stdout);
    stop_all();
  }

private:
  /// One `tessera run` slot: its current process and what it is doing.
  struct scheduler_slot {
    std::unique_ptr<child_process> proc;
    /// Set while SIGSTOPped: when to send SIGCONT.
    std::optional<steady::time_point> paused_until;
    /// The signal the driver sent it last (0: none), to judge its exit.
    int signalled = 0;
    /// stderr of its previous process, for failure reports.
    std::string previous_stderr;
  };

  static std::chrono::milliseconds ms(int n) {
    return std::chrono::milliseconds{n};
  }
  template <class Duration> static double secs(Duration d) {
    return std::chrono::duration<double>(d).count();
  }
  int pick(int lo, int hi) {
    return std::uniform_int_distribution<int>{lo, hi}(rng_);
  }
  bool chance(double p) {
    return std::bernoulli_distribution{p}(rng_);
  }

  void log(const std::string& what) {
    std::ostringstream s;
    s.precision(1);
    s << std::fixed << "[round " << round_ << " +"
      << secs(steady::now() - started_) << "s] " << what;
    actions_.push_back(s.str());
    if (verbose_) {
      std::printf("%s\n", s.str().c_str());
      std::fflush(stdout);
    }
    if (actions_.size() > 200)
      actions_.pop_front();
  }

  /// Reports a failure with everything needed to reproduce and diagnose it,
  /// and ends the soak.
  void fail(const std::vector<std::string>& violations) {
    failed_ = true;
    std::ostringstream s;
    s << "soak failed in round " << round_ << " (reproduce with "
      << "TESSERA_SOAK_SEED=" << seed_
      << " TESSERA_SOAK_SECONDS=" << duration_.count() << ")\n";
    for (const auto& v : violations)
      s << "  violation: " << v << "\n";
    s << "actions (latest last):\n";
    for (const auto& a : actions_)
      s << "  " << a << "\n";
    for (std::size_t i = 0; i < schedulers_.size(); ++i) {
      auto& slot = schedulers_[i];
      if (slot.proc) {
        slot.proc->drain_output(output_kept);
        slot.previous_stderr += slot.proc->stderr_text();
      }
      s << "---- scheduler " << i << " stderr (tail) ----\n"
        << tail(slot.previous_stderr) << "\n";
    }
    if (cluster_) {
      cluster_->drain_output(output_kept);
      s << "---- cluster stderr (tail) ----\n"
        << tail(cluster_->stderr_text()) << "\n";
    }
    ADD_FAILURE() << s.str();
  }

  static std::string tail(const std::string& text) {
    constexpr std::size_t keep = 6000;
    return text.size() <= keep ? text : text.substr(text.size() - keep);
  }

  // ---- processes ----------------------------------------------------------

  bool start_cluster() {
    std::vector<std::string> args = {tessera_binary(),
                                     "cluster",
                                     "--port",
                                     std::to_string(port_),
                                     "--manage-all-nodes",
                                     "--fault-drop-watches-every=3s",
                                     "--fault-bind-error-rate=0.1",
                                     "--fault-latency=5ms",
                                     "--fault-compact-every=5s"};
    // The port was just freed by the previous server; a retry covers a
    // socket still closing.
    for (int attempt = 0; attempt < 10; ++attempt) {
      cluster_ = std::make_unique<child_process>(args);
      std::string url = cluster_url(*cluster_);
      if (!url.empty()) {
        url_ = url;
        client_ = std::make_unique<io::http_client>(http_config_for(url_));
        return true;
      }
      cluster_->signal(SIGKILL);
      cluster_->wait(5s);
      idle(200ms);
    }
    fail({"tessera cluster did not start on port " + std::to_string(port_)
          + ": " + cluster_->stderr_text()});
    return false;
  }

  /// Drains every child's output, resumes paused schedulers whose pause is
  /// over, judges and replaces schedulers that exited.
  void supervise() {
    if (cluster_)
      cluster_->drain_output(output_kept);
    for (std::size_t i = 0; i < schedulers_.size(); ++i) {
      auto& slot = schedulers_[i];
      if (!slot.proc)
        continue;
      slot.proc->drain_output(output_kept);
      if (slot.paused_until && steady::now() >= *slot.paused_until) {
        slot.proc->signal(SIGCONT);
        slot.paused_until.reset();
        log("SIGCONT scheduler " + std::to_string(i));
      }
      auto code = slot.proc->wait(0ms);
      if (!code)
        continue;
      // Expected ends: 0 after SIGTERM, 1 for a lost lease (or an API
      // server gone past the renew deadline), 137 after kill -9; and 143
      // after a SIGTERM that came before the process turned the stop
      // signals into a graceful stop (it had not logged its first line):
      // a freshly replaced scheduler may be picked at once.
      bool before_start
        = slot.proc->stderr_text().find("connecting to the API server")
          == std::string::npos;
      bool expected = *code == 1 || (*code == 0 && slot.signalled == SIGTERM)
                      || (*code == 128 + SIGKILL && slot.signalled == SIGKILL)
                      || (*code == 128 + SIGTERM && slot.signalled == SIGTERM
                          && before_start);
      log("scheduler " + std::to_string(i) + " exited with "
          + std::to_string(*code) + "; starting a new one");
      slot.previous_stderr = tail(slot.proc->stderr_text());
      if (!expected) {
        fail({"scheduler " + std::to_string(i) + " exited with "
              + std::to_string(*code) + " unasked"});
        return;
      }
      slot.proc = std::make_unique<child_process>(elected_run_args(url_));
      slot.signalled = 0;
      ++scheduler_restarts_;
    }
  }

  /// Sleeps `d`, supervising.
  void idle(std::chrono::milliseconds d) {
    auto until = steady::now() + d;
    while (!failed_) {
      supervise();
      auto left = until - steady::now();
      if (left <= 0s)
        return;
      std::this_thread::sleep_for(std::min<steady::duration>(left, 100ms));
    }
  }

  /// Waits until every paused scheduler got its SIGCONT (each pause is
  /// served in full: it is the pause past the lease that counts).
  void resume_all() {
    for (const auto& slot : schedulers_)
      if (slot.paused_until)
        idle(std::chrono::duration_cast<std::chrono::milliseconds>(
               *slot.paused_until - steady::now())
             + 10ms);
  }

  void stop_all() {
    for (auto& slot : schedulers_)
      if (slot.proc) {
        slot.proc->signal(SIGCONT);
        slot.proc->signal(SIGTERM);
      }
    for (auto& slot : schedulers_)
      if (slot.proc)
        slot.proc->wait(10s);
    if (cluster_) {
      cluster_->signal(SIGTERM);
      cluster_->wait(10s);
    }
  }

  // ---- API ----------------------------------------------------------------

  /// A write the driver needs; a failure is reported (the cluster is up).
  bool expect_status(const expected<io::http_response>& r,
                     std::initializer_list<int> ok, const std::string& what) {
    if (r && std::find(ok.begin(), ok.end(), r->status) != ok.end())
      return true;
    fail({what + ": "
          + (r ? std::to_string(r->status) + " " + r->body : r.err().message)});
    return false;
  }

  std::optional<observation> observe() {
    for (int attempt = 0; attempt < 3; ++attempt) {
      auto nodes = client_->get("/api/v1/nodes");
      auto pods = client_->get("/api/v1/namespaces/default/pods");
      if (nodes && pods && nodes->status == 200 && pods->status == 200) {
        std::string error;
        auto o = decode_observation(nodes->body, pods->body, error);
        if (o)
          return o;
        fail({"the API's lists do not decode: " + error});
        return std::nullopt;
      }
      idle(200ms);
    }
    fail({"cannot list nodes and pods"});
    return std::nullopt;
  }

  /// Observes and applies the safety checks; removes raced orphans.
  std::optional<observation> observe_safely() {
    auto o = observe();
    if (!o)
      return o;
    auto violations = checker_.safety(*o);
    if (!violations.empty()) {
      fail(violations);
      return std::nullopt;
    }
    // A binding sets PodScheduled=True; a bound pod that shows anything
    // else got a scheduling-failure status written after its binding.
    for (const auto& [name, p] : o->pods)
      if (!p.node.empty() && p.scheduled_status != "True"
          && !restored_bound_.contains(name)
          && stale_status_.insert(name).second)
        log("pod " + name + " is bound to " + p.node
            + " but has PodScheduled status=\"" + p.scheduled_status
            + "\" reason=\"" + p.scheduled_reason + "\" message=\""
            + p.scheduled_message + "\"");
    for (const auto& name : checker_.raced_orphans(*o)) {
      const auto& p = o->pods[name];
      std::string lag = "?";
      if (auto gone = checker_.vanished_at(p.node); gone && p.bound_at) {
        // bound_at has whole seconds: the binding came up to 1 s later.
        auto d = *p.bound_at + 1s - *gone;
        max_orphan_lag_ = std::max(max_orphan_lag_, d);
        lag = "< " + std::to_string(secs(d)).substr(0, 4) + "s";
      }
      log("pod gc: " + name + " bound to vanished node " + p.node
          + " in the race window (" + lag + " after it vanished)");
      delete_pod(name, true);
      ++raced_orphans_;
    }
    return o;
  }

  std::string pod_body(const std::string& name, const pod_shape& s,
                       const std::string& node) {
    return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name
           + R"(","namespace":"default"},"spec":{)"
           + (node.empty() ? "" : R"("nodeName":")" + node + R"(",)")
           + R"("containers":[{"name":"c","image":"busybox","resources":)"
           + R"({"requests":{"cpu":")" + std::to_string(s.cpu_milli)
           + R"(m","memory":")" + std::to_string(s.memory_mi) + R"(Mi"}}}]}})";
  }

  std::string node_body(const std::string& name, const node_shape& s) {
    std::string resources = R"({"cpu":")" + std::to_string(s.cpu_milli)
                            + R"(m","memory":")" + std::to_string(s.memory_mi)
                            + R"(Mi","pods":")" + std::to_string(s.pods)
                            + R"("})";
    return R"({"kind":"Node","apiVersion":"v1","metadata":{"name":")" + name
           + R"(","labels":{"kubernetes.io/hostname":")" + name
           + R"("}},"status":{"capacity":)" + resources + R"(,"allocatable":)"
           + resources + "}}";
  }

  void delete_pod(const std::string& name, bool now) {
    checker_.deleted(name);
    auto r = client_->del("/api/v1/namespaces/default/pods/" + name
                          + (now ? "?gracePeriodSeconds=0" : ""));
    // 404: already gone (a graceful deletion the fake kubelet finished).
    expect_status(r, {200, 404}, "delete pod " + name);
  }

  // ---- actions ------------------------------------------------------------

  void act() {
    int a = pick(0, 99);
    if (a < 25)
      create_pods(pick(1, 8));
    else if (a < 40)
      delete_pods(pick(1, 5));
    else if (a < 52)
      kill_scheduler();
    else if (a < 64)
      pause_scheduler();
    else if (a < 72)
      terminate_scheduler();
    else if (a < 82)
      restart_cluster();
    else
      churn_nodes();
  }

  /// Deletes or adds a node, keeping between 3 and 7 (the restarts of the
  /// cluster take nodes away too).
  void churn_nodes() {
    auto o = observe_safely();
    if (!o)
      return;
    if (o->nodes.size() > 7 || (o->nodes.size() > 3 && chance(0.5)))
      delete_node(*o);
    else
      add_node();
  }

  void create_pods(int n) {
    // More pods when few are left, so the population neither dies out nor
    // grows without bound.
    if (checker_.live().size() > 70)
      n = 1;
    std::string names;
    for (int i = 0; i < n && !failed_; ++i) {
      std::string name = "soak-" + std::to_string(++pods_created_);
      // One pod in twenty fits no node.
      const auto& s
        = pod_shapes[chance(0.05)
                       ? pod_shapes.size() - 1
                       : static_cast<std::size_t>(
                         pick(0, static_cast<int>(pod_shapes.size() - 2)))];
      shapes_[name] = s;
      checker_.created(name);
      auto r = client_->post("/api/v1/namespaces/default/pods",
                             pod_body(name, s, ""));
      if (!expect_status(r, {201}, "create pod " + name))
        return;
      names += " " + name;
    }
    log("created" + names);
  }

  void delete_pods(int n) {
    auto o = observe_safely();
    if (!o)
      return;
    std::vector<std::string> bound, pending;
    for (const auto& name : checker_.live()) {
      auto p = o->pods.find(name);
      if (p != o->pods.end())
        (p->second.node.empty() ? pending : bound).push_back(name);
    }
    std::string names;
    for (int i = 0; i < n; ++i) {
      // Mostly bound pods: that frees room pending pods should get.
      auto& from
        = !bound.empty() && (pending.empty() || chance(0.7)) ? bound : pending;
      if (from.empty())
        break;
      auto at
        = static_cast<std::size_t>(pick(0, static_cast<int>(from.size() - 1)));
      std::string name = from[at];
      from.erase(from.begin() + static_cast<std::ptrdiff_t>(at));
      bool now = chance(0.5);
      delete_pod(name, now);
      names += " " + name + (now ? "(grace 0)" : "");
    }
    log("deleted" + names);
  }

  /// Sends `sig` to a running scheduler (a paused one too when
  /// `include_paused`), picked at random; its slot, or nullopt when none
  /// runs.
  std::optional<std::size_t> signal_scheduler(int sig, bool include_paused) {
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < schedulers_.size(); ++i)
      if (schedulers_[i].proc && !schedulers_[i].proc->wait(0ms)
          && (include_paused || !schedulers_[i].paused_until))
        candidates.push_back(i);
    if (candidates.empty())
      return std::nullopt;
    auto i = candidates[static_cast<std::size_t>(
      pick(0, static_cast<int>(candidates.size() - 1)))];
    schedulers_[i].signalled = sig;
    schedulers_[i].proc->signal(sig);
    return i;
  }

  void kill_scheduler() {
    auto i = signal_scheduler(SIGKILL, true);
    if (!i)
      return;
    schedulers_[*i].paused_until.reset();
    schedulers_[*i].proc->wait(10s);
    log("kill -9 scheduler " + std::to_string(*i));
    supervise();
  }

  void pause_scheduler() {
    auto i = signal_scheduler(SIGSTOP, false);
    if (!i)
      return;
    auto pause = lease + ms(pick(300, 2500));
    schedulers_[*i].paused_until = steady::now() + pause;
    log("SIGSTOP scheduler " + std::to_string(*i) + " for "
        + std::to_string(
          std::chrono::duration_cast<std::chrono::milliseconds>(pause).count())
        + "ms");
  }

  void terminate_scheduler() {
    auto i = signal_scheduler(SIGTERM, false);
    if (!i)
      return;
    auto code = schedulers_[*i].proc->wait(15s);
    log("SIGTERM scheduler " + std::to_string(*i));
    if (!code) {
      fail({"scheduler " + std::to_string(*i)
            + " still running 15 s after SIGTERM"});
      return;
    }
    supervise();
  }

  void add_node() {
    std::string name = "soak-node-" + std::to_string(++nodes_created_);
    const auto& s = node_shapes[static_cast<std::size_t>(
      pick(0, static_cast<int>(node_shapes.size() - 1)))];
    node_shapes_[name] = s;
    auto r = client_->post("/api/v1/nodes", node_body(name, s));
    if (expect_status(r, {201}, "create node " + name))
      log("added node " + name);
  }

  void delete_node(const observation& o) {
    auto it = o.nodes.begin();
    std::advance(it, pick(0, static_cast<int>(o.nodes.size() - 1)));
    std::string node = it->first;
    auto r = client_->del("/api/v1/nodes/" + node);
    if (!expect_status(r, {200}, "delete node " + node))
      return;
    checker_.node_vanished(node, wall::now(), vanish_race_window);
    // The pod garbage collector's part: pods bound to a deleted node go.
    auto after = observe();
    if (!after)
      return;
    std::string names;
    for (const auto& [name, p] : after->pods)
      if (p.node == node) {
        delete_pod(name, true);
        names += " " + name;
      }
    log("deleted node " + node + "; pod gc:" + names);
  }

  /// See the file comment: the driver keeps what the cluster held across
  /// the restart, possibly without one node.
  void restart_cluster() {
    auto o = observe_safely();
    if (!o)
      return;
    bool hard = chance(0.5);
    cluster_->signal(hard ? SIGKILL : SIGTERM);
    auto code = cluster_->wait(15s);
    if (!code || *code != (hard ? 128 + SIGKILL : 0)) {
      fail({"tessera cluster ended with "
            + (code ? std::to_string(*code) : std::string{"nothing in 15 s"})
            + " after " + (hard ? "kill -9" : "SIGTERM")});
      return;
    }
    int down = pick(200, 3000);
    idle(ms(down));
    std::string dropped;
    if (o->nodes.size() > 3 && chance(0.5)) {
      auto it = o->nodes.begin();
      std::advance(it, pick(0, static_cast<int>(o->nodes.size() - 1)));
      dropped = it->first;
    }
    if (!start_cluster())
      return;
    ++cluster_restarts_;
    if (!dropped.empty())
      checker_.node_vanished(dropped, wall::now(), vanish_race_window);
    std::vector<const observed_pod*> bound, pending;
    std::string gone;
    for (const auto& [name, p] : o->pods) {
      if (!checker_.live().contains(name) || p.terminating)
        continue;
      if (!p.node.empty()
          && (p.node == dropped || !o->nodes.contains(p.node))) {
        checker_.deleted(name);
        gone += " " + name;
        continue;
      }
      (p.node.empty() ? pending : bound).push_back(&p);
    }
    for (const auto* p : bound) {
      // Created bound, as restored: no binding set its PodScheduled.
      restored_bound_.insert(p->name);
      auto r = client_->post("/api/v1/namespaces/default/pods",
                             pod_body(p->name, shapes_[p->name], p->node));
      if (!expect_status(r, {201}, "restore pod " + p->name))
        return;
    }
    for (const auto& [name, n] : o->nodes) {
      if (name == dropped)
        continue;
      auto r
        = client_->post("/api/v1/nodes", node_body(name, node_shapes_[name]));
      if (!expect_status(r, {201}, "restore node " + name))
        return;
    }
    for (const auto* p : pending) {
      auto r = client_->post("/api/v1/namespaces/default/pods",
                             pod_body(p->name, shapes_[p->name], ""));
      if (!expect_status(r, {201}, "restore pod " + p->name))
        return;
    }
    log(std::string{"restarted the cluster ("} + (hard ? "kill -9" : "SIGTERM")
        + ", " + std::to_string(down) + "ms down): restored "
        + std::to_string(o->nodes.size() - (dropped.empty() ? 0 : 1))
        + " nodes, " + std::to_string(bound.size()) + " bound and "
        + std::to_string(pending.size()) + " pending pods"
        + (dropped.empty()
             ? ""
             : "; node " + dropped + " left out, pod gc:" + gone));
  }

  // ---- settling -----------------------------------------------------------

  /// Waits until the liveness checks hold on two looks in a row with the
  /// same bindings (safety is checked on every look), at most settle_limit;
  /// then reports what still fails. The last observation, or nullopt after
  /// a failure.
  std::optional<observation> settle() {
    auto deadline = steady::now() + settle_limit;
    std::optional<observation> previous;
    std::vector<std::string> problems;
    for (;;) {
      auto o = observe_safely();
      if (!o)
        return o;
      problems = checker_.settled(*o);
      bool same = previous && previous->bound() == o->bound()
                  && previous->pending() == o->pending();
      if (problems.empty() && same)
        return o;
      if (steady::now() >= deadline)
        break;
      previous = std::move(o);
      idle(1s);
      if (failed_)
        return std::nullopt;
    }
    problems.insert(problems.begin(), "not settled within "
                                        + std::to_string(settle_limit.count())
                                        + "s:");
    fail(problems);
    return std::nullopt;
  }

  std::uint64_t seed_;
  std::chrono::seconds duration_;
  bool verbose_;
  std::mt19937_64 rng_;
  steady::time_point started_ = steady::now();
  int port_ = 0;
  std::string url_;
  std::unique_ptr<child_process> cluster_;
  std::unique_ptr<io::http_client> client_;
  std::array<scheduler_slot, 2> schedulers_;
  soak_checker checker_;
  std::map<std::string, pod_shape> shapes_;
  std::map<std::string, node_shape> node_shapes_;
  std::deque<std::string> actions_;
  bool failed_ = false;
  int round_ = 0;
  int pods_created_ = 0;
  int nodes_created_ = 0;
  int scheduler_restarts_ = 0;
  int cluster_restarts_ = 0;
  int raced_orphans_ = 0;
  /// Bound pods seen without PodScheduled=True.
  std::set<std::string> stale_status_;
  /// Pods the driver recreated with their nodeName.
  std::set<std::string> restored_bound_;
  /// The latest binding to a vanished node seen in the race window, after
  /// the node vanished (an upper bound: bindings have whole seconds).
  wall::duration max_orphan_lag_{};
};

TEST(Soak, FaultsBreakNoInvariant) {
  auto seed = env_number("TESSERA_SOAK_SEED", std::random_device{}());
  auto seconds = env_number("TESSERA_SOAK_SECONDS", 100);
  std::printf("soak seed %llu, %llu s\n", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seconds));
  std::fflush(stdout);
  soak s{seed, std::chrono::seconds{seconds},
         env_number("TESSERA_SOAK_VERBOSE", 0) != 0};
  s.run();
}

} // namespace
} // namespace tessera::test
