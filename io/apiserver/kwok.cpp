// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/kwok.hpp"

#include "io/apiserver/controller_loop.hpp"
#include "io/apiserver/time_format.hpp"
#include "model/json_access.hpp"
#include "support/log.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <cstdio>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>
#include <vector>

namespace tessera::apiserver {

namespace json = boost::json;
using model::array_at;
using model::object_at;
using model::string_at;

namespace {

constexpr std::string_view fake_annotation = "kwok.x-k8s.io/node";

/// An IPv4 address as a number; 0 when malformed.
std::uint32_t parse_ipv4(std::string_view s) {
  unsigned a, b, c, d;
  std::string t{s};
  if (std::sscanf(t.c_str(), "%u.%u.%u.%u", &a, &b, &c, &d) != 4 || a > 255
      || b > 255 || c > 255 || d > 255)
    return 0;
  return (a << 24) | (b << 16) | (c << 8) | d;
}

std::string format_ipv4(std::uint32_t ip) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 255,
                (ip >> 8) & 255, ip & 255);
  return buf;
}

json::object condition(std::string_view type, std::string_view status,
                       std::string_view reason, std::string_view message,
                       const std::string& now, const std::string& transition) {
  json::object c;
  c["type"] = type;
  c["status"] = status;
  c["reason"] = reason;
  c["message"] = message;
  c["lastHeartbeatTime"] = now;
  c["lastTransitionTime"] = transition;
  return c;
}

/// The conditions of a healthy kubelet's node, heartbeat `now`, each last
/// changed at `transition`.
json::array kubelet_conditions(const std::string& now,
                               const std::string& transition) {
  json::array conds;
  conds.push_back(condition("Ready", "True", "KubeletReady",
                            "kubelet is posting ready status", now,
                            transition));
  conds.push_back(
    condition("MemoryPressure", "False", "KubeletHasSufficientMemory",
              "kubelet has sufficient memory available", now, transition));
  conds.push_back(condition("DiskPressure", "False", "KubeletHasNoDiskPressure",
                            "kubelet has no disk pressure", now, transition));
  conds.push_back(condition("PIDPressure", "False", "KubeletHasSufficientPID",
                            "kubelet has sufficient PID available", now,
                            transition));
  conds.push_back(condition("NetworkUnavailable", "False", "RouteCreated",
                            "RouteController created a route", now,
                            transition));
  return conds;
}

/// One containerStatus per container of the pod spec `spec`, each ready
/// and started as `ready` says, and in `state`.
json::array container_statuses(const json::object* spec, bool ready,
                               const json::object& state) {
  json::array out;
  if (auto* cs = array_at(spec, "containers"))
    for (const auto& c : *cs)
      if (auto* co = c.if_object())
        out.push_back(json::object{{"name", string_at(co, "name")},
                                   {"image", string_at(co, "image")},
                                   {"imageID", ""},
                                   {"ready", ready},
                                   {"started", ready},
                                   {"restartCount", 0},
                                   {"state", state}});
  return out;
}

} // namespace

struct kwok_controller::impl {
  impl(store& s, kwok_config c) : st(s), cfg(c) {
  }

  /// What the controller remembers of a managed node.
  struct node_state {
    std::uint32_t cidr_base = 0;
    std::uint32_t cidr_size = 256;
    std::uint32_t next_ip = 0;
    std::string host_ip;
    std::set<std::string> used_ips;
  };

  store& st;
  kwok_config cfg;
  std::atomic<std::size_t> writes{0};

  // Controller-thread state.
  std::shared_ptr<watcher> nodes_w;
  std::shared_ptr<watcher> pods_w;
  std::unordered_map<std::string, node_state> managed;
  /// Latest object of pods whose node is not (yet) known as managed.
  std::unordered_map<std::string, std::multimap<std::string, object_ptr>>
    parked;
  using due_item = std::pair<time_point, std::string>;
  std::priority_queue<due_item, std::vector<due_item>, std::greater<>> due;
  /// Running Job pods and when their fake run ends.
  std::priority_queue<due_item, std::vector<due_item>, std::greater<>>
    finishing;
  time_point next_heartbeat{};

