// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Spawning each actor role. CAF 0.17 default-constructs an actor's state,
/// so every behavior keeps its CAF-free `<role>_state` inside a small
/// `<role>_cell` (private to the role's .cpp, next to the behavior); all
/// logic stays in the `<role>_state` classes, which tests drive directly.
#pragma once

#include "actors/binder/binder_state.hpp"
#include "actors/cache/cache_state.hpp"
#include "actors/coordinator/coordinator_state.hpp"
#include "actors/interfaces.hpp"
#include "actors/queue/queue_state.hpp"
#include "actors/queue/settling_queue_state.hpp"
#include "actors/shard/shard_state.hpp"

#include <caf/fwd.hpp>

#include <vector>

namespace tessera::actors {

shard_actor spawn_shard(caf::actor_system& sys, shard_config cfg);

queue_actor spawn_queue(caf::actor_system& sys, queue_config cfg,
                        const clock& clk,
                        std::vector<plugins::profile_ptr> profiles,
                        duration tick);

/// Simulate's queue (`settling_queue_state`); `metrics` may be null.
queue_actor spawn_settling_queue(caf::actor_system& sys,
                                 metrics::scheduler_metrics* metrics,
                                 const clock& clk,
                                 std::vector<plugins::profile_ptr> profiles);

cache_actor spawn_cache(caf::actor_system& sys, cache_config cfg,
                        const clock& clk, std::vector<shard_actor> shards,
                        queue_actor q);

binder_actor spawn_binder(caf::actor_system& sys, binder_config cfg,
                          cluster_sink& sink, cache_actor c, queue_actor q);

coordinator_actor
spawn_coordinator(caf::actor_system& sys, coordinator_config cfg,
                  std::vector<plugins::profile_ptr> profiles,
                  cluster_sink& sink, std::vector<shard_actor> shards,
                  cache_actor c, queue_actor q, binder_actor b);

} // namespace tessera::actors
