// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/pipeline/reference_scheduler.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_set>

namespace tessera::pipeline_test {

namespace {

using plugins::code;
using plugins::status;

// kube-scheduler's numFeasibleNodesToFind (adaptive when percentage <= 0).
std::size_t nodes_to_find(std::int32_t percentage, std::size_t all) {
  if (all < 100)
    return all;
  auto n = static_cast<std::int64_t>(all);
  std::int64_t pct = percentage;
  if (pct <= 0)
    pct = std::max<std::int64_t>(50 - n / 125, 5);
  return static_cast<std::size_t>(std::max<std::int64_t>(n * pct / 100, 100));
}

// Node-tree order: zones (region + zone labels) in order of first
// appearance, one node of each zone in turn.
std::vector<model::node_ptr>
node_tree_order(const std::vector<model::node_ptr>& nodes) {
  std::vector<std::string> zones;
  std::map<std::string, std::vector<model::node_ptr>> members;
  for (const auto& n : nodes) {
    std::string key;
    const auto* region
      = n->labels.find(model::symbol{"topology.kubernetes.io/region"});
    const auto* zone
      = n->labels.find(model::symbol{"topology.kubernetes.io/zone"});
    if (region != nullptr || zone != nullptr)
      key = std::string{region ? region->view() : ""} + "|"
            + std::string{zone ? zone->view() : ""};
    if (members.find(key) == members.end())
      zones.push_back(key);
    members[key].push_back(n);
  }
  std::vector<model::node_ptr> out;
  for (std::size_t round = 0; out.size() < nodes.size(); ++round)
    for (const auto& z : zones)
      if (round < members[z].size())
        out.push_back(members[z][round]);
  return out;
}

} // namespace

std::string_view to_string(reference_result::kind k) noexcept {
  switch (k) {
  case reference_result::kind::scheduled:
    return "Scheduled";
  case reference_result::kind::unschedulable:
    return "Unschedulable";
  case reference_result::kind::error:
    return "Error";
  case reference_result::kind::pending:
    return "Pending";
  }
  return "?";
}

reference_scheduler::reference_scheduler(plugins::profile_ptr prof,
                                         std::uint64_t seed)
  : prof_(std::move(prof)), rng_(seed) {
}

reference_scheduler::slot* reference_scheduler::find(const std::string& node) {
  auto it = index_.find(node);
  return it == index_.end() ? nullptr : &nodes_[it->second];
}

void reference_scheduler::rebuild_context() {
  ctx_ = plugins::cluster_context{};
  ctx_.node_count = static_cast<std::int64_t>(nodes_.size());
  for (const auto& ns : namespaces_)
    ctx_.namespaces[ns->name] = ns;
  ctx_.disruption_budgets = budgets_;
  ctx_.storage = storage_;
  for (const auto& s : nodes_) {
    std::unordered_set<model::symbol> images;
    for (const auto& image : s.info->get_node()->images)
      images.insert(image.names.begin(), image.names.end());
    for (auto name : images)
      ++ctx_.image_node_counts[name];
    for (const auto& p : s.info->pods()) {
      if (p->has_pod_affinity_terms)
        ++ctx_.pods_with_affinity;
      if (p->has_required_anti_affinity)
        ++ctx_.pods_with_required_anti_affinity;
    }
  }
}

void reference_scheduler::count_claim_users(const model::pod& p,
                                            model::storage_view& view) const {
  for (const auto& v : p.volumes) {
    if (v.claim_name.empty())
      continue;
    const auto* c = view.claim(p.ns, v.claim_name);
    if (c != nullptr && (c->access_modes & model::read_write_once_pod) != 0)
      ++view.claim_users[model::claim_key(p.ns, v.claim_name)];
  }
}

void reference_scheduler::bind_claims(const model::pod& p,
                                      const model::node& node) {
  if (!storage_)
    return;
  auto next = std::make_shared<model::storage_view>(*storage_);
  model::pod_claims claims;
  if (!model::sort_claims(*storage_, p, claims)) {
    model::claim_fit fit
      = model::fit_claims(*storage_, claims, node.labels, node.name);
    volume_write_record w;
    w.pod = p.name;
    w.node = node.name.str();
    for (const auto& b : fit.plan.bindings) {
      auto taken = std::make_shared<model::persistent_volume>(*b.volume);
      taken->claim_ref
        = model::claim_reference{b.claim->ns, b.claim->name, b.claim->uid};
      {
        auto name = taken->name;
        next->volumes.set(name, std::move(taken));
      }
      w.bindings.emplace_back(b.claim->name, b.volume->name);
    }
    for (const auto& c : fit.plan.provisions) {
      auto waiting = std::make_shared<model::persistent_volume_claim>(*c);
      waiting->selected_node = node.name.str();
      next->claims.set(model::claim_key(c->ns, c->name), std::move(waiting));
      w.provisions.push_back(c->name);
    }
    if (!fit.plan.empty())
      volume_writes_.push_back(std::move(w));
  }
  count_claim_users(p, *next);
  next->index();
  storage_ = std::move(next);
}

void reference_scheduler::place(const model::pod& p, const std::string& node) {
  auto placed = std::make_shared<model::pod>(p);
  placed->node_name = model::symbol{node};
  slot* s = find(node);
  bind_claims(p, *s->info->get_node());
  auto copy = std::make_shared<model::node_info>(*s->info);
  copy->add_pod(std::move(placed));
  s->info = std::move(copy);
  placements_[p.key()] = node;
}

void reference_scheduler::remove(const model::pod_core_ptr& victim) {
  if (slot* s = find(std::string{victim->node_name.view()})) {
    auto copy = std::make_shared<model::node_info>(*s->info);
    copy->remove_pod(*victim);
    s->info = std::move(copy);
  }
  placements_.erase(victim->key());
  ++preempted_;
}

std::vector<model::pod_ptr>
reference_scheduler::nominated_on(const std::string& node) const {
  auto it = nominated_.find(node);
  return it == nominated_.end() ? std::vector<model::pod_ptr>{} : it->second;
}

// Every Filter plugin in profile order; the first rejection wins.
status
reference_scheduler::run_filter_chain(const plugins::cycle_state& state,
                                      const model::pod& p,
                                      const model::node_info& node) const {
  for (const auto* f : prof_->filter()) {
    if (state.skip_filter.test(f->slot()))
      continue;
    status s = f->filter(state, p, node);
    if (s.ok())
      continue;
    if (!s.is_rejected())
      s = status::make_error("running \"" + std::string{f->name()}
                             + "\" filter plugin: " + s.message());
    s.set_plugin(f->name());
    return s;
  }
  return {};
}

// RunFilterPluginsWithNominatedPods: first as if the pods nominated here
// with at least this priority were running, then as the node is.
status reference_scheduler::filter_node(const plugins::cycle_state& state,
                                        const model::pod& p,
                                        const model::node_info& node) const {
  std::vector<model::pod_ptr> relevant;
  for (const auto& n : nominated_on(std::string{node.name().view()}))
    if (n->priority >= p.priority && !n->same_identity(p))
      relevant.push_back(n);
  if (!relevant.empty()) {
    model::node_info with = node;
    plugins::cycle_state state_with = state;
    for (const auto& n : relevant) {
      with.add_pod(n);
      for (const auto* pf : prof_->pre_filter()) {
        if (!pf->has_extensions() || state_with.skip_filter.test(pf->slot()))
          continue;
        status s = pf->add_pod(state_with, p, *n, with);
        if (!s.ok())
          return status::make_error("running AddPod on PreFilter plugin \""
                                    + std::string{pf->name()}
                                    + "\": " + s.message());
      }
    }
    status first = run_filter_chain(state_with, p, with);
    if (!first.ok())
      return first;
  }
  return run_filter_chain(state, p, node);
}

reference_scheduler::attempt
reference_scheduler::schedule_one(const model::pod_ptr& pod) {
  const model::pod& p = *pod;
  attempt out;
  auto error = [&](std::string message) {
    attempt e;
    e.outcome = reference_result::kind::error;
    e.message = std::move(message);
    return e;
  };
  if (nodes_.empty()) {
    out.message = plugins::no_nodes_message;
    return out;
  }
  rebuild_context();
  plugins::cycle_state state = prof_->new_cycle_state();
  state.cluster = &ctx_;

  // PreFilter.
  std::optional<std::set<std::string>> allowed;
  std::vector<std::string> set_plugins;
  for (const auto* pf : prof_->pre_filter()) {
    auto r = pf->pre_filter(state, p, ctx_);
    if (r.result.is_skip()) {
      state.skip_filter.set(pf->slot());
      continue;
    }
    if (!r.result.ok()) {
      if (!r.result.is_rejected())
        return error("running PreFilter plugin \"" + std::string{pf->name()}
                     + "\": " + r.result.message());
      r.result.set_plugin(pf->name());
      plugins::diagnosis diag;
      diag.absent_nodes_status = r.result;
      diag.pre_filter_message = r.result.message();
      diag.add_plugin_of(r.result);
      return fit_error(p, state, std::move(diag));
    }
    if (!r.nodes)
      continue;
    set_plugins.emplace_back(pf->name());
    std::sort(set_plugins.begin(), set_plugins.end());
    std::set<std::string> names;
    for (auto n : *r.nodes)
      if (!allowed || allowed->count(n.str()) != 0)
        names.insert(n.str());
    allowed = std::move(names);
    if (allowed->empty()) {
      std::string joined;
      for (const auto& n : set_plugins)
        joined += (joined.empty() ? "" : " ") + n;
      std::string msg = set_plugins.size() == 1
                          ? "node(s) didn't satisfy plugin " + joined
                          : "node(s) didn't satisfy plugin(s) [" + joined
                              + "] simultaneously";
      status s{code::unschedulable_and_unresolvable, model::symbol{msg}};
      s.set_plugin(pf->name());
      plugins::diagnosis diag;
      diag.absent_nodes_status = s;
      diag.pre_filter_message = s.message();
      diag.add_plugin_of(s);
      return fit_error(p, state, std::move(diag));
    }
  }
  // PreScore (node-independent here); an error counts only if scoring runs.
  std::optional<std::string> pre_score_error;
  for (const auto* ps : prof_->pre_score()) {
    status s = ps->pre_score(state, p, ctx_);
    if (s.is_skip()) {
      state.skip_score.set(ps->slot());
      continue;
    }
    if (!s.ok() && !pre_score_error)
      pre_score_error = "running PreScore plugin \"" + std::string{ps->name()}
                        + "\": " + s.message();
  }
  // The state spanning nodes: every scanner that wants to, over all nodes
  // (one "shard"), all scanned from the same state, then merged in order.
  {
    std::vector<const plugins::node_scanner*> wanted;
    for (const auto* sc : prof_->scanners())
      if (sc->wants_scan(state, p))
        wanted.push_back(sc);
    std::vector<model::node_info_ptr> all;
    if (!wanted.empty())
      for (const auto& s : nodes_)
        all.push_back(s.info);
    std::vector<plugins::scan_partial_ptr> partials;
    for (const auto* sc : wanted)
      partials.push_back(sc->scan(state, p, all));
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      status s = wanted[i]->merge(state, p, {partials[i]});
      if (!s.ok() && !s.is_skip())
        return error(s.message());
    }
  }

