// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/workload_controller.hpp"

#include "io/apiserver/admission.hpp"
#include "io/apiserver/time_format.hpp"
#include "io/apiserver/workload_state.hpp"
#include "model/json_access.hpp"
#include "support/log.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace tessera::apiserver::workloads {

namespace json = boost::json;
using model::array_at;
using model::bool_at;
using model::int_at;
using model::object_at;
using model::string_at;

namespace {

/// The node a DaemonSet's pod is for: the value of its required node
/// affinity's `metadata.name` field term; "" for other pods.
std::string daemon_target(const json::object& pod) {
  const json::object* required = object_at(
    object_at(object_at(object_at(pod, "spec"), "affinity"), "nodeAffinity"),
    "requiredDuringSchedulingIgnoredDuringExecution");
  if (auto* terms = array_at(required, "nodeSelectorTerms"))
    for (const auto& t : *terms)
      if (auto* fields = array_at(t.if_object(), "matchFields"))
        for (const auto& f : *fields)
          if (auto* fo = f.if_object();
              fo && string_at(fo, "key") == "metadata.name")
            if (auto* values = array_at(fo, "values");
                values && values->size() == 1 && values->at(0).is_string())
              return std::string{values->at(0).as_string()};
  return {};
}

pod_info read_pod(const stored_object& obj, const json::object& root) {
  pod_info p;
  p.ns = obj.ns();
  p.name = obj.name();
  p.rv = obj.resource_version();
  p.owner = controller_uid(root);
  auto node = obj.attrs().field("spec.nodeName");
  p.bound = node && !node->empty();
  if (p.bound)
    p.node = *node;
  else
    p.node = daemon_target(root);
  if (auto r = obj.attrs().label(revision_label))
    p.revision = *r;
  auto phase = obj.attrs().field("status.phase");
  p.running = phase && *phase == "Running";
  p.succeeded = phase && *phase == "Succeeded";
  p.failed = phase && *phase == "Failed";
  p.deleting = object_at(root, "metadata")->contains("deletionTimestamp");
  p.ready = p.running && admission::pod_ready(root);
  return p;
}

} // namespace

const resource_info& res(storage_kind k) {
  return primary_resource(k);
}

std::string controller_uid(const json::object& root) {
  if (auto* refs = array_at(object_at(root, "metadata"), "ownerReferences"))
    for (const auto& r : *refs)
      if (auto* ro = r.if_object())
        if (auto* c = ro->if_contains("controller");
            c && c->is_bool() && c->as_bool())
          return std::string{string_at(ro, "uid")};
  return {};
}

std::int64_t scaled_value(const json::value* v, std::int64_t total,
                          bool round_up, std::int64_t absent) {
  if (!v || v->is_null())
    return absent;
  if (auto* i = v->if_int64())
    return *i;
  if (auto* s = v->if_string(); s && !s->empty() && s->back() == '%') {
    double pct = std::atof(std::string{s->data(), s->size() - 1}.c_str());
    double x = pct * static_cast<double>(total) / 100.0;
    return static_cast<std::int64_t>(round_up ? std::ceil(x) : std::floor(x));
  }
  return absent;
}

std::string template_hash(const json::value& tmpl) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : json::serialize(tmpl)) {
    h ^= c;
    h *= 16777619u;
  }
  static constexpr std::string_view alphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string out;
  for (char d : std::to_string(h))
    out += alphabet[static_cast<unsigned char>(d) % alphabet.size()];
  return out;
}

json::object owner_reference(std::string_view api_version,
                             std::string_view kind, const stored_object& o) {
  return json::object{
    {"apiVersion", api_version}, {"kind", kind},
    {"name", o.name()},          {"uid", o.uid()},
    {"controller", true},        {"blockOwnerDeletion", true}};
}

