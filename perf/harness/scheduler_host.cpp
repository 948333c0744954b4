// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/scheduler_host.hpp"

#include "actors/pipeline.hpp"

#include <caf/all.hpp>

#include <chrono>
#include <optional>
#include <thread>

namespace tessera::perf {

struct scheduler_host::impl {
  explicit impl(const scheduler_settings& s) : sys(configure(cfg, s)) {
  }
  static caf::actor_system_config& configure(caf::actor_system_config& c,
                                             const scheduler_settings& s) {
    actors::configure_scheduler(c, s.threads,
                                s.eager_polling
                                  ? actors::worker_polling::eager()
                                  : actors::worker_polling{});
    return c;
  }

  actors::cache_stats stats() {
    actors::cache_stats out;
    caf::scoped_actor self{sys};
    self->request(p.cache, std::chrono::seconds(10), actors::stats_atom::value)
      .receive([&](const actors::cache_stats& s) { out = s; },
               [](caf::error&) {});
    return out;
  }

  // Waits (a little) until no cycle or binding is in flight: the API may
  // report a pod bound before the binder has handled the reply and
  // recorded the attempt, and a stop in between would lose that record.
  void drain_binds() {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    caf::scoped_actor self{sys};
    while (std::chrono::steady_clock::now() < deadline) {
      std::size_t in_flight = 0;
      self->request(p.queue, std::chrono::seconds(1), actors::stats_atom::value)
        .receive([&](const actors::queue_stats& s) { in_flight = s.in_flight; },
                 [](caf::error&) {});
      if (in_flight == 0)
        return;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  caf::actor_system_config cfg;
  caf::actor_system sys;
  actors::pipeline p;
  actors::cluster_source* source = nullptr;
  bool running = false;
};

scheduler_host::scheduler_host(const scheduler_settings& settings,
                               actors::cluster_source& source,
                               actors::cluster_sink& sink)
  : impl_(std::make_unique<impl>(settings)) {
  actors::pipeline_config pc;
  pc.shards = settings.shards;
  pc.max_inflight_cycles = settings.max_inflight_cycles;
  pc.bind_concurrency = settings.bind_concurrency;
  pc.seed = settings.seed;
  pc.queue.initial_backoff = settings.initial_backoff;
  pc.queue.max_backoff = settings.max_backoff;
  pc.queue.pop_from_backoff = settings.pop_from_backoff;
  pc.batching = settings.batching;
  pc.metrics = settings.metrics;
  impl_->source = &source;
  impl_->p = actors::start_pipeline(impl_->sys, pc, settings.profiles, source,
                                    sink, system_clock::instance());
  impl_->running = true;
}

scheduler_host::~scheduler_host() {
  stop();
}

std::uint64_t scheduler_host::assume_conflicts() {
  return impl_->running ? impl_->stats().conflicts : 0;
}

bool scheduler_host::synced() {
  return impl_->running && impl_->stats().synced;
}

std::size_t scheduler_host::cached_nodes() {
  return impl_->running ? impl_->stats().nodes : 0;
}

void scheduler_host::stop() {
  if (!impl_ || !impl_->running)
    return;
  impl_->running = false;
  impl_->drain_binds();
  actors::stop_pipeline(impl_->p, *impl_->source);
  impl_->p = {};
  impl_->sys.await_all_actors_done();
}

} // namespace tessera::perf
