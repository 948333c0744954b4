// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/store.hpp"

#include "io/apiserver/admission.hpp"
#include "io/apiserver/store_state.hpp"
#include "io/apiserver/time_format.hpp"
#include "io/apiserver/write_checks.hpp"
#include "model/json_access.hpp"
#include "support/uuid.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>

namespace tessera::apiserver {

namespace json = boost::json;
using model::ensure_object;
using model::object_at;
using model::string_at;

namespace {

/// The kinds whose metadata.generation counts spec changes (controllers
/// report what they saw as status.observedGeneration).
bool tracks_generation(storage_kind s) {
  switch (s) {
  case storage_kind::pod:
  case storage_kind::pod_disruption_budget:
  case storage_kind::deployment:
  case storage_kind::replica_set:
  case storage_kind::stateful_set:
  case storage_kind::job:
  case storage_kind::daemon_set:
    return true;
  default:
    return false;
  }
}

/// Whether deleting an object of `owner` with `policy` leaves its
/// dependents (jobs orphan by default, as kube-apiserver's legacy default).
bool orphans_dependents(storage_kind owner, std::string_view policy) {
  if (policy == "Orphan")
    return true;
  return policy.empty() && owner == storage_kind::job;
}

std::string make_key(std::string_view ns, std::string_view name) {
  std::string k;
  if (!ns.empty()) {
    k.reserve(ns.size() + 1 + name.size());
    k += ns;
    k += '/';
  }
  k += name;
  return k;
}

/// The stored version of `name` (in `ns` when the resource is namespaced),
/// or null. The caller holds the store's lock.
object_ptr find_stored(const store_state& st, const resource_info& res,
                       std::string_view ns, std::string_view name) {
  const auto& map = st.objects[static_cast<std::size_t>(res.storage)];
  auto it = map.find(make_key(res.namespaced ? ns : "", name));
  return it == map.end() ? nullptr : it->second.obj;
}

/// The DefaultStorageClass admission plugin: a claim that names no class
/// (no storageClassName at all; "" asks for none) gets the newest class
/// annotated storageclass.kubernetes.io/is-default-class=true. Requires
/// `mu`.
void set_default_storage_class(store_state& st, json::object& claim) {
  auto& spec = ensure_object(claim, "spec");
  if (auto* c = spec.if_contains("storageClassName"); c && !c->is_null())
    return;
  std::string chosen;
  std::string newest;
  for (const auto& [key, cur] :
       st.objects[static_cast<std::size_t>(storage_kind::storage_class)]) {
    const auto& json_text = cur.obj->json();
    if (json_text.find("storageclass.kubernetes.io/is-default-class")
        == std::string::npos)
      continue;
    auto doc = cur.obj->parse();
    const auto* meta = model::object_at(doc.value().as_object(), "metadata");
    if (string_at(model::object_at(meta, "annotations"),
                  "storageclass.kubernetes.io/is-default-class")
        != "true")
      continue;
    std::string created{string_at(meta, "creationTimestamp")};
    if (chosen.empty() || created >= newest) {
      chosen = cur.obj->name();
      newest = std::move(created);
    }
  }
  if (!chosen.empty())
    spec["storageClassName"] = chosen;
}

/// The `default` ServiceAccount of a new namespace, as the service account
/// controller creates it. Requires `mu`.
void add_default_service_account(store_state& st, std::string_view ns) {
  json::object sa{
    {"kind", "ServiceAccount"},
    {"apiVersion", "v1"},
    {"metadata",
     json::object{{"name", "default"},
                  {"namespace", ns},
                  {"uid", st.new_uid()},
                  {"creationTimestamp", format_time(st.clk->wall_now())}}}};
  st.commit(storage_kind::service_account, event_type::added,
            json_doc::adopt(std::move(sa)), nullptr);
}

/// Takes the ownerReferences to `uid` out of the objects in `ns` that a
/// `owner` kind owns (a deployment's replica sets, a workload's pods), in
/// writes of their own before the owner's deletion: an orphaning delete.
/// Requires `mu`.
void orphan_dependents(store_state& st, storage_kind owner, std::string_view ns,
                       std::string_view uid) {
  storage_kind dependents = owner == storage_kind::deployment
                              ? storage_kind::replica_set
                              : storage_kind::pod;
  if (owner != storage_kind::deployment && owner != storage_kind::replica_set
      && owner != storage_kind::stateful_set && owner != storage_kind::job
      && owner != storage_kind::daemon_set
      && owner != storage_kind::replication_controller)
    return;
  auto& map = st.objects[static_cast<std::size_t>(dependents)];
  std::vector<object_ptr> owned;
  for (auto it = map.lower_bound(make_key(ns, "")); it != map.end(); ++it) {
    const auto& obj = it->second.obj;
    if (obj->ns() != ns)
      break;
    // The uid is unique: an object that does not mention it is not owned.
    if (obj->json().find(uid) != std::string::npos)
      owned.push_back(obj);
  }
  for (const auto& obj : owned) {
    json_doc doc = obj->parse();
    auto* meta = model::object_at(doc.value().as_object(), "metadata");
    auto* refs = meta ? meta->if_contains("ownerReferences") : nullptr;
    if (!refs || !refs->is_array())
      continue;
    auto& arr = refs->as_array();
    auto before = arr.size();
    arr.erase(std::remove_if(arr.begin(), arr.end(),
                             [&](const json::value& r) {
                               auto* ro = r.if_object();
                               return ro && string_at(*ro, "uid") == uid;
                             }),
              arr.end());
    if (arr.size() == before)
      continue;
    if (arr.empty())
      meta->erase("ownerReferences");
    st.commit(dependents, event_type::modified, std::move(doc), obj);
  }
}

/// Equality as boost::json's operator== (objects compare as maps, in any
/// key order), but each key is first looked for at the same position in the
/// other object: two versions of one object keep their key order, so the
/// no-op check of every update skips the per-key lookups that dominate it.
bool same_json(const json::value& a, const json::value& b) {
  if (a.kind() != b.kind())
    return a == b; // int64 and uint64 of one value are equal
  if (const auto* x = a.if_object()) {
    const auto& y = b.get_object();
    if (x->size() != y.size())
      return false;
    auto at = y.begin();
    for (const auto& kv : *x) {
      const json::value* other = nullptr;
      if (at != y.end() && at->key() == kv.key())
        other = &at->value();
      else if (other = y.if_contains(kv.key()); !other)
        return false;
      if (!same_json(kv.value(), *other))
        return false;
      if (at != y.end())
        ++at;
    }
    return true;
  }
  if (const auto* x = a.if_array()) {
    const auto& y = b.get_array();
    if (x->size() != y.size())
      return false;
    for (std::size_t i = 0; i < x->size(); ++i)
      if (!same_json((*x)[i], y[i]))
        return false;
    return true;
  }
  return a == b;
}

/// Parses a request body into a JSON object in a fresh arena.
api_result<json_doc> parse_body(std::string_view body) {
  json_doc d;
  std::string error;
  if (!json_doc::parse(body, d, error))
    return status::bad_request("couldn't get version/kind; json parse error: "
                               + error);
  if (!d.value().is_object())
    return status::bad_request("couldn't get version/kind; json parse error: "
                               "the body is not a JSON object");
  return d;
}

/// Checks kind/apiVersion of a body against the resource, then stamps the
/// stored form's kind/apiVersion.
std::optional<api_status> check_type(const resource_info& res,
                                     json::object& obj) {
  auto kind = string_at(obj, "kind");
  auto api = string_at(obj, "apiVersion");
  std::string want_api = res.api_version();
  if (!api.empty() && api != want_api)
    return status::bad_request(
      "the API version in the data (" + std::string{api}
      + ") does not match the expected API version (" + want_api + ")");
  if (!kind.empty() && kind != res.kind)
    return status::bad_request("the kind in the data (" + std::string{kind}
                               + ") does not match the expected kind ("
                               + std::string{res.kind} + ")");
  obj["kind"] = res.kind;
  obj["apiVersion"] = want_api;
  return std::nullopt;
}

/// Converts a presented document to the stored form (events.k8s.io).
json_doc to_stored(const resource_info& res, json_doc doc) {
  if (res.view == resource_view::events_v1)
    return json_doc::adopt(admission::event_v1_to_core(doc.value()));
  return doc;
}

/// A create or update body: parsed, checked against the kind `res` serves
/// and its fields, and in the stored form.
api_result<json_doc> parse_stored_body(const resource_info& res,
                                       std::string_view body,
                                       const write_options& options) {
  auto parsed = parse_body(body);
  if (!parsed)
    return parsed.err();
  json_doc doc = std::move(*parsed);
  if (auto e = check_type(res, doc.value().as_object()))
    return *e;
  if (auto e = check_fields(res, body, false, doc.value().as_object(), options))
    return *e;
  if (auto e = check_quantities_parse(res, doc.value().as_object(), options))
    return *e;
  return to_stored(res, std::move(doc));
}

/// A writable copy of a stored document as `res` presents it.
json_doc to_view(const resource_info& res, const json::value& doc) {
  if (res.view == resource_view::events_v1)
    return json_doc::adopt(admission::event_core_to_v1(doc));
  return json_doc::copy_of(doc);
}

std::string storage_error_key(const resource_info& res, std::string_view ns,
                              std::string_view name) {
  std::string key = "/registry/";
  key += res.name;
  key += '/';
  if (!ns.empty()) {
    key += ns;
    key += '/';
  }
  key += name;
  return key;
}

/// NamespaceLifecycle's refusal of a create in a Terminating namespace.
api_status namespace_terminating(const resource_info& res, std::string_view ns,
                                 std::string_view name) {
  auto s = status::forbidden(res.qualified_name(), name,
                             "unable to create new content in namespace "
                               + std::string{ns}
                               + " because it is being terminated");
  s.causes.push_back({"NamespaceTerminating",
                      "namespace " + std::string{ns} + " is being terminated",
                      "metadata.namespace"});
  return s;
}

/// True when no namespaced object lives in namespace `ns`.
bool namespace_empty(const store_state& st, std::string_view ns) {
  std::string prefix = std::string{ns} + '/';
  for (const auto& m : st.objects) {
    auto i = m.lower_bound(prefix);
    if (i != m.end() && i->first.compare(0, prefix.size(), prefix) == 0)
      return false;
  }
  return true;
}

api_status precondition_failed(const resource_info& res, std::string_view ns,
                               std::string_view name, std::string_view what,
                               std::string_view want, std::string_view have) {
  std::string why = "StorageError: invalid object, Code: 4, Key: "
                    + storage_error_key(res, ns, name)
                    + ", ResourceVersion: 0, AdditionalErrorMsg: Precondition "
                      "failed: ";
  why += what;
  why += " in precondition: ";
  why += want;
  why += ", ";
  why += what;
  why += " in object meta: ";
  why += have;
  return status::conflict(res.qualified_name(), name, why);
}

} // namespace

// ---- store_state ----------------------------------------------------------

store_state::store_state(store_config c) : cfg(std::move(c)) {
  clk = cfg.time ? cfg.time : &system_clock::instance();
  std::uint64_t seed = cfg.seed;
  if (seed == 0)
    seed
      = std::random_device{}() ^ (std::uint64_t{std::random_device{}()} << 32);
  rng.seed(seed);
  watches_to_refuse = cfg.refuse_watches;
  rv = cfg.initial_resource_version;
  if (rv == 0)
    rv = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count());
  compacted = rv;
  if (cfg.history_size == 0)
    cfg.history_size = 1;
}

