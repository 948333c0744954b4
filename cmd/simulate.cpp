// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/memory_cluster.hpp"
#include "actors/pipeline.hpp"
#include "cmd/scheduler_setup.hpp"
#include "cmd/simulate_output.hpp"
#include "cmd/verbs.hpp"
#include "model/decode.hpp"
#include "model/document_file.hpp"
#include "support/log.hpp"

#include <caf/all.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace tessera::cmd {

namespace {

struct simulate_flags {
  std::vector<std::string> files;
  bool recursive = false;
  knob_flags knobs;
  bool explain = false;
  bool stats = false;
  std::string output = "json";
  std::int64_t seed = 0;
  int verbosity = 0;
};

// Objects of every file, with the file each came from (for error messages).
struct input {
  std::vector<model::object> objects;
  std::vector<std::string> origin;
};

expected<input> load_inputs(const std::vector<std::string>& paths,
                            bool recursive) {
  std::vector<std::string> files;
  for (const auto& path : paths) {
    auto found = model::manifest_files(path, recursive);
    if (!found)
      return found.err();
    files.insert(files.end(), found->begin(), found->end());
  }
  input in;
  for (const auto& file : files) {
    auto text = model::read_document_file(file);
    if (!text)
      return make_error(ec::invalid_input, text.err().message);
    auto manifest = model::decode_manifest(*text);
    if (!manifest)
      return make_error(ec::invalid_input, file + ":" + manifest.err().message);
    for (const auto& w : manifest->warnings)
      TLOG_WARN("ignoring object", "file", file, "detail", w);
    for (auto& o : manifest->objects) {
      in.objects.push_back(std::move(o));
      in.origin.push_back(file);
    }
  }
  return in;
}

// Pods without spec.priority get it from their PriorityClass, as admission
// would have done; a given priority that contradicts the pod's class, and
// duplicate pods, are input errors.
error admit_pods(input& in) {
  std::vector<model::priority_class_ptr> classes;
  for (const auto& o : in.objects)
    if (const auto* c = std::get_if<model::priority_class_ptr>(&o))
      classes.push_back(*c);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < in.objects.size(); ++i) {
    auto* slot = std::get_if<model::pod_ptr>(&in.objects[i]);
    if (slot == nullptr)
      continue;
    std::string key = (*slot)->key();
    if (!seen.insert(key).second)
      return make_error(ec::invalid_input,
                        in.origin[i] + ": pod " + key + " appears twice");
    auto p = std::make_shared<model::pod>(**slot);
    if (error e = model::resolve_priority(*p, classes))
      return make_error(ec::invalid_input,
                        in.origin[i] + ": pod " + key + ": " + e.message);
    p->complete();
    *slot = model::pod_ptr{std::move(p)};
  }
  return {};
}

std::string gates_message(const model::pod& p) {
  std::string out = "waiting for scheduling gates: [";
  for (std::size_t i = 0; i < p.scheduling_gates.size(); ++i)
    out += (i ? " " : "") + p.scheduling_gates[i];
  return out + "]";
}

double process_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// One line for benchmarks: from the pipeline's start (the cache's initial
// sync included, input decoding excluded) until the queue went idle. `cores`
// is CPU time over wall time in that span: how much of the machine the
// pipeline kept busy.
void print_stats(const actors::memory_cluster& cluster,
                 const std::optional<actors::cache_stats>& cache,
                 std::chrono::steady_clock::duration took, double cpu_seconds,
                 const actors::pipeline_config& pc) {
  auto results = cluster.results(); // the pods pending in the input
  std::size_t scheduled = 0;
  for (const auto& r : results)
    if (r.state == actors::memory_cluster::pod_result::status::scheduled)
      ++scheduled;
  double seconds = std::chrono::duration<double>(took).count();
  std::fprintf(
    stderr,
    "stats: shards=%zu inflight=%zu pods=%zu scheduled=%zu "
    "seconds=%.3f pods_per_s=%.0f conflicts=%s batched=%zu "
    "cpu_seconds=%.3f cores=%.2f\n",
    pc.shards, pc.max_inflight_cycles, results.size(), scheduled, seconds,
    seconds > 0 ? static_cast<double>(scheduled) / seconds : 0.0,
    cache ? std::to_string(cache->conflicts).c_str() : "unknown",
    cluster.batched(), cpu_seconds, seconds > 0 ? cpu_seconds / seconds : 0.0);
}

} // namespace

