// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Opportunistic batching in a cycle: whether the pod takes the batch's hint,
// waits for the batch's head, or runs a full cycle, and how a hint is tried.
// What the batch is and when it ends is the batcher's decision.
#include "actors/coordinator/coordinator_state.hpp"

namespace tessera::actors {

void coordinator_state::batch_or_filter(cycle& c) {
  const model::pod& p = *c.item.pod;
  plugins::active_scores plan = plugins::score_plan(*c.prof, *c.state);
  batcher::candidate cand;
  cand.cycle = c.id;
  cand.profile_index = c.item.profile;
  cand.prof = c.prof;
  cand.pod = c.item.pod;
  cand.nominated = !p.nominated_node_name.empty();
  // A cycle that reads cluster-wide state (node scans, cross-node filters,
  // summaries of the feasible set) or reports PreScore's error cannot reuse
  // another's nodes.
  cand.signable = !cand.nominated && !c.scanned && plan.deferred.empty()
                  && c.start.pre_score_status.ok()
                  && !c.prof->cross_node_filters(*c.state).active
                  && c.prof->signable(p, *c.view->context);
  cand.score_plugins = std::move(plan.local);
  cand.now = std::chrono::steady_clock::now();
  switch (batcher_.on_filter(cand)) {
  case batcher::plan::park:
    // Decided when the head ends: timed then.
    c.step = cycle_step::waiting_for_batch;
    return;
  case batcher::plan::use: {
    auto hint = batcher_.take_hint();
    metrics_.node_hint(c.item.profile, hint.has_value(), cand.now);
    use_hint(c, hint);
    return;
  }
  case batcher::plan::full:
    if (batcher_.enabled())
      metrics_.node_hint(c.item.profile, false, cand.now);
    // The head counts its attempt when it ends; any other pod got no hint.
    if (batcher_.head() != c.id)
      metrics_.batch_attempt(c.item.profile, batcher::attempt::no_hint);
    filter_all(c);
    return;
  }
}

void coordinator_state::use_hint(cycle& c,
                                 const std::optional<model::symbol>& hint) {
  if (!hint) {
    filter_all(c);
    return;
  }
  c.hint = *hint;
  if (!c.view->node_shard || c.view->node_shard->count(*hint) == 0
      || (c.allowed && c.allowed->count(*hint) == 0)) {
    filter_all(c); // a node gone since the batch was left: hint not used
    return;
  }
  // Filter counts pods nominated to the node; the cache's assume does not.
  if (c.nominated && !c.nominated->on(*hint).empty()) {
    probe(c, *hint);
    return;
  }
  // Nothing else to filter: the cache's assume runs the node-local filters,
  // all a signable pod's filters, on its own state. The newest generation
  // each shard reported stands for the view such a filter would have had.
  if (!c.scanned)
    c.generations = reported_generation_;
  c.evaluated = 1;
  c.table.nodes = {*hint};
  assume(c, *hint);
}

void coordinator_state::resume_parked() {
  for (std::uint64_t id : batcher_.take_parked())
    if (cycle* c = find(id))
      batch_or_filter(*c);
}

} // namespace tessera::actors
