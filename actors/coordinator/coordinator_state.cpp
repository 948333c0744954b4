// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/coordinator_state.hpp"

#include "actors/cache/cache_state.hpp"
#include "actors/coordinator/explanation.hpp"
#include "actors/coordinator/preemption.hpp"
#include "plugins/framework/scatter.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <numeric>
#include <type_traits>

namespace tessera::actors {

namespace {

// Where the dispatcher files each kind of reply in a cycle.
std::vector<scan_reply_ptr>& slots(scheduling_cycle& c, const scan_reply*) {
  return c.scans;
}
std::vector<filter_reply_ptr>& slots(scheduling_cycle& c, const filter_reply*) {
  return c.filters;
}
std::vector<score_reply_ptr>& slots(scheduling_cycle& c, const score_reply*) {
  return c.scores;
}
std::vector<preempt_reply_ptr>& slots(scheduling_cycle& c,
                                      const preempt_reply*) {
  return c.preempts;
}

// The reason for nodes outside the PreFilterResult node set.
model::symbol outside_node_set(const std::vector<std::string>& plugins) {
  std::string names;
  for (const auto& n : plugins) {
    if (!names.empty())
      names += " ";
    names += n;
  }
  return model::symbol{"node(s) didn't satisfy plugin(s) [" + names + "]"};
}

} // namespace

coordinator_state::coordinator_state(coordinator_config cfg,
                                     std::vector<plugins::profile_ptr> profiles,
                                     coordinator_ports& ports)
  : cfg_(cfg), profiles_(std::move(profiles)), ports_(ports),
    admission_(cfg.max_conflicts), rng_(cfg.seed),
    required_generation_(cfg.shards == 0 ? 1 : cfg.shards, 0),
    reported_generation_(cfg.shards == 0 ? 1 : cfg.shards, 0),
    metrics_(profiles_) {
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
  nominations_.from_queue(batch.nominated, batch.outcomes_handled);
  for (const auto& item : batch.pods)
    admit(item);
}

// ------------------------------------------------------------ helpers

coordinator_state::cycle* coordinator_state::find(std::uint64_t id) {
  auto it = cycles_.find(id);
  return it == cycles_.end() ? nullptr : it->second.get();
}

const plugins::profile*
coordinator_state::profile_for(const model::pod& p) const {
  for (const auto& prof : profiles_)
    if (prof->scheduler_name() == p.scheduler_name.view())
      return prof.get();
  return nullptr;
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

// ----------------------------------------------------------- dispatch

template <class Reply>
coordinator_ports::reply<Reply> coordinator_state::reply_to(cycle& c,
                                                            std::uint32_t s) {
  return [this, id = c.id, s](std::shared_ptr<const Reply> r) {
    cycle* c = find(id);
    if (c == nullptr)
      return;
    if (!r)
      c->request_failed = true;
    if constexpr (std::is_same_v<Reply, assume_reply>)
      c->assumed = std::move(r);
    else
      slots(*c, static_cast<const Reply*>(nullptr))[s] = std::move(r);
    if (--c->pending == 0)
      resume(*c);
  };
}

void coordinator_state::resume(cycle& c) {
  switch (c.step) {
  case cycle_step::scanning:
    return after_scans(c);
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
  c.assumes_at_start = assumes_;
  c.started_at = ++started_;
  c.began_among_others = !cycles_.empty();
  c.view = view_;
  c.nominated = nominations_.current();
  cycles_.emplace(c.id, std::move(owned));
  metrics_.inflight(cycles_.size());
  const model::pod& p = *c.item.pod;
  c.prof = profile_for(p);
  if (c.prof == nullptr || p.deleting) {
    auto out = std::make_shared<cycle_outcome>();
    out->type = cycle_outcome::kind::dropped;
    finish(c, std::move(out));
    return;
  }
  for (const auto& prof : profiles_)
    if (prof.get() == c.prof)
      c.prof_ptr = prof;
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

// ------------------------------------------------------------ filtering

void coordinator_state::scan(cycle& c) {
  auto state = std::make_shared<const plugins::cycle_state>(c.start.state);
  c.step = cycle_step::scanning;
  c.scans.assign(cfg_.shards, nullptr);
  c.pending = cfg_.shards;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    auto req = c.request<scan_request>();
    req->state = state;
    req->scans = c.start.scans;
    req->min_generation = required_generation_[s];
    ports_.scan(s, std::move(req), reply_to<scan_reply>(c, s));
  }
}

void coordinator_state::after_scans(cycle& c) {
  if (c.request_failed) {
    fail_with_error(c, "a shard did not answer the node scan");
    return;
  }
  if (!c.scans.empty()) {
    std::vector<std::vector<plugins::scan_partial_ptr>> per_shard;
    for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
      per_shard.push_back(c.scans[s]->partials);
      c.generations[s] = c.scans[s]->generation;
      note_generation(s, c.generations[s]);
    }
    c.scanned = true;
    plugins::status merged = plugins::merge_scans(
      *c.prof, c.start.state, *c.item.pod, c.start.scans, std::move(per_shard));
    if (!merged.ok()) {
      fail_with_error(c, merged.message());
      return;
    }
    c.scans.clear();
  }
  c.state
    = std::make_shared<const plugins::cycle_state>(std::move(c.start.state));
  model::symbol nominated = c.item.pod->nominated_node_name;
  // After max_conflicts in a row the pod filters every shard instead: a
  // probe's assume can keep failing on generations it never refreshed.
  bool probe = !nominated.empty() && c.view->node_shard
               && c.view->node_shard->count(nominated) != 0
               && (!c.allowed || c.allowed->count(nominated) != 0)
               && c.item.conflicts < cfg_.max_conflicts;
  if (probe)
    probe_nominated(c);
  else
    filter_all(c);
}

void coordinator_state::probe_nominated(cycle& c) {
  model::symbol node = c.item.pod->nominated_node_name;
  std::uint32_t s = shard_of(node);
  auto req = c.request<filter_request>();
  req->quota = 1;
  req->allowed = std::make_shared<const std::unordered_set<model::symbol>>(
    std::unordered_set<model::symbol>{node});
  req->nominated = c.nominated;
  req->min_generation = required_generation_[s];
  req->rotate = false;
  req->score = false;
  c.step = cycle_step::probing;
  c.filters.assign(cfg_.shards, nullptr);
  c.pending = 1;
  ports_.filter(s, std::move(req), reply_to<filter_reply>(c, s));
}

void coordinator_state::after_probe(cycle& c) {
  std::uint32_t s = shard_of(c.item.pod->nominated_node_name);
  const filter_reply_ptr& r = c.filters[s];
  // A failed or empty probe is not an error: the pod filters every shard.
  c.request_failed = false;
  if (!r || !r->result.error.ok() || r->result.feasible.empty()) {
    filter_all(c);
    return;
  }
  note_generation(s, r->generation);
  if (!c.scanned) {
    // Only shard s was asked. For the others, the newest generation they
    // reported stands for what a filter there would have seen; 0 would make
    // the assume replay (or refuse, once the change log has moved past it)
    // everything since the start.
    for (std::uint32_t t = 0; t < cfg_.shards; ++t)
      c.generations[t] = reported_generation_[t];
    c.generations[s] = r->generation;
  }
  c.evaluated = 1;
  c.table.nodes = r->result.feasible;
  model::symbol node = r->result.feasible.front();
  c.filters.clear();
  assume(c, node);
}

void coordinator_state::filter_all(cycle& c) {
  std::vector<std::size_t> per_shard(cfg_.shards, 0);
  if (c.allowed) {
    for (auto name : *c.allowed)
      if (c.view->node_shard->count(name) != 0)
        ++per_shard[shard_of(name)];
  } else {
    for (std::uint32_t s = 0; s < cfg_.shards && s < c.view->shard_nodes.size();
         ++s)
      per_shard[s] = c.view->shard_nodes[s];
  }
  std::size_t candidates
    = std::accumulate(per_shard.begin(), per_shard.end(), std::size_t{0});
  std::size_t wanted = plugins::num_feasible_nodes_to_find(
    c.prof->percentage_of_nodes_to_score(), candidates);
  if (c.prof->score().empty())
    wanted = std::min<std::size_t>(wanted, 1); // no scoring: any node will do
  std::vector<std::size_t> quotas = plugins::split_quota(wanted, per_shard);
  c.filter_began = std::chrono::steady_clock::now();
  c.step = cycle_step::filtering;
  c.filters.assign(cfg_.shards, nullptr);
  c.pending = static_cast<std::size_t>(
    std::count_if(quotas.begin(), quotas.end(), [](auto q) { return q > 0; }));
  if (c.pending == 0) {
    after_filter(c);
    return;
  }
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    if (quotas[s] == 0)
      continue;
    auto req = c.request<filter_request>();
    req->quota = quotas[s];
    req->allowed = c.allowed;
    req->nominated = c.nominated;
    req->min_generation = required_generation_[s];
    ports_.filter(s, std::move(req), reply_to<filter_reply>(c, s));
  }
}

void coordinator_state::after_filter(cycle& c) {
  if (c.request_failed) {
    fail_with_error(c, "a shard did not answer the filter request");
    return;
  }
  c.plan = plugins::score_plan(*c.prof, *c.state);
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    const auto& r = c.filters[s];
    if (!r)
      continue;
    if (!r->result.error.ok()) {
      fail_with_error(c, r->result.error.message());
      return;
    }
    note_generation(s, r->generation);
    if (!c.scanned)
      c.generations[s] = r->generation;
    c.evaluated += r->result.processed;
    for (const auto& f : r->result.failures)
      c.diag.add(f.node, f.result);
    c.table.nodes.insert(c.table.nodes.end(), r->result.feasible.begin(),
                         r->result.feasible.end());
  }
  metrics_.extension_point("Filter",
                           c.table.nodes.empty() ? plugins::code::unschedulable
                                                 : plugins::code::success,
                           *c.prof, c.filter_began);
  if (c.allowed)
    c.diag.absent_nodes_status
      = plugins::status{plugins::code::unschedulable_and_unresolvable,
                        outside_node_set(c.start.node_set_plugins)};
  if (c.table.nodes.empty()) {
    post_filter(c);
    return;
  }
  if (c.table.nodes.size() == 1) {
    assume(c, c.table.nodes.front());
    return;
  }
  if (!c.start.pre_score_status.ok()) {
    fail_with_error(c, c.start.pre_score_status.message());
    return;
  }
  std::vector<plugins::shard_rows> rows;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    if (const auto& r = c.filters[s])
      rows.push_back({r->result.feasible.size(), r->result.scores});
  plugins::stitch_scores(c.table, c.plan.local, rows);
  if (c.plan.deferred.empty()) {
    select(c);
    return;
  }
  // Deferred scores: merge the shards' feasible summaries, then score.
  std::vector<std::vector<plugins::feasible_summary_ptr>> summaries;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    summaries.push_back(c.filters[s]
                          ? c.filters[s]->result.summaries
                          : std::vector<plugins::feasible_summary_ptr>{});
  plugins::cycle_state next = *c.state;
  plugins::status merged = plugins::merge_summaries(
    *c.prof, next, *c.item.pod, c.plan, std::move(summaries));
  if (!merged.ok()) {
    fail_with_error(c, merged.message());
    return;
  }
  c.state = std::make_shared<const plugins::cycle_state>(std::move(next));
  c.step = cycle_step::scoring;
  c.scores.assign(cfg_.shards, nullptr);
  c.pending = 0;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    if (!c.feasible_on(s).empty())
      ++c.pending;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    if (c.feasible_on(s).empty())
      continue;
    auto req = c.request<score_request>();
    req->plugins = c.plan.deferred;
    req->nodes = c.feasible_on(s);
    ports_.score(s, std::move(req), reply_to<score_reply>(c, s));
  }
}