  const resource_info& pods = primary_resource(storage_kind::pod);
  const resource_info& nodes = primary_resource(storage_kind::node);
  std::vector<watch_event> batch;
  /// False while a pass runs (see pass()).
  bool settled = false;
  /// The longest sleep, and the wait after a failed pass.
  static constexpr std::chrono::milliseconds retry{200};
  controller_loop loop{"kwok", retry, [this] { return pass(); }};

  bool open_watches() {
    for (auto* w : {&nodes_w, &pods_w})
      if (*w)
        (*w)->stop();
    watch_options all;
    auto n = st.watch(nodes, "", all);
    watch_options bound;
    bound.field_selector = "spec.nodeName!=";
    auto p = st.watch(pods, "", bound);
    if (!n || !p)
      return false;
    nodes_w = std::move(*n);
    pods_w = std::move(*p);
    nodes_w->set_notify([this] { loop.notify(); });
    pods_w->set_notify([this] { loop.notify(); });
    return true;
  }

  /// One pass: the watches' news, then whatever falls due. Returns the time
  /// to the next due pod, finishing Job or heartbeat (at most 200 ms).
  std::optional<controller_loop::duration> pass() {
    // Fresh watches on the first pass and after one that threw, whose
    // events were only partly handled: they list every object again.
    if (!settled && !open_watches()) {
      TLOG_ERROR("kwok controller cannot watch the store");
      return retry;
    }
    settled = false;
    batch.clear();
    nodes_w->poll(batch);
    for (auto& ev : batch)
      on_node(ev);
    batch.clear();
    pods_w->poll(batch);
    for (auto& ev : batch)
      on_pod(ev);
    if ((nodes_w->ended() || pods_w->ended()) && !open_watches())
      // Dropped (fault injection or too slow): start over from the state.
      return retry;
    auto now = st.time().now();
    while (!due.empty() && due.top().first <= now) {
      auto key = due.top().second;
      due.pop();
      auto slash = key.find('/');
      auto p = st.get(pods, key.substr(0, slash), key.substr(slash + 1));
      if (p)
        make_ready(*p);
    }
    while (!finishing.empty() && finishing.top().first <= now) {
      auto key = finishing.top().second;
      finishing.pop();
      auto slash = key.find('/');
      auto p = st.get(pods, key.substr(0, slash), key.substr(slash + 1));
      auto phase = p ? (*p)->attrs().field("status.phase") : std::nullopt;
      if (phase && *phase == "Running"
          && (*p)->json().find("\"deletionTimestamp\"") == std::string::npos)
        complete(*p);
    }
    if (cfg.heartbeat_interval.count() > 0 && now >= next_heartbeat) {
      heartbeat();
      next_heartbeat = now + cfg.heartbeat_interval;
    }
    settled = true;
    auto deadline = st.time().now() + retry;
    if (!due.empty() && due.top().first < deadline)
      deadline = due.top().first;
    if (!finishing.empty() && finishing.top().first < deadline)
      deadline = finishing.top().first;
    if (cfg.heartbeat_interval.count() > 0 && next_heartbeat < deadline)
      deadline = next_heartbeat;
    return deadline - st.time().now();
  }

  bool is_managed(const stored_object& node) const {
    if (cfg.manage_all_nodes)
      return true;
    auto parsed = node.parse();
    const auto& root = parsed.value().as_object();
    auto* ann = object_at(object_at(&root, "metadata"), "annotations");
    return string_at(ann, fake_annotation) == "fake";
  }

