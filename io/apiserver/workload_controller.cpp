// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/workload_controller.hpp"

#include "io/apiserver/admission.hpp"
#include "io/apiserver/time_format.hpp"
#include "io/apiserver/wake_signal.hpp"
#include "model/json_access.hpp"
#include "support/log.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <exception>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace tessera::apiserver {

namespace json = boost::json;
using model::array_at;
using model::bool_at;
using model::int_at;
using model::object_at;
using model::string_at;

namespace {

constexpr std::string_view hash_label = "pod-template-hash";
constexpr std::string_view revision_annotation
  = "deployment.kubernetes.io/revision";

const resource_info& res(storage_kind k) {
  return primary_resource(k);
}

/// The uid of the controller ownerReference of a parsed object; "" when
/// none.
std::string controller_uid(const json::object& root) {
  if (auto* refs = array_at(object_at(root, "metadata"), "ownerReferences"))
    for (const auto& r : *refs)
      if (auto* ro = r.if_object())
        if (auto* c = ro->if_contains("controller");
            c && c->is_bool() && c->as_bool())
          return std::string{string_at(ro, "uid")};
  return {};
}

/// What the controllers need of one pod.
struct pod_info {
  std::string ns;
  std::string name;
  std::uint64_t rv = 0;
  std::string owner;
  bool bound = false;
  bool running = false;
  bool ready = false;
  bool deleting = false;
  bool succeeded = false;
  bool failed = false;
  bool active() const {
    return !deleting && !succeeded && !failed;
  }
};

pod_info read_pod(const stored_object& obj, const json::object& root) {
  pod_info p;
  p.ns = obj.ns();
  p.name = obj.name();
  p.rv = obj.resource_version();
  p.owner = controller_uid(root);
  auto node = obj.attrs().field("spec.nodeName");
  p.bound = node && !node->empty();
  auto phase = obj.attrs().field("status.phase");
  p.running = phase && *phase == "Running";
  p.succeeded = phase && *phase == "Succeeded";
  p.failed = phase && *phase == "Failed";
  p.deleting = object_at(root, "metadata")->contains("deletionTimestamp");
  p.ready = p.running && admission::pod_ready(root);
  return p;
}

/// Pod counts of one owner.
struct pod_counts {
  std::int64_t active = 0;
  std::int64_t ready = 0;
  std::int64_t succeeded = 0;
  std::int64_t failed = 0;
};

/// An owner as last seen: the object, its uid and controller owner.
struct owner_entry {
  object_ptr obj;
  std::string owner;
};

/// An int-or-percent of `total` (percentages rounded up or down).
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

/// The pod-template-hash of a template: FNV-1a of its JSON, its decimal
/// digits spelled in the alphabet of generated names (no vowels, so no
/// words).
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

/// A condition of a status, carrying over the times of `old` when its
/// status and reason are unchanged (so a settled object is not rewritten).
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

} // namespace

struct workload_controller::impl {
  impl(store& s, workload_controller_config c) : st(s), cfg(c) {
    thread = std::thread([this] { run(); });
  }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
  ~impl() {
    signal.stop();
    thread.join();
    for (auto* w : {&deployments_w, &sets_w, &jobs_w, &pods_w})
      if (*w)
        (*w)->stop();
  }

  store& st;
  workload_controller_config cfg;
  wake_signal signal;
  std::atomic<std::size_t> writes{0};
  std::atomic<bool> pods_open{false};
  std::thread thread;
  std::shared_ptr<watcher> deployments_w, sets_w, jobs_w, pods_w;

  // Objects by uid.
  std::map<std::string, owner_entry> deployments, sets, jobs;
  /// Uids of deleted owners whose dependents are still to be collected.
  std::set<std::string> gone;
  /// Pods by owner uid, then "ns/name".
  std::unordered_map<std::string, std::map<std::string, pod_info>> pods;
  /// Owner uid of each indexed pod.
  std::unordered_map<std::string, std::string> owner_of;

  std::shared_ptr<watcher> open(storage_kind kind) {
    auto w = st.watch(res(kind), "", {});
    if (!w)
      return nullptr;
    (*w)->set_notify([this] { signal.notify(); });
    return std::move(*w);
  }

  void run() {
    deployments_w = open(storage_kind::deployment);
    sets_w = open(storage_kind::replica_set);
    jobs_w = open(storage_kind::job);
    bool busy = true;
    for (;;) {
      if (!signal.wait(busy ? std::optional{cfg.resync} : std::nullopt))
        return;
      try {
        busy = pass();
      } catch (const std::exception& e) {
        TLOG_ERROR("workload controller pass failed", "error", e.what());
        busy = true;
      }
    }
  }

