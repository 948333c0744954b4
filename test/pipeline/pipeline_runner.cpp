// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/pipeline/pipeline_runner.hpp"

#include "actors/pipeline.hpp"

#include <caf/all.hpp>

#include <chrono>
#include <cstdlib>

namespace tessera::pipeline_test {

std::int64_t env_int(const char* name, std::int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0')
    return fallback;
  return std::strtoll(v, nullptr, 10);
}

pipeline_run run_pipeline(const std::vector<model::object>& objects,
                          const plugins::profile_ptr& prof,
                          const pipeline_options& opts) {
  pipeline_run out;
  actors::memory_cluster cluster{objects};
  auto started = std::chrono::steady_clock::now();
  {
    caf::actor_system_config cfg;
    cfg.set("scheduler.max-threads", static_cast<int>(opts.threads));
    caf::actor_system sys{cfg};
    actors::pipeline_config pc;
    pc.shards = opts.shards;
    pc.max_inflight_cycles = opts.inflight;
    pc.seed = opts.seed;
    pc.queue.one_shot = opts.one_shot;
    pc.explain = opts.explain;
    auto p = actors::start_pipeline(sys, pc, {prof}, cluster, cluster,
                                    system_clock::instance());
    out.idle = actors::wait_until_idle(
      sys, p, std::chrono::seconds(env_int("TESSERA_PIPELINE_TIMEOUT", 300)));
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
  return out;
}

} // namespace tessera::pipeline_test
