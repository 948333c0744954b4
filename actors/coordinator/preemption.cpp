// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/preemption.hpp"

#include "actors/coordinator/coordinator_state.hpp"
#include "model/pod_key.hpp"
#include "plugins/framework/scatter.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_set>

namespace tessera::actors {

namespace {

const model::symbol& preemption_not_helpful() {
  static const model::symbol s{"Preemption is not helpful for scheduling"};
  return s;
}

const plugins::post_filter_plugin& post_filter_of(const scheduling_cycle& c) {
  return *c.prof->post_filter().front();
}

} // namespace

potential_nodes find_potential_nodes(const scheduling_cycle& c,
                                     std::size_t shards) {
  const auto unresolvable_code = plugins::code::unschedulable_and_unresolvable;
  const auto& node_shard = *c.view->node_shard;
  potential_nodes out;
  auto unresolvable = std::make_shared<std::unordered_set<model::symbol>>();
  // Every node the view routes, per shard; the unresolvable ones come off.
  out.per_shard = c.view->shard_nodes;
  out.per_shard.resize(shards, 0);
  auto exclude = [&](model::symbol name) {
    auto it = node_shard.find(name);
    if (it != node_shard.end() && it->second < shards
        && unresolvable->insert(name).second)
      --out.per_shard[it->second];
  };
  // Most FitErrors name every node: walk the statuses, not a map of them.
  const bool absent_unresolvable
    = c.diag.absent_nodes_status
      && c.diag.absent_nodes_status->get_code() == unresolvable_code;
  if (!absent_unresolvable) {
    for (const auto& f : c.diag.node_statuses)
      if (f.result.get_code() == unresolvable_code)
        exclude(f.node);
  } else {
    // Every node without a status of its own is unresolvable.
    std::unordered_set<model::symbol> resolvable;
    for (const auto& f : c.diag.node_statuses)
      if (f.result.get_code() != unresolvable_code)
        resolvable.insert(f.node);
    for (const auto& [name, shard] : node_shard)
      if (resolvable.count(name) == 0)
        exclude(name);
  }
  model::symbol nominated = c.item.pod->nominated_node_name;
  if (!nominated.empty() && node_shard.count(nominated) != 0
      && unresolvable->count(nominated) == 0) {
    out.nominated = nominated;
    for (const auto& f : c.diag.node_statuses)
      if (f.node == nominated) {
        out.nominated_status = f.result;
        break;
      }
  }
  out.unresolvable = std::move(unresolvable);
  return out;
}

std::vector<preempt_request_ptr> dry_run_requests(const scheduling_cycle& c,
                                                  std::mt19937_64& rng,
                                                  bool only_whether) {
  std::vector<preempt_request_ptr> out(c.potential_per_shard.size());
  std::size_t potential = std::accumulate(
    c.potential_per_shard.begin(), c.potential_per_shard.end(), std::size_t{0});
  if (potential == 0)
    return out;
  std::size_t wanted = post_filter_of(c).candidates_wanted(potential);
  std::vector<std::size_t> per_shard
    = plugins::split_quota(wanted, c.potential_per_shard);
  for (std::size_t s = 0; s < out.size(); ++s) {
    if (c.potential_per_shard[s] == 0)
      continue;
    auto req = c.request<preempt_request>();
    req->cluster = c.view->context;
    req->unresolvable = c.unresolvable;
    req->offset = static_cast<std::size_t>(rng() % c.potential_per_shard[s]);
    req->wanted = only_whether ? 1 : std::max<std::size_t>(per_shard[s], 1);
    req->nominated = c.nominated;
    out[s] = std::move(req);
  }
  return out;
}

preemption_verdict judge_dry_runs(const scheduling_cycle& c,
                                  std::size_t total_nodes, bool must_settle) {
  using kind = preemption_verdict::kind;
  const auto& pf = post_filter_of(c);
  preemption_verdict v;
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
    // A node where the pod now fits with nothing removed means the shard's
    // view moved on since this cycle's Filter (another cycle's victim went,
    // or an assume was forgotten). Upstream's single snapshot never sees
    // that; here the cycle is stale, not in error.
    if (!errors.empty() && fits_without_victims == errors.size()) {
      v.type = kind::stale;
      return v;
    }
    if (!errors.empty()) {
      std::string joined = errors.size() == 1 ? errors.front() : "[";
      if (errors.size() > 1) {
        for (std::size_t i = 0; i < errors.size(); ++i)
          joined += (i ? ", " : "") + errors[i];
        joined += "]";
      }
      v.type = kind::error;
      v.message = pf.wrap_message(joined);
      return v;
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
    v.type = kind::unschedulable;
    v.message = pf.wrap_message(plugins::fit_error_message(total_nodes, why));
    return v;
  }
  v.chosen = pf.select(*c.item.pod, std::move(candidates));
  if (!v.chosen.result.ok() || v.chosen.nominated_node.empty()) {
    v.type = kind::unschedulable;
    v.message = pf.wrap_message(v.chosen.result.message());
    return v;
  }
  // A pod whose filters read other nodes may owe its victims to a view
  // that other cycles changed anywhere in the cluster: it is redone alone,
  // on a settled view. Others are checked against the chosen node alone
  // (the coordinator's node claims). Pods that find no victim never get
  // here and stay concurrent.
  v.type = must_settle ? kind::redo_alone : kind::nominate;
  return v;
}

// -------------------------------------------- the PostFilter steps of a cycle

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
  // A cycle that must be redone alone cannot act on its victims; it only
  // needs to know whether some node has any.
  std::vector<preempt_request_ptr> requests
    = dry_run_requests(c, rng_, must_settle_to_preempt(c));
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
  preemption_verdict v
    = judge_dry_runs(c, total_nodes(), must_settle_to_preempt(c));
  using kind = preemption_verdict::kind;
  switch (v.type) {
  case kind::stale:
    retry(c, retry_reason::stale_preemption_view);
    return;
  case kind::redo_alone:
    retry(c, retry_reason::overlapped_preemption);
    return;
  case kind::error:
    fail_with_error(c, std::move(v.message));
    return;
  case kind::unschedulable:
    c.diag.post_filter_message = std::move(v.message);
    unschedulable(c, {}, {});
    return;
  case kind::nominate:
    // The victims were chosen on this cycle's view. They stand when no
    // cycle that ended meanwhile claimed the node: its pods and room are
    // then what a serial scheduler would have seen.
    if (overlapped(c)
        && claims_.taken_since(v.chosen.nominated_node, c.claims_seen,
                               c.item.pod->priority)) {
      retry(c, retry_reason::node_claimed);
      return;
    }
    preempt(c, v.chosen);
    return;
  }
}

