// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// `tessera perf`: runs scheduler_perf-style workloads (perf/harness) and
// reports throughput, latencies, conflicts, CPU and memory.
#include "cmd/scheduler_setup.hpp"
#include "cmd/verbs.hpp"
#include "io/kubeconfig.hpp"
#include "metrics/scheduler_metrics.hpp"
#include "perf/harness/report.hpp"
#include "perf/harness/runner.hpp"
#include "perf/harness/sweep.hpp"
#include "support/log.hpp"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>

namespace tessera::cmd {

namespace {

struct perf_flags {
  std::string workload_file;
  std::string test_case;
  std::string workload;
  std::string target = "embedded-http";
  std::string kubeconfig;
  std::string context;
  bool external_scheduler = false;
  knob_flags knobs;
  std::string output_dir;
  std::vector<std::string> sweep;
  bool baseline = false;
  std::chrono::milliseconds timeout = std::chrono::minutes(30);
  std::string progress = "auto";
  int threads = 0;
  std::int64_t seed = 0;
  double qps = 0;
  bool record_events = true;
  bool fake_kubelet = false;
  bool metrics = true;
  bool compare_thresholds = false;
  int verbosity = 0;
};

expected<perf::progress_mode> progress_mode_of(const std::string& s) {
  if (s == "auto")
    return perf::progress_mode::automatic;
  if (s == "bar")
    return perf::progress_mode::bar;
  if (s == "lines")
    return perf::progress_mode::lines;
  if (s == "off")
    return perf::progress_mode::off;
  return make_error(ec::invalid_input,
                    "invalid argument \"" + s
                      + "\" for \"--progress\" flag: auto, bar, lines or off");
}

std::string timestamp() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

error write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out{path, std::ios::binary};
  out << text;
  out.close();
  if (!out)
    return make_error(ec::unavailable, path.string() + ": cannot write");
  return {};
}

/// The JSON document and the charts of every run in `dir`.
error write_outputs(const std::string& dir,
                    const std::vector<perf::run_result>& runs,
                    const std::vector<perf::skipped_run>& skipped) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return make_error(ec::unavailable,
                      dir + ": cannot create directory: " + ec.message());
  std::string stamp = timestamp();
  fs::path json = fs::path{dir} / ("tessera-perf_" + stamp + ".json");
  if (auto e = write_file(json, perf::render_results_json(runs, skipped)))
    return e;
  std::fprintf(stderr, "tessera perf: wrote %s\n", json.c_str());
  for (const auto& r : runs) {
    std::string stem = perf::file_stem(r.name) + "_" + r.target + "_s"
                       + std::to_string(r.shards) + "_i"
                       + std::to_string(r.inflight)
                       + (r.baseline ? "_baseline" : "");
    if (auto e = write_file(fs::path{dir} / (stem + "_throughput.svg"),
                            perf::render_throughput_svg(r)))
      return e;
    if (auto e = write_file(fs::path{dir} / (stem + "_latency.svg"),
                            perf::render_latency_svg(r)))
      return e;
    if (!r.metrics_exposition.empty())
      if (auto e = write_file(fs::path{dir} / (stem + "_metrics.txt"),
                              r.metrics_exposition))
        return e;
  }
  return {};
}

// One workload run, with a scheduler_metrics instance handed to the
// scheduler and the target to record into when `on` (recording is part of
// what a production scheduler pays), its exposition kept with the results.
perf::plan_outcome run_recording_metrics(bool on, const perf::plan& p,
                                         const perf::run_options& ro,
                                         perf::progress& show) {
  if (!on)
    return perf::run_plan(p, ro, show);
  // run_plan returns only once its scheduler_host has stopped and awaited
  // every actor and its target's clients are gone, so nothing (a timed
  // profile in flight included) records into `recorded` after it.
  metrics::scheduler_metrics recorded;
  perf::run_options recording = ro;
  recording.scheduler.metrics = &recorded;
  recording.target.metrics = &recorded;
  auto outcome = perf::run_plan(p, recording, show);
  std::string exposition = recorded.render();
  for (auto& r : outcome.results)
    r.metrics_exposition = exposition;
  return outcome;
}

