// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/coordinator_state.hpp"

#include "metrics/scheduler_metrics.hpp"
#include "model/pod_key.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <numeric>

namespace tessera::actors {

namespace {

// The extension points whose durations the coordinator observes, and the
// number of status codes (series cache keys).
constexpr std::string_view observed_points[]
  = {"PreFilter", "Filter", "PostFilter"};
constexpr std::size_t status_codes
  = static_cast<std::size_t>(plugins::code::pending) + 1;

const model::symbol& preemption_not_helpful() {
  static const model::symbol s{"Preemption is not helpful for scheduling"};
  return s;
}

// Splits `total` over buckets in proportion to `sizes`, never giving a bucket
// more than its size; remainders go to the first buckets with room.
std::vector<std::size_t> split(std::size_t total,
                               const std::vector<std::size_t>& sizes) {
  std::size_t sum = std::accumulate(sizes.begin(), sizes.end(), std::size_t{0});
  std::vector<std::size_t> out(sizes.size(), 0);
  if (sum == 0)
    return out;
  total = std::min(total, sum);
  std::size_t given = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    out[i] = total * sizes[i] / sum;
    given += out[i];
  }
  for (std::size_t i = 0; given < total && i < sizes.size(); ++i)
    while (given < total && out[i] < sizes[i]) {
      ++out[i];
      ++given;
    }
  return out;
}

} // namespace

// Everything one scheduling cycle carries between its asynchronous steps.
struct coordinator_state::cycle {
  std::uint64_t id = 0;
  queued_pod_info item;
  const plugins::profile* prof = nullptr;
  plugins::profile_ptr prof_ptr;
  cluster_view_ptr view;
  nominations_ptr nominated;
  plugins::cycle_start start;
  plugins::cycle_state_ptr state;
  std::shared_ptr<const std::unordered_set<model::symbol>> allowed;
  std::vector<std::uint64_t> generations;
  bool scanned = false;
  std::size_t pending = 0;
  bool request_failed = false;
  std::vector<scan_reply_ptr> scans;
  std::vector<filter_reply_ptr> filters;
  std::vector<score_reply_ptr> scores;
  std::vector<preempt_reply_ptr> preempts;
  plugins::diagnosis diag;
  plugins::score_table table;
  plugins::active_scores plan;
  std::size_t evaluated = 0;
  bool exclusive = false;
  /// When the cycle began (reported to the sink's attempted()).
  std::chrono::steady_clock::time_point began;
  /// coordinator_state::assumes_ when the cycle began.
  std::uint64_t assumes_at_start = 0;
  /// coordinator_state::started_ counting this cycle, and whether other
  /// cycles were in flight when it began: together, whether any other cycle
  /// overlapped it.
  std::uint64_t started_at = 0;
  bool began_among_others = false;
  /// When the filter scatter and PostFilter began (metrics).
  std::chrono::steady_clock::time_point filter_began;
  std::chrono::steady_clock::time_point post_filter_began;
  /// Potential preemption nodes and the nominated-node eligibility step.
  std::shared_ptr<const std::unordered_set<model::symbol>> unresolvable;
  std::vector<std::size_t> potential_per_shard;

  /// Shard s's feasible nodes from its filter reply (empty when it was not
  /// asked).
  const std::vector<model::symbol>& feasible_on(std::uint32_t s) const {
    static const std::vector<model::symbol> none;
    return s < filters.size() && filters[s] ? filters[s]->result.feasible
                                            : none;
  }
};

namespace {

// Fills the fields every request to a shard carries.
template <class Request>
void address(Request& req, std::uint64_t id, const queued_pod_info& item,
             const plugins::profile_ptr& prof,
             const plugins::cycle_state_ptr& state) {
  req.cycle_id = id;
  req.pod = item.pod;
  req.profile = prof;
  req.state = state;
}

} // namespace