std::string store_state::new_uid() {
  std::uint64_t a = rng();
  std::uint64_t b = rng();
  return format_uuid_v4(a, b);
}

object_ptr store_state::commit(storage_kind storage, event_type type,
                               json_doc doc, object_ptr prev) {
  std::uint64_t next = ++rv;
  ensure_object(doc.value().as_object(), "metadata")["resourceVersion"]
    = std::to_string(next);
  auto obj = stored_object::make(storage, doc.value());
  if (storage == storage_kind::priority_class) {
    if (type == event_type::deleted) {
      priority_classes.erase(std::string{obj->name()});
    } else {
      const auto& d = doc.value().as_object();
      priority_class_info pc;
      if (auto* v = d.if_contains("value"); v && v->is_int64())
        pc.info.value = static_cast<std::int32_t>(v->as_int64());
      pc.info.preemption_policy = std::string{string_at(d, "preemptionPolicy")};
      if (auto* g = d.if_contains("globalDefault"); g && g->is_bool())
        pc.global_default = g->as_bool();
      priority_classes.insert_or_assign(std::string{obj->name()},
                                        std::move(pc));
    }
  }
  auto& map = objects[static_cast<std::size_t>(storage)];
  if (type == event_type::deleted)
    map.erase(obj->key());
  else
    map.insert_or_assign(obj->key(), current_object{obj});
  ++stats.writes;
  if (storage == storage_kind::pod && type != event_type::deleted) {
    // Only the three transitions touch the timing table.
    auto node = obj->attrs().field("spec.nodeName");
    auto prev_node = prev ? prev->attrs().field("spec.nodeName") : std::nullopt;
    bool bound = node && !node->empty() && (!prev_node || prev_node->empty());
    auto phase = obj->attrs().field("status.phase");
    auto prev_phase = prev ? prev->attrs().field("status.phase") : std::nullopt;
    bool running = phase && *phase == "Running"
                   && (!prev_phase || *prev_phase != "Running");
    if (type == event_type::added || bound || running) {
      auto now = clk->now();
      auto& t = timings[obj->key()];
      if (type == event_type::added)
        t = pod_timing{now, std::nullopt, std::nullopt};
      if (bound)
        t.bound = now;
      if (running)
        t.running = now;
    }
  }
  history.push_back(history_record{next, storage, type, obj, std::move(prev)});
  while (history.size() > cfg.history_size) {
    compacted = history.front().rv;
    history.pop_front();
  }
  fan_out(history.back());
  return obj;
}