void coordinator_state::preempt(cycle& c,
                                const plugins::post_filter_outcome& chosen) {
  metrics_.victims(chosen.victims.size());
  auto e = std::make_shared<eviction>();
  e->preemptor = c.item.pod;
  e->node = chosen.nominated_node;
  std::vector<std::string> victims;
  for (const auto& v : chosen.victims) {
    // A victim already being deleted needs no second deletion; the
    // preemptor still waits for it to go.
    if (!v->deleting)
      e->victims.push_back(model::make_pod_stub(*v));
    TLOG_V(2, "preemptor pod preempted victim pod", "preemptor",
           c.item.pod->key(), "victim", v->key(), "node",
           chosen.nominated_node.view());
    victims.push_back(model::pod_key(*v));
  }
  // Lower-priority pods nominated to that node lose their nomination (the
  // nominations now: other cycles may have nominated since this one
  // began).
  for (const auto& other : nominator_.current()->on(chosen.nominated_node))
    if (other->priority < c.item.pod->priority
        && !other->same_identity(*c.item.pod))
      e->cleared.push_back(other);
  // The deletions run in the binder, off the scheduling path; the
  // preemptor waits in the queue until the binder reports them ended.
  bool deleting = !e->victims.empty();
  if (deleting || !e->cleared.empty())
    ports_.evict(std::move(e));
  unschedulable(c, chosen.nominated_node, std::move(victims), deleting);
}

} // namespace tessera::actors