  // The nominated node first: if it fits, it is the answer. As upstream, a
  // failure there stays in the node statuses (and counts as processed).
  std::map<std::string, status> node_status;
  std::string nominated{p.nominated_node_name.view()};
  if (!nominated.empty() && find(nominated) != nullptr) {
    status s = filter_node(state, p, *find(nominated)->info);
    if (s.ok()) {
      out.outcome = reference_result::kind::scheduled;
      out.node = nominated;
      return out;
    }
    if (s.get_code() != code::error)
      node_status[nominated] = std::move(s);
  }

  // Filter from the rotating start index, over the PreFilterResult's nodes
  // when there is one; the index wraps over all nodes.
  std::vector<const model::node_info*> candidates;
  for (const auto& s : nodes_)
    if (!allowed || allowed->count(std::string{s.info->name().view()}) != 0)
      candidates.push_back(s.info.get());
  const std::size_t n = candidates.size();
  std::size_t want = nodes_to_find(prof_->percentage_of_nodes_to_score(), n);
  if (prof_->score().empty())
    want = std::min<std::size_t>(want, 1);
  std::vector<const model::node_info*> feasible;
  for (std::size_t i = 0; i < n && feasible.size() < want; ++i) {
    const model::node_info* node = candidates[(next_start_ + i) % n];
    std::string name{node->name().view()};
    status s = filter_node(state, p, *node);
    if (s.ok()) {
      node_status.erase(name);
      feasible.push_back(node);
    } else if (s.get_code() == code::error) {
      return error(s.message());
    } else {
      node_status[name] = std::move(s);
    }
  }
  next_start_
    = (next_start_ + feasible.size() + node_status.size()) % nodes_.size();
  plugins::diagnosis diag;
  for (auto& [name, s] : node_status) {
    out.rejected[name] = std::string{s.plugin()} + ": " + s.message();
    diag.add(model::symbol{name}, std::move(s));
  }
  if (allowed) {
    std::string joined;
    for (const auto& name : set_plugins)
      joined += (joined.empty() ? "" : " ") + name;
    diag.absent_nodes_status = status{
      code::unschedulable_and_unresolvable,
      model::symbol{"node(s) didn't satisfy plugin(s) [" + joined + "]"}};
  }
  if (feasible.empty()) {
    auto rejected = std::move(out.rejected);
    out = fit_error(p, state, std::move(diag));
    out.rejected = std::move(rejected);
    return out;
  }
  if (feasible.size() == 1) {
    out.outcome = reference_result::kind::scheduled;
    out.node = std::string{feasible.front()->name().view()};
    return out;
  }
  if (pre_score_error)
    return error(*pre_score_error);