// ---- store: construction and reads ---------------------------------------

store::store(store_config config)
  : state_(std::make_shared<store_state>(std::move(config))) {
  if (!state_->cfg.bootstrap)
    return;
  const auto* ns = find_resource("", "v1", "namespaces");
  for (const char* name :
       {"default", "kube-system", "kube-public", "kube-node-lease"}) {
    auto r = create(*ns, "",
                    std::string{R"({"metadata":{"name":")"} + name + "\"}}");
    (void)r;
  }
  const auto* pc = find_resource("scheduling.k8s.io", "v1", "priorityclasses");
  auto r1 = create(
    *pc, "",
    R"({"metadata":{"name":"system-node-critical"},"value":2000001000,)"
    R"("description":"Used for system critical pods that must not be moved from their current node."})");
  auto r2 = create(
    *pc, "",
    R"({"metadata":{"name":"system-cluster-critical"},"value":2000000000,)"
    R"("description":"Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."})");
  (void)r1;
  (void)r2;
  // The `kubernetes` Service kube-apiserver keeps in default (no
  // endpoints: nothing serves it).
  auto r3 = create(
    *find_resource("", "v1", "services"), "default",
    R"({"metadata":{"name":"kubernetes","labels":{"component":"apiserver",)"
    R"("provider":"kubernetes"}},"spec":{"clusterIP":"10.96.0.1",)"
    R"("clusterIPs":["10.96.0.1"],"ipFamilies":["IPv4"],)"
    R"("ipFamilyPolicy":"SingleStack","ports":[{"name":"https",)"
    R"("port":443,"protocol":"TCP","targetPort":6443}],)"
    R"("sessionAffinity":"None","type":"ClusterIP",)"
    R"("internalTrafficPolicy":"Cluster"}})");
  (void)r3;
}