template <class Reply>
coordinator_ports::reply<Reply> coordinator_state::gather(
  std::uint64_t id, std::uint32_t shard,
  std::vector<std::shared_ptr<const Reply>> cycle::*replies,
  void (coordinator_state::*next)(cycle&)) {
  return [this, id, shard, replies, next](std::shared_ptr<const Reply> r) {
    cycle* c = find(id);
    if (c == nullptr)
      return;
    if (!r)
      c->request_failed = true;
    ((*c).*replies)[shard] = std::move(r);
    if (--c->pending == 0)
      (this->*next)(*c);
  };
}

coordinator_state::coordinator_state(coordinator_config cfg,
                                     std::vector<plugins::profile_ptr> profiles,
                                     coordinator_ports& ports)
  : cfg_(cfg),
    profiles_(std::move(profiles)),
    ports_(ports),
    rng_(cfg.seed),
    required_generation_(cfg.shards == 0 ? 1 : cfg.shards, 0),
    reported_generation_(cfg.shards == 0 ? 1 : cfg.shards, 0) {
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

bool coordinator_state::must_run_alone(const queued_pod_info& item) const {
  return item.conflicts >= cfg_.max_conflicts
         || (!preempt_alone_.empty()
             && preempt_alone_.count(model::pod_key(*item.pod)) != 0);
}

coordinator_state::cycle* coordinator_state::find(std::uint64_t id) {
  auto it = cycles_.find(id);
  return it == cycles_.end() ? nullptr : it->second.get();
}

std::size_t
coordinator_state::profile_index(const plugins::profile& prof) const {
  for (std::size_t i = 0; i < profiles_.size(); ++i)
    if (profiles_[i].get() == &prof)
      return i;
  // A sampled cycle's timed copy carries its profile's name.
  for (std::size_t i = 0; i < profiles_.size(); ++i)
    if (profiles_[i]->scheduler_name() == prof.scheduler_name())
      return i;
  return profiles_.size();
}

// Metrics (issue #9): scheduler_framework_extension_point_duration_seconds.
void coordinator_state::observe_extension_point(
  std::string_view point, plugins::code code, const plugins::profile& prof,
  std::chrono::steady_clock::time_point began) {
  auto* m = metrics::current();
  if (m == nullptr)
    return;
  std::size_t point_index = 0;
  while (point_index + 1 < std::size(observed_points)
         && observed_points[point_index] != point)
    ++point_index;
  assert(observed_points[point_index] == point && "unobserved point");
  std::size_t key
    = (profile_index(prof) * std::size(observed_points) + point_index)
        * status_codes
      + static_cast<std::size_t>(code);
  extension_point_series_
    .get(*m, key,
         [&](metrics::scheduler_metrics& into) -> metrics::histogram& {
           return into.extension_point_duration.with(
             {point, plugins::to_string(code), prof.scheduler_name()});
         })
    .observe(metrics::seconds_since(began));
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
  reported_generation_[shard] =
    std::max(reported_generation_[shard], generation);
}

std::uint32_t coordinator_state::shard_of(model::symbol node) const {
  if (view_ && view_->node_shard)
    if (auto it = view_->node_shard->find(node); it != view_->node_shard->end())
      return it->second;
  return 0;
}

// ------------------------------------------------------------- starting

void coordinator_state::admit(queued_pod_info item) {
  if (!view_) {
    // Actors start asynchronously: the queue may answer before the cache
    // has sent its first view. A cycle without a view would see no nodes.
    before_view_.push_back(std::move(item));
    return;
  }
  bool needs_alone = must_run_alone(item);
  if (exclusive_ || (needs_alone && !cycles_.empty()) || !held_.empty()) {
    // Something must run alone first: keep order, start later.
    if (needs_alone)
      held_.push_front(std::move(item));
    else
      held_.push_back(std::move(item));
    return;
  }
  exclusive_ = needs_alone;
  begin(std::move(item));
}

void coordinator_state::begin(queued_pod_info item) {
  auto owned = std::make_unique<cycle>();
  cycle& c = *owned;
  c.id = ++next_id_;
  c.began = std::chrono::steady_clock::now();
  c.item = std::move(item);
  c.exclusive = exclusive_;
  c.assumes_at_start = assumes_;
  c.started_at = ++started_;
  c.began_among_others = !cycles_.empty();
  if (c.exclusive)
    preempt_alone_.erase(model::pod_key(*c.item.pod));
  c.view = view_;
  c.nominated = nominations_.current();
  cycles_.emplace(c.id, std::move(owned));
  if (auto* m = metrics::current())
    m->inflight.set(static_cast<double>(cycles_.size()));
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
    c.diag.pre_filter_message.clear();
    c.state = std::make_shared<const plugins::cycle_state>(
      c.prof->new_cycle_state());
    auto report = failure_report{"Unschedulable", plugins::no_nodes_message,
                                 {}, !p.nominated_node_name.empty()};
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
  observe_extension_point("PreFilter", pre.get_code(), *c.prof,
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
    fit_error(c);
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

void coordinator_state::scan(cycle& c) {
  auto state = std::make_shared<const plugins::cycle_state>(c.start.state);
  c.scans.assign(cfg_.shards, nullptr);
  c.pending = cfg_.shards;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    auto req = std::make_shared<scan_request>();
    address(*req, c.id, c.item, c.prof_ptr, state);
    req->scans = c.start.scans;
    req->min_generation = required_generation_[s];
    ports_.scan(s, std::move(req),
                gather(c.id, s, &cycle::scans, &coordinator_state::after_scans));
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
  c.state = std::make_shared<const plugins::cycle_state>(
    std::move(c.start.state));
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
  auto req = std::make_shared<filter_request>();
  address(*req, c.id, c.item, c.prof_ptr, c.state);
  req->quota = 1;
  req->allowed = std::make_shared<const std::unordered_set<model::symbol>>(
    std::unordered_set<model::symbol>{node});
  req->nominated = c.nominated;
  req->min_generation = required_generation_[s];
  req->rotate = false;
  req->score = false;
  ports_.filter(s, std::move(req), [this, id = c.id, s](filter_reply_ptr r) {
    cycle* c = find(id);
    if (c == nullptr)
      return;
    if (r && r->result.error.ok() && !r->result.feasible.empty()) {
      note_generation(s, r->generation);
      if (!c->scanned) {
        // Only shard s was asked. For the others, the newest generation
        // they reported stands for what a filter there would have seen;
        // 0 would make the assume replay (or refuse, once the change log
        // has moved past it) everything since the start.
        for (std::uint32_t t = 0; t < cfg_.shards; ++t)
          c->generations[t] = reported_generation_[t];
        c->generations[s] = r->generation;
      }
      c->evaluated = 1;
      c->table.nodes = r->result.feasible;
      choose(*c, r->result.feasible.front());
      return;
    }
    filter_all(*c);
  });
}

// ------------------------------------------------------------ filtering

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
  std::size_t candidates =
    std::accumulate(per_shard.begin(), per_shard.end(), std::size_t{0});
  std::size_t wanted = plugins::num_feasible_nodes_to_find(
    c.prof->percentage_of_nodes_to_score(), candidates);
  if (c.prof->score().empty())
    wanted = std::min<std::size_t>(wanted, 1); // no scoring: any node will do
  std::vector<std::size_t> quotas = split(wanted, per_shard);
  c.filter_began = std::chrono::steady_clock::now();
  c.filters.assign(cfg_.shards, nullptr);
  c.pending = 0;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    if (quotas[s] > 0)
      ++c.pending;
  if (c.pending == 0) {
    after_filter(c);
    return;
  }
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    if (quotas[s] == 0)
      continue;
    auto req = std::make_shared<filter_request>();
    address(*req, c.id, c.item, c.prof_ptr, c.state);
    req->quota = quotas[s];
    req->allowed = c.allowed;
    req->nominated = c.nominated;
    req->min_generation = required_generation_[s];
    ports_.filter(
      s, std::move(req),
      gather(c.id, s, &cycle::filters, &coordinator_state::after_filter));
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
  observe_extension_point("Filter",
                          c.table.nodes.empty() ? plugins::code::unschedulable
                                                : plugins::code::success,
                          *c.prof, c.filter_began);
  if (c.allowed) {
    c.diag.absent_nodes_status = plugins::status{
      plugins::code::unschedulable_and_unresolvable,
      model::symbol{"node(s) didn't satisfy plugin(s) ["
                    + [&] {
                        std::string names;
                        for (const auto& n : c.start.node_set_plugins) {
                          if (!names.empty())
                            names += " ";
                          names += n;
                        }
                        return names;
                      }()
                    + "]"}};
  }
  if (c.table.nodes.empty()) {
    fit_error(c);
    return;
  }
  if (c.table.nodes.size() == 1) {
    choose(c, c.table.nodes.front());
    return;
  }
  if (!c.start.pre_score_status.ok()) {
    fail_with_error(c, c.start.pre_score_status.message());
    return;
  }
  // Assemble the local plugins' rows: each shard reports plugin-major rows
  // over its own feasible nodes, in shard order.
  const std::size_t n = c.table.nodes.size();
  c.table.plugins = c.plan.local;
  c.table.scores.assign(c.plan.local.size() * n, 0);
  std::size_t offset = 0;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    const auto& r = c.filters[s];
    if (!r)
      continue;
    std::size_t m = r->result.feasible.size();
    for (std::size_t k = 0; k < c.plan.local.size(); ++k)
      for (std::size_t i = 0; i < m; ++i)
        c.table.scores[k * n + offset + i] = r->result.scores[k * m + i];
    offset += m;
  }
  if (c.plan.deferred.empty()) {
    select(c);
    return;
  }
  // Deferred scores: merge the shards' feasible summaries, then score.
  std::vector<std::vector<plugins::feasible_summary_ptr>> summaries;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    summaries.push_back(c.filters[s] ? c.filters[s]->result.summaries
                                     : std::vector<plugins::feasible_summary_ptr>{});
  plugins::cycle_state next = *c.state;
  plugins::status merged = plugins::merge_summaries(
    *c.prof, next, *c.item.pod, c.plan, std::move(summaries));
  if (!merged.ok()) {
    fail_with_error(c, merged.message());
    return;
  }
  c.state = std::make_shared<const plugins::cycle_state>(std::move(next));
  c.scores.assign(cfg_.shards, nullptr);
  c.pending = 0;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    if (!c.feasible_on(s).empty())
      ++c.pending;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    if (c.feasible_on(s).empty())
      continue;
    auto req = std::make_shared<score_request>();
    address(*req, c.id, c.item, c.prof_ptr, c.state);
    req->plugins = c.plan.deferred;
    req->nodes = c.feasible_on(s);
    ports_.score(
      s, std::move(req),
      gather(c.id, s, &cycle::scores, &coordinator_state::after_scores));
  }
}