  void on_node(const watch_event& ev) {
    if (ev.type == event_type::deleted) {
      managed.erase(std::string{ev.object->name()});
      return;
    }
    if (ev.type != event_type::added && ev.type != event_type::modified)
      return;
    const auto& obj = *ev.object;
    if (!is_managed(obj)) {
      managed.erase(std::string{obj.name()});
      return;
    }
    auto parsed = obj.parse();
    const auto& root = parsed.value().as_object();
    auto& ns = managed[std::string{obj.name()}];
    const json::object* spec = object_at(&root, "spec");
    const json::object* status = object_at(&root, "status");
    auto cidr = string_at(spec, "podCIDR");
    std::uint32_t base = 0, size = 256;
    if (!cidr.empty()) {
      auto slash = cidr.find('/');
      base = parse_ipv4(cidr.substr(0, slash));
      if (slash != std::string_view::npos) {
        int bits = std::atoi(std::string{cidr.substr(slash + 1)}.c_str());
        if (bits >= 8 && bits <= 30)
          size = 1u << (32 - bits);
      }
    }
    if (base == 0) {
      base = parse_ipv4("10.0.0.0");
      size = 256;
    }
    ns.cidr_base = base;
    ns.cidr_size = size;
    if (auto* addrs = array_at(status, "addresses"))
      for (const auto& a : *addrs)
        if (auto* ao = a.if_object();
            ao && string_at(ao, "type") == "InternalIP")
          ns.host_ip = string_at(ao, "address");
    bool ready = false;
    if (auto* conds = array_at(status, "conditions"))
      for (const auto& c : *conds)
        if (auto* co = c.if_object(); co && string_at(co, "type") == "Ready")
          ready = string_at(co, "status") == "True";
    if (!ready)
      initialize_node(obj);
    // Pods that arrived before their node did.
    auto it = parked.find(std::string{obj.name()});
    if (it != parked.end()) {
      auto pods_of = std::move(it->second);
      parked.erase(it);
      for (auto& [k, p] : pods_of)
        handle_pod(p);
    }
  }

  void initialize_node(const stored_object& node) {
    auto parsed = node.parse();
    const auto& root = parsed.value().as_object();
    const json::object* status = object_at(&root, "status");
    const json::object* meta = object_at(&root, "metadata");
    auto now = format_time(st.time().wall_now());
    std::string created{string_at(meta, "creationTimestamp")};
    json::object s;
    s["conditions"] = kubelet_conditions(now, created);
    if (!array_at(status, "addresses")) {
      json::array addrs;
      addrs.push_back(
        json::object{{"type", "InternalIP"},
                     {"address", "196.168.0.1"}}); // kwok's default node IP
      addrs.push_back(
        json::object{{"type", "Hostname"}, {"address", node.name()}});
      s["addresses"] = std::move(addrs);
    }
    if (!object_at(status, "capacity") && !object_at(status, "allocatable")) {
      json::object cap{{"cpu", "32"}, {"memory", "256Gi"}, {"pods", "110"}};
      s["capacity"] = cap;
      s["allocatable"] = cap;
    }
    if (!object_at(status, "nodeInfo"))
      s["nodeInfo"] = json::object{{"architecture", "amd64"},
                                   {"operatingSystem", "linux"},
                                   {"kubeletVersion", "kwok-tessera"},
                                   {"kubeProxyVersion", "kwok-tessera"},
                                   {"containerRuntimeVersion", "kwok"},
                                   {"osImage", ""},
                                   {"kernelVersion", ""},
                                   {"machineID", ""},
                                   {"systemUUID", ""},
                                   {"bootID", ""}};
    s["phase"] = "Running";
    auto patch = json::serialize(json::object{{"status", std::move(s)}});
    auto r = st.patch(nodes, "", node.name(), patch_type::strategic, patch,
                      subresource::status);
    if (r)
      ++writes;
    else
      TLOG_WARN("kwok node initialize failed", "node", node.name(), "error",
                r.err().message);
  }

