// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/pod_tracker.hpp"

#include <algorithm>
#include <chrono>

namespace tessera::perf {

std::string_view to_string(attempt_result r) noexcept {
  switch (r) {
  case attempt_result::scheduled:
    return "scheduled";
  case attempt_result::unschedulable:
    return "unschedulable";
  case attempt_result::error:
    return "error";
  case attempt_result::conflict:
    return "conflict";
  }
  return "unknown";
}

namespace {

bool is_attempted(const pod_record& r) {
  return r.bound || r.failed_once;
}

} // namespace

pod_tracker::pod_tracker(const clock& clk) : clk_(clk) {
}

pod_record& pod_tracker::slot(const std::string& key) {
  return pods_[key];
}

void pod_tracker::count_bound(const pod_record& r) {
  ++all_.bound;
  auto& g = groups_[r.group];
  ++g.bound;
  ++namespaces_[r.ns].bound;
  if (g.bound == g.created)
    cv_.notify_all();
}

void pod_tracker::count_attempted(const pod_record& r) {
  ++all_.attempted;
  auto& g = groups_[r.group];
  ++g.attempted;
  ++namespaces_[r.ns].attempted;
  if (g.attempted == g.created)
    cv_.notify_all();
}

void pod_tracker::created(const std::string& ns, const std::string& name,
                          int group, time_point t) {
  std::lock_guard guard{mu_};
  auto& r = slot(ns + "/" + name);
  if (r.created)
    return;
  r.ns = ns;
  r.group = group;
  r.created = t;
  ++all_.created;
  ++groups_[group].created;
  ++namespaces_[ns].created;
  if (r.bound)
    count_bound(r);
  if (is_attempted(r))
    count_attempted(r);
}

void pod_tracker::deleted(const std::string& ns, const std::string& name) {
  std::lock_guard guard{mu_};
  auto it = pods_.find(ns + "/" + name);
  if (it == pods_.end() || it->second.deleted || !it->second.created)
    return;
  auto& r = it->second;
  r.deleted = true;
  // A deleted pod no longer counts as one to wait for.
  auto forget = [&](pod_counts& c) {
    ++c.deleted;
    --c.created;
    if (r.bound)
      --c.bound;
    if (is_attempted(r))
      --c.attempted;
  };
  forget(all_);
  forget(groups_[r.group]);
  forget(namespaces_[r.ns]);
  cv_.notify_all();
}

void pod_tracker::bound(const std::string& key, time_point t) {
  std::lock_guard guard{mu_};
  auto& r = slot(key);
  if (r.bound)
    return;
  bool was_attempted = is_attempted(r);
  r.bound = t;
  ++total_bound_;
  if (r.created && !r.deleted) {
    count_bound(r);
    if (!was_attempted)
      count_attempted(r);
  }
}

void pod_tracker::bind_failed(const std::string&) {
  std::lock_guard guard{mu_};
  ++binds_failed_;
}

void pod_tracker::attempted(const std::string& key, attempt_result result,
                            duration latency) {
  std::lock_guard guard{mu_};
  ++attempts_;
  auto& r = slot(key);
  r.attempts.push_back(
    {result, std::chrono::duration<double>(latency).count()});
  // Upstream's "Attempted" stage: bound, or marked PodScheduled=False.
  if (result == attempt_result::unschedulable
      || result == attempt_result::error) {
    bool was_attempted = is_attempted(r);
    r.failed_once = true;
    if (r.created && !r.deleted && !was_attempted)
      count_attempted(r);
  }
}

void pod_tracker::failed(const std::string& key) {
  std::lock_guard guard{mu_};
  auto& r = slot(key);
  bool was_attempted = is_attempted(r);
  r.failed_once = true;
  if (r.created && !r.deleted && !was_attempted)
    count_attempted(r);
}

pod_counts pod_tracker::group(int g) const {
  std::lock_guard guard{mu_};
  auto it = groups_.find(g);
  return it == groups_.end() ? pod_counts{} : it->second;
}

pod_counts pod_tracker::namespaces(const std::set<std::string>& ns) const {
  std::lock_guard guard{mu_};
  if (ns.empty())
    return all_;
  pod_counts out;
  for (const auto& n : ns) {
    auto it = namespaces_.find(n);
    if (it == namespaces_.end())
      continue;
    out.created += it->second.created;
    out.bound += it->second.bound;
    out.attempted += it->second.attempted;
    out.deleted += it->second.deleted;
  }
  return out;
}

std::uint64_t pod_tracker::total_bound() const {
  std::lock_guard guard{mu_};
  return total_bound_;
}

void pod_tracker::batched() {
  std::lock_guard lock{mu_};
  ++batched_;
}

std::uint64_t pod_tracker::batched_total() const {
  std::lock_guard lock{mu_};
  return batched_;
}

std::uint64_t pod_tracker::binds_failed() const {
  std::lock_guard guard{mu_};
  return binds_failed_;
}

std::uint64_t pod_tracker::attempts_reported() const {
  std::lock_guard guard{mu_};
  return attempts_;
}

bool pod_tracker::wait(const std::function<bool()>& done, time_point deadline,
                       const std::function<void()>& tick) {
  for (;;) {
    if (done())
      return true;
    if (clk_.now() >= deadline)
      return false;
    if (tick)
      tick();
    std::unique_lock lock{mu_};
    cv_.wait_for(lock, std::chrono::milliseconds(50));
  }
}

std::vector<pod_record> pod_tracker::records(int g) const {
  std::lock_guard guard{mu_};
  std::vector<pod_record> out;
  for (const auto& [key, r] : pods_)
    if (r.group == g && r.created && !r.deleted)
      out.push_back(r);
  return out;
}

std::vector<std::pair<std::string, int>>
pod_tracker::live_pods(const std::string& ns) const {
  std::vector<std::pair<std::string, int>> out;
  std::lock_guard guard{mu_};
  for (const auto& [key, r] : pods_)
    if (r.ns == ns && r.created && !r.deleted)
      out.emplace_back(key.substr(ns.size() + 1), r.group);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace tessera::perf