void coordinator_state::after_scores(cycle& c) {
  if (c.request_failed) {
    fail_with_error(c, "a shard did not answer the score request");
    return;
  }
  const std::size_t n = c.table.nodes.size();
  std::size_t first = c.table.plugins.size();
  c.table.plugins.insert(c.table.plugins.end(), c.plan.deferred.begin(),
                         c.plan.deferred.end());
  c.table.scores.resize(c.table.plugins.size() * n, 0);
  std::size_t offset = 0;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    std::size_t m = c.feasible_on(s).size();
    if (m == 0)
      continue;
    const auto& rows = c.scores[s]->scores;
    for (std::size_t k = 0; k < c.plan.deferred.size(); ++k)
      for (std::size_t i = 0; i < m; ++i)
        c.table.scores[(first + k) * n + offset + i] = rows[k * m + i];
    offset += m;
  }
  select(c);
}

void coordinator_state::select(cycle& c) {
  auto chosen =
    plugins::select_host(*c.prof, *c.state, *c.item.pod, c.table, rng_);
  if (!chosen) {
    fail_with_error(c, chosen.err().message);
    return;
  }
  choose(c, c.table.nodes[*chosen]);
}

// ---------------------------------------------------------------- assume

void coordinator_state::choose(cycle& c, model::symbol node) {
  if (auto* m = metrics::current())
    m->algorithm.observe(metrics::seconds_since(c.began));
  auto req = std::make_shared<assume_request>();
  req->pod = c.item.pod;
  req->node = node;
  req->profile = c.prof_ptr;
  req->state = c.state;
  req->shard_generations = c.generations;
  req->context_generation = c.view->generation;
  ports_.assume(std::move(req), [this, id = c.id,
                                 node](assume_reply_ptr r) {
    cycle* c = find(id);
    if (c == nullptr)
      return;
    auto out = std::make_shared<cycle_outcome>();
    if (!r) {
      fail_with_error(*c, "the cache did not answer the assume request");
      return;
    }
    if (r->duplicate) {
      out->type = cycle_outcome::kind::dropped;
      finish(*c, std::move(out));
      return;
    }
    if (!r->ok) {
      ++conflicts_;
      TLOG_V(4, "assume conflict", "pod", c->item.pod->key(), "node",
             node.view(), "reason", r->reason);
      out->type = cycle_outcome::kind::conflict;
      finish(*c, std::move(out));
      return;
    }
    ++assumes_;
    std::uint32_t s = shard_of(node);
    required_generation_[s] = std::max(required_generation_[s], r->generation);
    auto bind = std::make_shared<bind_request>();
    bind->pod = r->assumed;
    bind->node = node;
    bind->profile = c->prof_ptr;
    bind->state = c->state;
    bind->evaluated_nodes = c->evaluated;
    bind->feasible_nodes = c->table.nodes.size();
    bind->attempts = c->item.attempts;
    bind->initial_ns = c->item.initial_ns;
    if (cfg_.explain)
      explain(*c);
    ports_.bind(std::move(bind));
    out->type = cycle_outcome::kind::assumed;
    finish(*c, std::move(out));
  });
}

