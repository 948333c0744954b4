// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/volume_controller.hpp"

#include "io/apiserver/controller_loop.hpp"
#include "io/apiserver/resources.hpp"
#include "model/json_access.hpp"
#include "model/storage_view.hpp"
#include "support/log.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <unordered_map>
#include <vector>

namespace tessera::apiserver {

namespace json = boost::json;
using model::object_at;
using model::string_at;

namespace {

constexpr std::string_view hostname_label = "kubernetes.io/hostname";
constexpr std::string_view provisioned_by_annotation
  = "pv.kubernetes.io/provisioned-by";

json::array access_modes_json(std::uint8_t modes) {
  static constexpr std::string_view names[]
    = {"ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"};
  json::array out;
  for (unsigned i = 0; i < 4; ++i)
    if ((modes & (1u << i)) != 0)
      out.emplace_back(names[i]);
  return out;
}

/// A member of a stored object's JSON, as text ("" when absent).
std::string text_at(const stored_object& o,
                    std::initializer_list<std::string_view> path) {
  auto doc = o.parse();
  const json::object* at = doc.value().if_object();
  std::string_view last;
  for (auto it = path.begin(); it != path.end(); ++it) {
    if (std::next(it) == path.end()) {
      last = *it;
      break;
    }
    at = object_at(at, *it);
  }
  return std::string{string_at(at, last)};
}

json::object claim_ref_json(const model::persistent_volume_claim& c) {
  return json::object{{"kind", "PersistentVolumeClaim"},
                      {"apiVersion", "v1"},
                      {"namespace", c.ns.view()},
                      {"name", c.name},
                      {"uid", c.uid},
                      {"resourceVersion", c.resource_version}};
}

bool names_claim(const model::persistent_volume& pv,
                 const model::persistent_volume_claim& c) {
  return pv.claim_ref && pv.claim_ref->ns == c.ns
         && pv.claim_ref->name == c.name
         && (pv.claim_ref->uid.empty() || pv.claim_ref->uid == c.uid);
}

} // namespace

struct volume_controller::impl {
  /// A decoded object with the stored version it came from.
  template <class T> struct entry {
    std::shared_ptr<const T> obj;
    object_ptr stored;
  };

  impl(store& s, volume_controller_config c) : st(s), cfg(c) {
  }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
  /// Stops the thread, then the watches it read.
  ~impl() {
    loop.stop();
    for (auto& w : watchers)
      w->stop();
  }

  store& st;
  volume_controller_config cfg;
  std::atomic<std::size_t> writes{0};
  std::vector<std::shared_ptr<watcher>> watchers;
  std::vector<watch_event> drained;

  const resource_info& pvs = primary_resource(storage_kind::persistent_volume);
  const resource_info& pvcs
    = primary_resource(storage_kind::persistent_volume_claim);
  const resource_info& classes = primary_resource(storage_kind::storage_class);
  const resource_info& nodes = primary_resource(storage_kind::node);

  // One pass's view of the store.
  std::vector<entry<model::persistent_volume>> volumes;
  std::vector<entry<model::persistent_volume_claim>> claims;
  std::unordered_map<std::string, entry<model::storage_class>> class_of;
  /// Volumes with a claimRef, by the claim_key() it names.
  std::unordered_map<std::string, const entry<model::persistent_volume>*>
    by_claim;
  controller_loop loop{"volume", cfg.resync, [this] { return pass(); }};

  void open_watches() {
    for (auto& w : watchers)
      w->stop();
    watchers.clear();
    for (const resource_info* r : {&pvs, &pvcs, &classes, &nodes}) {
      auto w = st.watch(*r, "", watch_options{});
      if (!w)
        continue;
      (*w)->set_notify([this] { loop.notify(); });
      watchers.push_back(std::move(*w));
    }
  }

