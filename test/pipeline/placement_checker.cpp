// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/pipeline/placement_checker.hpp"

#include <algorithm>
#include <set>

namespace tessera::pipeline_test {

namespace {

bool tolerates(const pod_spec& p, const taint_spec& t) {
  for (const auto& tol : p.tolerations)
    if (tol.key == t.key && tol.value == t.value
        && (tol.effect.empty() || tol.effect == t.effect))
      return true;
  return false;
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The domain of `node` under `key`; empty when the node has no such label.
std::string domain(const node_spec& node, const std::string& key) {
  if (key == hostname_key)
    return node.name;
  if (key == zone_key)
    return node.zone;
  return {};
}

} // namespace

std::vector<std::string>
check_placements(const cluster_spec& spec,
                 const std::map<std::string, std::string>& where) {
  std::vector<std::string> bad;
  std::map<std::string, const node_spec*> nodes;
  for (const auto& n : spec.nodes)
    nodes[n.name] = &n;
  struct placed {
    const pod_spec* pod;
    const node_spec* node;
    bool scheduled;
  };
  std::vector<placed> all;
  auto collect = [&](const std::vector<pod_spec>& pods, bool scheduled) {
    for (const auto& p : pods) {
      auto it = where.find(p.name);
      if (it == where.end())
        continue;
      auto n = nodes.find(it->second);
      if (n == nodes.end()) {
        bad.push_back(p.name + ": on unknown node " + it->second);
        continue;
      }
      all.push_back({&p, n->second, scheduled});
    }
  };
  collect(spec.bound, false);
  collect(spec.pending, true);

  // Per node: capacity and host ports.
  struct usage {
    std::int64_t cpu = 0, memory = 0, gpus = 0, pods = 0;
    std::map<std::int32_t, std::string> ports;
  };
  std::map<std::string, usage> used;
  for (const auto& pl : all) {
    auto& u = used[pl.node->name];
    u.cpu += std::max(pl.pod->milli_cpu, pl.pod->actual_milli_cpu);
    u.memory += pl.pod->memory_mi;
    u.gpus += pl.pod->gpus;
    ++u.pods;
    if (pl.pod->host_port > 0) {
      auto [it, fresh] = u.ports.emplace(pl.pod->host_port, pl.pod->name);
      if (!fresh)
        bad.push_back(pl.node->name + ": host port "
                      + std::to_string(pl.pod->host_port) + " used by "
                      + it->second + " and " + pl.pod->name);
    }
  }
  for (const auto& [name, u] : used) {
    const node_spec& n = *nodes.at(name);
    auto over = [&](const char* what, std::int64_t have, std::int64_t cap) {
      if (have > cap)
        bad.push_back(name + ": " + what + " overcommitted: "
                      + std::to_string(have) + " > " + std::to_string(cap));
    };
    over("cpu", u.cpu, n.milli_cpu);
    over("memory", u.memory, n.memory_mi);
    over("gpus", u.gpus, n.gpus);
    over("pods", u.pods, n.pods);
  }

  // Per scheduled pod: node-local rules.
  for (const auto& pl : all) {
    if (!pl.scheduled)
      continue;
    const pod_spec& p = *pl.pod;
    const node_spec& n = *pl.node;
    auto fail = [&](const std::string& why) {
      bad.push_back(p.name + " on " + n.name + ": " + why);
    };
    for (const auto& t : n.taints)
      if (t.effect != "PreferNoSchedule" && !tolerates(p, t))
        fail("untolerated taint " + t.key + "=" + t.value + ":" + t.effect);
    if (n.unschedulable)
      fail("node is unschedulable");
    if (!p.tier_in.empty() && !contains(p.tier_in, n.tier))
      fail("node affinity tier " + n.tier);
    if (p.needs_ssd && !n.ssd)
      fail("node selector disk=ssd");
    if (!p.name_in.empty() && !contains(p.name_in, n.name))
      fail("metadata.name not in the pod's list");
    if (p.spread && domain(n, p.spread->topology_key).empty())
      fail("spread topology key missing on the node");
  }

  // Required anti-affinity: no pod in the same domain of a term matches it.
  for (const auto& a : all) {
    if (!a.pod->anti)
      continue;
    const auto& term = *a.pod->anti;
    std::string here = domain(*a.node, term.topology_key);
    if (here.empty())
      continue;
    for (const auto& b : all)
      if (b.pod != a.pod && b.pod->anti_label == term.group
          && domain(*b.node, term.topology_key) == here)
        bad.push_back(a.pod->name + " (anti-affinity " + term.group + " by "
                      + term.topology_key + ") shares " + here + " with "
                      + b.pod->name);
  }

  // Spread groups: final skew over the eligible domains.
  std::map<std::string, spread_spec> groups;
  for (const auto& p : spec.pending)
    if (p.spread)
      groups.emplace(p.spread->group, *p.spread);
  for (const auto& [group, s] : groups) {
    std::map<std::string, std::int64_t> counts;
    for (const auto& n : spec.nodes)
      if (auto d = domain(n, s.topology_key); !d.empty())
        counts.emplace(d, 0);
    for (const auto& pl : all)
      if (pl.pod->spread && pl.pod->spread->group == group)
        ++counts[domain(*pl.node, s.topology_key)];
    if (counts.empty())
      continue;
    auto [lo, hi] = std::minmax_element(
      counts.begin(), counts.end(),
      [](const auto& x, const auto& y) { return x.second < y.second; });
    if (hi->second - lo->second > s.max_skew)
      bad.push_back("spread group " + group + " over " + s.topology_key
                    + ": skew " + std::to_string(hi->second - lo->second) + " ("
                    + hi->first + " has " + std::to_string(hi->second) + ", "
                    + lo->first + " has " + std::to_string(lo->second)
                    + ") > maxSkew " + std::to_string(s.max_skew));
  }
  return bad;
}

bool is_fit_error(const std::string& message, std::size_t nodes) {
  std::string head = "0/" + std::to_string(nodes) + " nodes are available: ";
  if (message.rfind(head, 0) != 0 || message.size() <= head.size())
    return false;
  std::size_t end = message.find(". preemption: ");
  if (end == std::string::npos)
    return message.back() == '.';
  return end > head.size();
}

} // namespace tessera::pipeline_test
