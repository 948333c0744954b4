// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/behaviors.hpp"
#include "actors/exit_on_exception.hpp"
#include "metrics/scheduler_metrics.hpp"

#include <caf/all.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace tessera::actors {

namespace {

struct shard_cell {
  static inline const char* name = "shard";
  std::optional<shard_state> state;
  /// Requests that need a newer generation than the shard has seen yet.
  std::vector<std::function<bool()>> deferred;
  /// Where to record (null: nowhere) and this shard's series in it,
  /// resolved on first use.
  metrics::scheduler_metrics* metrics = nullptr;
  metrics::histogram* filter_score = nullptr;
  /// scheduler_goroutines{operation="Filter"}, shared by the shards.
  metrics::gauge* filtering = nullptr;
  /// tessera_actor_mailbox_size{actor="shard-N"}.
  std::optional<metrics::mailbox_sampler> mailbox;
};

// Samples the shard's mailbox length (every 64th message).
void sample_mailbox(shard_actor::stateful_pointer<shard_cell> self) {
  self->state.mailbox->sample(self->state.metrics,
                              [&] { return self->mailbox().size(); });
}

// Times one filter_and_score into tessera_shard_filter_score_duration_seconds
// and counts the shard as filtering meanwhile.
template <class Work>
auto timed_filter(shard_cell& cell, std::uint32_t index, Work work) {
  auto* m = cell.metrics;
  if (m == nullptr)
    return work();
  if (cell.filter_score == nullptr) {
    cell.filter_score
      = &m->shard_filter_score_duration.with({std::to_string(index)});
    cell.filtering = &m->goroutines.with({"Filter"});
  }
  auto began = std::chrono::steady_clock::now();
  // Lowered on every way out, so that a throwing filter cannot leave the
  // gauge counting a shard that stopped filtering.
  struct filtering_now {
    metrics::gauge* g;
    explicit filtering_now(metrics::gauge* gauge) : g(gauge) {
      g->add(1);
    }
    ~filtering_now() {
      g->add(-1);
    }
    filtering_now(const filtering_now&) = delete;
    filtering_now& operator=(const filtering_now&) = delete;
  } counted{cell.filtering};
  auto out = work();
  cell.filter_score->observe(metrics::seconds_since(began));
  return out;
}

// Runs deferred requests, in arrival order, as far as the shard's generation
// allows (a request waits for the delta carrying the coordinator's last
// assume on this shard).
void drain(shard_actor::stateful_pointer<shard_cell> self) {
  auto& deferred = self->state.deferred;
  std::size_t done = 0;
  while (done < deferred.size() && deferred[done]())
    ++done;
  deferred.erase(deferred.begin(),
                 deferred.begin() + static_cast<std::ptrdiff_t>(done));
}

template <class Reply, class Request, class Work>
caf::result<std::shared_ptr<const Reply>>
serve_when_current(shard_actor::stateful_pointer<shard_cell> self,
                   const Request& req, Work work) {
  auto& cell = self->state;
  if (cell.deferred.empty() && cell.state->generation() >= req->min_generation)
    return std::make_shared<const Reply>(work());
  auto rp = self->make_response_promise<std::shared_ptr<const Reply>>();
  cell.deferred.push_back([self, req, rp, work]() mutable {
    if (self->state.state->generation() < req->min_generation)
      return false;
    rp.deliver(std::make_shared<const Reply>(work()));
    return true;
  });
  return rp;
}

shard_actor::behavior_type shard(shard_actor::stateful_pointer<shard_cell> self,
                                 shard_config cfg) {
  exit_on_exception(self);
  std::uint32_t index = cfg.index;
  self->state.metrics = cfg.metrics;
  self->state.state.emplace(index, cfg.metrics);
  self->state.mailbox.emplace("shard-" + std::to_string(index));
  return {
    [self](delta_atom, const shard_delta_ptr& d) {
      sample_mailbox(self);
      self->state.state->apply(*d);
      drain(self);
    },
    [self](scan_atom,
           const scan_request_ptr& req) -> caf::result<scan_reply_ptr> {
      sample_mailbox(self);
      return serve_when_current<scan_reply>(
        self, req, [self, req] { return self->state.state->scan(*req); });
    },
    [self, index](filter_atom, const filter_request_ptr& req)
      -> caf::result<filter_reply_ptr> {
      sample_mailbox(self);
      return serve_when_current<filter_reply>(self, req, [self, req, index] {
        return timed_filter(self->state, index,
                            [&] { return self->state.state->filter(*req); });
      });
    },
    [self](score_atom, const score_request_ptr& req) -> score_reply_ptr {
      sample_mailbox(self);
      return std::make_shared<const score_reply>(
        self->state.state->score(*req));
    },
    [self](preempt_atom, const preempt_request_ptr& req) -> preempt_reply_ptr {
      sample_mailbox(self);
      return std::make_shared<const preempt_reply>(
        self->state.state->preempt(*req));
    },
  };
}

} // namespace

shard_actor spawn_shard(caf::actor_system& sys, shard_config cfg) {
  return sys.spawn(shard, cfg);
}

} // namespace tessera::actors
