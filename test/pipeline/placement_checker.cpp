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

bool reachable(const volume_spec& v, const node_spec& n) {
  return (v.host.empty() || v.host == n.name)
         && (v.zone.empty() || v.zone == n.zone);
}

bool has_modes(std::uint8_t have, std::uint8_t want) {
  return (have & want) == want;
}

// The storage rules (see the header), from the specs and the writes alone.
void check_storage(const cluster_spec& spec,
                   const std::map<std::string, std::string>& where,
                   const std::vector<volume_write_record>& writes,
                   std::vector<std::string>& bad) {
  const storage_spec& st = spec.storage;
  std::map<std::string, std::string> volume_of; // claim -> volume
  std::map<std::string, std::string> claim_of;  // volume -> claim
  std::map<std::string, std::string> selected;  // claim -> node
  for (const auto& c : st.claims)
    if (!c.volume.empty())
      volume_of[c.name] = c.volume;
  for (const auto& v : st.volumes)
    if (!v.claim.empty())
      claim_of[v.name] = v.claim;
  std::map<std::string, const pod_spec*> pods;
  for (const auto& p : spec.pending)
    pods[p.name] = &p;
  for (const auto& p : spec.bound)
    pods[p.name] = &p;

  for (const auto& w : writes) {
    auto at = where.find(w.pod);
    if (at == where.end())
      continue; // deleted since (a preemption victim)
    auto fail = [&](const std::string& why) {
      bad.push_back(w.pod + " volume write on " + w.node + ": " + why);
    };
    if (at->second != w.node) {
      fail("the pod is bound to " + at->second);
      continue;
    }
    const node_spec* node = spec.find_node(w.node);
    const pod_spec* pod = pods.count(w.pod) ? pods[w.pod] : nullptr;
    if (node == nullptr || pod == nullptr)
      continue; // reported by the placement checks
    auto uses
      = [&](const std::string& claim) { return contains(pod->claims, claim); };
    for (const auto& [claim, volume] : w.bindings) {
      const claim_spec* c = st.find_claim(claim);
      const volume_spec* v = st.find_volume(volume);
      if (c == nullptr || v == nullptr || !uses(claim)) {
        fail("binds " + volume + " to " + claim
             + ", an unknown volume or a claim the pod does not use");
        continue;
      }
      if (auto [it, fresh] = claim_of.emplace(volume, claim);
          !fresh && it->second != claim)
        fail("volume " + volume + " bound to two claims: " + it->second
             + " and " + claim);
      if (auto [it, fresh] = volume_of.emplace(claim, volume);
          !fresh && it->second != volume)
        fail("claim " + claim + " bound to two volumes: " + it->second + " and "
             + volume);
      if (v->storage_class != c->storage_class)
        fail("volume " + volume + " of class " + v->storage_class
             + " for a claim of class " + c->storage_class);
      if (v->capacity_gi < c->request_gi)
        fail("volume " + volume + " too small for " + claim);
      if (!has_modes(v->modes, c->modes))
        fail("volume " + volume + " lacks the access modes of " + claim);
      if (!reachable(*v, *node))
        fail("volume " + volume + " not reachable from the node");
    }
    for (const auto& claim : w.provisions) {
      const claim_spec* c = st.find_claim(claim);
      const class_spec* cls = c ? st.find_class(c->storage_class) : nullptr;
      if (c == nullptr || cls == nullptr || !uses(claim)) {
        fail("provisions " + claim
             + ", an unknown claim or class, or a claim the pod does not use");
        continue;
      }
      if (!cls->wait_for_first_consumer || cls->provisioner == no_provisioner)
        fail("provisions " + claim + " of class " + cls->name
             + ", which does not provision for a consumer");
      if (!cls->zones.empty() && !contains(cls->zones, node->zone))
        fail("provisions " + claim + " in zone '" + node->zone
             + "', outside the allowedTopologies of " + cls->name);
      if (auto [it, fresh] = selected.emplace(claim, w.node);
          !fresh && it->second != w.node)
        fail("claim " + claim + " provisioned on two nodes: " + it->second
             + " and " + w.node);
    }
  }
  for (const auto& [claim, node] : selected)
    if (auto it = volume_of.find(claim); it != volume_of.end())
      bad.push_back("claim " + claim + " both bound to " + it->second
                    + " and provisioned on " + node);

  // Per placed pod: where its claims' volumes are; users and attach counts.
  std::map<std::string, std::vector<std::string>> rwop_users;
  std::map<std::string, std::set<std::string>> attached; // node -> handles
  for (const auto& [name, node_name] : where) {
    auto pit = pods.find(name);
    const node_spec* node = spec.find_node(node_name);
    if (pit == pods.end() || node == nullptr)
      continue;
    const pod_spec& p = *pit->second;
    auto fail = [&](const std::string& why) {
      bad.push_back(p.name + " on " + node_name + ": " + why);
    };
    for (const auto& claim : p.claims) {
      const claim_spec* c = st.find_claim(claim);
      if (c == nullptr) {
        fail("claim " + claim + " does not exist");
        continue;
      }
      if (c->modes & rwop_mode)
        rwop_users[claim].push_back(p.name);
      const class_spec* cls = st.find_class(c->storage_class);
      if (auto v = volume_of.find(claim); v != volume_of.end()) {
        const volume_spec* vs = st.find_volume(v->second);
        if (vs == nullptr) {
          fail("claim " + claim + " bound to a missing volume");
          continue;
        }
        if (!reachable(*vs, *node))
          fail("claim " + claim + "'s volume " + vs->name
               + " not reachable from the node");
        if (!vs->zone.empty() && !node->zone.empty() && vs->zone != node->zone)
          fail("volume " + vs->name + " in zone " + vs->zone + ", the node in "
               + node->zone);
        if (!vs->driver.empty())
          attached[node_name].insert("volume:" + vs->name);
      } else if (auto s = selected.find(claim); s != selected.end()) {
        if (s->second != node_name)
          fail("claim " + claim + " is provisioned on " + s->second);
        if (cls != nullptr && cls->provisioner == csi_driver)
          attached[node_name].insert("claim:" + claim);
      } else {
        fail("claim " + claim + " neither bound nor provisioned");
      }
    }
  }
  for (const auto& [claim, users] : rwop_users)
    if (users.size() > 1)
      bad.push_back("ReadWriteOncePod claim " + claim + " used by " + users[0]
                    + " and " + users[1]
                    + (users.size() > 2 ? " and more" : ""));
  for (const auto& cn : st.csi_nodes) {
    auto it = attached.find(cn.node);
    if (it != attached.end()
        && it->second.size() > static_cast<std::size_t>(cn.count))
      bad.push_back(cn.node + ": " + std::to_string(it->second.size())
                    + " volumes of " + csi_driver + " > allocatable count "
                    + std::to_string(cn.count));
  }
}

} // namespace

std::vector<std::string>
check_placements(const cluster_spec& spec,
                 const std::map<std::string, std::string>& where,
                 const std::vector<volume_write_record>& writes) {
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
  check_storage(spec, where, writes, bad);
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
