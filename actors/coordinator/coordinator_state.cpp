// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/coordinator_state.hpp"

#include "actors/coordinator/explanation.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <numeric>

namespace tessera::actors {

coordinator_state::coordinator_state(coordinator_config cfg,
                                     std::vector<plugins::profile_ptr> profiles,
                                     coordinator_ports& ports)
  : cfg_(cfg), profiles_(std::move(profiles)), ports_(ports),
    admission_(cfg.max_conflicts), rng_(cfg.seed),
    required_generation_(cfg.shards == 0 ? 1 : cfg.shards, 0),
    reported_generation_(cfg.shards == 0 ? 1 : cfg.shards, 0),
    metrics_(profiles_, cfg.metrics),
    batcher_(cfg.batching, cfg.batch_max_age,
             [this](std::size_t profile, batcher::flush_reason why) {
               metrics_.batch_flushed(profile, why);
             }) {
  if (cfg_.shards == 0)
    cfg_.shards = 1;
  if (cfg_.max_inflight_cycles == 0)
    cfg_.max_inflight_cycles = 1;
}

coordinator_state::~coordinator_state() = default;

void coordinator_state::start() {
  ports_.want(static_cast<std::int32_t>(cfg_.max_inflight_cycles));
}

void coordinator_state::on_view(cluster_view_ptr view) {
  bool first = !view_;
  view_ = std::move(view);
  if (first) {
    // Work that arrived before the cache's first view starts now.
    std::deque<queued_pod_info> early = std::move(before_view_);
    before_view_.clear();
    for (auto& item : early)
      admit(std::move(item));
  }
}

void coordinator_state::on_work(const work_batch& batch) {
  for (const auto& item : batch.pods)
    admit(item);
}

void coordinator_state::on_nominees(const std::vector<queue_input>& changes) {
  for (const auto& in : changes) {
    nominator_.apply(in);
    if (in.type == queue_input::kind::pod_deleted)
      admission_.forget(*in.old_pod);
  }
}

// ------------------------------------------------------------ helpers

coordinator_state::cycle* coordinator_state::find(std::uint64_t id) {
  auto it = cycles_.find(id);
  return it == cycles_.end() ? nullptr : it->second.get();
}

std::size_t coordinator_state::total_nodes() const {
  if (!view_)
    return 0;
  return std::accumulate(view_->shard_nodes.begin(), view_->shard_nodes.end(),
                         std::size_t{0});
}

bool coordinator_state::overlapped(const cycle& c) const {
  return !c.exclusive && (c.began_among_others || started_ > c.started_at);
}

bool coordinator_state::must_settle_to_preempt(const cycle& c) const {
  // Only filters that ran count: one skipped because no pod with required
  // anti-affinity existed is re-checked by the cache when the preemptor is
  // assumed, so a stale skip cannot place it wrongly.
  return overlapped(c) && c.state
         && c.prof->cross_node_filters(*c.state).active;
}

void coordinator_state::note_generation(std::uint32_t shard,
                                        std::uint64_t generation) {
  reported_generation_[shard]
    = std::max(reported_generation_[shard], generation);
}

std::uint32_t coordinator_state::shard_of(model::symbol node) const {
  if (view_ && view_->node_shard)
    if (auto it = view_->node_shard->find(node); it != view_->node_shard->end())
      return it->second;
  return 0;
}

void coordinator_state::forget_old_claims() {
  std::uint64_t oldest = claims_.latest();
  for (const auto& [id, c] : cycles_)
    oldest = std::min(oldest, c->claims_seen);
  claims_.forget_through(oldest);
}

// ----------------------------------------------------------- dispatch

void coordinator_state::resume(cycle& c) {
  switch (c.step) {
  case cycle_step::scanning:
    return after_scans(c);
  case cycle_step::waiting_for_batch:
    return; // a parked cycle has no request in flight
  case cycle_step::probing:
    return after_probe(c);
  case cycle_step::filtering:
    return after_filter(c);
  case cycle_step::scoring:
    return after_scores(c);
  case cycle_step::checking_nominated:
    return after_nominated_check(c);
  case cycle_step::dry_running:
    return after_dry_run(c);
  case cycle_step::assuming:
    return after_assume(c);
  }
}

// ------------------------------------------------------------- starting

void coordinator_state::admit(queued_pod_info item) {
  if (!view_) {
    // Actors start asynchronously: the queue may answer before the cache
    // has sent its first view. A cycle without a view would see no nodes.
    before_view_.push_back(std::move(item));
    return;
  }
  if (auto s = admission_.offer(std::move(item), cycles_.size()))
    begin(std::move(*s));
}

void coordinator_state::begin(admission::start s) {
  auto owned = std::make_unique<cycle>();
  cycle& c = *owned;
  c.id = ++next_id_;
  c.began = std::chrono::steady_clock::now();
  c.item = std::move(s.item);
  c.exclusive = s.alone;
  c.retries = s.retries;
  c.started_at = ++started_;
  c.began_among_others = !cycles_.empty();
  c.claims_seen = claims_.latest();
  c.view = view_;
  c.nominated = nominator_.current();
  cycles_.emplace(c.id, std::move(owned));
  metrics_.inflight(cycles_.size());
  const model::pod& p = *c.item.pod;
  if (c.item.profile < profiles_.size())
    c.prof_ptr = profiles_[c.item.profile];
  if (!c.prof_ptr || p.deleting) {
    auto out = std::make_shared<cycle_outcome>();
    out->type = cycle_outcome::kind::dropped;
    finish(c, std::move(out));
    return;
  }
  // A sampled cycle runs with the timed copy of its profile (metrics).
  c.prof_ptr = plugin_sampler_.for_cycle(std::move(c.prof_ptr));
  c.prof = c.prof_ptr.get();
  TLOG_V(3, "attempting to schedule pod", "pod", p.key());
  c.generations.assign(cfg_.shards, 0);
  if (!c.view || total_nodes() == 0) {
    c.state
      = std::make_shared<const plugins::cycle_state>(c.prof->new_cycle_state());
    auto report = failure_report{"Unschedulable",
                                 plugins::no_nodes_message,
                                 {},
                                 !p.nominated_node_name.empty()};
    ports_.sink().unschedulable(c.item.pod, report);
    auto out = std::make_shared<cycle_outcome>();
    out->type = cycle_outcome::kind::unschedulable;
    finish(c, std::move(out));
    return;
  }
  auto pre_filter_began = std::chrono::steady_clock::now();
  c.start = plugins::begin_cycle(*c.prof, p, *c.view->context);
  c.start.state.cluster_owner = c.view->context;
  evaluations_.count_pre_phase(*c.prof, c.start);
  const plugins::status& pre = c.start.pre_filter_status;
  metrics_.extension_point("PreFilter", pre.get_code(), *c.prof,
                           pre_filter_began);
  if (!pre.ok()) {
    if (pre.get_code() == plugins::code::error) {
      fail_with_error(c, pre.message());
      return;
    }
    c.state = std::make_shared<const plugins::cycle_state>(c.start.state);
    c.diag.absent_nodes_status = pre;
    c.diag.pre_filter_message = pre.message();
    c.diag.add_plugin_of(pre);
    post_filter(c);
    return;
  }
  if (c.start.allowed_nodes)
    c.allowed = std::make_shared<const std::unordered_set<model::symbol>>(
      std::move(*c.start.allowed_nodes));
  if (!c.start.scans.empty())
    scan(c);
  else
    after_scans(c);
}
// ---------------------------------------------------------------- assume

void coordinator_state::assume(cycle& c, model::symbol node) {
  if (overlapped(c)
      && claims_.nominated_since(node, c.claims_seen, c.item.pod->priority)) {
    // Filter would have counted that pod; the cache does not know it.
    retry(c, retry_reason::node_claimed);
    return;
  }
  metrics_.algorithm(c.began);
  // Claimed as the assume leaves, and again when it is confirmed: a cycle
  // that began in between may still lack the pod in its view.
  claims_.assumed(node);
  auto req = std::make_shared<assume_request>();
  req->pod = c.item.pod;
  req->node = node;
  req->profile = c.prof_ptr;
  req->state = c.state;
  req->shard_generations = c.generations;
  req->context_generation = c.view->generation;
  req->rescore = batcher_.head() == c.id;
  req->hinted = !c.hint.empty() && node == c.hint && !c.hint_failed;
  c.step = cycle_step::assuming;
  c.chosen = node;
  c.pending = 1;
  ports_.assume(std::move(req), reply_to<assume_reply>(c, 0));
}

void coordinator_state::after_assume(cycle& c) {
  const assume_reply_ptr& r = c.assumed;
  if (!r) {
    fail_with_error(c, "the cache did not answer the assume request");
    return;
  }
  auto out = std::make_shared<cycle_outcome>();
  if (r->duplicate) {
    out->type = cycle_outcome::kind::dropped;
    finish(c, std::move(out));
    return;
  }
  if (!r->ok && !c.hint.empty() && c.chosen == c.hint && !c.hint_failed) {
    // The hint no longer fits: a full cycle, as upstream's hint not used.
    TLOG_V(4, "batch hint does not fit", "pod", c.item.pod->key(), "node",
           c.chosen.view(), "reason", r->reason);
    c.hint_failed = true;
    c.assumed.reset();
    c.chosen = {};
    c.evaluated = 0;
    c.table = {};
    filter_all(c);
    return;
  }
  if (!r->ok) {
    TLOG_V(4, "assume conflict", "pod", c.item.pod->key(), "node",
           c.chosen.view(), "reason", r->reason);
    retry(c, retry_reason::assume_conflict);
    return;
  }
  claims_.assumed(c.chosen);
  std::uint32_t s = shard_of(c.chosen);
  required_generation_[s] = std::max(required_generation_[s], r->generation);
  auto bind = std::make_shared<bind_request>();
  bind->pod = r->assumed;
  bind->node = c.chosen;
  bind->profile = c.prof_ptr;
  bind->state = c.state;
  bind->evaluated_nodes = c.evaluated;
  bind->feasible_nodes = c.table.nodes.size();
  bind->attempts = c.item.attempts;
  bind->initial_ns = c.item.initial_ns;
  bind->flushed = c.item.flushed;
  bind->volumes = r->volumes;
  if (cfg_.explain)
    ports_.sink().explained(c.item.pod, explain_cycle(c));
  out->type = cycle_outcome::kind::assumed;
  finish(c, std::move(out));
  // After the outcome: the queue must know the pod is binding before the
  // binder can report the binding's end.
  ports_.bind(std::move(bind));
}

// --------------------------------------------------------------- endings

void coordinator_state::unschedulable(cycle& c, model::symbol nominated,
                                      std::vector<std::string> victims,
                                      bool preempting) {
  const model::pod& p = *c.item.pod;
  std::string message = plugins::fit_error_message(total_nodes(), c.diag);
  failure_report report;
  report.reason = "Unschedulable";
  report.message = message;
  report.nominated_node = nominated;
  report.update_nomination = p.nominated_node_name != nominated;
  ports_.sink().unschedulable(c.item.pod, report);
  if (cfg_.explain)
    ports_.sink().explained(c.item.pod, explain_cycle(c));
  TLOG_V(3, "unable to schedule pod; no fit; waiting", "pod", p.key(), "err",
         message);
  if (c.post_filter_began != std::chrono::steady_clock::time_point{})
    metrics_.extension_point("PostFilter",
                             nominated.empty() ? plugins::code::unschedulable
                                               : plugins::code::success,
                             *c.prof, c.post_filter_began);
  auto out = std::make_shared<cycle_outcome>();
  out->type = cycle_outcome::kind::unschedulable;
  out->unschedulable_plugins.assign(c.diag.unschedulable_plugins.begin(),
                                    c.diag.unschedulable_plugins.end());
  out->pending_plugins.assign(c.diag.pending_plugins.begin(),
                              c.diag.pending_plugins.end());
  out->nominated_node = nominated;
  out->victims = std::move(victims);
  out->preempting = preempting;
  finish(c, std::move(out));
}

void coordinator_state::fail_with_error(cycle& c, std::string message) {
  TLOG_ERROR("error scheduling pod; retrying", "pod", c.item.pod->key(), "err",
             message);
  failure_report report;
  report.reason = "SchedulerError";
  report.message = message;
  ports_.sink().unschedulable(c.item.pod, report);
  auto out = std::make_shared<cycle_outcome>();
  out->type = cycle_outcome::kind::error;
  finish(c, std::move(out));
}

void coordinator_state::retry(cycle& c, retry_reason why) {
  ++conflicts_;
  auto out = std::make_shared<cycle_outcome>();
  out->type = cycle_outcome::kind::retry;
  out->retry = why;
  finish(c, std::move(out));
}

void coordinator_state::finish(cycle& c, std::shared_ptr<cycle_outcome> out) {
  out->pod = c.item.pod;
  out->cycle = c.item.cycle;
  if (out->type != cycle_outcome::kind::dropped) {
    using result = attempt_report::result;
    attempt_report report;
    report.outcome
      = out->type == cycle_outcome::kind::assumed ? result::scheduled
        : out->type == cycle_outcome::kind::unschedulable
          ? result::unschedulable
        : out->type == cycle_outcome::kind::retry ? result::conflict
                                                  : result::error;
    report.elapsed = std::chrono::steady_clock::now() - c.began;
    report.batched = out->type == cycle_outcome::kind::assumed
                     && !c.hint.empty() && c.chosen == c.hint;
    ports_.sink().attempted(c.item.pod, report);
  }
  if (c.prof != nullptr)
    metrics_.attempt(out->type, *c.prof, c.began);
  bool batch_ended = batcher_.head() == c.id;
  if (batch_ended) {
    batcher::ending e;
    e.assumed = out->type == cycle_outcome::kind::assumed;
    e.chosen = c.chosen;
    e.hinted = c.hint;
    e.fresh = std::move(c.fresh);
    if (e.assumed && c.assumed) {
      e.fits_again = c.assumed->fits_again;
      e.scores = c.assumed->scores;
    }
    e.state = c.state.get();
    e.pod = c.item.pod.get();
    e.now = std::chrono::steady_clock::now();
    const auto storing = e.now;
    auto result = batcher_.on_end(std::move(e));
    metrics_.stored_results(c.item.profile, storing);
    metrics_.batch_attempt(c.item.profile, result);
    if (batcher_.rescored()) {
      metrics_.batch_rescored(c.item.profile);
      if (c.assumed)
        metrics_.rescore_duration(c.item.profile, c.assumed->rescore_time);
    }
  }
  // The nominator learns the cycle's decision before any later cycle
  // begins, as after a serial cycle.
  if (out->type == cycle_outcome::kind::unschedulable
      && !out->nominated_node.empty()) {
    nominator_.nominate(out->pod, out->nominated_node);
    claims_.nominated(out->nominated_node, out->pod->priority);
  } else if (out->type == cycle_outcome::kind::assumed) {
    nominator_.placed(*out->pod);
  } else if (out->type != cycle_outcome::kind::retry
             && out->type != cycle_outcome::kind::error) {
    nominator_.drop(*out->pod);
  }
  bool was_alone = c.exclusive;
  cycles_.erase(c.id); // `c` is gone from here on
  forget_old_claims();
  admission_.ended(*out->pod, out->type, out->retry, was_alone);
  // The slot this cycle held goes back to the queue with its outcome.
  // Held pods already count against the limit: starting them below takes
  // no new slot.
  std::size_t busy = cycles_.size() + admission_.held() + before_view_.size();
  out->credit = busy < cfg_.max_inflight_cycles ? 1 : 0;
  ports_.outcome(std::move(out));
  if (batch_ended)
    resume_parked();
  while (auto next = admission_.next(cycles_.size()))
    begin(std::move(*next));
  metrics_.inflight(cycles_.size());
}

} // namespace tessera::actors