// A workload's featureGates on the scheduler's gates: the gates tessera
// knows are set (a locked gate set against its value is refused, as upstream
// refuses it, and stays at its default); the others, gates of other
// components or of older releases, are only reported. Returns what happened,
// one clause per gate.
std::string apply_workload_gates(const perf::feature_gates& wanted,
                                 config::feature_gates& gates) {
  std::string out;
  for (const auto& [name, on] : wanted) {
    std::string setting = name + (on ? "=true" : "=false");
    if (!out.empty())
      out += "; ";
    if (config::find_feature_gate(name) == nullptr) {
      out += setting + " reported only (not a scheduler gate of 1.37)";
      continue;
    }
    if (auto e = gates.set(setting)) {
      out += setting + " not applied (" + e.message + ")";
      continue;
    }
    out += setting + " applied";
  }
  return out;
}

} // namespace

int perf_main(const args& a) {
  perf_flags f;
  flag_set flags{"tessera perf --workload-file FILE [flags] [--sweep "
                 "shards=LIST inflight=LIST]"};
  flags.add("workload-file", f.workload_file,
            "scheduler_perf workload file (test cases with workload "
            "templates)");
  flags.add("test-case", f.test_case, "run only this test case");
  flags.add("workload", f.workload, "run only this workload");
  flags.add("target", f.target,
            "cluster to run against: inprocess (embedded store, no HTTP) or "
            "embedded-http (embedded API server on loopback); --kubeconfig "
            "selects a real cluster");
  flags.add("kubeconfig", f.kubeconfig,
            "run against the cluster of this kubeconfig (typically kwok)");
  flags.add("context", f.context, "kubeconfig context (default: current)");
  flags.add("external-scheduler", f.external_scheduler,
            "kubeconfig target: do not run a scheduler; measure the one "
            "deployed in the cluster");
  f.knobs.add_to(flags);
  flags.add("output-dir", f.output_dir,
            "write the JSON results and SVG charts here");
  flags.add("sweep", f.sweep,
            "run over a grid: shards=1,2,4 inflight=1,4,16 (axes may follow "
            "as separate arguments)");
  flags.add("baseline", f.baseline,
            "also run with shards=1 inflight=1 and print the speedup");
  flags.add("timeout", f.timeout,
            "how long one op may wait for its pods to be scheduled");
  flags.add("progress", f.progress, "progress display: auto, bar, lines, off");
  flags.add("threads", f.threads, "scheduler threads (0 = cores)");
  flags.add("seed", f.seed, "seed of the scheduler's tie-breaking choices");
  flags.add("qps", f.qps,
            "client-side QPS limit of the API clients (0 = "
            "none)");
  flags.add("record-events", f.record_events,
            "write Scheduled/FailedScheduling events, as kube-scheduler "
            "does");
  flags.add("fake-kubelet", f.fake_kubelet,
            "embedded targets: run kwok's fake kubelet (bound pods turn "
            "Running); default off, as upstream's scheduler_perf runs no "
            "kubelet");
  flags.add("metrics", f.metrics,
            "record the scheduler's Prometheus metrics while it runs, as "
            "`tessera run` does, and write them to --output-dir; "
            "--metrics=false measures the scheduler without them");
  flags.add("compare-thresholds", f.compare_thresholds,
            "exit 1 when a workload's average throughput is below its "
            "threshold (upstream's floor, set for upstream's CI machines)");
  flags.add("v", f.verbosity, "log verbosity");
  flags.allow_positionals(8, "further --sweep axes");
  args positionals;
  if (auto done = parse_verb_flags(flags, a, "perf", &positionals))
    return *done;
  log::verbosity = f.verbosity;
  if (!positionals.empty() && f.sweep.empty())
    return usage_error("perf",
                       "unexpected argument \"" + positionals.front() + "\"");
  for (const auto& p : positionals)
    f.sweep.push_back(p);
  auto grid = perf::parse_sweep(f.sweep);
  if (!grid)
    return usage_error("perf", grid.err().message);
  auto mode = progress_mode_of(f.progress);
  if (!mode)
    return usage_error("perf", mode.err().message);
  perf::target_options to;
  if (!f.kubeconfig.empty()) {
    if (flags.was_set("target"))
      return usage_error("perf", "--target and --kubeconfig are exclusive");
    to.kind = perf::target_kind::kubeconfig;
    to.kubeconfig = f.kubeconfig;
    to.context = f.context;
    to.external_scheduler = f.external_scheduler;
  } else if (f.target == "inprocess") {
    to.kind = perf::target_kind::inprocess;
  } else if (f.target == "embedded-http") {
    to.kind = perf::target_kind::embedded_http;
  } else {
    return usage_error("perf", "invalid argument \"" + f.target
                                 + "\" for \"--target\" flag: inprocess or "
                                   "embedded-http (or --kubeconfig FILE)");
  }
  if (f.external_scheduler && f.kubeconfig.empty())
    return usage_error("perf", "--external-scheduler needs --kubeconfig");
  if (!f.kubeconfig.empty()) {
    // A bad kubeconfig is a bad file (exit 2), found before any run.
    io::kubeconfig_options ko;
    ko.kubeconfig = f.kubeconfig;
    ko.context = f.context;
    if (auto rc = io::load_rest_config(ko); !rc)
      return usage_error("perf", rc.err().message);
  }
  if (f.threads < 0)
    return usage_error("perf", "--threads must not be negative");
  if (f.timeout.count() <= 0)
    return usage_error("perf", "--timeout must be positive");
  to.qps = f.qps;
  to.record_events = f.record_events;
  to.fake_kubelet = f.fake_kubelet;
  if (flags.was_set("fake-kubelet") && !f.kubeconfig.empty())
    return usage_error("perf",
                       "--fake-kubelet applies to the embedded targets only");
  to.seed = static_cast<std::uint64_t>(f.seed);
  if (f.workload_file.empty())
    return usage_error("perf", "--workload-file is required");

  auto file = perf::load_workload_file(f.workload_file);
  if (!file)
    return usage_error("perf", file.err().message);
  auto plans = perf::select_plans(*file, f.test_case, f.workload);
  if (!plans)
    return usage_error("perf", plans.err().message);
  // A test case's notices once, however many of its workloads run.
  std::set<std::string> noticed;
  for (const auto& p : *plans)
    for (const auto& n : p.notices)
      if (noticed.insert(n).second)
        TLOG_INFO("perf: workload file field ignored", "detail", n);
  // A workload tessera cannot run is skipped with a notice naming what it
  // lacks; its neighbours still run.
  std::vector<perf::skipped_run> skipped;
  for (auto& p : *plans) {
    if (p.skip_reason.empty())
      if (auto e = perf::check_templates(p))
        return usage_error("perf", e.message);
    if (p.skip_reason.empty())
      p.skip_reason = perf::unsupported_by_target(p, to.kind);
    if (!p.skip_reason.empty()) {
      std::fprintf(stderr, "tessera perf: %s: skipped: %s\n", p.name().c_str(),
                   p.skip_reason.c_str());
      skipped.push_back({p.name(), p.skip_reason});
    }
  }

  perf::progress show{*mode};
  std::vector<perf::run_result> results;
  bool failed = false;
  std::size_t failed_runs = 0;
  for (const auto& p : *plans) {
    if (!p.skip_reason.empty())
      continue;
    // A test case's schedulerConfigPath applies unless --config is given.
    knob_flags knobs = f.knobs;
    if (knobs.config_path.empty())
      knobs.config_path = p.scheduler_config_path;
    auto setup = load_scheduler_setup(knobs);
    if (!setup)
      return usage_error("perf", setup.err().message);
    if (!p.gates.empty())
      std::fprintf(stderr, "tessera perf: %s: feature gates: %s\n",
                   p.name().c_str(),
                   apply_workload_gates(p.gates, setup->config.gates).c_str());
    if (!f.knobs.write_config_to.empty()) {
      if (auto e = write_effective_config(*setup, f.knobs.write_config_to))
        return usage_error("perf", e.message);
      return exit_ok;
    }
    perf::knob_setting defaults{setup->shards, setup->max_inflight_cycles,
                                false};
    for (const auto& s : perf::plan_settings(*grid, defaults, f.baseline)) {
      perf::run_options ro;
      ro.target = to;
      // The test case's scheduler client limits, unless --qps is given.
      if (p.api_qps > 0 && !flags.was_set("qps"))
        ro.target.qps = p.api_qps;
      if (p.api_burst > 0)
        ro.target.burst = static_cast<int>(p.api_burst);
      ro.op_timeout = f.timeout;
      ro.baseline = s.baseline;
      ro.scheduler.profiles = setup->profiles;
      ro.scheduler.shards = s.shards;
      ro.scheduler.max_inflight_cycles = s.inflight;
      ro.scheduler.bind_concurrency = setup->bind_concurrency;
      ro.scheduler.threads = static_cast<std::size_t>(f.threads);
      ro.scheduler.eager_polling = to.kind == perf::target_kind::inprocess;
      ro.scheduler.seed = static_cast<std::uint64_t>(f.seed);
      ro.scheduler.initial_backoff
        = std::chrono::seconds(setup->config.pod_initial_backoff_seconds);
      ro.scheduler.max_backoff
        = std::chrono::seconds(setup->config.pod_max_backoff_seconds);
      ro.scheduler.pop_from_backoff = setup->config.gates.enabled(
        config::feature_gate::scheduler_pop_from_backoff_q);
      ro.scheduler.batching = setup->config.gates.enabled(
        config::feature_gate::opportunistic_batching);
      show.note(p.name() + ": shards=" + std::to_string(s.shards) + " inflight="
                + std::to_string(s.inflight) + (s.baseline ? " (baseline)" : "")
                + (f.metrics ? "" : " (metrics off)"));
      auto outcome = run_recording_metrics(f.metrics, p, ro, show);
      if (!outcome.failure.empty()) {
        failed = true;
        ++failed_runs;
        std::fprintf(stderr, "tessera perf: %s: %s\n", p.name().c_str(),
                     outcome.failure.c_str());
      }
      for (auto& r : outcome.results)
        results.push_back(std::move(r));
    }
  }
  std::fputs(perf::render_results_table(results).c_str(), stdout);
  if (!f.sweep.empty())
    std::fputs(("\n" + perf::render_sweep_table(results)).c_str(), stdout);
  if (f.baseline)
    std::fputs(("\n" + perf::render_baseline_lines(results)).c_str(), stdout);
  std::size_t runs = 0;
  for (const auto& p : *plans)
    runs += p.skip_reason.empty() ? 1 : 0;
  std::fprintf(stderr,
               "tessera perf: %zu workload runs: %zu ran, %zu failed, %zu "
               "skipped\n",
               runs + skipped.size(), runs - failed_runs, failed_runs,
               skipped.size());
  if (!f.output_dir.empty())
    if (auto e = write_outputs(f.output_dir, results, skipped)) {
      std::fprintf(stderr, "tessera perf: %s\n", e.message.c_str());
      return exit_failure;
    }
  if (f.compare_thresholds)
    for (const auto& line : perf::below_thresholds(results)) {
      std::fprintf(stderr, "tessera perf: %s\n", line.c_str());
      failed = true;
    }
  return failed ? exit_failure : exit_ok;
}

} // namespace tessera::cmd