  void on_pod(const watch_event& ev) {
    if (ev.type == event_type::deleted) {
      auto node = ev.object->attrs().field("spec.nodeName");
      if (node)
        if (auto it = parked.find(std::string{*node}); it != parked.end())
          it->second.erase(ev.object->key());
      return;
    }
    if (ev.type != event_type::added && ev.type != event_type::modified)
      return;
    handle_pod(ev.object);
  }

  void handle_pod(const object_ptr& pod) {
    auto field = pod->attrs().field("spec.nodeName");
    if (!field || field->empty())
      return;
    std::string node{*field};
    auto it = managed.find(node);
    if (it == managed.end()) {
      auto& bucket = parked[node];
      bucket.erase(pod->key());
      bucket.emplace(pod->key(), pod);
      return;
    }
    auto parsed = pod->parse();
    const auto& root = parsed.value().as_object();
    const json::object* meta = object_at(&root, "metadata");
    if (meta && meta->contains("deletionTimestamp")) {
      delete_options d;
      d.grace_period_seconds = 0;
      d.precondition_uid = pod->uid();
      auto r = st.remove(pods, pod->ns(), pod->name(), d);
      if (r)
        ++writes;
      return;
    }
    auto phase = pod->attrs().field("status.phase");
    if (phase && *phase == "Pending") {
      if (cfg.pod_ready_delay.count() <= 0)
        make_ready(pod);
      else
        due.emplace(st.time().now() + cfg.pod_ready_delay, pod->key());
      return;
    }
    if (phase && *phase == "Running" && cfg.complete_job_pods)
      if (auto* owners = array_at(meta, "ownerReferences"))
        for (const auto& o : *owners)
          if (auto* oo = o.if_object(); oo && string_at(oo, "kind") == "Job") {
            if (cfg.job_pod_run_time.count() <= 0)
              complete(pod);
            else
              finishing.emplace(st.time().now() + cfg.job_pod_run_time,
                                pod->key());
            break;
          }
  }

  std::string allocate_ip(node_state& ns) {
    std::uint32_t usable = ns.cidr_size > 2 ? ns.cidr_size - 2 : 1;
    for (std::uint32_t tries = 0; tries < usable; ++tries) {
      std::uint32_t off = 1 + (ns.next_ip++ % usable);
      auto ip = format_ipv4(ns.cidr_base + off);
      if (ns.used_ips.size() >= usable || ns.used_ips.insert(ip).second)
        return ip;
    }
    return format_ipv4(ns.cidr_base + 1);
  }

  void make_ready(const object_ptr& pod) {
    auto parsed = pod->parse();
    const auto& root = parsed.value().as_object();
    const json::object* meta = object_at(&root, "metadata");
    const json::object* spec = object_at(&root, "spec");
    auto phase = pod->attrs().field("status.phase");
    if ((meta && meta->contains("deletionTimestamp")) || !phase
        || *phase != "Pending")
      return;
    auto node = pod->attrs().field("spec.nodeName");
    auto it = node ? managed.find(std::string{*node}) : managed.end();
    if (it == managed.end())
      return;
    auto now = format_time(st.time().wall_now());
    json::object s;
    json::array conds;
    for (std::string_view t : {"Initialized", "Ready", "ContainersReady"})
      conds.push_back(json::object{{"type", t},
                                   {"status", "True"},
                                   {"lastProbeTime", nullptr},
                                   {"lastTransitionTime", now}});
    s["conditions"] = std::move(conds);
    s["containerStatuses"] = container_statuses(
      spec, true, json::object{{"running", json::object{{"startedAt", now}}}});
    bool host_network = false;
    if (spec)
      if (auto* h = spec->if_contains("hostNetwork"); h && h->is_bool())
        host_network = h->as_bool();
    std::string host_ip = it->second.host_ip;
    std::string pod_ip = host_network ? host_ip : allocate_ip(it->second);
    if (!host_ip.empty()) {
      s["hostIP"] = host_ip;
      s["hostIPs"] = json::array{json::object{{"ip", host_ip}}};
    }
    s["podIP"] = pod_ip;
    s["podIPs"] = json::array{json::object{{"ip", pod_ip}}};
    s["phase"] = "Running";
    s["startTime"] = now;
    auto patch = json::serialize(json::object{{"status", std::move(s)}});
    auto r = st.patch(pods, pod->ns(), pod->name(), patch_type::strategic,
                      patch, subresource::status);
    if (r)
      ++writes;
  }