  /// A pass at least every resync: claims wait on time as well as changes.
  std::optional<controller_loop::duration> pass() {
    // A watch the store refused counts as ended: its kind's changes would
    // wait for the resync otherwise.
    bool ended = watchers.size() < 4;
    for (auto& w : watchers) {
      drained.clear();
      w->poll(drained);
      ended = ended || w->ended();
    }
    if (ended)
      open_watches();
    // Each pass makes one step per object; a few passes finish a
    // provision-bind-complete chain without waiting for the resync.
    for (int pass = 0; pass < 4 && reconcile() > 0; ++pass) {
    }
    return cfg.resync;
  }

  template <class T>
  void load(const resource_info& r, std::vector<entry<T>>& out) {
    out.clear();
    auto listed = st.list(r, "");
    if (!listed)
      return;
    for (const auto& item : listed->items) {
      auto m = item->to_model();
      if (!m) {
        TLOG_V(2, "volume controller: skipping undecodable object", "key",
               item->key(), "error", m.err().message);
        continue;
      }
      if (auto* p = std::get_if<std::shared_ptr<const T>>(&*m))
        out.push_back({*p, item});
    }
  }

  /// The writes of one pass.
  std::size_t reconcile() {
    load(pvs, volumes);
    load(pvcs, claims);
    std::vector<entry<model::storage_class>> listed_classes;
    load(classes, listed_classes);
    class_of.clear();
    for (auto& c : listed_classes)
      class_of.emplace(c.obj->name, std::move(c));
    std::size_t before = writes.load();
    std::unordered_map<std::string, const entry<model::persistent_volume>*>
      volume_named;
    by_claim.clear();
    for (const auto& v : volumes) {
      volume_named.emplace(v.obj->name, &v);
      if (const auto& ref = v.obj->claim_ref)
        by_claim.emplace(model::claim_key(ref->ns, ref->name), &v);
    }
    std::unordered_map<std::string,
                       const entry<model::persistent_volume_claim>*>
      claim_named;
    for (const auto& c : claims)
      claim_named.emplace(model::claim_key(c.obj->ns, c.obj->name), &c);
    std::vector<std::string> taken;
    for (const auto& c : claims)
      if (!c.obj->deleting)
        sync_claim(c, volume_named, taken);
    for (const auto& v : volumes)
      sync_volume(v, claim_named);
    return writes.load() - before;
  }

  // ---- claims

  void sync_claim(const entry<model::persistent_volume_claim>& e,
                  const std::unordered_map<
                    std::string, const entry<model::persistent_volume>*>& named,
                  std::vector<std::string>& taken) {
    const auto& c = *e.obj;
    if (!c.volume_name.empty()) {
      auto it = named.find(c.volume_name);
      if (it == named.end()) {
        if (c.phase == model::claim_phase::bound)
          patch_status(pvcs, c.ns.view(), c.name, "Lost");
        return;
      }
      const auto& pv = *it->second;
      if (!pv.obj->claim_ref) {
        // Pre-bound by its user: the volume follows the claim.
        bind_volume(pv, c);
        return;
      }
      if (names_claim(*pv.obj, c)
          && (!c.bind_completed || c.phase != model::claim_phase::bound))
        complete(e, pv, false);
      return;
    }
    // A volume that names the claim: the scheduler's static binding, a
    // provisioned volume, or a user's pre-binding.
    if (auto it = by_claim.find(model::claim_key(c.ns, c.name));
        it != by_claim.end() && names_claim(*it->second->obj, c)) {
      complete(e, *it->second, true);
      return;
    }
    const model::storage_class* cls = nullptr;
    if (auto it = class_of.find(std::string{c.class_name()});
        it != class_of.end())
      cls = it->second.obj.get();
    bool immediate
      = cls == nullptr || cls->binding == model::binding_mode::immediate;
    if (immediate)
      if (const auto* pv = matching_volume(c, taken)) {
        taken.push_back(pv->obj->name);
        bind_volume(*pv, c);
        return;
      }
    if (cls == nullptr || cls->provisioner == model::no_provisioner)
      return;
    if (!c.selected_node.empty())
      provision(e, *class_of.at(cls->name).stored, *cls, c.selected_node);
    else if (immediate)
      provision(e, *class_of.at(cls->name).stored, *cls, {});
  }