  // ---- watches and the index ------------------------------------------

  /// Drains one owner watch into `into`; deleted owners go to `gone`.
  void drain_owners(std::shared_ptr<watcher>& w, storage_kind kind,
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

  void forget_pod(const std::string& key) {
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

  bool known_owner(const std::string& uid) const {
    return sets.contains(uid) || jobs.contains(uid) || gone.contains(uid);
  }

  void index_pod(const object_ptr& obj) {
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

  void drain_pods() {
    // A deployment's first pass creates a replica set and its pods: the
    // index must be there before, or the next pass would not see them.
    bool want
      = !deployments.empty() || !sets.empty() || !jobs.empty() || !gone.empty();
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

  pod_counts count(const std::string& owner) const {
    pod_counts c;
    auto it = pods.find(owner);
    if (it == pods.end())
      return c;
    for (const auto& [k, p] : it->second) {
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

  // ---- writes ---------------------------------------------------------

  void note_write() {
    writes.fetch_add(1, std::memory_order_relaxed);
  }

  /// Creates a pod of `owner` from its parsed template.
  bool create_pod(const stored_object& owner, const json::object* tmpl,
                  json::object owner_ref) {
    json::object meta;
    if (auto* m = object_at(tmpl, "metadata"))
      for (std::string_view k : {"labels", "annotations"})
        if (auto* v = m->if_contains(k))
          meta[k] = *v;
    meta["generateName"] = owner.name() + "-";
    meta["namespace"] = owner.ns();
    meta["ownerReferences"] = json::array{std::move(owner_ref)};
    json::object pod{
      {"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", std::move(meta)}};
    if (auto* spec = object_at(tmpl, "spec"))
      pod["spec"] = *spec;
    auto r
      = st.create(res(storage_kind::pod), owner.ns(), json::serialize(pod));
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

  void delete_pod(const std::string& key, const pod_info& p) {
    auto r = st.remove(res(storage_kind::pod), p.ns, p.name);
    if (!r)
      return;
    note_write();
    if (r->removed)
      forget_pod(key);
    else
      index_pod(r->object);
  }

  /// Deletes `n` active pods of `owner`, the least advanced first.
  void delete_pods(const std::string& owner, std::int64_t n) {
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

  /// Merge-patches the status of `obj` when `status` differs from it.
  void write_status(storage_kind kind, const stored_object& obj,
                    const json::object* old, json::object status) {
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

  /// Sets spec.replicas of a replica set; true when written.
  bool scale_set(owner_entry& rs, std::int64_t replicas) {
    auto r
      = st.patch(res(storage_kind::replica_set), rs.obj->ns(), rs.obj->name(),
                 patch_type::merge,
                 R"({"spec":{"replicas":)" + std::to_string(replicas) + "}}",
                 subresource::main);
    if (!r)
      return false;
    note_write();
    rs.obj = *r;
    return true;
  }

  // ---- garbage collection ---------------------------------------------

  /// Deletes the dependents of deleted owners; true while some remain.
  bool collect() {
    for (auto it = gone.begin(); it != gone.end();) {
      const std::string uid = *it;
      bool left = false;
      for (auto s = sets.begin(); s != sets.end();) {
        if (s->second.owner == uid) {
          left = true;
          auto r = st.remove(res(storage_kind::replica_set),
                             s->second.obj->ns(), s->second.obj->name());
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

  // ---- replica sets -----------------------------------------------------

  /// True while the set is not settled.
  bool sync_set(owner_entry& rs) {
    auto doc = rs.obj->parse();
    const auto& root = doc.value().as_object();
    if (object_at(root, "metadata")->contains("deletionTimestamp"))
      return false;
    const json::object* spec = object_at(root, "spec");
    std::int64_t want = int_at(spec, "replicas", 1);
    auto c = count(rs.obj->uid());
    bool busy = false;
    if (c.active < want) {
      for (std::int64_t i = c.active; i < want; ++i)
        if (!create_pod(*rs.obj, object_at(spec, "template"),
                        owner_reference("apps/v1", "ReplicaSet", *rs.obj)))
          break;
      busy = true;
    } else if (c.active > want) {
      delete_pods(rs.obj->uid(), c.active - want);
      busy = true;
    }
    c = count(rs.obj->uid());
    json::object status{{"replicas", c.active},
                        {"fullyLabeledReplicas", c.active},
                        {"readyReplicas", c.ready},
                        {"availableReplicas", c.ready},
                        {"observedGeneration",
                         int_at(object_at(root, "metadata"), "generation")}};
    write_status(storage_kind::replica_set, *rs.obj, object_at(root, "status"),
                 std::move(status));
    return busy || c.ready < want;
  }

  // ---- deployments ------------------------------------------------------

  /// Creates the replica set of the deployment's current template.
  owner_entry* create_set(const stored_object& d, const json::object& root,
                          const std::string& hash, std::int64_t revision,
                          std::int64_t replicas) {
    const json::object* spec = object_at(root, "spec");
    json::value tmpl = spec->at("template");
    auto& tmeta = model::ensure_object(tmpl.as_object(), "metadata");
    model::ensure_object(tmeta, "labels")[hash_label] = hash;
    json::object labels = tmeta.at("labels").as_object();
    json::value selector = json::object{};
    if (auto* s = spec->if_contains("selector"); s && s->is_object())
      selector = *s;
    model::ensure_object(selector.as_object(), "matchLabels")[hash_label]
      = hash;
    json::object set_spec{{"replicas", replicas},
                          {"selector", std::move(selector)},
                          {"template", std::move(tmpl)}};
    if (auto m = int_at(spec, "minReadySeconds"); m > 0)
      set_spec["minReadySeconds"] = m;
    json::object meta{
      {"name", d.name() + "-" + hash},
      {"namespace", d.ns()},
      {"labels", std::move(labels)},
      {"annotations",
       json::object{{revision_annotation, std::to_string(revision)}}},
      {"ownerReferences",
       json::array{owner_reference("apps/v1", "Deployment", d)}}};
    json::object rs{{"apiVersion", "apps/v1"},
                    {"kind", "ReplicaSet"},
                    {"metadata", std::move(meta)},
                    {"spec", std::move(set_spec)}};
    auto r
      = st.create(res(storage_kind::replica_set), d.ns(), json::serialize(rs));
    if (!r) {
      TLOG_V(2, "workload controller: replica set create failed", "owner",
             d.key(), "error", r.err().message);
      return nullptr;
    }
    note_write();
    auto& e = sets[(*r)->uid()];
    e.obj = *r;
    e.owner = d.uid();
    return &e;
  }

  static std::int64_t revision_of(const stored_object& rs) {
    auto doc = rs.parse();
    auto text = string_at(
      object_at(object_at(doc.value().as_object(), "metadata"), "annotations"),
      revision_annotation);
    return std::atoll(std::string{text}.c_str());
  }

  static std::int64_t replicas_of(const stored_object& rs) {
    auto doc = rs.parse();
    return int_at(object_at(doc.value().as_object(), "spec"), "replicas", 1);
  }

  static std::string hash_of(const stored_object& rs) {
    auto* h = rs.attrs().label(hash_label);
    return h ? *h : std::string{};
  }

  /// True while the deployment is not settled.
  bool sync_deployment(owner_entry& d) {
    auto doc = d.obj->parse();
    const auto& root = doc.value().as_object();
    const json::object* meta = object_at(root, "metadata");
    if (meta->contains("deletionTimestamp"))
      return false;
    const json::object* spec = object_at(root, "spec");
    if (!spec || !spec->contains("template"))
      return false;
    const std::int64_t want = int_at(spec, "replicas", 1);
    const std::string hash = template_hash(spec->at("template"));
    const json::object* strategy = object_at(spec, "strategy");
    const bool recreate = string_at(strategy, "type") == "Recreate";
    const json::object* rolling = object_at(strategy, "rollingUpdate");
    std::int64_t surge = scaled_value(
      rolling ? rolling->if_contains("maxSurge") : nullptr, want, true, 0);
    std::int64_t unavailable
      = scaled_value(rolling ? rolling->if_contains("maxUnavailable") : nullptr,
                     want, false, 0);
    if (!rolling) {
      surge = (want + 3) / 4;
      unavailable = want / 4;
    }
    if (surge == 0 && unavailable == 0)
      unavailable = 1;
    const bool paused = bool_at(spec, "paused");

    owner_entry* current = nullptr;
    std::vector<owner_entry*> old;
    std::int64_t max_revision = 0;
    for (auto& [uid, rs] : sets) {
      if (rs.owner != d.obj->uid())
        continue;
      max_revision = std::max(max_revision, revision_of(*rs.obj));
      if (hash_of(*rs.obj) == hash)
        current = &rs;
      else
        old.push_back(&rs);
    }
    std::sort(old.begin(), old.end(), [](owner_entry* a, owner_entry* b) {
      return revision_of(*a->obj) < revision_of(*b->obj);
    });
    auto old_replicas = [&] {
      std::int64_t n = 0;
      for (auto* rs : old)
        n += replicas_of(*rs->obj);
      return n;
    };
    auto old_pods = [&] {
      std::int64_t n = 0;
      for (auto* rs : old)
        n += count(rs->obj->uid()).active;
      return n;
    };

    if (!paused) {
      if (!current) {
        std::int64_t start = 0;
        if (old.empty() || (!recreate && old_replicas() == 0))
          start = want;
        else if (!recreate)
          start
            = std::clamp(want + surge - old_replicas(), std::int64_t{0}, want);
        current = create_set(*d.obj, root, hash, max_revision + 1, start);
        if (current) {
          std::string patch = R"({"metadata":{"annotations":{")"
                              + std::string{revision_annotation} + R"(":")"
                              + std::to_string(max_revision + 1) + "\"}}}";
          if (st.patch(res(storage_kind::deployment), d.obj->ns(),
                       d.obj->name(), patch_type::merge, patch,
                       subresource::main))
            note_write();
        }
      } else if (recreate) {
        for (auto* rs : old)
          if (replicas_of(*rs->obj) > 0)
            scale_set(*rs, 0);
        if (old_pods() == 0 && replicas_of(*current->obj) != want)
          scale_set(*current, want);
      } else if (old_replicas() == 0) {
        if (replicas_of(*current->obj) != want)
          scale_set(*current, want);
      } else {
        std::int64_t total = old_replicas() + replicas_of(*current->obj);
        std::int64_t cur = replicas_of(*current->obj);
        if (cur > want)
          scale_set(*current, want);
        else if (cur < want && total < want + surge)
          scale_set(*current, std::min(want, cur + want + surge - total));
        auto cc = count(current->obj->uid());
        std::int64_t new_unavailable
          = std::max<std::int64_t>(0, replicas_of(*current->obj) - cc.ready);
        std::int64_t all_pods = cc.active + old_pods();
        std::int64_t can_drop
          = all_pods - (want - unavailable) - new_unavailable;
        for (auto* rs : old) {
          if (can_drop <= 0)
            break;
          std::int64_t n = replicas_of(*rs->obj);
          std::int64_t drop = std::min(n, can_drop);
          if (drop > 0 && scale_set(*rs, n - drop))
            can_drop -= drop;
        }
      }
      // Old sets without replicas beyond the history limit go.
      std::int64_t limit = int_at(spec, "revisionHistoryLimit", 10);
      std::int64_t spare = 0;
      for (auto* rs : old)
        if (replicas_of(*rs->obj) == 0 && count(rs->obj->uid()).active == 0)
          ++spare;
      for (auto* rs : old) {
        if (spare <= limit)
          break;
        if (replicas_of(*rs->obj) != 0 || count(rs->obj->uid()).active != 0)
          continue;
        if (st.remove(res(storage_kind::replica_set), rs->obj->ns(),
                      rs->obj->name()))
          note_write();
        --spare;
      }
    }

    // Status from the pods of every set of this deployment.
    pod_counts all;
    pod_counts updated;
    for (auto& [uid, rs] : sets) {
      if (rs.owner != d.obj->uid())
        continue;
      auto c = count(uid);
      all.active += c.active;
      all.ready += c.ready;
      if (&rs == current)
        updated = c;
    }
    const json::object* old_status = object_at(root, "status");
    const json::array* old_conds = array_at(old_status, "conditions");
    std::string now = format_time(st.time().wall_now());
    bool available = all.ready >= want - unavailable;
    bool complete = current && updated.active == want && all.active == want
                    && all.ready == want;
    std::string set_name = current ? current->obj->name() : d.obj->name();
    json::array conds;
    conds.push_back(condition(
      old_conds, "Available", available,
      available ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable",
      available ? "Deployment has minimum availability."
                : "Deployment does not have minimum availability.",
      now, true));
    conds.push_back(condition(
      old_conds, "Progressing", true,
      complete ? "NewReplicaSetAvailable" : "ReplicaSetUpdated",
      "ReplicaSet \"" + set_name
        + (complete ? "\" has successfully progressed." : "\" is progressing."),
      now, true));
    json::object status{{"observedGeneration", int_at(meta, "generation")},
                        {"replicas", all.active},
                        {"updatedReplicas", updated.active},
                        {"readyReplicas", all.ready},
                        {"availableReplicas", all.ready},
                        {"conditions", std::move(conds)}};
    if (want > all.ready)
      status["unavailableReplicas"] = want - all.ready;
    write_status(storage_kind::deployment, *d.obj, old_status,
                 std::move(status));
    return !complete && !paused;
  }

  // ---- jobs ---------------------------------------------------------------

  bool sync_job(owner_entry& j) {
    auto doc = j.obj->parse();
    const auto& root = doc.value().as_object();
    const json::object* meta = object_at(root, "metadata");
    if (meta->contains("deletionTimestamp"))
      return false;
    const json::object* spec = object_at(root, "spec");
    const json::object* old_status = object_at(root, "status");
    const json::array* old_conds = array_at(old_status, "conditions");
    if (old_conds)
      for (const auto& c : *old_conds)
        if (auto* co = c.if_object(); co && string_at(co, "status") == "True"
                                      && (string_at(co, "type") == "Complete"
                                          || string_at(co, "type") == "Failed"))
          return false;
    const bool has_completions = spec && spec->contains("completions")
                                 && !spec->at("completions").is_null();
    const std::int64_t completions = int_at(spec, "completions", 1);
    const std::int64_t parallelism = int_at(spec, "parallelism", 1);
    const std::int64_t backoff = int_at(spec, "backoffLimit", 6);
    const bool suspended = bool_at(spec, "suspend");
    auto c = count(j.obj->uid());
    std::string now = format_time(st.time().wall_now());
    bool done = has_completions ? c.succeeded >= completions
                                : c.succeeded > 0 && c.active == 0;
    bool failed = c.failed > backoff;
    if (failed || suspended) {
      delete_pods(j.obj->uid(), c.active);
    } else if (!done) {
      std::int64_t want = has_completions
                            ? std::min(parallelism, completions - c.succeeded)
                            : (c.succeeded > 0 ? 0 : parallelism);
      if (c.active < want) {
        for (std::int64_t i = c.active; i < want; ++i)
          if (!create_pod(*j.obj, object_at(spec, "template"),
                          owner_reference("batch/v1", "Job", *j.obj)))
            break;
      } else if (c.active > want) {
        delete_pods(j.obj->uid(), c.active - want);
      }
    }
    c = count(j.obj->uid());
    json::object status;
    std::string start{string_at(old_status, "startTime")};
    if (!suspended)
      status["startTime"] = start.empty() ? now : start;
    status["active"] = c.active;
    status["ready"] = c.ready;
    status["terminating"] = 0;
    if (c.succeeded > 0)
      status["succeeded"] = c.succeeded;
    if (c.failed > 0)
      status["failed"] = c.failed;
    status["uncountedTerminatedPods"] = json::object{};
    json::array conds;
    if (failed) {
      std::string msg = "Job has reached the specified backoff limit";
      conds.push_back(condition(old_conds, "FailureTarget", true,
                                "BackoffLimitExceeded", msg, now, false));
      conds.push_back(condition(old_conds, "Failed", true,
                                "BackoffLimitExceeded", msg, now, false));
    } else if (done) {
      conds.push_back(
        condition(old_conds, "SuccessCriteriaMet", true, "CompletionsReached",
                  "Reached expected number of succeeded pods", now, false));
      conds.push_back(
        condition(old_conds, "Complete", true, "CompletionsReached",
                  "Reached expected number of succeeded pods", now, false));
      status["completionTime"] = now;
    } else if (suspended) {
      conds.push_back(condition(old_conds, "Suspended", true, "JobSuspended",
                                "Job suspended", now, false));
    }
    if (!conds.empty())
      status["conditions"] = std::move(conds);
    write_status(storage_kind::job, *j.obj, old_status, std::move(status));
    return !done && !failed && !suspended;
  }

  // ---- one pass -----------------------------------------------------------

  /// Drains the watches and syncs every workload; true while one is not
  /// settled (or dependents remain to be collected).
  bool pass() {
    // Owners before pods: a pod change written before its owner's deletion
    // (an orphaning delete) is then seen before the collection it averts.
    drain_owners(deployments_w, storage_kind::deployment, deployments);
    drain_owners(jobs_w, storage_kind::job, jobs);
    drain_owners(sets_w, storage_kind::replica_set, sets);
    drain_pods();
    bool busy = collect();
    if (deployments.empty() && sets.empty() && jobs.empty()) {
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
    return busy;
  }
};

workload_controller::workload_controller(store& s,
                                         workload_controller_config config)
  : impl_(std::make_unique<impl>(s, config)) {
}

workload_controller::~workload_controller() = default;

std::size_t workload_controller::writes() const {
  return impl_->writes.load(std::memory_order_relaxed);
}

bool workload_controller::watching_pods() const {
  return impl_->pods_open.load(std::memory_order_relaxed);
}

} // namespace tessera::apiserver