  void complete(const object_ptr& pod) {
    auto parsed = pod->parse();
    const auto& root = parsed.value().as_object();
    const json::object* spec = object_at(&root, "spec");
    auto now = format_time(st.time().wall_now());
    json::object s;
    s["containerStatuses"] = container_statuses(
      spec, false,
      json::object{{"terminated", json::object{{"exitCode", 0},
                                               {"reason", "Completed"},
                                               {"startedAt", now},
                                               {"finishedAt", now}}}});
    json::array conds;
    for (std::string_view t : {"Ready", "ContainersReady"})
      conds.push_back(json::object{{"type", t},
                                   {"status", "False"},
                                   {"reason", "PodCompleted"},
                                   {"lastProbeTime", nullptr},
                                   {"lastTransitionTime", now}});
    s["conditions"] = std::move(conds);
    s["phase"] = "Succeeded";
    auto patch = json::serialize(json::object{{"status", std::move(s)}});
    auto r = st.patch(pods, pod->ns(), pod->name(), patch_type::strategic,
                      patch, subresource::status);
    if (r)
      ++writes;
  }

  void heartbeat() {
    static const resource_info* leases
      = find_resource("coordination.k8s.io", "v1", "leases");
    auto now = format_micro_time(st.time().wall_now());
    for (const auto& [name, ns] : managed) {
      auto cur = st.get(*leases, "kube-node-lease", name);
      json::object lease;
      lease["apiVersion"] = "coordination.k8s.io/v1";
      lease["kind"] = "Lease";
      json::object meta{{"name", name}, {"namespace", "kube-node-lease"}};
      json::object spec{{"holderIdentity", name},
                        {"leaseDurationSeconds", 40},
                        {"renewTime", now}};
      if (cur) {
        meta["resourceVersion"] = std::to_string((*cur)->resource_version());
        lease["metadata"] = std::move(meta);
        lease["spec"] = std::move(spec);
        auto r = st.update(*leases, "kube-node-lease", name,
                           json::serialize(lease), subresource::main);
        if (r)
          ++writes;
      } else {
        auto node = st.get(nodes, "", name);
        if (node)
          meta["ownerReferences"]
            = json::array{json::object{{"apiVersion", "v1"},
                                       {"kind", "Node"},
                                       {"name", name},
                                       {"uid", (*node)->uid()}}};
        lease["metadata"] = std::move(meta);
        lease["spec"] = std::move(spec);
        auto r = st.create(*leases, "kube-node-lease", json::serialize(lease));
        if (r)
          ++writes;
      }
    }
  }
};

kwok_controller::kwok_controller(store& s, kwok_config config)
  : impl_(std::make_unique<impl>(s, config)) {
}

kwok_controller::~kwok_controller() {
  impl_->loop.stop();
  if (impl_->nodes_w)
    impl_->nodes_w->stop();
  if (impl_->pods_w)
    impl_->pods_w->stop();
}

std::size_t kwok_controller::writes() const {
  return impl_->writes.load();
}

// ---- node generator ---------------------------------------------------------