  // Score: plugins that summarize the feasible set merge their summary
  // first; then every active plugin scores every feasible node.
  std::vector<const plugins::weighted_score_plugin*> active;
  std::vector<const plugins::feasible_summarizer*> summarizing;
  for (const auto& w : prof_->score()) {
    if (state.skip_score.test(w.plugin->slot()))
      continue;
    active.push_back(&w);
    if (w.summarizer != nullptr && w.summarizer->wants_summary(state))
      summarizing.push_back(w.summarizer);
  }
  for (const auto* sum : summarizing) {
    auto part = sum->summarize(state, p, feasible);
    status s = sum->merge_summaries(state, p, {part});
    if (!s.ok())
      return error(s.message());
  }
  std::vector<std::int64_t> totals(feasible.size(), active.empty() ? 1 : 0);
  for (const auto* w : active) {
    std::vector<plugins::node_score> row;
    for (const auto* node : feasible)
      row.push_back({node->name(), w->plugin->score(state, p, *node)});
    if (w->plugin->has_normalize()) {
      status s = w->plugin->normalize_scores(state, p, row);
      if (!s.ok())
        return error("running Normalize on Score plugin \""
                     + std::string{w->plugin->name()} + "\": " + s.message());
    }
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (row[i].score < 0 || row[i].score > 100)
        return error("plugin \"" + std::string{w->plugin->name()}
                     + "\" returns an invalid score "
                     + std::to_string(row[i].score)
                     + ", it should in the range of [0, 100] after "
                       "normalizing");
      totals[i] += row[i].score * w->weight;
    }
  }
  // selectHost: a uniform pick among the best totals — one draw picks which
  // of the tied nodes, in feasible order, wins.
  const std::int64_t top = *std::max_element(totals.begin(), totals.end());
  std::vector<std::size_t> tied;
  for (std::size_t i = 0; i < totals.size(); ++i)
    if (totals[i] == top)
      tied.push_back(i);
  std::size_t best
    = tied.size() == 1 ? tied.front() : tied[rng_() % tied.size()];
  out.outcome = reference_result::kind::scheduled;
  out.node = std::string{feasible[best]->name().view()};
  for (std::size_t i = 0; i < feasible.size(); ++i)
    out.totals.emplace_back(std::string{feasible[i]->name().view()}, totals[i]);
  return out;
}