int simulate_main(const args& a) {
  simulate_flags f;
  flag_set flags{"tessera simulate -f FILE [-f FILE ...] [flags]"};
  flags.add("filename,f", f.files,
            "Kubernetes objects (YAML or JSON): nodes, pods, namespaces, "
            "priority classes, PodDisruptionBudgets, services, replication "
            "controllers, replica sets, stateful sets, persistent volumes "
            "and claims, storage classes, CSI nodes, drivers and storage "
            "capacities, volume attachments; repeatable. A directory "
            "stands for its .json, .yaml and .yml files, in name order");
  flags.add("recursive,R", f.recursive,
            "read the directories given with -f recursively");
  f.knobs.add_to(flags);
  flags.add("explain", f.explain,
            "include each node's filter failures and scores");
  flags.add("output,o", f.output, "output format: json or text");
  flags.add("stats", f.stats,
            "print scheduling throughput and assume conflicts to stderr");
  flags.add("seed", f.seed, "seed of the tie-breaking random choices");
  flags.add("v", f.verbosity, "log verbosity");
  if (auto done = parse_verb_flags(flags, a, "simulate"))
    return *done;
  log::verbosity = f.verbosity;
  if (f.output != "json" && f.output != "text")
    return usage_error("simulate",
                       "invalid argument \"" + f.output
                         + "\" for \"--output\" flag: must be json or text");
  auto setup = load_scheduler_setup(f.knobs);
  if (!setup)
    return usage_error("simulate", setup.err().message);
  if (!f.knobs.write_config_to.empty()) {
    if (auto e = write_effective_config(*setup, f.knobs.write_config_to))
      return usage_error("simulate", e.message);
    return exit_ok;
  }
  if (f.files.empty())
    return usage_error("simulate", "at least one -f FILE is required");
  auto in = load_inputs(f.files, f.recursive);
  if (!in)
    return usage_error("simulate", in.err().message);
  if (auto e = admit_pods(*in))
    return usage_error("simulate", e.message);

  std::set<std::string> profile_names;
  for (const auto& prof : setup->profiles)
    profile_names.insert(prof->scheduler_name());

  actors::memory_cluster cluster{in->objects};
  {
    caf::actor_system_config cfg;
    // The actors are all this process runs: idle workers poll eagerly.
    actors::configure_scheduler(cfg, 0, actors::worker_polling::eager());
    caf::actor_system sys{cfg};
    actors::pipeline_config pc;
    pc.shards = setup->shards;
    pc.max_inflight_cycles = setup->max_inflight_cycles;
    pc.bind_concurrency = setup->bind_concurrency;
    pc.seed = static_cast<std::uint64_t>(f.seed);
    pc.explain = f.explain;
    pc.requeue = actors::requeue_policy::settle;
    pc.batching = setup->config.gates.enabled(
      config::feature_gate::opportunistic_batching);
    auto started = std::chrono::steady_clock::now();
    double cpu_started = process_cpu_seconds();
    auto p = actors::start_pipeline(sys, pc, setup->profiles, cluster, cluster,
                                    system_clock::instance());
    bool done = actors::wait_until_idle(sys, p, std::chrono::minutes(30));
    if (done && f.stats)
      print_stats(cluster,
                  actors::read_cache_stats(sys, p, std::chrono::seconds(10)),
                  std::chrono::steady_clock::now() - started,
                  process_cpu_seconds() - cpu_started, pc);
    actors::stop_pipeline(p, cluster);
    if (!done) {
      std::fprintf(stderr, "tessera simulate: timed out waiting for the "
                           "scheduler to finish\n");
      return exit_failure;
    }
  }

  auto results = cluster.results();
  std::vector<simulated_pod> out;
  out.reserve(results.size());
  using status = actors::memory_cluster::pod_result::status;
  for (const auto& r : results) {
    simulated_pod s;
    s.ns = std::string{r.pod->ns.view()};
    s.name = r.pod->name;
    s.node = std::string{r.node.view()};
    s.nominated_node = std::string{r.nominated_node.view()};
    for (const auto& v : r.victims)
      s.victims.push_back(v->key());
    if (r.explanation)
      s.explanation = &*r.explanation;
    if (r.state == status::scheduled) {
      s.status = "Scheduled";
    } else if (profile_names.count(r.pod->scheduler_name.str()) == 0) {
      s.status = "Skipped";
      s.message = "no profile for schedulerName \""
                  + r.pod->scheduler_name.str() + "\"";
    } else if (!r.pod->scheduling_gates.empty()) {
      s.status = "Skipped";
      s.message = gates_message(*r.pod);
    } else if (r.state == status::unschedulable) {
      s.status = "Unschedulable";
      s.message = r.message;
    } else {
      s.status = "Unschedulable";
      s.message = "no scheduling attempt finished";
    }
    out.push_back(std::move(s));
  }
  std::string rendered = f.output == "json"
                           ? render_simulation_json(out, f.explain)
                           : render_simulation_text(out, f.explain);
  std::fputs(rendered.c_str(), stdout);
  return exit_ok;
}

} // namespace tessera::cmd
