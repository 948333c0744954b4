// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/pipeline.hpp"

#include "actors/behaviors.hpp"

#include <caf/all.hpp>

#include <thread>

namespace tessera::actors {

pipeline start_pipeline(caf::actor_system& sys, const pipeline_config& cfg,
                        std::vector<plugins::profile_ptr> profiles,
                        cluster_source& source, cluster_sink& sink,
                        const clock& clk) {
  pipeline p;
  std::size_t shards = cfg.shards == 0 ? 1 : cfg.shards;
  for (std::uint32_t s = 0; s < shards; ++s)
    p.shards.push_back(spawn_shard(sys, shard_config{s, cfg.metrics}));
  if (cfg.requeue == requeue_policy::settle) {
    p.queue = spawn_settling_queue(sys, cfg.metrics, clk, profiles);
  } else {
    queue_config qc = cfg.queue;
    qc.metrics = cfg.metrics;
    p.queue = spawn_queue(sys, qc, clk, profiles, cfg.tick);
  }
  cache_config cc;
  cc.shards = shards;
  cc.scheduler_names.clear();
  for (const auto& prof : profiles)
    cc.scheduler_names.push_back(prof->scheduler_name());
  cc.assumed_ttl = cfg.assumed_ttl;
  cc.metrics = cfg.metrics;
  p.cache = spawn_cache(sys, std::move(cc), clk, p.shards, p.queue);
  p.binder = spawn_binder(sys, binder_config{cfg.bind_concurrency, cfg.metrics},
                          sink, p.cache, p.queue);
  coordinator_config co;
  co.shards = shards;
  co.max_inflight_cycles = cfg.max_inflight_cycles;
  co.seed = cfg.seed;
  co.max_conflicts = cfg.max_conflicts;
  co.explain = cfg.explain;
  co.batching = cfg.batching;
  co.metrics = cfg.metrics;
  p.coordinator = spawn_coordinator(sys, co, std::move(profiles), sink,
                                    p.shards, p.cache, p.queue, p.binder);
  cache_actor target = p.cache;
  source.start(cluster_source::receiver{
    [target](object_events events) {
      caf::anon_send(target, events_atom::value,
                     object_events_ptr{std::make_shared<const object_events>(
                       std::move(events))});
    },
    [target] { caf::anon_send(target, synced_atom::value); }});
  return p;
}

bool wait_until_idle(caf::actor_system& sys, const pipeline& p,
                     duration timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  caf::scoped_actor self{sys};
  self->send(p.queue, subscribe_atom::value, caf::actor{self});
  std::uint64_t round = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    self->send(p.cache, barrier_atom::value, ++round, caf::actor{self});
    bool idle = false;
    bool answered = false;
    while (!answered && std::chrono::steady_clock::now() < deadline) {
      self->receive(
        [&](barrier_atom, const queue_stats& s) {
          if (s.barrier == round) {
            answered = true;
            idle = s.idle();
          }
        },
        [&](idle_atom) {}, caf::after(std::chrono::seconds(1)) >> [] {});
    }
    if (idle)
      return true;
    // Not idle yet: wait for the queue's idle notice (or re-check soon).
    self->receive([&](idle_atom) {}, [&](barrier_atom, const queue_stats&) {},
                  caf::after(std::chrono::milliseconds(500)) >> [] {});
  }
  return false;
}

void stop_pipeline(pipeline& p, cluster_source& source) {
  source.stop();
  auto stop = [](const auto& handle) {
    if (handle)
      caf::anon_send_exit(handle, caf::exit_reason::user_shutdown);
  };
  stop(p.coordinator);
  stop(p.binder);
  stop(p.cache);
  stop(p.queue);
  for (const auto& s : p.shards)
    stop(s);
}

std::optional<cache_stats>
read_cache_stats(caf::actor_system& sys, const pipeline& p, duration timeout) {
  caf::scoped_actor self{sys};
  std::optional<cache_stats> out;
  self->request(p.cache, timeout, stats_atom::value)
    .receive([&](const cache_stats& s) { out = s; }, [](const caf::error&) {});
  return out;
}

void configure_scheduler(caf::actor_system_config& cfg, std::size_t threads,
                         const worker_polling& polling) {
  cfg.set("scheduler.max-threads",
          static_cast<int>(threads == 0 ? default_worker_threads() : threads));
  apply_worker_polling(cfg, polling);
}

std::size_t default_worker_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 2 : n;
}

} // namespace tessera::actors
