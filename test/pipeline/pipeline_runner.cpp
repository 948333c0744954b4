// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/pipeline/pipeline_runner.hpp"

#include "actors/pipeline.hpp"

#include <caf/all.hpp>

#include <chrono>
#include <cstdlib>
#include <optional>

namespace tessera::pipeline_test {

std::int64_t env_int(const char* name, std::int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0')
    return fallback;
  return std::strtoll(v, nullptr, 10);
}

namespace {

std::optional<actors::queue_stats> queue_stats_of(caf::actor_system& sys,
                                                  const actors::pipeline& p) {
  std::optional<actors::queue_stats> out;
  caf::scoped_actor self{sys};
  self->request(p.queue, std::chrono::seconds(30), actors::stats_atom::value)
    .receive([&](const actors::queue_stats& s) { out = s; },
             [](caf::error&) {});
  return out;
}

// The live queue on a manual clock: waits until the pipeline is idle, moving
// the clock past the longest backoff whenever nothing else is left to do.
bool drive_live(caf::actor_system& sys, const actors::pipeline& p,
                manual_clock& clk, const actors::queue_config& qc,
                std::chrono::seconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (actors::wait_until_idle(sys, p, std::chrono::milliseconds(100)))
      return true;
    auto s = queue_stats_of(sys, p);
    if (s && s->active == 0 && s->in_flight == 0 && s->backoff > 0)
      clk.advance(qc.max_backoff);
  }
  return false;
}

} // namespace

std::vector<volume_write_record> volume_write_records(const pipeline_run& run) {
  std::vector<volume_write_record> out;
  for (const auto& w : run.volume_writes) {
    volume_write_record r;
    r.pod = w.pod->name;
    r.node = w.node.str();
    if (w.plan) {
      for (const auto& b : w.plan->bindings)
        r.bindings.emplace_back(b.claim->name, b.volume->name);
      for (const auto& c : w.plan->provisions)
        r.provisions.push_back(c->name);
    }
    out.push_back(std::move(r));
  }
  return out;
}

pipeline_run run_pipeline(const std::vector<model::object>& objects,
                          const plugins::profile_ptr& prof,
                          const pipeline_options& opts) {
  pipeline_run out;
  actors::memory_cluster cluster{objects};
  cluster.fail_every_nth_deletion(opts.fail_every_nth_deletion);
  auto started = std::chrono::steady_clock::now();
  {
    caf::actor_system_config cfg;
    cfg.set("scheduler.max-threads", static_cast<int>(opts.threads));
    caf::actor_system sys{cfg};
    actors::pipeline_config pc;
    pc.shards = opts.shards;
    pc.max_inflight_cycles = opts.inflight;
    pc.seed = opts.seed;
    pc.requeue = opts.requeue;
    bool live = opts.requeue == actors::requeue_policy::live;
    pc.explain = opts.explain;
    pc.metrics = opts.metrics;
    pc.batching = opts.batching;
    manual_clock clk;
    if (live)
      pc.tick = std::chrono::milliseconds(5); // flushes follow the clock
    const clock& pipeline_clock
      = live ? clk : static_cast<const clock&>(system_clock::instance());
    auto p = actors::start_pipeline(sys, pc, {prof}, cluster, cluster,
                                    pipeline_clock);
    std::chrono::seconds timeout{env_int("TESSERA_PIPELINE_TIMEOUT", 300)};
    out.idle = live ? drive_live(sys, p, clk, pc.queue, timeout)
                    : actors::wait_until_idle(sys, p, timeout);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now()
                                                - started)
                    .count();
    {
      caf::scoped_actor self{sys};
      self
        ->request(p.cache, std::chrono::seconds(30), actors::stats_atom::value)
        .receive([&](const actors::cache_stats& s) { out.cache = s; },
                 [](caf::error&) {});
    }
    actors::stop_pipeline(p, cluster);
  }
  out.results = cluster.results();
  out.pods = cluster.pods();
  out.volume_writes = cluster.volume_writes();
  out.refused_deletions = cluster.refused_deletions();
  return out;
}

} // namespace tessera::pipeline_test
