// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/run/soak_checker.hpp"

#include "model/quantity.hpp"
#include "support/time_format.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <sstream>

namespace tessera::test {

namespace json = boost::json;

namespace {

const json::object* object_in(const json::object* o, std::string_view key) {
  if (!o)
    return nullptr;
  auto* v = o->if_contains(key);
  return v ? v->if_object() : nullptr;
}

const json::array* array_in(const json::object* o, std::string_view key) {
  if (!o)
    return nullptr;
  auto* v = o->if_contains(key);
  return v ? v->if_array() : nullptr;
}

std::string string_in(const json::object* o, std::string_view key) {
  if (!o)
    return {};
  auto* v = o->if_contains(key);
  return v && v->is_string() ? std::string{v->get_string()} : std::string{};
}

/// The quantity at `key` of a resource map, in milli-units or units; 0
/// when absent, nullopt when malformed.
std::optional<std::int64_t> amount(const json::object* resources,
                                   std::string_view key, bool milli) {
  std::string text = string_in(resources, key);
  if (text.empty())
    return 0;
  auto q = model::quantity::parse(text);
  if (!q)
    return std::nullopt;
  auto v = milli ? q->milli_value() : q->value();
  if (!v)
    return std::nullopt;
  return *v;
}

bool decode_node(const json::object& item, observed_node& n) {
  const auto* meta = object_in(&item, "metadata");
  const auto* spec = object_in(&item, "spec");
  const auto* alloc = object_in(object_in(&item, "status"), "allocatable");
  n.name = string_in(meta, "name");
  auto cpu = amount(alloc, "cpu", true);
  auto memory = amount(alloc, "memory", false);
  auto pods = amount(alloc, "pods", false);
  if (n.name.empty() || !cpu || !memory || !pods)
    return false;
  n.cpu_milli = *cpu;
  n.memory_bytes = *memory;
  n.pods = *pods;
  auto* unschedulable = spec ? spec->if_contains("unschedulable") : nullptr;
  auto* taints = array_in(spec, "taints");
  n.open
    = !(unschedulable && unschedulable->is_bool() && unschedulable->get_bool())
      && !(taints && !taints->empty());
  return true;
}

bool decode_pod(const json::object& item, observed_pod& p) {
  const auto* meta = object_in(&item, "metadata");
  const auto* spec = object_in(&item, "spec");
  p.name = string_in(meta, "name");
  p.node = string_in(spec, "nodeName");
  p.terminating = meta && meta->contains("deletionTimestamp");
  if (p.name.empty())
    return false;
  auto requests
    = [](const json::value& c, std::int64_t& cpu, std::int64_t& memory) {
        const auto* r
          = object_in(object_in(c.if_object(), "resources"), "requests");
        auto c_cpu = amount(r, "cpu", true);
        auto c_memory = amount(r, "memory", false);
        if (!c_cpu || !c_memory)
          return false;
        cpu = *c_cpu;
        memory = *c_memory;
        return true;
      };
  if (const auto* containers = array_in(spec, "containers"))
    for (const auto& c : *containers) {
      std::int64_t cpu = 0, memory = 0;
      if (!requests(c, cpu, memory))
        return false;
      p.cpu_milli += cpu;
      p.memory_bytes += memory;
    }
  if (const auto* inits = array_in(spec, "initContainers"))
    for (const auto& c : *inits) {
      std::int64_t cpu = 0, memory = 0;
      if (!requests(c, cpu, memory))
        return false;
      p.cpu_milli = std::max(p.cpu_milli, cpu);
      p.memory_bytes = std::max(p.memory_bytes, memory);
    }
  if (const auto* conds = array_in(object_in(&item, "status"), "conditions"))
    for (const auto& c : *conds) {
      const auto* co = c.if_object();
      if (string_in(co, "type") != "PodScheduled")
        continue;
      p.scheduled_status = string_in(co, "status");
      p.scheduled_reason = string_in(co, "reason");
      p.scheduled_message = string_in(co, "message");
      if (p.scheduled_status == "True")
        p.bound_at = parse_time(string_in(co, "lastTransitionTime"));
    }
  return true;
}

/// The items of a list body; null with `error` set when it is not one.
const json::array* items_of(const json::value& v, std::string_view what,
                            std::string& error) {
  const auto* items = array_in(v.if_object(), "items");
  if (!items)
    error = std::string{what} + ": not a list";
  return items;
}

/// What the pods bound to each node use.
struct usage {
  std::int64_t cpu_milli = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t pods = 0;
  std::vector<std::string> names;
};

std::map<std::string, usage> usage_by_node(const observation& o) {
  std::map<std::string, usage> used;
  for (const auto& [name, p] : o.pods) {
    if (p.node.empty())
      continue;
    auto& u = used[p.node];
    u.cpu_milli += p.cpu_milli;
    u.memory_bytes += p.memory_bytes;
    ++u.pods;
    u.names.push_back(name);
  }
  return used;
}

std::string mebibytes(std::int64_t bytes) {
  return std::to_string(bytes / (1024 * 1024)) + "Mi";
}

} // namespace

std::size_t observation::bound() const {
  return static_cast<std::size_t>(
    std::count_if(pods.begin(), pods.end(),
                  [](const auto& kv) { return !kv.second.node.empty(); }));
}

std::size_t observation::pending() const {
  return static_cast<std::size_t>(
    std::count_if(pods.begin(), pods.end(), [](const auto& kv) {
      return kv.second.node.empty() && !kv.second.terminating;
    }));
}

std::optional<observation> decode_observation(std::string_view nodes_json,
                                              std::string_view pods_json,
                                              std::string& error) {
  observation o;
  try {
    auto nodes = json::parse(nodes_json);
    auto pods = json::parse(pods_json);
    const auto* node_items = items_of(nodes, "node list", error);
    const auto* pod_items = items_of(pods, "pod list", error);
    if (!node_items || !pod_items)
      return std::nullopt;
    for (const auto& item : *node_items) {
      observed_node n;
      if (!item.is_object() || !decode_node(item.get_object(), n)) {
        error = "node list: undecodable item " + json::serialize(item);
        return std::nullopt;
      }
      o.nodes[n.name] = n;
    }
    for (const auto& item : *pod_items) {
      observed_pod p;
      if (!item.is_object() || !decode_pod(item.get_object(), p)) {
        error = "pod list: undecodable item " + json::serialize(item);
        return std::nullopt;
      }
      o.pods[p.name] = std::move(p);
    }
  } catch (const std::exception& e) {
    error = std::string{"not JSON: "} + e.what();
    return std::nullopt;
  }
  return o;
}

void soak_checker::created(const std::string& name) {
  live_.insert(name);
}

void soak_checker::deleted(const std::string& name) {
  live_.erase(name);
}

void soak_checker::node_vanished(
  const std::string& name, std::chrono::system_clock::time_point when,
  std::optional<std::chrono::seconds> race_window) {
  vanished_.emplace(name, vanished_node{when, race_window});
}

std::optional<std::chrono::system_clock::time_point>
soak_checker::vanished_at(const std::string& name) const {
  auto it = vanished_.find(name);
  if (it == vanished_.end())
    return std::nullopt;
  return it->second.when;
}

bool soak_checker::raced(const observed_pod& p) const {
  auto gone = vanished_.find(p.node);
  if (gone == vanished_.end() || !gone->second.race_window)
    return false;
  // lastTransitionTime has whole seconds: a binding within the window may
  // show up to a second early, never late.
  return !p.bound_at
         || *p.bound_at <= gone->second.when + *gone->second.race_window;
}

std::vector<std::string> soak_checker::safety(const observation& o) {
  std::vector<std::string> out;
  for (const auto& name : live_)
    if (!o.pods.contains(name))
      out.push_back("pod " + name
                    + " is lost: created, never deleted, not in the API");
  for (const auto& [name, p] : o.pods) {
    if (p.node.empty())
      continue;
    auto [it, first] = bound_to_.emplace(name, p.node);
    if (!first && it->second != p.node)
      out.push_back("pod " + name + " was bound twice: first to " + it->second
                    + ", now to " + p.node);
    if (!o.nodes.contains(p.node) && !raced(p)) {
      auto gone = vanished_.find(p.node);
      std::string when = p.bound_at ? format_time(*p.bound_at) : "unknown";
      out.push_back("pod " + name + " is bound to missing node " + p.node
                    + " (bound at " + when + ", node "
                    + (gone == vanished_.end()
                         ? std::string{"never existed"}
                         : "vanished at " + format_time(gone->second.when))
                    + ")");
    }
  }
  for (const auto& [node, u] : usage_by_node(o)) {
    auto n = o.nodes.find(node);
    if (n == o.nodes.end())
      continue;
    const auto& cap = n->second;
    if (u.cpu_milli <= cap.cpu_milli && u.memory_bytes <= cap.memory_bytes
        && u.pods <= cap.pods)
      continue;
    std::ostringstream s;
    s << "node " << node << " is overcommitted: cpu " << u.cpu_milli << "m of "
      << cap.cpu_milli << "m, memory " << mebibytes(u.memory_bytes) << " of "
      << mebibytes(cap.memory_bytes) << ", pods " << u.pods << " of "
      << cap.pods << "; pods:";
    for (const auto& p : u.names)
      s << ' ' << p;
    out.push_back(s.str());
  }
  return out;
}

std::vector<std::string>
soak_checker::raced_orphans(const observation& o) const {
  std::vector<std::string> out;
  for (const auto& [name, p] : o.pods)
    if (!p.node.empty() && !o.nodes.contains(p.node) && raced(p))
      out.push_back(name);
  return out;
}

std::vector<std::string> soak_checker::settled(const observation& o) const {
  std::vector<std::string> out;
  auto used = usage_by_node(o);
  for (const auto& [name, p] : o.pods) {
    if (!p.node.empty() || p.terminating || !live_.contains(name))
      continue;
    if (p.scheduled_status != "False" || p.scheduled_reason != "Unschedulable"
        || p.scheduled_message.empty())
      out.push_back("pod " + name
                    + " is pending without a reason: PodScheduled status=\""
                    + p.scheduled_status + "\" reason=\"" + p.scheduled_reason
                    + "\" message=\"" + p.scheduled_message + "\"");
    for (const auto& [node, n] : o.nodes) {
      const auto& u = used[node];
      if (!n.open || u.cpu_milli + p.cpu_milli > n.cpu_milli
          || u.memory_bytes + p.memory_bytes > n.memory_bytes
          || u.pods + 1 > n.pods)
        continue;
      std::ostringstream s;
      s << "pod " << name << " (cpu " << p.cpu_milli << "m, memory "
        << mebibytes(p.memory_bytes) << ") is pending but fits on node " << node
        << " (free cpu " << n.cpu_milli - u.cpu_milli << "m, memory "
        << mebibytes(n.memory_bytes - u.memory_bytes) << ", pods "
        << n.pods - u.pods << ")";
      out.push_back(s.str());
      break;
    }
  }
  return out;
}

} // namespace tessera::test
