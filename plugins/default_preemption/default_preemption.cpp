// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/default_preemption/default_preemption.hpp"

#include "plugins/default_preemption/disruption_budget_check.hpp"
#include "plugins/framework/profile.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

namespace tessera::plugins {

namespace {

// A missing status.startTime means "not started yet", i.e. now: later than
// every recorded start.
std::int64_t start_time_of(const model::pod_core& p) noexcept {
  return p.start_unix.value_or(std::numeric_limits<std::int64_t>::max());
}

bool terminating_by_preemption(const model::pod_core& p) noexcept {
  return p.deleting && p.disrupted_by_preemption;
}

} // namespace

default_preemption::default_preemption(
  const config::default_preemption_args& args)
  : args_(args),
    reason_policy_never_("not eligible due to preemptionPolicy=Never."),
    reason_terminating_victim_(
      "not eligible due to a terminating pod on the nominated node."),
    reason_no_victims_("No preemption victims found for incoming pod"),
    reason_no_candidate_("no candidate node for preemption") {
}

bool default_preemption::more_important(const model::pod_core& a,
                                        const model::pod_core& b) noexcept {
  if (a.priority != b.priority)
    return a.priority > b.priority;
  return start_time_of(a) < start_time_of(b);
}

status default_preemption::check_pod_eligible(const model::pod& p) const {
  if (p.preemption == model::preemption_policy::never)
    return {code::unschedulable, reason_policy_never_};
  return {};
}

status
default_preemption::check_nominated_node(const model::pod& p,
                                         const model::node_info& nominated,
                                         const status& nominated_status) const {
  // Filters say preemption cannot help there: look for another node.
  if (nominated_status.get_code() == code::unschedulable_and_unresolvable)
    return {};
  for (const auto& q : nominated.pods())
    if (q && q->priority < p.priority && terminating_by_preemption(*q))
      return {code::unschedulable, reason_terminating_victim_};
  return {};
}

std::size_t default_preemption::candidates_wanted(std::size_t potential) const {
  const auto n = static_cast<std::int64_t>(potential);
  std::int64_t wanted = n * args_.min_candidate_nodes_percentage / 100;
  wanted = std::max<std::int64_t>(wanted, args_.min_candidate_nodes_absolute);
  wanted = std::min(wanted, n);
  return static_cast<std::size_t>(std::max<std::int64_t>(wanted, 0));
}

default_preemption::node_victims default_preemption::select_victims_on_node(
  const profile& prof, const cycle_state& state, const model::pod& p,
  const dry_run_node& node,
  std::span<const model::disruption_budget_ptr> budgets) const {
  node_victims out;
  // Dry runs visit many nodes per preemptor: the working copy of the node
  // goes into one scratch node per thread, whose vectors keep their
  // capacity, and the cycle state is copied only when some plugin's
  // AddPod / RemovePod will change it.
  thread_local model::node_info info;
  info = *node.node;
  std::optional<cycle_state> own_state;
  if (prof.extensions_active(state))
    own_state.emplace(state);
  const cycle_state& st = own_state ? *own_state : state;
  auto remove = [&](const model::pod_core_ptr& v) {
    info.remove_pod(*v);
    return own_state ? prof.run_remove_pod(*own_state, p, *v, info) : status{};
  };
  auto add = [&](const model::pod_core_ptr& v) {
    info.add_pod(v);
    return own_state ? prof.run_add_pod(*own_state, p, *v, info) : status{};
  };

  std::vector<model::pod_core_ptr> potential;
  for (const auto& q : info.pods())
    if (q && q->priority < p.priority)
      potential.push_back(q);
  for (const auto& v : potential)
    if (status s = remove(v); !s.ok()) {
      out.result = std::move(s);
      return out;
    }
  if (potential.empty()) {
    out.result
      = status{code::unschedulable_and_unresolvable, reason_no_victims_};
    return out;
  }
  // Without every potential victim the pod must fit; affinity to a victim
  // is deliberately not considered (as upstream).
  if (status s = prof.run_filters_with_nominated(st, p, info, node.nominated);
      !s.ok()) {
    out.result = std::move(s);
    return out;
  }

  std::stable_sort(
    potential.begin(), potential.end(),
    [](const model::pod_core_ptr& a, const model::pod_core_ptr& b) {
      return more_important(*a, *b);
    });
  pdb_split groups = split_by_pdb_violation(potential, budgets);

  // Re-adds `v`; it stays a victim (and is removed again) when the pod no
  // longer fits. An Error from the filters counts as "does not fit".
  auto reprieve = [&](const model::pod_core_ptr& v, bool& fits) -> status {
    if (status s = add(v); !s.ok())
      return s;
    fits = prof.run_filters_with_nominated(st, p, info, node.nominated).ok();
    if (fits)
      return {};
    if (status s = remove(v); !s.ok())
      return s;
    out.victims.push_back(v);
    return {};
  };
  for (const auto& v : groups.violating) {
    bool fits = false;
    if (status s = reprieve(v, fits); !s.ok()) {
      out = node_victims{};
      out.result = std::move(s);
      return out;
    }
    if (!fits)
      ++out.pdb_violations;
  }
  for (const auto& v : groups.non_violating) {
    bool fits = false;
    if (status s = reprieve(v, fits); !s.ok()) {
      out = node_victims{};
      out.result = std::move(s);
      return out;
    }
  }
  // Violating victims were collected first: restore importance order.
  if (!groups.violating.empty() && !groups.non_violating.empty())
    std::stable_sort(
      out.victims.begin(), out.victims.end(),
      [](const model::pod_core_ptr& a, const model::pod_core_ptr& b) {
        return more_important(*a, *b);
      });
  return out;
}

dry_run_result default_preemption::dry_run(
  const profile& prof, const cycle_state& state, const model::pod& p,
  std::span<const dry_run_node> nodes, std::size_t wanted,
  const cluster_context& cluster) const {
  dry_run_result out;
  const auto& budgets = cluster.disruption_budgets;
  for (const auto& n : nodes) {
    if (n.node == nullptr)
      continue;
    node_victims found = select_victims_on_node(prof, state, p, n, budgets);
    const model::symbol name = n.node->name();
    if (found.result.ok() && !found.victims.empty()) {
      auto& list
        = found.pdb_violations == 0 ? out.non_violating : out.violating;
      // Upstream's candidate lists hold `wanted` entries; extras are lost.
      if (list.size() < wanted)
        list.push_back(preemption_candidate{name, std::move(found.victims),
                                            found.pdb_violations});
      if (!out.non_violating.empty()
          && out.non_violating.size() + out.violating.size() >= wanted)
        break;
      continue;
    }
    if (found.result.ok()) {
      ++out.fits_without_victims;
      found.result = status::make_error("expected at least one victim pod on "
                                        "node \""
                                        + std::string{name.view()} + "\"");
    }
    out.failures.emplace_back(name, std::move(found.result));
  }
  return out;
}

post_filter_outcome
default_preemption::select(const model::pod& p,
                           std::vector<preemption_candidate> candidates) const {
  (void)p;
  post_filter_outcome out;
  if (candidates.empty()) {
    out.result = status{code::unschedulable, reason_no_candidate_};
    return out;
  }
  auto chosen = [&](std::size_t i) {
    out.nominated_node = candidates[i].node;
    out.victims = std::move(candidates[i].victims);
    return out;
  };
  if (candidates.size() == 1)
    return chosen(0);

  using score_fn = std::int64_t (*)(const preemption_candidate&);
  // Each criterion scores a candidate; higher is better.
  static constexpr score_fn criteria[] = {
    // Fewest PDB violations.
    [](const preemption_candidate& c) -> std::int64_t {
      return -static_cast<std::int64_t>(c.pdb_violations);
    },
    // Lowest priority of the most important victim.
    [](const preemption_candidate& c) -> std::int64_t {
      if (c.victims.empty())
        return std::numeric_limits<std::int64_t>::max();
      return -static_cast<std::int64_t>(c.victims.front()->priority);
    },
    // Smallest sum of priorities, each shifted by 2^31 to be >= 0 so that
    // more negative-priority victims never look cheaper.
    [](const preemption_candidate& c) -> std::int64_t {
      std::int64_t sum = 0;
      for (const auto& v : c.victims)
        sum += static_cast<std::int64_t>(v->priority) + (std::int64_t{1} << 31);
      return -sum;
    },
    // Fewest victims.
    [](const preemption_candidate& c) -> std::int64_t {
      return -static_cast<std::int64_t>(c.victims.size());
    },
    // Latest earliest start among the highest-priority victims.
    [](const preemption_candidate& c) -> std::int64_t {
      if (c.victims.empty())
        return std::numeric_limits<std::int64_t>::min();
      std::int32_t top = c.victims.front()->priority;
      std::int64_t earliest = start_time_of(*c.victims.front());
      for (const auto& v : c.victims) {
        if (v->priority > top) {
          top = v->priority;
          earliest = start_time_of(*v);
        } else if (v->priority == top) {
          earliest = std::min(earliest, start_time_of(*v));
        }
      }
      return earliest;
    },
  };

  std::vector<std::size_t> remaining(candidates.size());
  for (std::size_t i = 0; i < remaining.size(); ++i)
    remaining[i] = i;
  for (score_fn score : criteria) {
    std::vector<std::size_t> best;
    std::int64_t best_score = std::numeric_limits<std::int64_t>::min();
    for (std::size_t i : remaining) {
      std::int64_t s = score(candidates[i]);
      if (best.empty() || s > best_score) {
        best_score = s;
        best.clear();
      }
      if (s == best_score)
        best.push_back(i);
    }
    if (best.size() == 1)
      return chosen(best.front());
    remaining = std::move(best);
  }
  return chosen(remaining.front());
}

std::string default_preemption::wrap_message(std::string_view message) const {
  if (message.empty())
    return {};
  return "preemption: " + std::string{message};
}

std::shared_ptr<plugin>
make_default_preemption(const config::default_preemption_args& args) {
  return std::make_shared<default_preemption>(args);
}

} // namespace tessera::plugins
