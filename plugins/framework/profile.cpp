// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/profile.hpp"

#include <algorithm>
#include <cassert>
#include <map>
#include <type_traits>
#include <unordered_map>

namespace tessera::plugins {

namespace {

// Finds or instantiates the plugin `name`, so that a plugin enabled at several
// extension points is one instance with one cycle-state slot.
class plugin_pool {
public:
  plugin_pool(const config::profile_config& cfg, const registry& reg)
    : cfg_(cfg), reg_(reg) {
  }

  expected<plugin*> get(const std::string& name) {
    if (auto it = by_name_.find(name); it != by_name_.end())
      return it->second.get();
    const plugin_factory* factory = reg_.find(name);
    if (factory == nullptr)
      return make_error(ec::invalid_input, "\"" + name + "\" does not exist");
    config::plugin_args args;
    if (auto it = cfg_.plugin_config.find(name); it != cfg_.plugin_config.end())
      args = it->second;
    auto made = (*factory)(args);
    if (!made)
      return make_error(ec::invalid_input, "initializing plugin \"" + name
                                             + "\": " + made.err().message);
    auto& slot = by_name_[name];
    slot = std::move(*made);
    order_.push_back(slot);
    return slot.get();
  }

  std::vector<std::shared_ptr<plugin>> take() {
    return std::move(order_);
  }

private:
  const config::profile_config& cfg_;
  const registry& reg_;
  std::map<std::string, std::shared_ptr<plugin>> by_name_;
  std::vector<std::shared_ptr<plugin>> order_;
};

template <class Interface>
error collect(plugin_pool& pool, const std::vector<config::plugin_ref>& refs,
              const char* point, std::vector<const Interface*>& out) {
  for (const auto& ref : refs) {
    auto p = pool.get(ref.name);
    if (!p)
      return p.err();
    auto* typed = dynamic_cast<const Interface*>(*p);
    if (typed == nullptr)
      return make_error(ec::invalid_input, "plugin \"" + ref.name
                                             + "\" does not extend " + point
                                             + " plugin");
    out.push_back(typed);
  }
  return {};
}

} // namespace

expected<std::shared_ptr<const profile>>
profile::build(const config::profile_config& cfg, const registry& reg,
               std::int32_t global_percentage) {
  auto prof = std::make_shared<profile>();
  prof->scheduler_name_ = cfg.scheduler_name;
  prof->percentage_
    = cfg.percentage_of_nodes_to_score.value_or(global_percentage);
  plugin_pool pool{cfg, reg};
  const auto& sets = cfg.plugins;
  error err;
  auto run = [&](auto&& step) {
    if (!err)
      err = step();
  };
  run([&] {
    return collect(pool, sets.pre_enqueue, "PreEnqueue", prof->pre_enqueue_);
  });
  std::vector<const queue_sort_plugin*> sorts;
  run([&] { return collect(pool, sets.queue_sort, "QueueSort", sorts); });
  run([&] {
    return collect(pool, sets.pre_filter, "PreFilter", prof->pre_filter_);
  });
  run([&] { return collect(pool, sets.filter, "Filter", prof->filter_); });
  run([&] {
    return collect(pool, sets.post_filter, "PostFilter", prof->post_filter_);
  });
  run([&] {
    return collect(pool, sets.pre_score, "PreScore", prof->pre_score_);
  });
  std::vector<const score_plugin*> scores;
  run([&] { return collect(pool, sets.score, "Score", scores); });
  run([&] { return collect(pool, sets.reserve, "Reserve", prof->reserve_); });
  run([&] { return collect(pool, sets.permit, "Permit", prof->permit_); });
  run([&] { return collect(pool, sets.pre_bind, "PreBind", prof->pre_bind_); });
  run([&] { return collect(pool, sets.bind, "Bind", prof->bind_); });
  run([&] {
    return collect(pool, sets.post_bind, "PostBind", prof->post_bind_);
  });
  if (err)
    return err;
  if (sorts.size() > 1)
    return make_error(ec::invalid_input,
                      "only one queue sort plugin can be enabled");
  prof->queue_sort_ = sorts.empty() ? nullptr : sorts.front();
  for (std::size_t i = 0; i < scores.size(); ++i) {
    std::int64_t weight = sets.score[i].weight > 0 ? sets.score[i].weight : 1;
    prof->score_.push_back(
      {scores[i], weight, dynamic_cast<const feasible_summarizer*>(scores[i])});
  }
  prof->plugins_ = pool.take();
  if (prof->plugins_.size() > max_plugins_per_profile)
    return make_error(ec::invalid_input, "too many plugins in profile");
  for (std::size_t i = 0; i < prof->plugins_.size(); ++i)
    prof->plugins_[i]->bind_context({i});
  // Node scans serve PreFilter and PreScore state; a plugin enabled at
  // either point that implements node_scanner gets its scan.
  for (const auto& p : prof->plugins_) {
    auto* scanner = dynamic_cast<const node_scanner*>(p.get());
    if (scanner == nullptr)
      continue;
    bool at_pre_filter = std::any_of(
      prof->pre_filter_.begin(), prof->pre_filter_.end(),
      [&](auto* x) { return static_cast<const plugin*>(x) == p.get(); });
    bool at_pre_score = std::any_of(
      prof->pre_score_.begin(), prof->pre_score_.end(),
      [&](auto* x) { return static_cast<const plugin*>(x) == p.get(); });
    if (at_pre_filter || at_pre_score)
      prof->scanners_.push_back(scanner);
  }
  // Batching signs pods with every plugin whose results it reuses: those
  // enabled at PreFilter, Filter, PreScore or Score.
  auto enabled_in = [](const plugin* p, const auto& list) {
    return std::any_of(list.begin(), list.end(), [&](auto* x) {
      return static_cast<const plugin*>(x) == p;
    });
  };
  bool all_sign = true;
  for (const auto& p : prof->plugins_) {
    bool reused
      = enabled_in(p.get(), prof->pre_filter_)
        || enabled_in(p.get(), prof->filter_)
        || enabled_in(p.get(), prof->pre_score_)
        || std::any_of(prof->score_.begin(), prof->score_.end(), [&](auto& w) {
             return static_cast<const plugin*>(w.plugin) == p.get();
           });
    if (!reused)
      continue;
    prof->signer_slots_.push_back(p->slot());
    all_sign = all_sign && p->signs_pods();
  }
  prof->batchable_ = all_sign;
  for (const auto& p : prof->plugins_)
    for (auto& e : p->events_to_register())
      prof->events_.push_back({std::string{p->name()}, std::move(e)});
  return std::shared_ptr<const profile>{std::move(prof)};
}

bool profile::signable(const model::pod& p,
                       const cluster_context& cluster) const {
  if (!batchable_)
    return false;
  for (std::size_t slot : signer_slots_)
    if (!plugins_[slot]->signable(p, cluster))
      return false;
  return true;
}

bool profile::same_signature(const model::pod& a, const model::pod& b) const {
  for (std::size_t slot : signer_slots_)
    if (!plugins_[slot]->same_signature(a, b))
      return false;
  return true;
}

const plugin* profile::find(std::string_view name) const noexcept {
  for (const auto& p : plugins_)
    if (p->name() == name)
      return p.get();
  return nullptr;
}

std::shared_ptr<const profile>
profile::with_wrapped_plugins(const plugin_wrapper& wrap) const {
  auto copy = std::make_shared<profile>(*this);
  copy->instrumented_ = true;
  std::unordered_map<const plugin*, plugin*> wrapped;
  for (auto& p : copy->plugins_) {
    auto w = wrap(p);
    w->bind_context({p->slot()});
    wrapped.emplace(p.get(), w.get());
    p = std::move(w);
  }
  // Each interface pointer moves to the same interface of the wrapper.
  auto swap = [&](auto*& typed) {
    if (typed == nullptr)
      return;
    using interface = std::remove_cv_t<
      std::remove_pointer_t<std::remove_reference_t<decltype(typed)>>>;
    const plugin* original = typed;
    typed = dynamic_cast<const interface*>(wrapped.at(original));
    assert(typed != nullptr && "a wrapper lacks an interface of its plugin");
  };
  auto swap_all = [&](auto& list) {
    for (auto*& typed : list)
      swap(typed);
  };
  swap_all(copy->pre_enqueue_);
  swap(copy->queue_sort_);
  swap_all(copy->pre_filter_);
  swap_all(copy->filter_);
  swap_all(copy->post_filter_);
  swap_all(copy->pre_score_);
  for (auto& s : copy->score_) {
    swap(s.plugin);
    swap(s.summarizer);
  }
  swap_all(copy->reserve_);
  swap_all(copy->permit_);
  swap_all(copy->pre_bind_);
  swap_all(copy->bind_);
  swap_all(copy->post_bind_);
  swap_all(copy->scanners_);
  return copy;
}

namespace {

// The first non-success status of `f` on `node`, named after the plugin; an
// Error's message says which plugin failed.
status name_failure(const filter_plugin& f, status s) {
  if (!s.is_rejected()) {
    std::string msg = "running \"" + std::string{f.name()}
                      + "\" filter plugin: " + s.message();
    s = status::make_error(std::move(msg));
  }
  s.set_plugin(f.name());
  return s;
}

} // namespace

status profile::run_filters(const cycle_state& state, const model::pod& p,
                            model::node_view node, bool node_local_only) const {
  for (const auto* f : filter_) {
    if (state.skip_filter.test(f->slot()))
      continue;
    if (node_local_only && !f->node_local())
      continue;
    status s = f->filter(state, p, node);
    if (!s.ok())
      return name_failure(*f, std::move(s));
  }
  return {};
}

std::vector<const filter_plugin*>
profile::active_filters(const cycle_state& state) const {
  std::vector<const filter_plugin*> out;
  out.reserve(filter_.size());
  for (const auto* f : filter_)
    if (!state.skip_filter.test(f->slot()))
      out.push_back(f);
  return out;
}

status profile::run_active_filters(std::span<const filter_plugin* const> active,
                                   const cycle_state& state,
                                   const model::pod& p,
                                   model::node_view node) const {
  for (const auto* f : active) {
    status s = f->filter(state, p, node);
    if (!s.ok()) [[unlikely]]
      return name_failure(*f, std::move(s));
  }
  return {};
}

profile::cross_node_use
profile::cross_node_filters(const cycle_state& state) const {
  cross_node_use out;
  for (const auto* f : filter_) {
    if (f->node_local())
      continue;
    if (state.skip_filter.test(f->slot()))
      out.skip_may_change
        = out.skip_may_change || f->skip_depends_on_other_pods();
    else
      out.active = true;
  }
  return out;
}

status profile::run_filters_with_nominated(
  const cycle_state& state, const model::pod& p, const model::node_info& node,
  std::span<const model::pod_ptr> nominated) const {
  // Keep only higher-or-equal priority pods other than `p` itself.
  auto relevant = [&](const model::pod_ptr& n) {
    return n && n->priority >= p.priority && !n->same_identity(p);
  };
  if (std::none_of(nominated.begin(), nominated.end(), relevant))
    return run_filters(state, p, node);
  // First pass: as if the nominated pods were already running here. Shards
  // run this for every node with nominated pods, so the node is not copied:
  // the filters read it through a view that adds the pods on top, and the
  // overlay's buffers are one per thread and keep their capacity.
  thread_local model::node_overlay with_nominated;
  with_nominated.reset(node);
  status first;
  if (!extensions_active(state)) {
    for (const auto& n : nominated)
      if (relevant(n))
        with_nominated.add(*n);
    first = run_filters(state, p, with_nominated.view());
  } else {
    cycle_state state_with = state;
    for (const auto& n : nominated) {
      if (!relevant(n))
        continue;
      with_nominated.add(*n);
      if (auto s = run_add_pod(state_with, p, *n, with_nominated.view());
          !s.ok())
        return s;
    }
    first = run_filters(state_with, p, with_nominated.view());
  }
  if (!first.ok())
    return first;
  // Second pass: some filters (affinity) may pass only thanks to them.
  return run_filters(state, p, node);
}

bool profile::extensions_active(const cycle_state& state) const {
  for (const auto* pf : pre_filter_)
    if (pf->has_extensions() && !state.skip_filter.test(pf->slot()))
      return true;
  return false;
}

status profile::run_add_pod(cycle_state& state, const model::pod& to_schedule,
                            const model::pod_core& added,
                            model::node_view node) const {
  for (const auto* pf : pre_filter_) {
    if (!pf->has_extensions() || state.skip_filter.test(pf->slot()))
      continue;
    status s = pf->add_pod(state, to_schedule, added, node);
    if (!s.ok())
      return status::make_error("running AddPod on PreFilter plugin \""
                                + std::string{pf->name()}
                                + "\": " + s.message());
  }
  return {};
}

status profile::run_remove_pod(cycle_state& state,
                               const model::pod& to_schedule,
                               const model::pod_core& removed,
                               model::node_view node) const {
  for (const auto* pf : pre_filter_) {
    if (!pf->has_extensions() || state.skip_filter.test(pf->slot()))
      continue;
    status s = pf->remove_pod(state, to_schedule, removed, node);
    if (!s.ok())
      return status::make_error("running RemovePod on PreFilter plugin \""
                                + std::string{pf->name()}
                                + "\": " + s.message());
  }
  return {};
}

} // namespace tessera::plugins