void coordinator_state::after_scores(cycle& c) {
  if (c.request_failed) {
    fail_with_error(c, "a shard did not answer the score request");
    return;
  }
  std::vector<plugins::shard_rows> rows;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    if (std::size_t m = c.feasible_on(s).size(); m != 0)
      rows.push_back({m, c.scores[s]->scores});
  plugins::stitch_scores(c.table, c.plan.deferred, rows);
  select(c);
}

void coordinator_state::select(cycle& c) {
  auto chosen
    = plugins::select_host(*c.prof, *c.state, *c.item.pod, c.table, rng_);
  if (!chosen) {
    fail_with_error(c, chosen.err().message);
    return;
  }
  assume(c, c.table.nodes[*chosen]);
}

// ---------------------------------------------------------------- assume

void coordinator_state::assume(cycle& c, model::symbol node) {
  metrics_.algorithm(c.began);
  auto req = std::make_shared<assume_request>();
  req->pod = c.item.pod;
  req->node = node;
  req->profile = c.prof_ptr;
  req->state = c.state;
  req->shard_generations = c.generations;
  req->context_generation = c.view->generation;
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
  if (!r->ok) {
    ++conflicts_;
    TLOG_V(4, "assume conflict", "pod", c.item.pod->key(), "node",
           c.chosen.view(), "reason", r->reason);
    out->type = cycle_outcome::kind::conflict;
    finish(c, std::move(out));
    return;
  }
  ++assumes_;
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
  if (cfg_.explain)
    ports_.sink().explained(c.item.pod, explain_cycle(c));
  ports_.bind(std::move(bind));
  out->type = cycle_outcome::kind::assumed;
  finish(c, std::move(out));
}