store::~store() {
  close_watchers();
}

const clock& store::time() const noexcept {
  return *state_->clk;
}

std::uint64_t store::resource_version() const {
  std::lock_guard lock{state_->mu};
  return state_->rv;
}

std::uint64_t store::compacted_resource_version() const {
  std::lock_guard lock{state_->mu};
  return state_->compacted;
}

api_result<object_ptr> store::get(const resource_info& res, std::string_view ns,
                                  std::string_view name) const {
  object_ptr obj;
  {
    std::lock_guard lock{state_->mu};
    obj = find_stored(*state_, res, ns, name);
  }
  if (!obj)
    return status::not_found(res.qualified_name(), name);
  return present(res, obj);
}

// ---- writes ---------------------------------------------------------------

api_result<object_ptr> store::create(const resource_info& res,
                                     std::string_view ns, std::string_view body,
                                     const write_options& options) {
  auto parsed = parse_stored_body(res, body, options);
  if (!parsed)
    return parsed.err();
  json_doc doc = std::move(*parsed);
  auto& root = doc.value().as_object();
  auto& req_meta = ensure_object(root, "metadata");
  if (res.namespaced) {
    auto body_ns = string_at(req_meta, "namespace");
    if (body_ns.empty())
      req_meta["namespace"] = ns;
    else if (!ns.empty() && body_ns != ns)
      return status::bad_request("the namespace of the provided object does "
                                 "not match the namespace sent on the request");
  } else {
    req_meta.erase("namespace");
  }
  if (!string_at(req_meta, "resourceVersion").empty())
    return status::internal("resourceVersion should not be set on objects to "
                            "be created");
  // Fields only the server sets.
  for (std::string_view k :
       {"uid", "creationTimestamp", "deletionTimestamp",
        "deletionGracePeriodSeconds", "selfLink", "managedFields"})
    req_meta.erase(k);
  const std::string obj_ns{string_at(req_meta, "namespace")};
  // From here on `root` may grow, which invalidates references into it:
  // metadata is looked up afresh after each step that inserts keys.
  admission::apply_defaults(res.storage, root);
  if (res.storage == storage_kind::pod)
    admission::reset_pod_status(root, format_time(state_->clk->wall_now()));
  admission::reset_storage_status(res.storage, root);

  auto& st = *state_;
  std::lock_guard lock{st.mu};
  auto& map = st.objects[static_cast<std::size_t>(res.storage)];
  if (res.namespaced) {
    auto& nss = st.objects[static_cast<std::size_t>(storage_kind::namespace_)];
    auto ns_it = nss.find(obj_ns);
    if (ns_it == nss.end())
      return status::not_found("namespaces", obj_ns);
    auto phase = ns_it->second.obj->attrs().field("status.phase");
    if (phase && *phase == "Terminating")
      return namespace_terminating(
        res, obj_ns, string_at(ensure_object(root, "metadata"), "name"));
  }
  std::string name{string_at(ensure_object(root, "metadata"), "name")};
  if (name.empty()) {
    auto& meta = ensure_object(root, "metadata");
    auto prefix = string_at(meta, "generateName");
    if (!prefix.empty()) {
      static constexpr char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
      for (int attempt = 0; attempt < 16; ++attempt) {
        std::string candidate{prefix};
        for (int i = 0; i < 5; ++i)
          candidate += alphabet[st.rng() % (sizeof alphabet - 1)];
        if (map.find(make_key(obj_ns, candidate)) == map.end()) {
          name = std::move(candidate);
          break;
        }
      }
      meta["name"] = name;
    }
  }
  if (res.storage == storage_kind::namespace_)
    admission::apply_defaults(res.storage, root); // label needs the name
  if (res.storage == storage_kind::pod) {
    if (st.cfg.priority_admission) {
      std::optional<admission::priority_info> global;
      for (const auto& [k, pc] : st.priority_classes)
        if (pc.global_default)
          global = pc.info;
      auto err = admission::resolve_priority(
        root,
        [&](std::string_view cls) -> std::optional<admission::priority_info> {
          auto it = st.priority_classes.find(cls);
          if (it == st.priority_classes.end())
            return std::nullopt;
          return it->second.info;
        },
        global);
      if (err)
        return *err;
    }
    if (st.cfg.default_toleration_seconds)
      admission::add_default_tolerations(root);
  }
  if (res.storage == storage_kind::persistent_volume_claim)
    set_default_storage_class(st, root);
  auto causes = validation_causes(res, root, options);
  if (!causes.empty())
    return status::invalid(res.kind, res.group, name, std::move(causes));
  if (auto e = check_decodable(res, name, doc.value(), options))
    return *e;
  if (res.storage == storage_kind::priority_class) {
    auto* g = root.if_contains("globalDefault");
    if (g && g->is_bool() && g->as_bool())
      for (const auto& [k, pc] : st.priority_classes) {
        if (pc.global_default)
          return status::invalid(
            res.kind, res.group, name,
            {status::invalid_value("globalDefault", "true",
                                   "globalDefault is already set by " + k)});
      }
  }
  auto key = make_key(obj_ns, name);
  if (map.find(key) != map.end())
    return status::already_exists(res.qualified_name(), name);
  auto& meta = ensure_object(root, "metadata");
  meta["uid"] = st.new_uid();
  meta["creationTimestamp"] = format_time(st.clk->wall_now());
  if (tracks_generation(res.storage))
    meta["generation"] = 1;
  if (res.storage == storage_kind::job)
    admission::default_job_selector(root, string_at(meta, "uid"));
  if (options.dry_run)
    return present(res, stored_object::make(res.storage, doc.value()));
  auto obj = st.commit(res.storage, event_type::added, std::move(doc), nullptr);
  if (res.storage == storage_kind::namespace_)
    add_default_service_account(st, name);
  if (res.storage == storage_kind::event && st.cfg.event_limit > 0) {
    // The event ring: drop the oldest events beyond the limit.
    st.event_order.push_back(key);
    while (map.size() > st.cfg.event_limit && !st.event_order.empty()) {
      auto it = map.find(st.event_order.front());
      st.event_order.pop_front();
      if (it != map.end()) {
        auto victim = it->second.obj;
        st.commit(storage_kind::event, event_type::deleted, victim->parse(),
                  victim);
      }
    }
    if (st.event_order.size() > 2 * st.cfg.event_limit)
      std::erase_if(st.event_order,
                    [&](const std::string& k) { return !map.contains(k); });
  }
  return present(res, obj);
}

