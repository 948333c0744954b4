// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "adapters/api_client/api_source.hpp"

#include "metrics/scheduler_metrics.hpp"
#include "support/log.hpp"

namespace tessera::adapters {

namespace {

struct watched_kind {
  const char* name;
  const char* path;
  model::object_kind kind;
  const char* field_selector;
};

// Delivery order of the initial state: what pods refer to comes first.
constexpr std::size_t pods = 0;
constexpr std::size_t nodes = 1;
constexpr std::size_t namespaces = 2;
constexpr std::size_t budgets = 3;
constexpr std::size_t classes = 4;
constexpr std::size_t services = 5;
constexpr std::size_t replication_controllers = 6;
constexpr std::size_t replica_sets = 7;
constexpr std::size_t stateful_sets = 8;
constexpr std::size_t storage_classes = 9;
constexpr std::size_t csi_drivers = 10;
constexpr std::size_t csi_nodes = 11;
constexpr std::size_t volumes = 12;
constexpr std::size_t claims = 13;
constexpr std::size_t capacities = 14;
constexpr std::size_t attachments = 15;
constexpr watched_kind kinds[] = {
  {"pods", "/api/v1/pods", model::object_kind::pod,
   "status.phase!=Succeeded,status.phase!=Failed"},
  {"nodes", "/api/v1/nodes", model::object_kind::node, ""},
  {"namespaces", "/api/v1/namespaces", model::object_kind::namespace_, ""},
  {"poddisruptionbudgets", "/apis/policy/v1/poddisruptionbudgets",
   model::object_kind::pod_disruption_budget, ""},
  {"priorityclasses", "/apis/scheduling.k8s.io/v1/priorityclasses",
   model::object_kind::priority_class, ""},
  // Default spreading: the workloads that select pods.
  {"services", "/api/v1/services", model::object_kind::service, ""},
  {"replicationcontrollers", "/api/v1/replicationcontrollers",
   model::object_kind::replication_controller, ""},
  {"replicasets", "/apis/apps/v1/replicasets", model::object_kind::replica_set,
   ""},
  {"statefulsets", "/apis/apps/v1/statefulsets",
   model::object_kind::stateful_set, ""},
  // The volume plugins and the volume binder.
  {"storageclasses", "/apis/storage.k8s.io/v1/storageclasses",
   model::object_kind::storage_class, ""},
  {"csidrivers", "/apis/storage.k8s.io/v1/csidrivers",
   model::object_kind::csi_driver, ""},
  {"csinodes", "/apis/storage.k8s.io/v1/csinodes", model::object_kind::csi_node,
   ""},
  {"persistentvolumes", "/api/v1/persistentvolumes",
   model::object_kind::persistent_volume, ""},
  {"persistentvolumeclaims", "/api/v1/persistentvolumeclaims",
   model::object_kind::persistent_volume_claim, ""},
  {"csistoragecapacities", "/apis/storage.k8s.io/v1/csistoragecapacities",
   model::object_kind::csi_storage_capacity, ""},
  {"volumeattachments", "/apis/storage.k8s.io/v1/volumeattachments",
   model::object_kind::volume_attachment, ""},
};
constexpr std::size_t initial_order[] = {namespaces,
                                         classes,
                                         budgets,
                                         services,
                                         replication_controllers,
                                         replica_sets,
                                         stateful_sets,
                                         storage_classes,
                                         csi_drivers,
                                         csi_nodes,
                                         volumes,
                                         claims,
                                         capacities,
                                         attachments,
                                         nodes,
                                         pods};

// Metrics: watch events by type (list items are not counted) and
// the reflector's lists, caught up on each delivery. Called only from the
// reflector's own thread, the one writer of its resource's series.
void count_deliveries(metrics::scheduler_metrics* m, std::size_t index,
                      const io::reflector& r,
                      const std::vector<io::reflected_event>& events,
                      bool watching) {
  if (m == nullptr)
    return;
  auto& lists = m->relists.with({kinds[index].name});
  std::uint64_t seen = r.stats().lists.load(std::memory_order_relaxed);
  if (seen > lists.value())
    lists.inc(seen - lists.value());
  if (!watching)
    return;
  std::uint64_t by_type[3] = {0, 0, 0};
  for (const auto& e : events)
    ++by_type[static_cast<std::size_t>(e.type)];
  static constexpr const char* type_names[3] = {"ADDED", "MODIFIED", "DELETED"};
  for (std::size_t t = 0; t < 3; ++t)
    if (by_type[t] > 0)
      m->watch_events.with({kinds[index].name, type_names[t]}).inc(by_type[t]);
}

actors::object_event::kind convert(io::reflected_event::kind k) {
  switch (k) {
  case io::reflected_event::kind::added:
    return actors::object_event::kind::added;
  case io::reflected_event::kind::modified:
    return actors::object_event::kind::modified;
  case io::reflected_event::kind::deleted:
    break;
  }
  return actors::object_event::kind::deleted;
}

} // namespace

api_source::api_source(io::rest_client& client, api_source_config config)
  : client_(client), config_(config) {
}

api_source::~api_source() {
  stop();
}

std::vector<const io::reflector*> api_source::reflectors() const {
  std::vector<const io::reflector*> out;
  for (const auto& r : reflectors_)
    out.push_back(r.get());
  return out;
}

void api_source::start(receiver r) {
  stop();
  reflectors_.clear();
  synced_.store(false);
  {
    std::lock_guard guard{mutex_};
    receiver_ = std::move(r);
    initial_.assign(std::size(kinds), {});
    reflector_synced_.assign(std::size(kinds), false);
    synced_count_ = 0;
    backlog_.clear();
    resyncing_.assign(std::size(kinds), false);
    resyncing_count_.store(0);
  }
  {
    std::lock_guard guard{nodes_mutex_};
    nodes_.clear();
  }
  for (std::size_t i = 0; i < std::size(kinds); ++i) {
    io::reflector_config rc;
    rc.name = kinds[i].name;
    rc.path = kinds[i].path;
    rc.kind = kinds[i].kind;
    rc.field_selector = kinds[i].field_selector;
    rc.page_size = config_.page_size;
    rc.min_watch_timeout_s = config_.min_watch_timeout_s;
    rc.max_watch_timeout_s = config_.max_watch_timeout_s;
    rc.backoff_initial = config_.backoff_initial;
    rc.backoff_max = config_.backoff_max;
    io::reflector::handler h;
    h.deliver = [this, i](std::vector<io::reflected_event> evs) {
      on_events(i, std::move(evs));
    };
    h.synced = [this, i] { on_synced(i); };
    h.lost_sync = [this, i] { on_lost_sync(i); };
    if (i == pods)
      h.undecodable = config_.undecodable_pod;
    reflectors_.push_back(
      std::make_unique<io::reflector>(client_, std::move(rc), std::move(h)));
  }
  for (auto& r : reflectors_)
    r->start();
}

void api_source::stop() {
  // Every reflector notices a stop within its poll interval: ask them all
  // first, so stopping takes one interval, not one per kind.
  for (auto& r : reflectors_)
    r->request_stop();
  for (auto& r : reflectors_)
    r->stop();
  std::lock_guard guard{mutex_};
  receiver_.reset();
}

void api_source::on_events(std::size_t index,
                           std::vector<io::reflected_event> events) {
  if (index < reflectors_.size())
    count_deliveries(config_.metrics, index, *reflectors_[index], events,
                     reflectors_[index]->has_synced());
  actors::object_events out;
  out.reserve(events.size());
  for (auto& e : events)
    out.push_back({convert(e.type), std::move(e.obj)});
  std::lock_guard guard{mutex_};
  if (!receiver_)
    return;
  if (synced_.load()) {
    if (resyncing_count_.load() > 0) {
      auto& held = initial_[index];
      held.insert(held.end(), std::make_move_iterator(out.begin()),
                  std::make_move_iterator(out.end()));
      return;
    }
    delivered_.fetch_add(out.size(), std::memory_order_relaxed);
    deliver_locked(std::move(out));
    return;
  }
  auto& target = reflector_synced_[index] ? backlog_ : initial_[index];
  target.insert(target.end(), std::make_move_iterator(out.begin()),
                std::make_move_iterator(out.end()));
}

void api_source::deliver_locked(actors::object_events events) {
  {
    std::lock_guard guard{nodes_mutex_};
    for (const auto& e : events)
      if (const auto* n = std::get_if<model::node_ptr>(&e.obj)) {
        if (e.type == actors::object_event::kind::deleted)
          nodes_.erase((*n)->name);
        else
          nodes_.insert((*n)->name);
      }
  }
  receiver_->deliver(std::move(events));
}

error api_source::check_bind_target(model::symbol node) const {
  if (!in_sync())
    return make_error(ec::unavailable,
                      "the scheduler's informers are re-syncing; binding "
                      "waits until every one has listed again");
  std::lock_guard guard{nodes_mutex_};
  if (nodes_.count(node) == 0)
    return make_error(ec::unavailable, "node \"" + std::string{node.view()}
                                         + "\" is not in the scheduler's "
                                           "cache");
  return {};
}

void api_source::on_lost_sync(std::size_t index) {
  std::lock_guard guard{mutex_};
  if (!receiver_ || !synced_.load() || resyncing_[index])
    return;
  resyncing_[index] = true;
  if (resyncing_count_.fetch_add(1) == 0)
    TLOG_INFO("an informer must list again; holding events and bindings "
              "until every informer is in sync",
              "resource", kinds[index].name);
}

actors::object_events api_source::take_in_order() {
  actors::object_events out;
  for (std::size_t k : initial_order) {
    out.insert(out.end(), std::make_move_iterator(initial_[k].begin()),
               std::make_move_iterator(initial_[k].end()));
    initial_[k].clear();
  }
  return out;
}

void api_source::on_synced(std::size_t index) {
  std::lock_guard guard{mutex_};
  if (!receiver_)
    return;
  if (reflector_synced_[index]) {
    if (!resyncing_[index])
      return;
    resyncing_[index] = false;
    if (resyncing_count_.load() > 1) {
      resyncing_count_.fetch_sub(1);
      return;
    }
    actors::object_events held = take_in_order();
    TLOG_INFO("informers in sync again", "events", held.size());
    delivered_.fetch_add(held.size(), std::memory_order_relaxed);
    if (!held.empty())
      deliver_locked(std::move(held));
    // Only now: a binding may go out once the cache has the new state.
    resyncing_count_.fetch_sub(1);
    return;
  }
  reflector_synced_[index] = true;
  if (++synced_count_ < std::size(kinds))
    return;
  actors::object_events all = take_in_order();
  TLOG_INFO("caches synced", "objects", all.size());
  delivered_.fetch_add(all.size() + backlog_.size(), std::memory_order_relaxed);
  deliver_locked(std::move(all));
  // Set before calling `synced`: whoever that wakes sees synced().
  synced_.store(true);
  receiver_->synced();
  if (!backlog_.empty())
    deliver_locked(std::move(backlog_));
  backlog_.clear();
}

} // namespace tessera::adapters