// ------------------------------------------------- PostFilter (preemption)

void coordinator_state::post_filter(cycle& c) {
  if (c.prof->post_filter().empty()) {
    unschedulable(c, {}, {});
    return;
  }
  c.post_filter_began = std::chrono::steady_clock::now();
  metrics_.preemption_attempt();
  const auto* pf = c.prof->post_filter().front();
  plugins::status eligible = pf->check_pod_eligible(*c.item.pod);
  if (!eligible.ok()) {
    c.diag.post_filter_message = pf->wrap_message(eligible.message());
    unschedulable(c, {}, {});
    return;
  }
  potential_nodes potential = find_potential_nodes(c, cfg_.shards);
  c.unresolvable = potential.unresolvable;
  c.potential_per_shard = std::move(potential.per_shard);
  if (potential.nominated.empty()) {
    dry_run(c);
    return;
  }
  std::uint32_t s = shard_of(potential.nominated);
  auto req = c.request<preempt_request>();
  req->cluster = c.view->context;
  req->unresolvable = c.unresolvable;
  req->wanted = 0;
  req->nominated = c.nominated;
  req->nominated_node = potential.nominated;
  req->nominated_status = potential.nominated_status;
  c.step = cycle_step::checking_nominated;
  c.preempts.assign(cfg_.shards, nullptr);
  c.pending = 1;
  ports_.preempt(s, std::move(req), reply_to<preempt_reply>(c, s));
}