namespace {

/// pods/resize: the stored pod with only its containers' `resources` taken
/// from `wanted` (matched by name; containers cannot be added or removed).
json::value resized(const json::value& old_doc, const json::object& wanted,
                    json::storage_ptr sp) {
  json::value merged(old_doc, sp);
  auto* spec = merged.as_object().if_contains("spec");
  const auto* wanted_spec = wanted.if_contains("spec");
  if (spec == nullptr || !spec->is_object() || wanted_spec == nullptr
      || !wanted_spec->is_object())
    return merged;
  for (std::string_view list : {"containers", "initContainers"}) {
    auto* have = spec->as_object().if_contains(list);
    const auto* want = wanted_spec->as_object().if_contains(list);
    if (have == nullptr || want == nullptr || !have->is_array()
        || !want->is_array())
      continue;
    for (auto& c : have->as_array()) {
      if (!c.is_object())
        continue;
      for (const auto& w : want->as_array()) {
        if (!w.is_object() || w.as_object().if_contains("name") == nullptr
            || c.as_object().if_contains("name") == nullptr
            || w.as_object().at("name") != c.as_object().at("name"))
          continue;
        if (const auto* r = w.as_object().if_contains("resources"))
          c.as_object()["resources"] = *r;
        else
          c.as_object().erase("resources");
      }
    }
  }
  return merged;
}

/// Finishes an update or patch under the lock: status/spec split,
/// immutable metadata, defaults, validation, no-op detection, commit.
api_result<object_ptr> finish_update(store_state& st, const resource_info& res,
                                     const object_ptr& old,
                                     const json::value& old_doc, json_doc doc,
                                     subresource sub,
                                     const write_options& options) {
  auto& root = doc.value().as_object();
  const auto& old_root = old_doc.as_object();
  // A UID in the body is a precondition (the kubelet puts one in its status
  // patches): a write meant for an object that was deleted and created
  // again under the same name must not land on the new one.
  if (const json::object* m = object_at(root, "metadata"))
    if (auto uid = string_at(*m, "uid"); !uid.empty() && uid != old->uid())
      return precondition_failed(res, old->ns(), old->name(), "UID", uid,
                                 old->uid());
  if (sub == subresource::resize)
    doc.value() = resized(old_doc, root, doc.value().storage());
  if (sub == subresource::status) {
    // Only status changes; everything else is the stored object's.
    json::value merged(old_doc, doc.value().storage());
    if (auto* s = root.if_contains("status"))
      merged.as_object()["status"] = *s;
    else
      merged.as_object().erase("status");
    doc.value() = std::move(merged);
  } else if (res.has_status) {
    auto* s = old_root.if_contains("status");
    auto* cur = root.if_contains("status");
    if (!s)
      root.erase("status");
    else if (!cur || !same_json(*cur, *s))
      root["status"] = *s;
  }
  auto& new_root = doc.value().as_object();
  auto& meta = ensure_object(new_root, "metadata");
  const json::object* old_meta = object_at(old_root, "metadata");
  for (std::string_view k :
       {"uid", "creationTimestamp", "deletionTimestamp",
        "deletionGracePeriodSeconds", "generation", "namespace", "name"}) {
    meta.erase(k);
    if (old_meta)
      if (auto* v = old_meta->if_contains(k))
        meta[k] = *v;
  }
  meta.erase("managedFields");
  meta.erase("selfLink");
  new_root["kind"] = old_root.at("kind");
  new_root["apiVersion"] = old_root.at("apiVersion");
  admission::apply_defaults(res.storage, new_root);
  auto& meta2 = ensure_object(new_root, "metadata");
  // A status write keeps everything else as stored, and upstream validates
  // only the status there: an object that was already invalid (stored by
  // an in-process writer) still gets its status written.
  const bool status_only = sub == subresource::status;
  auto causes = validation_causes(res, new_root, options);
  if (!causes.empty()
      && !(status_only && !validation_causes(res, old_root, options).empty()))
    return status::invalid(res.kind, res.group, old->name(), std::move(causes));
  if (auto e = check_decodable(res, old->name(), doc.value(), options))
    if (!(status_only && check_decodable(res, old->name(), old_doc, options)))
      return *e;
  auto* old_spec = old_root.if_contains("spec");
  auto* new_spec = new_root.if_contains("spec");
  const bool spec_changed = (old_spec == nullptr) != (new_spec == nullptr)
                            || (old_spec && !same_json(*old_spec, *new_spec));
  if (spec_changed && res.storage == storage_kind::pod
      && sub == subresource::main && old_spec && new_spec
      && old_spec->is_object() && new_spec->is_object())
    if (auto cause = admission::check_pod_spec_update(old_spec->as_object(),
                                                      new_spec->as_object()))
      return status::invalid(res.kind, res.group, old->name(), {*cause});
  // Bump generation on spec changes for kinds that track it.
  if (tracks_generation(res.storage)) {
    if (spec_changed) {
      std::int64_t gen = 1;
      if (auto* g = meta2.if_contains("generation"); g && g->is_int64())
        gen = g->as_int64() + 1;
      meta2["generation"] = gen;
    }
  }
  meta2["resourceVersion"] = std::to_string(old->resource_version());
  if (same_json(doc.value(), old_doc)) {
    ++st.stats.noop_writes;
    return present(res, old);
  }
  if (options.dry_run)
    return present(res, stored_object::make(res.storage, doc.value()));
  return present(
    res, st.commit(res.storage, event_type::modified, std::move(doc), old));
}

} // namespace