json::object condition(const json::array* old, std::string_view type,
                       bool status, std::string_view reason,
                       std::string message, const std::string& now,
                       bool update_time) {
  json::object c{{"type", type},
                 {"status", status ? "True" : "False"},
                 {"reason", reason},
                 {"message", std::move(message)}};
  std::string since = now;
  if (old)
    for (const auto& o : *old)
      if (auto* oo = o.if_object();
          oo && string_at(oo, "type") == type
          && (string_at(oo, "status") == "True") == status
          && string_at(oo, "reason") == reason)
        since = std::string{string_at(oo, "lastTransitionTime")};
  if (update_time)
    c["lastUpdateTime"] = since;
  c["lastTransitionTime"] = since;
  return c;
}

workload_state::workload_state(store& s, workload_controller_config c)
  : st(s), cfg(c), loop("workload", c.resync,
                        [this]() -> std::optional<controller_loop::duration> {
                          if (pass() || watch_missing())
                            return cfg.resync;
                          return std::nullopt;
                        }) {
}

workload_state::~workload_state() {
  loop.stop();
  for (auto* w : {&deployments_w, &sets_w, &jobs_w, &daemons_w, &stateful_w,
                  &pods_w, &nodes_w})
    if (*w)
      (*w)->stop();
}

std::shared_ptr<watcher> workload_state::open(storage_kind kind) {
  auto w = st.watch(res(kind), "", {});
  if (!w)
    return nullptr;
  (*w)->set_notify([this] { loop.notify(); });
  return std::move(*w);
}

void workload_state::drain_owners(std::shared_ptr<watcher>& w,
                                  storage_kind kind,
                                  std::map<std::string, owner_entry>& into) {
  if (!w || w->ended()) {
    // Resynchronise: the re-opened watch starts with every object.
    into.clear();
    w = open(kind);
    if (!w)
      return;
  }
  std::vector<watch_event> events;
  w->poll(events);
  for (auto& ev : events) {
    if (ev.type == event_type::bookmark || ev.type == event_type::error)
      continue;
    const auto& uid = ev.object->uid();
    if (ev.type == event_type::deleted) {
      into.erase(uid);
      gone.insert(uid);
      continue;
    }
    auto& e = into[uid];
    if (e.obj && e.obj->resource_version() > ev.object->resource_version())
      continue;
    e.obj = ev.object;
    if (kind == storage_kind::replica_set) {
      auto doc = ev.object->parse();
      e.owner = controller_uid(doc.value().as_object());
    }
  }
}

void workload_state::drain_nodes() {
  if (daemons.empty()) {
    if (nodes_w) {
      nodes_w->stop();
      nodes_w.reset();
      nodes.clear();
    }
    return;
  }
  if (!nodes_w || nodes_w->ended()) {
    nodes.clear();
    nodes_w = open(storage_kind::node);
    if (!nodes_w)
      return;
  }
  std::vector<watch_event> events;
  nodes_w->poll(events);
  for (auto& ev : events) {
    if (ev.type == event_type::bookmark || ev.type == event_type::error)
      continue;
    if (ev.type == event_type::deleted)
      nodes.erase(std::string{ev.object->name()});
    else
      nodes[std::string{ev.object->name()}].obj = ev.object;
  }
}

bool workload_state::watch_missing() const {
  if (!deployments_w || !jobs_w || !sets_w || !daemons_w || !stateful_w)
    return true;
  if (!daemons.empty() && !nodes_w)
    return true;
  bool owners = !deployments.empty() || !sets.empty() || !jobs.empty()
                || !daemons.empty() || !stateful.empty() || !gone.empty();
  return owners && !pods_w;
}

void workload_state::forget_pod(const std::string& key) {
  auto it = owner_of.find(key);
  if (it == owner_of.end())
    return;
  auto bucket = pods.find(it->second);
  if (bucket != pods.end()) {
    bucket->second.erase(key);
    if (bucket->second.empty())
      pods.erase(bucket);
  }
  owner_of.erase(it);
}

bool workload_state::known_owner(const std::string& uid) const {
  return sets.contains(uid) || jobs.contains(uid) || daemons.contains(uid)
         || stateful.contains(uid) || gone.contains(uid);
}