reference_scheduler::attempt
reference_scheduler::fit_error(const model::pod& p,
                               const plugins::cycle_state& state,
                               plugins::diagnosis diag) {
  attempt out;
  const std::size_t all = nodes_.size();
  auto finish = [&] {
    out.message = plugins::fit_error_message(all, diag);
    return out;
  };
  if (prof_->post_filter().empty())
    return finish();
  const auto* pf = prof_->post_filter().front();
  if (status s = pf->check_pod_eligible(p); !s.ok()) {
    diag.post_filter_message = pf->wrap_message(s.message());
    return finish();
  }
  // Each node's filter status this cycle.
  std::map<std::string, status> statuses;
  for (const auto& f : diag.node_statuses)
    statuses[std::string{f.node.view()}] = f.result;
  auto status_of = [&](const std::string& node) -> std::optional<status> {
    if (auto it = statuses.find(node); it != statuses.end())
      return it->second;
    if (diag.absent_nodes_status)
      return *diag.absent_nodes_status;
    return std::nullopt;
  };
  auto unresolvable = [&](const std::string& node) {
    auto s = status_of(node);
    return s && s->get_code() == code::unschedulable_and_unresolvable;
  };
  std::string nominated{p.nominated_node_name.view()};
  if (!nominated.empty() && find(nominated) != nullptr
      && !unresolvable(nominated)) {
    status at;
    if (auto it = statuses.find(nominated); it != statuses.end())
      at = it->second;
    status s = pf->check_nominated_node(p, *find(nominated)->info, at);
    if (!s.ok()) {
      diag.post_filter_message = pf->wrap_message(s.message());
      return finish();
    }
  }
  // Potential nodes in node order, the dry run starting at a random offset.
  std::vector<const model::node_info*> potential;
  std::vector<std::string> hopeless;
  for (const auto& s : nodes_) {
    std::string name{s.info->name().view()};
    if (unresolvable(name))
      hopeless.push_back(name);
    else
      potential.push_back(s.info.get());
  }
  plugins::dry_run_result found;
  if (!potential.empty()) {
    std::size_t wanted
      = std::max<std::size_t>(pf->candidates_wanted(potential.size()), 1);
    std::size_t offset = static_cast<std::size_t>(rng_() % potential.size());
    std::vector<std::vector<model::pod_ptr>> nominated_pods(potential.size());
    std::vector<plugins::dry_run_node> order;
    for (std::size_t i = 0; i < potential.size(); ++i) {
      std::size_t k = (offset + i) % potential.size();
      nominated_pods[i]
        = nominated_on(std::string{potential[k]->name().view()});
      order.push_back({potential[k], nominated_pods[i]});
    }
    found = pf->dry_run(*prof_, state, p, order, wanted, ctx_);
  }
  std::vector<plugins::preemption_candidate> candidates = found.non_violating;
  candidates.insert(candidates.end(), found.violating.begin(),
                    found.violating.end());
  if (candidates.empty()) {
    plugins::diagnosis why;
    for (const auto& name : hopeless)
      why.node_statuses.push_back(
        {model::symbol{name},
         status{code::unschedulable_and_unresolvable,
                model::symbol{"Preemption is not helpful for scheduling"}}});
    for (const auto& [node, s] : found.failures)
      why.node_statuses.push_back({node, s});
    diag.post_filter_message
      = pf->wrap_message(plugins::fit_error_message(all, why));
    return finish();
  }
  auto chosen = pf->select(p, std::move(candidates));
  if (!chosen.result.ok() || chosen.nominated_node.empty()) {
    diag.post_filter_message = pf->wrap_message(chosen.result.message());
    return finish();
  }
  out.nominated = std::string{chosen.nominated_node.view()};
  out.victims = chosen.victims;
  return finish();
}