api_result<object_ptr> store::update(const resource_info& res,
                                     std::string_view ns, std::string_view name,
                                     std::string_view body, subresource sub,
                                     const write_options& options) {
  auto parsed = parse_stored_body(res, body, options);
  if (!parsed)
    return parsed.err();
  json_doc doc = std::move(*parsed);
  auto& meta = ensure_object(doc.value().as_object(), "metadata");
  auto body_name = string_at(meta, "name");
  if (body_name != name)
    return status::bad_request(
      "the name of the object (" + std::string{body_name}
      + ") does not match the name on the URL (" + std::string{name} + ")");
  if (res.namespaced) {
    auto body_ns = string_at(meta, "namespace");
    if (!body_ns.empty() && body_ns != ns)
      return status::bad_request("the namespace of the provided object does "
                                 "not match the namespace sent on the request");
  }
  const std::string body_rv{string_at(meta, "resourceVersion")};
  auto& st = *state_;
  std::lock_guard lock{st.mu};
  object_ptr old = find_stored(st, res, ns, name);
  if (!old)
    return status::not_found(res.qualified_name(), name);
  json_doc old_parsed = old->parse();
  const json::value& old_doc = old_parsed.value();
  if (body_rv.empty()) {
    if (res.requires_resource_version)
      return status::invalid(
        res.kind, res.group, name,
        {status::invalid_value("metadata.resourceVersion", "0x0",
                               "must be specified for an update")});
  } else if (body_rv != std::to_string(old->resource_version())) {
    return status::modified_conflict(res.qualified_name(), name);
  }
  return finish_update(st, res, old, old_doc, std::move(doc), sub, options);
}