void coordinator_state::after_nominated_check(cycle& c) {
  const preempt_reply_ptr& r
    = c.preempts[shard_of(c.item.pod->nominated_node_name)];
  // A shard that did not answer proves nothing: go on to the dry runs.
  c.request_failed = false;
  if (r && !r->eligibility.ok()) {
    c.diag.post_filter_message
      = c.prof->post_filter().front()->wrap_message(r->eligibility.message());
    unschedulable(c, {}, {});
    return;
  }
  dry_run(c);
}

void coordinator_state::dry_run(cycle& c) {
  // An overlapped cycle cannot act on its victims (it is redone alone); it
  // only needs to know whether some node has any.
  std::vector<preempt_request_ptr> requests
    = dry_run_requests(c, rng_, overlapped(c));
  c.step = cycle_step::dry_running;
  c.preempts.assign(cfg_.shards, nullptr);
  c.pending = static_cast<std::size_t>(
    std::count_if(requests.begin(), requests.end(),
                  [](const auto& r) { return r != nullptr; }));
  if (c.pending == 0) {
    c.preempts.clear();
    after_dry_run(c);
    return;
  }
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    if (requests[s])
      ports_.preempt(s, std::move(requests[s]), reply_to<preempt_reply>(c, s));
}

void coordinator_state::after_dry_run(cycle& c) {
  if (c.request_failed) {
    fail_with_error(c, "a shard did not answer the preemption dry run");
    return;
  }
  preemption_verdict v = judge_dry_runs(c, total_nodes(), overlapped(c));
  using kind = preemption_verdict::kind;
  switch (v.type) {
  case kind::stale:
    retry_stale(c);
    return;
  case kind::redo_alone:
    admission_.redo_alone(*c.item.pod);
    retry_stale(c);
    return;
  case kind::error:
    fail_with_error(c, std::move(v.message));
    return;
  case kind::unschedulable:
    c.diag.post_filter_message = std::move(v.message);
    unschedulable(c, {}, {});
    return;
  case kind::nominate:
    preempt(c, v.chosen);
    return;
  }
}