void workload_state::index_pod(const object_ptr& obj) {
  const std::string& key = obj->key();
  if (auto it = owner_of.find(key); it != owner_of.end()) {
    auto& bucket = pods[it->second];
    if (auto p = bucket.find(key);
        p != bucket.end() && p->second.rv > obj->resource_version())
      return;
  }
  // Most pods of a scheduler benchmark have no owner: no parse.
  if (obj->json().find("\"ownerReferences\"") == std::string::npos) {
    forget_pod(key);
    return;
  }
  auto doc = obj->parse();
  pod_info p = read_pod(*obj, doc.value().as_object());
  if (p.owner.empty() || !known_owner(p.owner)) {
    forget_pod(key);
    return;
  }
  if (auto it = owner_of.find(key);
      it != owner_of.end() && it->second != p.owner)
    forget_pod(key);
  owner_of[key] = p.owner;
  pods[p.owner][key] = std::move(p);
}

void workload_state::drain_pods() {
  // A deployment's first pass creates a replica set and its pods: the
  // index must be there before, or the next pass would not see them.
  bool want = !deployments.empty() || !sets.empty() || !jobs.empty()
              || !daemons.empty() || !stateful.empty() || !gone.empty();
  if (!want) {
    if (pods_w) {
      pods_w->stop();
      pods_w.reset();
      pods.clear();
      owner_of.clear();
      pods_open = false;
    }
    return;
  }
  if (!pods_w || pods_w->ended()) {
    pods.clear();
    owner_of.clear();
    pods_w = open(storage_kind::pod);
    pods_open = pods_w != nullptr;
    if (!pods_w)
      return;
  }
  std::vector<watch_event> events;
  pods_w->poll(events);
  for (auto& ev : events) {
    if (ev.type == event_type::bookmark || ev.type == event_type::error)
      continue;
    if (ev.type == event_type::deleted)
      forget_pod(ev.object->key());
    else
      index_pod(ev.object);
  }
}

const std::map<std::string, pod_info>&
workload_state::pods_of(const std::string& owner) const {
  static const std::map<std::string, pod_info> none;
  auto it = pods.find(owner);
  return it == pods.end() ? none : it->second;
}

pod_counts workload_state::count(const std::string& owner) const {
  pod_counts c;
  for (const auto& [k, p] : pods_of(owner)) {
    if (p.active()) {
      ++c.active;
      if (p.ready)
        ++c.ready;
    }
    if (p.succeeded)
      ++c.succeeded;
    if (p.failed)
      ++c.failed;
  }
  return c;
}

void workload_state::note_write() {
  writes.fetch_add(1, std::memory_order_relaxed);
}

bool workload_state::create_pod(
  const stored_object& owner, const json::object* tmpl, json::object owner_ref,
  std::string_view name, const std::function<void(json::object&)>& adjust) {
  json::object meta;
  if (auto* m = object_at(tmpl, "metadata"))
    for (std::string_view k : {"labels", "annotations"})
      if (auto* v = m->if_contains(k))
        meta[k] = *v;
  if (name.empty())
    meta["generateName"] = std::string{owner.name()} + "-";
  else
    meta["name"] = name;
  meta["namespace"] = owner.ns();
  meta["ownerReferences"] = json::array{std::move(owner_ref)};
  json::object pod{
    {"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", std::move(meta)}};
  if (auto* spec = object_at(tmpl, "spec"))
    pod["spec"] = *spec;
  if (adjust)
    adjust(pod);
  auto r = st.create(res(storage_kind::pod), owner.ns(), json::serialize(pod));
  if (!r) {
    TLOG_V(2, "workload controller: pod create failed", "owner", owner.key(),
           "error", r.err().message);
    return false;
  }
  note_write();
  if (pods_w)
    index_pod(*r);
  return true;
}

void workload_state::delete_pod(const std::string& key, const pod_info& p) {
  auto r = st.remove(res(storage_kind::pod), p.ns, p.name);
  if (!r)
    return;
  note_write();
  if (r->removed)
    forget_pod(key);
  else
    index_pod(r->object);
}