  const entry<model::persistent_volume>*
  matching_volume(const model::persistent_volume_claim& c,
                  const std::vector<std::string>& taken) const {
    const entry<model::persistent_volume>* best = nullptr;
    for (const auto& v : volumes) {
      const auto& pv = *v.obj;
      if (pv.claim_ref || pv.phase == model::volume_phase::released
          || pv.phase == model::volume_phase::failed
          || pv.storage_class != c.class_name() || pv.mode != c.mode
          || (pv.access_modes & c.access_modes) != c.access_modes
          || pv.capacity_bytes < c.request_bytes
          || (c.selector && !c.selector->matches(pv.labels))
          || std::find(taken.begin(), taken.end(), pv.name) != taken.end())
        continue;
      if (best == nullptr || pv.capacity_bytes < best->obj->capacity_bytes)
        best = &v;
    }
    return best;
  }

  void provision(const entry<model::persistent_volume_claim>& e,
                 const stored_object& class_json,
                 const model::storage_class& cls, std::string_view node) {
    const auto& c = *e.obj;
    json::object spec;
    if (!node.empty()) {
      auto n = st.get(nodes, "", node);
      if (!n)
        return; // the node is gone; the scheduler will choose again
      auto m = (*n)->to_model();
      if (!m)
        return;
      const auto& labels = std::get<model::node_ptr>(*m)->labels;
      if (!cls.allows(labels)) {
        TLOG_V(2,
               "volume controller: selected node outside the class's "
               "allowed topologies",
               "claim", model::claim_key(c.ns, c.name), "node", node);
        return;
      }
      bool known = false;
      auto key = model::symbol::lookup(hostname_label, known);
      const model::symbol* host = known ? labels.find(key) : nullptr;
      std::string value{host != nullptr ? host->view() : node};
      spec["nodeAffinity"] = json::object{
        {"required",
         json::object{
           {"nodeSelectorTerms",
            json::array{json::object{
              {"matchExpressions",
               json::array{json::object{{"key", hostname_label},
                                        {"operator", "In"},
                                        {"values", json::array{value}}}}}}}}}}};
    }
    std::string name = "pvc-" + c.uid;
    std::string request
      = text_at(*e.stored, {"spec", "resources", "requests", "storage"});
    std::string policy = text_at(class_json, {"reclaimPolicy"});
    spec["capacity"]
      = json::object{{"storage", request.empty() ? "0" : request}};
    spec["accessModes"] = access_modes_json(c.access_modes);
    spec["persistentVolumeReclaimPolicy"] = policy.empty() ? "Delete" : policy;
    spec["storageClassName"] = cls.name;
    spec["volumeMode"]
      = c.mode == model::volume_mode::block ? "Block" : "Filesystem";
    spec["claimRef"] = claim_ref_json(c);
    spec["csi"] = json::object{
      {"driver", model::csi_driver_of_provisioner(cls.provisioner)},
      {"volumeHandle", name}};
    json::object pv{
      {"apiVersion", "v1"},
      {"kind", "PersistentVolume"},
      {"metadata",
       json::object{{"name", name},
                    {"annotations", json::object{{provisioned_by_annotation,
                                                  cls.provisioner}}}}},
      {"spec", std::move(spec)}};
    auto r = st.create(pvs, "", json::serialize(pv));
    if (r)
      ++writes;
    else if (r.err().code != 409)
      TLOG_WARN("volume controller: provisioning failed", "claim",
                model::claim_key(c.ns, c.name), "error", r.err().message);
  }

  /// Gives the volume its claimRef (and bound-by-controller).
  void bind_volume(const entry<model::persistent_volume>& v,
                   const model::persistent_volume_claim& c) {
    json::object patch{
      {"metadata",
       json::object{
         {"resourceVersion", v.obj->resource_version},
         {"annotations",
          json::object{{model::bound_by_controller_annotation, "yes"}}}}},
      {"spec", json::object{{"claimRef", claim_ref_json(c)}}}};
    write(pvs, "", v.obj->name, patch, subresource::main);
  }