void coordinator_state::preempt(cycle& c,
                                const plugins::post_filter_outcome& chosen) {
  metrics_.victims(chosen.victims.size());
  std::vector<std::string> victims;
  for (const auto& v : chosen.victims) {
    // A victim already being deleted needs no second deletion; the
    // preemptor still waits for it to go.
    if (!v->deleting)
      ports_.sink().preempt(v, c.item.pod, chosen.nominated_node);
    TLOG_V(2, "preemptor pod preempted victim pod", "preemptor",
           c.item.pod->key(), "victim", v->key(), "node",
           chosen.nominated_node.view());
    victims.push_back(pod_key(*v));
  }
  // Lower-priority pods nominated to that node lose their nomination.
  if (c.nominated)
    if (auto it = c.nominated->by_node.find(chosen.nominated_node);
        it != c.nominated->by_node.end())
      for (const auto& other : it->second)
        if (other->priority < c.item.pod->priority
            && !other->same_identity(*c.item.pod))
          ports_.sink().clear_nomination(other);
  unschedulable(c, chosen.nominated_node, std::move(victims));
}

// --------------------------------------------------------------- endings

void coordinator_state::unschedulable(cycle& c, model::symbol nominated,
                                      std::vector<std::string> victims) {
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
  out->stale = assumes_ > c.assumes_at_start;
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

void coordinator_state::retry_stale(cycle& c) {
  ++conflicts_;
  auto out = std::make_shared<cycle_outcome>();
  out->type = cycle_outcome::kind::conflict;
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
        : out->type == cycle_outcome::kind::conflict ? result::conflict
                                                     : result::error;
    report.elapsed = std::chrono::steady_clock::now() - c.began;
    ports_.sink().attempted(c.item.pod, report);
  }
  if (c.prof != nullptr)
    metrics_.attempt(out->type, *c.prof, c.began);
  // The queue records nominations from outcomes; cycles that begin before
  // its next snapshot must see them already, as after a serial cycle.
  std::uint64_t outcome_number = ++outcomes_sent_;
  if (out->type == cycle_outcome::kind::unschedulable
      && !out->nominated_node.empty())
    nominations_.nominate(out->pod, out->nominated_node, outcome_number);
  else if (out->type != cycle_outcome::kind::conflict
           && out->type != cycle_outcome::kind::error)
    nominations_.drop(out->pod, outcome_number);
  bool was_alone = c.exclusive;
  cycles_.erase(c.id); // `c` is gone from here on
  ports_.outcome(std::move(out));
  admission_.ended(was_alone);
  // Start held pods when allowed; each finished cycle frees one slot.
  while (auto next = admission_.next(cycles_.size()))
    begin(std::move(*next));
  metrics_.inflight(cycles_.size());
  std::size_t busy = cycles_.size() + admission_.held() + before_view_.size();
  if (busy < cfg_.max_inflight_cycles)
    ports_.want(1);
}

} // namespace tessera::actors