void workload_state::delete_pods(const std::string& owner, std::int64_t n) {
  auto it = pods.find(owner);
  if (it == pods.end() || n <= 0)
    return;
  std::vector<std::pair<std::string, pod_info>> victims;
  for (const auto& [k, p] : it->second)
    if (p.active())
      victims.emplace_back(k, p);
  std::sort(victims.begin(), victims.end(), [](const auto& a, const auto& b) {
    const auto& x = a.second;
    const auto& y = b.second;
    if (x.bound != y.bound)
      return !x.bound;
    if (x.running != y.running)
      return !x.running;
    if (x.ready != y.ready)
      return !x.ready;
    return x.rv > y.rv;
  });
  for (std::int64_t i = 0; i < n && i < std::ssize(victims); ++i)
    delete_pod(victims[static_cast<std::size_t>(i)].first,
               victims[static_cast<std::size_t>(i)].second);
}

void workload_state::write_status(storage_kind kind, const stored_object& obj,
                                  const json::object* old,
                                  json::object status) {
  if (old && json::value(*old) == json::value(status))
    return;
  // Replaces the whole status: a merge patch would keep fields of the
  // old status that this one drops.
  json::array patch{json::object{
    {"op", "add"}, {"path", "/status"}, {"value", std::move(status)}}};
  auto r = st.patch(res(kind), obj.ns(), obj.name(), patch_type::json_patch,
                    json::serialize(patch), subresource::status);
  if (r)
    note_write();
}

bool workload_state::collect() {
  for (auto it = gone.begin(); it != gone.end();) {
    const std::string uid = *it;
    bool left = false;
    for (auto s = sets.begin(); s != sets.end();) {
      if (s->second.owner == uid) {
        left = true;
        auto r = st.remove(res(storage_kind::replica_set), s->second.obj->ns(),
                           s->second.obj->name());
        if (r)
          note_write();
      }
      ++s;
    }
    if (auto b = pods.find(uid); b != pods.end()) {
      left = true;
      std::vector<std::pair<std::string, pod_info>> all(b->second.begin(),
                                                        b->second.end());
      for (const auto& [k, p] : all)
        if (!p.deleting)
          delete_pod(k, p);
    }
    it = left ? std::next(it) : gone.erase(it);
  }
  return !gone.empty();
}

bool workload_state::pass() {
  // Owners before pods: a pod change written before its owner's deletion
  // (an orphaning delete) is then seen before the collection it averts.
  drain_owners(deployments_w, storage_kind::deployment, deployments);
  drain_owners(jobs_w, storage_kind::job, jobs);
  drain_owners(sets_w, storage_kind::replica_set, sets);
  drain_owners(daemons_w, storage_kind::daemon_set, daemons);
  drain_owners(stateful_w, storage_kind::stateful_set, stateful);
  drain_nodes();
  drain_pods();
  bool busy = collect();
  if (deployments.empty() && sets.empty() && jobs.empty() && daemons.empty()
      && stateful.empty()) {
    if (!busy)
      drain_pods(); // closes the pod watch
    return busy;
  }
  for (auto& [uid, d] : deployments)
    busy |= sync_deployment(d);
  for (auto& [uid, rs] : sets)
    busy |= sync_set(rs);
  for (auto& [uid, j] : jobs)
    busy |= sync_job(j);
  for (auto& [uid, ds] : daemons)
    busy |= sync_daemon_set(ds);
  for (auto& [uid, sts] : stateful)
    busy |= sync_stateful_set(sts);
  return busy;
}

} // namespace tessera::apiserver::workloads

namespace tessera::apiserver {

struct workload_controller::impl {
  impl(store& s, workload_controller_config c) : state(s, c) {
  }
  workloads::workload_state state;
};

workload_controller::workload_controller(store& s,
                                         workload_controller_config config)
  : impl_(std::make_unique<impl>(s, config)) {
}

workload_controller::~workload_controller() = default;

std::size_t workload_controller::writes() const {
  return impl_->state.writes.load(std::memory_order_relaxed);
}

bool workload_controller::watching_pods() const {
  return impl_->state.pods_open.load(std::memory_order_relaxed);
}

} // namespace tessera::apiserver