namespace {

constexpr std::string_view default_node_template = R"({
  "apiVersion": "v1",
  "kind": "Node",
  "metadata": {
    "annotations": {"node.alpha.kubernetes.io/ttl": "0"},
    "labels": {
      "beta.kubernetes.io/arch": "amd64",
      "beta.kubernetes.io/os": "linux",
      "kubernetes.io/arch": "amd64",
      "kubernetes.io/os": "linux",
      "kubernetes.io/role": "agent",
      "node-role.kubernetes.io/agent": "",
      "type": "kwok"
    }
  },
  "status": {
    "allocatable": {"cpu": "4", "memory": "32Gi", "pods": "110"},
    "capacity": {"cpu": "4", "memory": "32Gi", "pods": "110"},
    "nodeInfo": {
      "architecture": "amd64", "bootID": "", "containerRuntimeVersion": "kwok",
      "kernelVersion": "", "kubeProxyVersion": "kwok-tessera",
      "kubeletVersion": "kwok-tessera", "machineID": "",
      "operatingSystem": "linux", "osImage": "", "systemUUID": ""
    },
    "phase": "Running"
  }
})";

json::object& kensure(json::object& parent, std::string_view key) {
  auto& v = parent[key];
  if (!v.is_object())
    v = json::object{};
  return v.as_object();
}

} // namespace

expected<std::string> fake_node_json(std::size_t index,
                                     const fake_node_options& options) {
  json::error_code ec;
  json::value doc = json::parse(options.template_json.empty()
                                  ? default_node_template
                                  : std::string_view{options.template_json},
                                ec);
  if (ec || !doc.is_object())
    return make_error(ec::invalid_input,
                      "node template is not a JSON object: "
                        + (ec ? ec.message() : std::string{"wrong type"}));
  auto& root = doc.as_object();
  char suffix[16];
  std::snprintf(suffix, sizeof suffix, "%06zu", index);
  std::string name = options.name_prefix + suffix;
  root["apiVersion"] = "v1";
  root["kind"] = "Node";
  {
    auto& meta = kensure(root, "metadata");
    meta.erase("resourceVersion");
    meta.erase("uid");
    meta["name"] = name;
    auto& ann = kensure(meta, "annotations");
    ann[fake_annotation] = "fake";
    auto& labels = kensure(meta, "labels");
    labels["kubernetes.io/hostname"] = name;
    labels["kwok.x-k8s.io/kwokctl-scale"] = "node";
    if (options.zones > 0)
      labels["topology.kubernetes.io/zone"]
        = "zone-"
          + std::to_string(index % static_cast<std::size_t>(options.zones));
  }
  // 10.0.0.0/24 and 192.0.2.1 shifted by the index, as kwokctl does.
  std::uint32_t cidr
    = parse_ipv4("10.0.0.0") + static_cast<std::uint32_t>(index) * 256;
  std::string pod_cidr = format_ipv4(cidr) + "/24";
  std::string node_ip
    = format_ipv4(parse_ipv4("192.0.2.1") + static_cast<std::uint32_t>(index));
  {
    auto& spec = kensure(root, "spec");
    if (!spec.contains("podCIDR")) {
      spec["podCIDR"] = pod_cidr;
      spec["podCIDRs"] = json::array{pod_cidr};
    }
    if (options.taint) {
      auto& t = spec["taints"];
      if (!t.is_array())
        t = json::array{};
      t.as_array().push_back(json::object{{"key", "kwok.x-k8s.io/node"},
                                          {"value", "fake"},
                                          {"effect", "NoSchedule"}});
    }
  }
  auto& status = kensure(root, "status");
  if (!status.contains("addresses"))
    status["addresses"]
      = json::array{json::object{{"type", "InternalIP"}, {"address", node_ip}},
                    json::object{{"type", "Hostname"}, {"address", name}}};
  if (!status.contains("conditions")) {
    auto now = format_time(std::chrono::system_clock::now());
    status["conditions"] = kubelet_conditions(now, now);
  }
  return json::serialize(doc);
}

error create_fake_nodes(store& s, std::size_t count,
                        const fake_node_options& options) {
  const auto& nodes = primary_resource(storage_kind::node);
  for (std::size_t i = 0; i < count; ++i) {
    auto text = fake_node_json(i, options);
    if (!text)
      return text.err();
    auto r = s.create(nodes, "", *text);
    if (!r)
      return to_error(r.err());
  }
  return {};
}

} // namespace tessera::apiserver