  /// The claim side of a binding whose volume names the claim.
  void complete(const entry<model::persistent_volume_claim>& e,
                const entry<model::persistent_volume>& v, bool by_controller) {
    const auto& c = *e.obj;
    json::object annotations{{model::bind_completed_annotation, "yes"}};
    if (by_controller)
      annotations[model::bound_by_controller_annotation] = "yes";
    json::object patch{
      {"metadata", json::object{{"resourceVersion", c.resource_version},
                                {"annotations", std::move(annotations)}}},
      {"spec", json::object{{"volumeName", v.obj->name}}}};
    if (!write(pvcs, c.ns.view(), c.name, patch, subresource::main))
      return;
    std::string capacity = text_at(*v.stored, {"spec", "capacity", "storage"});
    json::object status{
      {"phase", "Bound"},
      {"accessModes", access_modes_json(v.obj->access_modes)}};
    if (!capacity.empty())
      status["capacity"] = json::object{{"storage", capacity}};
    write(pvcs, c.ns.view(), c.name,
          json::object{{"status", std::move(status)}}, subresource::status);
  }

  // ---- volumes

  void sync_volume(
    const entry<model::persistent_volume>& v,
    const std::unordered_map<
      std::string, const entry<model::persistent_volume_claim>*>& claim_named) {
    const auto& pv = *v.obj;
    if (!pv.claim_ref) {
      if (pv.phase != model::volume_phase::available
          && pv.phase != model::volume_phase::failed)
        patch_status(pvs, "", pv.name, "Available");
      return;
    }
    auto it = claim_named.find(
      model::claim_key(pv.claim_ref->ns, pv.claim_ref->name));
    bool claim_gone = it == claim_named.end()
                      || (!pv.claim_ref->uid.empty()
                          && it->second->obj->uid != pv.claim_ref->uid);
    if (claim_gone) {
      // A volume pre-bound by name waits for its claim.
      if (pv.claim_ref->uid.empty()) {
        if (pv.phase != model::volume_phase::available)
          patch_status(pvs, "", pv.name, "Available");
        return;
      }
      if (pv.phase == model::volume_phase::released
          || pv.phase == model::volume_phase::failed)
        return;
      release(v);
      return;
    }
    const auto& c = *it->second->obj;
    if (c.volume_name == pv.name && pv.phase != model::volume_phase::bound)
      patch_status(pvs, "", pv.name, "Bound");
  }

  void release(const entry<model::persistent_volume>& v) {
    std::string policy
      = text_at(*v.stored, {"spec", "persistentVolumeReclaimPolicy"});
    if (policy == "Delete") {
      auto r = st.remove(pvs, "", v.obj->name);
      if (r)
        ++writes;
      return;
    }
    patch_status(pvs, "", v.obj->name, "Released");
  }

  // ---- writes

  void patch_status(const resource_info& r, std::string_view ns,
                    std::string_view name, std::string_view phase) {
    write(r, ns, name, json::object{{"status", json::object{{"phase", phase}}}},
          subresource::status);
  }

  bool write(const resource_info& r, std::string_view ns, std::string_view name,
             const json::object& patch, subresource sub) {
    auto res
      = st.patch(r, ns, name, patch_type::merge, json::serialize(patch), sub);
    if (res) {
      ++writes;
      return true;
    }
    // A conflict means someone wrote first: the next pass sees it.
    if (res.err().code != 409)
      TLOG_WARN("volume controller write failed", "resource", r.name, "name",
                name, "error", res.err().message);
    return false;
  }
};

volume_controller::volume_controller(store& s, volume_controller_config config)
  : impl_(std::make_unique<impl>(s, config)) {
}

volume_controller::~volume_controller() = default;

std::size_t volume_controller::writes() const {
  return impl_->writes.load();
}

} // namespace tessera::apiserver
