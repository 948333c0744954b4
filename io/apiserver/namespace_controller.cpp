// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/namespace_controller.hpp"

#include "io/apiserver/controller_loop.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessera::apiserver {

struct namespace_controller::impl {
  impl(store& s, namespace_controller_config c) : st(s), cfg(c) {
  }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
  /// Stops the thread, then the watch it read.
  ~impl() {
    loop.stop();
    if (watch)
      watch->stop();
  }

  store& st;
  namespace_controller_config cfg;
  std::atomic<std::size_t> finalized{0};
  std::shared_ptr<watcher> watch;
  /// When each Terminating namespace was first seen.
  std::map<std::string, std::chrono::steady_clock::time_point> seen;
  const resource_info& namespaces = primary_resource(storage_kind::namespace_);
  const resource_info& nodes = primary_resource(storage_kind::node);
  std::vector<watch_event> drained;
  controller_loop loop{"namespace", cfg.resync, [this] { return pass(); }};

  void open_watch() {
    if (watch)
      watch->stop();
    watch.reset();
    watch_options wo;
    wo.field_selector = "status.phase=Terminating";
    auto w = st.watch(namespaces, "", wo);
    if (!w)
      return;
    (*w)->set_notify([this] { loop.notify(); });
    watch = std::move(*w);
  }

  /// Idle (nothing Terminating): only a namespace change wakes it. A
  /// watch the store refused cannot wake it, so it polls until one opens.
  std::optional<controller_loop::duration> pass() {
    drained.clear();
    if (!watch || watch->ended())
      open_watch();
    else
      watch->poll(drained);
    if (reconcile() || !watch)
      return cfg.resync;
    return std::nullopt;
  }

  /// Default deletes, except for a pod bound to a node that no longer
  /// exists: no kubelet will finish its graceful deletion, so it goes at
  /// once, as the pod garbage collector removes orphaned pods.
  delete_options delete_options_for(const resource_info& res,
                                    const stored_object& item) const {
    delete_options opts;
    if (res.storage != storage_kind::pod)
      return opts;
    auto node = item.attrs().field("spec.nodeName");
    if (node && !node->empty() && !st.get(nodes, "", *node))
      opts.grace_period_seconds = 0;
    return opts;
  }

  /// Deletes the contents of every Terminating namespace, then the
  /// namespaces left empty. True while one is still Terminating.
  bool reconcile() {
    list_options lo;
    lo.field_selector = "status.phase=Terminating";
    auto listed = st.list(namespaces, "", lo);
    if (!listed)
      return true;
    auto now = std::chrono::steady_clock::now();
    std::erase_if(seen, [&](const auto& kv) {
      return std::none_of(
        listed->items.begin(), listed->items.end(),
        [&](const object_ptr& o) { return o->name() == kv.first; });
    });
    for (const auto& ns : listed->items) {
      auto first = seen.try_emplace(std::string{ns->name()}, now).first->second;
      if (now - first < cfg.content_delay)
        continue;
      for (const auto& res : all_resources()) {
        // Each storage once, through the resource that stores it as is.
        if (!res.namespaced || &res != &primary_resource(res.storage))
          continue;
        auto items = st.list(res, ns->name());
        if (!items)
          continue;
        for (const auto& item : items->items)
          if (auto r = st.remove(res, ns->name(), item->name(),
                                 delete_options_for(res, *item));
              !r)
            TLOG_V(2, "namespace controller: delete failed", "key", item->key(),
                   "error", r.err().message);
      }
      auto r = st.remove(namespaces, "", ns->name());
      if (r && r->removed) {
        finalized.fetch_add(1, std::memory_order_relaxed);
        TLOG_V(1, "namespace controller: namespace removed", "namespace",
               ns->name());
      }
    }
    return !listed->items.empty();
  }
};

namespace_controller::namespace_controller(store& s,
                                           namespace_controller_config config)
  : impl_(std::make_unique<impl>(s, config)) {
}

namespace_controller::~namespace_controller() = default;

std::size_t namespace_controller::finalized() const {
  return impl_->finalized.load(std::memory_order_relaxed);
}

} // namespace tessera::apiserver
