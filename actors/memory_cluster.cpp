// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/memory_cluster.hpp"

#include "model/pod_key.hpp"

#include <algorithm>

namespace tessera::actors {

memory_cluster::memory_cluster(std::vector<model::object> objects)
  : initial_(std::move(objects)) {
  for (const auto& o : initial_) {
    const auto* p = std::get_if<model::pod_ptr>(&o);
    if (p == nullptr || !*p)
      continue;
    stored_pod& stored = pods_[model::pod_key(**p)];
    stored.pod = *p;
    if ((*p)->is_bound() || (*p)->is_terminal())
      continue;
    // A later pending object of the same key replaces the earlier one.
    if (stored.result) {
      results_[*stored.result].pod = *p;
    } else {
      stored.result = results_.size();
      results_.emplace_back().pod = *p;
    }
  }
}

memory_cluster::pod_result* memory_cluster::result_of(const model::pod& pod) {
  auto it = pods_.find(model::pod_key(pod));
  if (it == pods_.end() || !it->second.result)
    return nullptr;
  return &results_[*it->second.result];
}

void memory_cluster::start(receiver r) {
  std::lock_guard guard{mutex_};
  receiver_ = std::move(r);
  object_events events;
  events.reserve(initial_.size());
  for (const auto& o : initial_)
    events.push_back({object_event::kind::added, o});
  receiver_->deliver(std::move(events));
  receiver_->synced();
}

void memory_cluster::stop() {
  std::lock_guard guard{mutex_};
  receiver_.reset();
}

void memory_cluster::emit(object_event ev) {
  if (receiver_)
    receiver_->deliver(object_events{std::move(ev)});
}

void memory_cluster::apply(object_event ev) {
  std::lock_guard guard{mutex_};
  if (const auto* p = std::get_if<model::pod_ptr>(&ev.obj); p && *p) {
    std::string key = model::pod_key(**p);
    if (ev.type == object_event::kind::deleted)
      forget_pod(key);
    else
      pods_[key].pod = *p;
  }
  emit(std::move(ev));
}

void memory_cluster::bind_volumes(const model::pod_ptr& pod, model::symbol node,
                                  const model::volume_binding_plan_ptr& plan,
                                  std::chrono::milliseconds timeout,
                                  std::function<void(error)> done) {
  (void)timeout;
  {
    std::lock_guard guard{mutex_};
    volume_writes_.push_back({pod, node, plan});
  }
  done({});
}

std::vector<memory_cluster::volume_write>
memory_cluster::volume_writes() const {
  std::lock_guard guard{mutex_};
  return volume_writes_;
}

void memory_cluster::bind(const model::pod_ptr& pod, model::symbol node,
                          std::function<void(error)> done) {
  error outcome;
  {
    std::lock_guard guard{mutex_};
    auto it = pods_.find(model::pod_key(*pod));
    if (it == pods_.end() || !it->second.pod) {
      outcome
        = make_error(ec::not_found, "pods \"" + pod->name + "\" not found");
    } else if (it->second.pod->is_bound()) {
      outcome = make_error(
        ec::conflict, "Operation cannot be fulfilled on pods/binding \""
                        + pod->name + "\": pod " + pod->name
                        + " is already assigned to node \""
                        + std::string{it->second.pod->node_name.view()} + "\"");
    } else {
      // As the API server's binding: nodeName set, nomination kept, one
      // MODIFIED event.
      auto bound = std::make_shared<model::pod>(*it->second.pod);
      bound->node_name = node;
      bound->resource_version = std::to_string(++resource_version_);
      bound->scheduled_condition
        = model::pod_scheduled_condition{"True", "", ""};
      it->second.pod = bound;
      ++bindings_;
      if (it->second.result) {
        pod_result& r = results_[*it->second.result];
        r.state = pod_result::status::scheduled;
        r.node = node;
        r.message.clear();
        r.reason.clear();
        ++r.attempts;
      }
      emit({object_event::kind::modified, model::pod_ptr{bound}});
    }
  }
  done(std::move(outcome));
}

void memory_cluster::scheduled(const model::pod_ptr&, model::symbol) {
  // The "Scheduled" event; bind() already recorded the outcome.
}

void memory_cluster::attempted(const model::pod_ptr&,
                               const attempt_report& report) {
  if (!report.batched)
    return;
  std::lock_guard lock{mutex_};
  ++batched_;
}

std::size_t memory_cluster::batched() const {
  std::lock_guard lock{mutex_};
  return batched_;
}

void memory_cluster::unschedulable(const model::pod_ptr& pod,
                                   const failure_report& report) {
  std::lock_guard guard{mutex_};
  auto it = pods_.find(model::pod_key(*pod));
  if (it == pods_.end())
    return;
  if (it->second.result) {
    pod_result& r = results_[*it->second.result];
    if (r.state != pod_result::status::scheduled)
      r.state = pod_result::status::unschedulable;
    r.message = report.message;
    r.reason = report.reason;
    ++r.attempts;
    if (!report.nominated_node.empty())
      r.nominated_node = report.nominated_node;
  }
  if (!it->second.pod)
    return;
  auto updated = std::make_shared<model::pod>(*it->second.pod);
  updated->scheduled_condition
    = model::pod_scheduled_condition{"False", report.reason, report.message};
  if (report.update_nomination)
    updated->nominated_node_name = report.nominated_node;
  updated->resource_version = std::to_string(++resource_version_);
  it->second.pod = updated;
  if (report.update_nomination)
    emit({object_event::kind::modified, model::pod_ptr{updated}});
}

void memory_cluster::preempt(const model::pod_ptr& victim,
                             const model::pod_ptr& preemptor, model::symbol,
                             std::function<void(error)> done) {
  bool refused = false;
  {
    std::lock_guard guard{mutex_};
    ++deletions_asked_;
    refused = fail_every_nth_deletion_ != 0
              && deletions_asked_ % fail_every_nth_deletion_ == 0;
    deletions_refused_ += refused ? 1 : 0;
    if (!refused) {
      if (pod_result* r = result_of(*preemptor))
        r->victims.push_back(victim);
      if (auto it = pods_.find(model::pod_key(*victim));
          it != pods_.end() && it->second.pod) {
        model::pod_ptr gone = it->second.pod;
        forget_pod(it->first);
        emit({object_event::kind::deleted, gone});
      }
    }
  }
  // Outside the lock: the completion may call back into the sink. A victim
  // gone already counts as deleted, as a 404 does.
  if (refused)
    done(error{ec::unavailable, "deleting " + victim->key() + " was refused"});
  else
    done({});
}

void memory_cluster::fail_every_nth_deletion(std::size_t n) {
  std::lock_guard guard{mutex_};
  fail_every_nth_deletion_ = n;
}

std::size_t memory_cluster::refused_deletions() const {
  std::lock_guard guard{mutex_};
  return deletions_refused_;
}

void memory_cluster::clear_nomination(const model::pod_ptr& pod) {
  std::lock_guard guard{mutex_};
  auto it = pods_.find(model::pod_key(*pod));
  if (it == pods_.end() || !it->second.pod
      || it->second.pod->nominated_node_name.empty())
    return;
  auto updated = std::make_shared<model::pod>(*it->second.pod);
  updated->nominated_node_name = {};
  updated->resource_version = std::to_string(++resource_version_);
  it->second.pod = updated;
  emit({object_event::kind::modified, model::pod_ptr{updated}});
}

void memory_cluster::explained(const model::pod_ptr& pod,
                               const cycle_explanation& explanation) {
  std::lock_guard guard{mutex_};
  if (pod_result* r = result_of(*pod))
    r->explanation = explanation;
}

std::vector<memory_cluster::pod_result> memory_cluster::results() const {
  std::lock_guard guard{mutex_};
  return results_;
}

std::vector<model::pod_ptr> memory_cluster::pods() const {
  std::lock_guard guard{mutex_};
  std::vector<std::pair<std::string_view, model::pod_ptr>> keyed;
  for (const auto& [key, stored] : pods_)
    if (stored.pod)
      keyed.emplace_back(key, stored.pod);
  std::sort(keyed.begin(), keyed.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<model::pod_ptr> out;
  out.reserve(keyed.size());
  for (auto& [key, p] : keyed)
    out.push_back(std::move(p));
  return out;
}

void memory_cluster::forget_pod(const std::string& key) {
  // A pod pending at start keeps its entry (without a pod) so that its
  // outcome can still be found; the others go.
  auto it = pods_.find(key);
  if (it == pods_.end())
    return;
  if (it->second.result)
    it->second.pod = nullptr;
  else
    pods_.erase(it);
}

std::size_t memory_cluster::bindings() const {
  std::lock_guard guard{mutex_};
  return bindings_;
}

} // namespace tessera::actors