api_result<object_ptr> store::patch(const resource_info& res,
                                    std::string_view ns, std::string_view name,
                                    patch_type type, std::string_view body,
                                    subresource sub,
                                    const write_options& options) {
  if (type == patch_type::apply)
    return status::unsupported_media_type("application/apply-patch+yaml");
  json::error_code ec;
  json::value patch_doc = json::parse(body, ec);
  if (ec)
    return status::bad_request("error decoding patch: " + ec.message());
  if (auto bad = json_doc::non_finite_number(patch_doc))
    return status::bad_request("error decoding patch: " + *bad);
  if (const auto* ops = patch_doc.if_array();
      ops && type == patch_type::json_patch
      && ops->size() > max_json_patch_operations)
    return status::too_large(
      "The allowed maximum operations in a JSON patch is "
      + std::to_string(max_json_patch_operations) + ", got "
      + std::to_string(ops->size()));
  auto& st = *state_;
  std::lock_guard lock{st.mu};
  object_ptr old = find_stored(st, res, ns, name);
  if (!old)
    return status::not_found(res.qualified_name(), name);
  json_doc old_parsed = old->parse();
  const json::value& old_doc = old_parsed.value();
  json_doc doc = to_view(res, old_doc);
  if (auto err = apply_patch(doc.value(), patch_doc, type, res.storage))
    return status::invalid(res.kind, res.group, name,
                           {status_cause{"FieldValueInvalid", *err, ""}});
  if (!doc.value().is_object())
    return status::bad_request("the patch produced a non-object");
  auto& meta = ensure_object(doc.value().as_object(), "metadata");
  auto patched_rv = string_at(meta, "resourceVersion");
  if (!patched_rv.empty()
      && patched_rv != std::to_string(old->resource_version()))
    return status::modified_conflict(res.qualified_name(), name);
  if (string_at(meta, "name") != name)
    return status::bad_request("the name of the object cannot be changed by "
                               "a patch");
  if (auto e = check_fields(res, type == patch_type::json_patch ? "" : body,
                            true, doc.value().as_object(), options))
    return *e;
  if (auto e = check_quantities_parse(res, doc.value().as_object(), options))
    return *e;
  doc = to_stored(res, std::move(doc));
  return finish_update(st, res, old, old_doc, std::move(doc), sub, options);
}

api_result<delete_result> store::remove(const resource_info& res,
                                        std::string_view ns,
                                        std::string_view name,
                                        const delete_options& opts) {
  auto& st = *state_;
  std::lock_guard lock{st.mu};
  auto& map = st.objects[static_cast<std::size_t>(res.storage)];
  auto key = make_key(res.namespaced ? ns : "", name);
  auto it = map.find(key);
  if (it == map.end())
    return status::not_found(res.qualified_name(), name);
  object_ptr old = it->second.obj;
  // The final state, and for a graceful deletion the next one, start from
  // a fresh parse of the current version.
  json_doc doc = old->parse();
  if (opts.precondition_uid && *opts.precondition_uid != old->uid())
    return precondition_failed(res, ns, name, "UID", *opts.precondition_uid,
                               old->uid());
  if (opts.precondition_resource_version
      && *opts.precondition_resource_version
           != std::to_string(old->resource_version()))
    return precondition_failed(res, ns, name, "ResourceVersion",
                               *opts.precondition_resource_version,
                               std::to_string(old->resource_version()));
  // A deletion that only marks the object (a graceful pod deletion, a
  // Terminating namespace) writes the marked version.
  auto mark = [&](json_doc marked) {
    if (opts.dry_run)
      return delete_result{
        present(res, stored_object::make(res.storage, marked.value())), false};
    auto obj
      = st.commit(res.storage, event_type::modified, std::move(marked), old);
    return delete_result{present(res, obj), false};
  };
  if (res.storage == storage_kind::pod) {
    const auto& root = doc.value().as_object();
    const json::object* spec = object_at(root, "spec");
    std::int64_t grace = 30;
    if (opts.grace_period_seconds) {
      grace = *opts.grace_period_seconds;
    } else if (spec) {
      if (auto* g = spec->if_contains("terminationGracePeriodSeconds");
          g && g->is_int64())
        grace = g->as_int64();
    }
    auto node = old->attrs().field("spec.nodeName");
    auto phase = old->attrs().field("status.phase");
    if (!node || node->empty()
        || (phase && (*phase == "Succeeded" || *phase == "Failed")))
      grace = 0;
    if (grace < 0)
      grace = 1;
    if (grace > 0) {
      auto deadline = st.clk->wall_now() + std::chrono::seconds(grace);
      const json::object* meta = object_at(root, "metadata");
      if (meta && meta->contains("deletionTimestamp")) {
        auto cur = parse_time(string_at(*meta, "deletionTimestamp"));
        if (cur && *cur <= deadline)
          return delete_result{present(res, old), false};
      }
      auto& m = ensure_object(doc.value().as_object(), "metadata");
      m["deletionTimestamp"] = format_time(deadline);
      m["deletionGracePeriodSeconds"] = grace;
      return mark(std::move(doc));
    }
  }
  if (res.storage == storage_kind::namespace_
      && (name == "default" || name == "kube-system" || name == "kube-public"))
    return status::forbidden(res.qualified_name(), name,
                             "this namespace may not be deleted");
  if (res.storage == storage_kind::namespace_) {
    // A namespace first goes Terminating; the namespace controller deletes
    // its contents and deletes it again, which removes it once it is empty.
    auto phase = old->attrs().field("status.phase");
    if (!phase || *phase != "Terminating") {
      auto& root = doc.value().as_object();
      ensure_object(root, "metadata")["deletionTimestamp"]
        = format_time(st.clk->wall_now());
      ensure_object(root, "status")["phase"] = "Terminating";
      return mark(std::move(doc));
    }
    if (!namespace_empty(st, name))
      return delete_result{present(res, old), false};
  }
  if (opts.dry_run)
    return delete_result{present(res, old), true};
  if (orphans_dependents(res.storage, opts.propagation_policy))
    orphan_dependents(st, res.storage, old->ns(), old->uid());
  auto obj = st.commit(res.storage, event_type::deleted, std::move(doc), old);
  return delete_result{present(res, obj), true};
}