// ----------------------------------------------------- failure, preemption

void coordinator_state::fit_error(cycle& c) {
  if (c.prof->post_filter().empty()) {
    unschedulable(c, {}, {});
    return;
  }
  post_filter(c);
}

void coordinator_state::post_filter(cycle& c) {
  c.post_filter_began = std::chrono::steady_clock::now();
  if (auto* m = metrics::current())
    m->preemptions.inc();
  const auto* pf = c.prof->post_filter().front();
  const model::pod& p = *c.item.pod;
  plugins::status eligible = pf->check_pod_eligible(p);
  if (!eligible.ok()) {
    c.diag.post_filter_message = pf->wrap_message(eligible.message());
    unschedulable(c, {}, {});
    return;
  }
  // Potential nodes: every node whose status is not UR.
  std::unordered_map<model::symbol, const plugins::status*> explicit_status;
  for (const auto& f : c.diag.node_statuses)
    explicit_status.emplace(f.node, &f.result);
  auto unresolvable = std::make_shared<std::unordered_set<model::symbol>>();
  c.potential_per_shard.assign(cfg_.shards, 0);
  for (const auto& [name, shard] : *c.view->node_shard) {
    const plugins::status* st = nullptr;
    if (auto it = explicit_status.find(name); it != explicit_status.end())
      st = it->second;
    else if (c.diag.absent_nodes_status)
      st = &*c.diag.absent_nodes_status;
    if (st != nullptr
        && st->get_code() == plugins::code::unschedulable_and_unresolvable)
      unresolvable->insert(name);
    else
      ++c.potential_per_shard[shard];
  }
  c.unresolvable = std::move(unresolvable);
  // The nominated node's eligibility goes first, as upstream checks it
  // before looking for candidates.
  model::symbol nominated = p.nominated_node_name;
  if (!nominated.empty() && c.view->node_shard->count(nominated) != 0
      && c.unresolvable->count(nominated) == 0) {
    plugins::status nominated_status;
    if (auto it = explicit_status.find(nominated); it != explicit_status.end())
      nominated_status = *it->second;
    std::uint32_t s = shard_of(nominated);
    auto req = std::make_shared<preempt_request>();
    address(*req, c.id, c.item, c.prof_ptr, c.state);
    req->cluster = c.view->context;
    req->unresolvable = c.unresolvable;
    req->wanted = 0;
    req->nominated = c.nominated;
    req->nominated_node = nominated;
    req->nominated_status = nominated_status;
    ports_.preempt(s, std::move(req), [this, id = c.id](preempt_reply_ptr r) {
      cycle* c = find(id);
      if (c == nullptr)
        return;
      if (r && !r->eligibility.ok()) {
        const auto* pf = c->prof->post_filter().front();
        c->diag.post_filter_message =
          pf->wrap_message(r->eligibility.message());
        unschedulable(*c, {}, {});
        return;
      }
      dry_run(*c);
    });
    return;
  }
  dry_run(c);
}