std::vector<reference_result>
reference_scheduler::run(const std::vector<model::object>& objects) {
  std::vector<model::node_ptr> node_objects;
  std::vector<model::pod_ptr> pods;
  auto storage = std::make_shared<model::storage_view>();
  for (const auto& o : objects) {
    bool is_storage = true;
    if (const auto* pv = std::get_if<model::persistent_volume_ptr>(&o))
      storage->volumes.set((*pv)->name, *pv);
    else if (const auto* c
             = std::get_if<model::persistent_volume_claim_ptr>(&o))
      storage->claims.set(model::claim_key((*c)->ns, (*c)->name), *c);
    else if (const auto* sc = std::get_if<model::storage_class_ptr>(&o))
      storage->classes[(*sc)->name] = *sc;
    else if (const auto* cn = std::get_if<model::csi_node_ptr>(&o))
      storage->csi_nodes.set((*cn)->name, *cn);
    else if (const auto* d = std::get_if<model::csi_driver_ptr>(&o))
      storage->drivers[(*d)->name] = *d;
    else if (const auto* cap = std::get_if<model::csi_storage_capacity_ptr>(&o))
      storage->capacities.push_back(*cap);
    else
      is_storage = false;
    if (is_storage)
      continue;
    if (const auto* n = std::get_if<model::node_ptr>(&o))
      node_objects.push_back(*n);
    else if (const auto* p = std::get_if<model::pod_ptr>(&o))
      pods.push_back(*p);
    else if (const auto* ns = std::get_if<model::namespace_ptr>(&o))
      namespaces_.push_back(*ns);
    else if (const auto* b = std::get_if<model::disruption_budget_ptr>(&o))
      budgets_.push_back(*b);
  }
  for (const auto& n : node_tree_order(node_objects)) {
    index_[n->name.str()] = nodes_.size();
    nodes_.push_back(slot{std::make_shared<const model::node_info>(n)});
  }
  // Users of ReadWriteOncePod claims among the running pods.
  if (!storage->volumes.empty() || !storage->claims.empty()
      || !storage->classes.empty() || !storage->csi_nodes.empty()
      || !storage->drivers.empty() || !storage->capacities.empty()) {
    for (const auto& p : pods)
      if (p->is_bound() && !p->is_terminal())
        count_claim_users(*p, *storage);
    storage->index();
    storage_ = std::move(storage);
  }
  std::vector<model::pod_ptr> queue;
  std::vector<reference_result> results;
  std::map<std::string, std::size_t> result_of;
  for (const auto& p : pods) {
    if (p->is_terminal())
      continue;
    if (p->is_bound()) {
      if (slot* s = find(p->node_name.str())) {
        auto copy = std::make_shared<model::node_info>(*s->info);
        copy->add_pod(p);
        s->info = std::move(copy);
      }
      placements_[p->key()] = p->node_name.str();
      continue;
    }
    result_of[p->key()] = results.size();
    reference_result fresh;
    fresh.key = p->key();
    results.push_back(std::move(fresh));
    if (p->scheduler_name.view() != prof_->scheduler_name()
        || !p->scheduling_gates.empty())
      continue;
    queue.push_back(p);
  }
  // PrioritySort: higher priority first, then arrival (input) order.
  std::stable_sort(queue.begin(), queue.end(),
                   [](const model::pod_ptr& a, const model::pod_ptr& b) {
                     return a->priority > b->priority;
                   });
  for (model::pod_ptr p : queue) {
    reference_result& r = results[result_of[p->key()]];
    // A preemptor is retried at once after its victims are gone; a few
    // rounds at most (each round frees room on the nominated node).
    for (int round = 0; round < 5; ++round) {
      attempt a = schedule_one(p);
      if (a.outcome == reference_result::kind::scheduled) {
        place(*p, a.node);
        r.state = a.outcome;
        r.node = a.node;
        r.message.clear();
        r.totals = a.totals;
        break;
      }
      r.state = a.outcome;
      r.message = a.message;
      r.rejected = a.rejected;
      if (a.nominated.empty())
        break;
      r.nominated = a.nominated;
      for (const auto& v : a.victims) {
        r.victims.push_back(v->key());
        remove(v);
      }
      auto next = std::make_shared<model::pod>(*p);
      next->nominated_node_name = model::symbol{a.nominated};
      p = std::move(next);
      nominated_[a.nominated] = {p};
    }
    nominated_.clear();
  }
  return results;
}

} // namespace tessera::pipeline_test