api_result<object_ptr> store::bind(const binding& b) {
  static const resource_info& pods = primary_resource(storage_kind::pod);
  if (b.node.empty())
    return status::invalid("Binding", "", b.name,
                           {status::required("target.name")});
  auto& st = *state_;
  std::lock_guard lock{st.mu};
  auto& map = st.objects[static_cast<std::size_t>(storage_kind::pod)];
  auto it = map.find(make_key(b.ns, b.name));
  if (it == map.end())
    return status::not_found("pods", b.name);
  object_ptr old = it->second.obj;
  if (st.bind_fail_fraction > 0
      && std::uniform_real_distribution<double>(0, 1)(st.rng)
           < st.bind_fail_fraction) {
    ++st.stats.bind_conflicts;
    return status::internal(
      "injected binding failure (--fault-bind-error-rate)");
  }
  if (!b.uid.empty() && b.uid != old->uid()) {
    ++st.stats.bind_conflicts;
    return precondition_failed(pods, b.ns, b.name, "UID", b.uid, old->uid());
  }
  if (!b.resource_version.empty()
      && b.resource_version != std::to_string(old->resource_version())) {
    ++st.stats.bind_conflicts;
    return precondition_failed(pods, b.ns, b.name, "ResourceVersion",
                               b.resource_version,
                               std::to_string(old->resource_version()));
  }
  // Checked on the parse that becomes the new version.
  json_doc doc = old->parse();
  const auto& root = doc.value().as_object();
  const json::object* meta = object_at(root, "metadata");
  const json::object* spec = object_at(root, "spec");
  auto fail = [&](std::string why) {
    ++st.stats.bind_conflicts;
    return status::conflict("pods/binding", b.name, why);
  };
  if (meta && meta->contains("deletionTimestamp"))
    return fail("pod " + b.name
                + " is being deleted, cannot be assigned to a host");
  if (spec) {
    auto node = string_at(*spec, "nodeName");
    if (!node.empty())
      return fail("pod " + b.name + " is already assigned to node \""
                  + std::string{node} + "\"");
    if (auto* g = spec->if_contains("schedulingGates");
        g && g->is_array() && !g->as_array().empty())
      return fail("pod " + b.name + " has non-empty .spec.schedulingGates");
  }
  auto& r = doc.value().as_object();
  ensure_object(r, "spec")["nodeName"] = b.node;
  if (!b.annotations.empty()) {
    auto& ann = ensure_object(ensure_object(r, "metadata"), "annotations");
    for (const auto& [k, v] : b.annotations)
      ann[k] = v;
  }
  auto& status_obj = ensure_object(r, "status");
  auto& cv = status_obj["conditions"];
  if (!cv.is_array())
    cv = json::array{};
  auto& conds = cv.as_array();
  json::object cond;
  cond["type"] = "PodScheduled";
  cond["status"] = "True";
  cond["lastProbeTime"] = nullptr;
  cond["lastTransitionTime"] = format_time(st.clk->wall_now());
  bool replaced = false;
  for (auto& c : conds)
    if (auto* co = c.if_object();
        co && string_at(*co, "type") == "PodScheduled") {
      c = cond;
      replaced = true;
    }
  if (!replaced)
    conds.push_back(std::move(cond));
  ++st.stats.binds;
  return st.commit(storage_kind::pod, event_type::modified, std::move(doc),
                   old);
}

// ---- timings, stats, faults -------------------------------------------------

std::optional<pod_timing> store::timing(std::string_view ns,
                                        std::string_view name) const {
  std::lock_guard lock{state_->mu};
  auto it = state_->timings.find(make_key(ns, name));
  if (it == state_->timings.end())
    return std::nullopt;
  return it->second;
}

std::vector<std::pair<std::string, pod_timing>> store::timings() const {
  std::lock_guard lock{state_->mu};
  return {state_->timings.begin(), state_->timings.end()};
}

void store::clear_timings() {
  std::lock_guard lock{state_->mu};
  state_->timings.clear();
}

store_stats store::stats() const {
  std::lock_guard lock{state_->mu};
  auto s = state_->stats;
  s.watchers_open = 0;
  for (const auto& ws : state_->watchers)
    s.watchers_open += ws.size();
  return s;
}

void store::compact(std::size_t keep) {
  std::lock_guard lock{state_->mu};
  auto& st = *state_;
  while (st.history.size() > keep) {
    st.compacted = st.history.front().rv;
    st.history.pop_front();
  }
  if (st.history.empty())
    st.compacted = st.rv;
}

void store::fail_binds(double fraction) {
  std::lock_guard lock{state_->mu};
  state_->bind_fail_fraction = std::clamp(fraction, 0.0, 1.0);
}

} // namespace tessera::apiserver