void coordinator_state::dry_run(cycle& c) {
  const auto* pf = c.prof->post_filter().front();
  std::size_t potential =
    std::accumulate(c.potential_per_shard.begin(), c.potential_per_shard.end(),
                    std::size_t{0});
  if (potential == 0) {
    c.preempts.clear();
    after_dry_run(c);
    return;
  }
  std::size_t wanted = pf->candidates_wanted(potential);
  std::vector<std::size_t> per_shard = split(wanted, c.potential_per_shard);
  // An overlapped cycle cannot act on its victims (after_dry_run redoes it
  // alone); it only needs to know whether some node has any, so each shard
  // stops at its first candidate instead of computing hundreds.
  bool only_whether = overlapped(c);
  c.preempts.assign(cfg_.shards, nullptr);
  c.pending = 0;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    if (c.potential_per_shard[s] > 0)
      ++c.pending;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    if (c.potential_per_shard[s] == 0)
      continue;
    auto req = std::make_shared<preempt_request>();
    address(*req, c.id, c.item, c.prof_ptr, c.state);
    req->cluster = c.view->context;
    req->unresolvable = c.unresolvable;
    req->offset = static_cast<std::size_t>(rng_() % c.potential_per_shard[s]);
    req->wanted = only_whether ? 1 : std::max<std::size_t>(per_shard[s], 1);
    req->nominated = c.nominated;
    ports_.preempt(
      s, std::move(req),
      gather(c.id, s, &cycle::preempts, &coordinator_state::after_dry_run));
  }
}

void coordinator_state::after_dry_run(cycle& c) {
  if (c.request_failed) {
    fail_with_error(c, "a shard did not answer the preemption dry run");
    return;
  }
  const auto* pf = c.prof->post_filter().front();
  std::vector<plugins::preemption_candidate> candidates;
  for (const auto& r : c.preempts)
    if (r)
      for (const auto& cand : r->result.non_violating)
        candidates.push_back(cand);
  for (const auto& r : c.preempts)
    if (r)
      for (const auto& cand : r->result.violating)
        candidates.push_back(cand);
  if (candidates.empty()) {
    // Upstream reports dry-run errors (not rejections) as an Error.
    std::vector<std::string> errors;
    std::size_t fits_without_victims = 0;
    for (const auto& r : c.preempts) {
      if (!r)
        continue;
      fits_without_victims += r->result.fits_without_victims;
      for (const auto& [node, st] : r->result.failures)
        if (st.get_code() == plugins::code::error)
          errors.push_back(st.message());
    }
    // Fix found by test/pipeline's safety test (TESSERA_PIPELINE_FULL=1,
    // "preempting", shards 1, inflight 64): a node where the pod now fits
    // with nothing removed means the shard's view moved on since this
    // cycle's Filter (another cycle's victim went, or an assume was
    // forgotten). Upstream's single snapshot never sees that; here it is a
    // stale cycle, not an error: retry it like an assume conflict (after
    // max_conflicts it runs alone on a settled view).
    if (!errors.empty() && fits_without_victims == errors.size()) {
      ++conflicts_;
      auto out = std::make_shared<cycle_outcome>();
      out->type = cycle_outcome::kind::conflict;
      finish(c, std::move(out));
      return;
    }
    if (!errors.empty()) {
      std::string joined = errors.size() == 1 ? errors.front() : "[";
      if (errors.size() > 1) {
        for (std::size_t i = 0; i < errors.size(); ++i)
          joined += (i ? ", " : "") + errors[i];
        joined += "]";
      }
      fail_with_error(c, pf->wrap_message(joined));
      return;
    }
    // Why preemption cannot help, as a FitError over all nodes.
    plugins::diagnosis why;
    for (auto name : *c.unresolvable)
      why.node_statuses.push_back(
        {name, plugins::status{plugins::code::unschedulable_and_unresolvable,
                               preemption_not_helpful()}});
    for (const auto& r : c.preempts)
      if (r)
        for (const auto& [node, st] : r->result.failures)
          why.node_statuses.push_back({node, st});
    c.diag.post_filter_message =
      pf->wrap_message(plugins::fit_error_message(total_nodes(), why));
    unschedulable(c, {}, {});
    return;
  }
  plugins::post_filter_outcome chosen =
    pf->select(*c.item.pod, std::move(candidates));
  if (!chosen.result.ok() || chosen.nominated_node.empty()) {
    c.diag.post_filter_message = pf->wrap_message(chosen.result.message());
    unschedulable(c, {}, {});
    return;
  }
  // Preempting acts on what this cycle saw. When other cycles overlapped it,
  // an assume, nomination or preemption of theirs may be missing from that
  // view, and acting on it double-books nodes and deletes victims for
  // nothing (PreemptionBasic/500Nodes with 8 cycles in flight bound 8
  // pods/s, against 270 with one). Redo the cycle alone, on a settled view,
  // as a serial scheduler would have run it; pods that find no victim never
  // get here and stay concurrent.
  if (overlapped(c)) {
    preempt_alone_.insert(model::pod_key(*c.item.pod));
    ++conflicts_;
    auto out = std::make_shared<cycle_outcome>();
    out->type = cycle_outcome::kind::conflict;
    finish(c, std::move(out));
    return;
  }
  if (auto* m = metrics::current())
    m->victims.observe(static_cast<double>(chosen.victims.size()));
  std::vector<std::string> victims;
  for (const auto& v : chosen.victims) {
    // A victim already being deleted needs no second deletion; the
    // preemptor still waits for it to go.
    if (!v->deleting)
      ports_.sink().preempt(v, c.item.pod, chosen.nominated_node);
    TLOG_V(2, "preemptor pod preempted victim pod", "preemptor",
           c.item.pod->key(), "victim", v->key(), "node",
           chosen.nominated_node.view());
    victims.push_back(model::pod_key(*v));
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
    explain(c);
  TLOG_V(3, "unable to schedule pod; no fit; waiting", "pod", p.key(), "err",
         message);
  if (c.post_filter_began != std::chrono::steady_clock::time_point{})
    observe_extension_point("PostFilter",
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

void coordinator_state::finish(cycle& c, std::shared_ptr<cycle_outcome> out) {
  out->pod = c.item.pod;
  out->cycle = c.item.cycle;
  if (out->type != cycle_outcome::kind::dropped) {
    using result = attempt_report::result;
    attempt_report report;
    report.outcome = out->type == cycle_outcome::kind::assumed ? result::scheduled
                     : out->type == cycle_outcome::kind::unschedulable
                       ? result::unschedulable
                     : out->type == cycle_outcome::kind::conflict
                       ? result::conflict
                       : result::error;
    report.elapsed = std::chrono::steady_clock::now() - c.began;
    ports_.sink().attempted(c.item.pod, report);
  }
  // Metrics (issue #9). "scheduled" and bind errors are counted by the
  // queue when binding ends; a conflict is tessera's own retry.
  if (auto* m = metrics::current(); m != nullptr && c.prof != nullptr) {
    using kind = cycle_outcome::kind;
    const char* result = out->type == kind::assumed         ? "scheduled"
                         : out->type == kind::unschedulable ? "unschedulable"
                         : out->type == kind::error         ? "error"
                                                            : nullptr;
    if (out->type == kind::conflict)
      m->conflicts_total.inc();
    if (result != nullptr) {
      const std::string& profile = c.prof->scheduler_name();
      std::size_t key
        = profile_index(*c.prof) * 4 + static_cast<std::size_t>(out->type);
      if (out->type != kind::assumed)
        attempt_series_
          .get(*m, key,
               [&](metrics::scheduler_metrics& into) -> metrics::counter& {
                 return into.schedule_attempts.with({result, profile});
               })
          .inc();
      attempt_duration_series_
        .get(*m, key,
             [&](metrics::scheduler_metrics& into) -> metrics::histogram& {
               return into.attempt_duration.with({result, profile});
             })
        .observe(metrics::seconds_since(c.began));
    }
  }
  // The queue records nominations from outcomes; cycles that begin before
  // its next snapshot must see them already, as after a serial cycle.
  std::uint64_t outcome_number = ++outcomes_sent_;
  if (out->type == cycle_outcome::kind::unschedulable
      && !out->nominated_node.empty())
    nominations_.nominate(out->pod, out->nominated_node, outcome_number);
  else if (out->type != cycle_outcome::kind::conflict
           && out->type != cycle_outcome::kind::error)
    nominations_.drop(out->pod, outcome_number);
  bool was_exclusive = c.exclusive;
  cycles_.erase(c.id); // `c` is gone from here on
  ports_.outcome(std::move(out));
  if (was_exclusive)
    exclusive_ = false;
  // Start held pods when allowed; each finished cycle frees one slot.
  while (!held_.empty() && !exclusive_) {
    bool needs_alone = must_run_alone(held_.front());
    if (needs_alone && !cycles_.empty())
      break;
    queued_pod_info next = std::move(held_.front());
    held_.pop_front();
    exclusive_ = needs_alone;
    begin(std::move(next));
    if (exclusive_)
      break;
  }
  if (auto* m = metrics::current())
    m->inflight.set(static_cast<double>(cycles_.size()));
  std::size_t busy = cycles_.size() + held_.size() + before_view_.size();
  if (busy < cfg_.max_inflight_cycles)
    ports_.want(1);
}

void coordinator_state::explain(const cycle& c) {
  cycle_explanation e;
  for (const auto& f : c.diag.node_statuses) {
    cycle_explanation::rejected_node r;
    r.node = f.node;
    r.plugin = std::string{f.result.plugin()};
    for (auto reason : f.result.reasons())
      r.reasons.emplace_back(reason.view());
    e.rejected.push_back(std::move(r));
  }
  const auto& t = c.table;
  if (!t.totals.empty()) {
    const std::size_t n = t.nodes.size();
    for (std::size_t i = 0; i < n; ++i) {
      cycle_explanation::scored_node s;
      s.node = t.nodes[i];
      std::vector<std::size_t> order(t.plugins.size());
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return t.plugins[a] < t.plugins[b];
      });
      for (auto k : order)
        s.plugins.emplace_back(
          std::string{c.prof->score()[t.plugins[k]].plugin->name()},
          t.scores[k * n + i]);
      s.total = t.totals[i];
      e.scored.push_back(std::move(s));
    }
  }
  ports_.sink().explained(c.item.pod, e);
}

} // namespace tessera::actors
