// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "adapters/api_client/api_sink.hpp"

#include "support/log.hpp"

#include <unistd.h>

namespace tessera::adapters {

namespace {

std::string local_hostname() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0')
    return "localhost";
  return host;
}

io::object_ref ref_of(const model::pod& p) {
  io::object_ref r;
  r.kind = "Pod";
  r.api_version = "v1";
  r.ns = std::string{p.ns.view()};
  r.name = p.name;
  r.uid = p.uid;
  r.resource_version = p.resource_version;
  return r;
}

} // namespace

std::string truncate_event_message(std::string message) {
  constexpr std::size_t limit = 1024;
  if (message.size() <= limit)
    return message;
  message.resize(limit - 4);
  message += " ...";
  return message;
}

api_sink::api_sink(io::rest_client& client, io::event_recorder& events,
                   api_sink_config config)
  : client_(client), events_(events), config_(std::move(config)),
    hostname_(config_.hostname.empty() ? local_hostname() : config_.hostname),
    binds_(std::make_unique<work_pool>("bind", config_.bind_threads)),
    writes_(std::make_unique<work_pool>("status", config_.status_threads)) {
  io::volume_binder_api api;
  api.get = [this](model::object_kind kind, std::string_view ns,
                   std::string_view name) {
    return client_.get_object(io::object_path(kind, ns, name));
  };
  api.update = [this](model::object_kind kind, std::string_view ns,
                      std::string_view name, std::string body) {
    return client_.update_object(io::object_path(kind, ns, name),
                                 std::move(body));
  };
  io::volume_binder_config vc;
  vc.threads = config_.volume_threads;
  vc.poll_interval = config_.volume_poll_interval;
  volumes_ = std::make_unique<io::volume_binder>(std::move(api), vc);
}

api_sink::~api_sink() {
  stop();
}

void api_sink::bind(const model::pod_ptr& pod, model::symbol node,
                    std::function<void(error)> done) {
  auto abandon = [done] {
    done(make_error(ec::unavailable, "scheduler is shutting down"));
  };
  if (closed_.load()) {
    abandon();
    return;
  }
  note_bind(pod->uid);
  stats_.binds_started.fetch_add(1, std::memory_order_relaxed);
  stats_.binds_in_flight.fetch_add(1, std::memory_order_relaxed);
  work_pool::job j;
  j.run = [this, pod, node, done] {
    error e = check_write_gate();
    if (!e && config_.bind_gate) {
      e = config_.bind_gate(node);
      if (e)
        stats_.gated.fetch_add(1, std::memory_order_relaxed);
    }
    bool gated = static_cast<bool>(e);
    if (!gated)
      e = client_.bind(pod->ns.view(), pod->name, pod->uid, node.view());
    stats_.binds_in_flight.fetch_sub(1, std::memory_order_relaxed);
    if (gated) {
      TLOG_V(2, "binding refused before it was sent", "pod", pod->key(), "node",
             node.view(), "err", e.message);
    } else if (!e) {
      stats_.bound.fetch_add(1, std::memory_order_relaxed);
    } else if (e.code == ec::conflict) {
      stats_.bind_conflicts.fetch_add(1, std::memory_order_relaxed);
      TLOG_INFO("binding conflict", "pod", pod->key(), "node", node.view(),
                "err", e.message);
    } else if (e.code == ec::not_found) {
      stats_.bind_not_found.fetch_add(1, std::memory_order_relaxed);
      TLOG_V(2, "pod deleted before its binding", "pod", pod->key());
    } else {
      stats_.bind_errors.fetch_add(1, std::memory_order_relaxed);
      TLOG_WARN("binding failed", "pod", pod->key(), "node", node.view(), "err",
                e.message);
    }
    done(std::move(e));
  };
  j.abandon = [this, abandon] {
    stats_.binds_in_flight.fetch_sub(1, std::memory_order_relaxed);
    abandon();
  };
  if (!binds_->post(std::move(j))) {
    stats_.binds_in_flight.fetch_sub(1, std::memory_order_relaxed);
    abandon();
  }
}

void api_sink::bind_volumes(const model::pod_ptr& pod, model::symbol node,
                            const model::volume_binding_plan_ptr& plan,
                            std::chrono::milliseconds timeout,
                            std::function<void(error)> done) {
  if (closed_.load()) {
    done(make_error(ec::unavailable, "scheduler is shutting down"));
    return;
  }
  if (plan == nullptr || plan->empty()) {
    done({});
    return;
  }
  volumes_->bind(pod, node, plan, timeout, std::move(done));
}

error api_sink::check_write_gate() {
  if (!config_.write_gate)
    return {};
  error e = config_.write_gate();
  if (e)
    stats_.gated.fetch_add(1, std::memory_order_relaxed);
  return e;
}

std::uint64_t api_sink::note_bind(const std::string& uid) {
  // Enough notes that a status write queued before the oldest pruned one
  // is long gone.
  constexpr std::uint64_t kept = 1 << 16;
  std::lock_guard guard{bind_notes_mutex_};
  auto n = bind_notes_taken_++;
  bind_notes_[uid] = n;
  if (bind_notes_.size() > 2 * kept)
    std::erase_if(bind_notes_,
                  [&](const auto& kv) { return kv.second + kept < n; });
  return n;
}

std::uint64_t api_sink::next_bind_note() {
  std::lock_guard guard{bind_notes_mutex_};
  return bind_notes_taken_;
}

bool api_sink::bind_noted_since(const std::string& uid, std::uint64_t since) {
  std::lock_guard guard{bind_notes_mutex_};
  auto it = bind_notes_.find(uid);
  return it != bind_notes_.end() && it->second >= since;
}

void api_sink::record(const model::pod& pod, const char* type,
                      const char* reason, const char* action, std::string note,
                      const model::pod* related) {
  // Events are reported by the profile that handled the pod.
  const model::pod& reporter = related != nullptr ? *related : pod;
  std::optional<io::object_ref> rel;
  if (related != nullptr)
    rel = ref_of(*related);
  record_ref(ref_of(pod), reporter.scheduler_name.str(), type, reason, action,
             std::move(note), std::move(rel));
}

void api_sink::record_ref(io::object_ref regarding, std::string scheduler,
                          const char* type, const char* reason,
                          const char* action, std::string note,
                          std::optional<io::object_ref> related) {
  if (check_write_gate())
    return;
  io::event_record e;
  e.ns = regarding.ns;
  e.regarding = std::move(regarding);
  if (related)
    e.related = std::move(*related);
  e.type = type;
  e.reason = reason;
  e.action = action;
  e.note = std::move(note);
  e.reporting_controller
    = scheduler.empty() ? std::string{"default-scheduler"} : scheduler;
  e.reporting_instance = e.reporting_controller + "-" + hostname_;
  events_.record(std::move(e));
}

void api_sink::undecodable_pod(const model::object_peek& pod,
                               const std::string& why) {
  if (closed_.load() || pod.name.empty() || pod.ns.empty())
    return;
  {
    std::lock_guard guard{undecodable_mutex_};
    // Bounded: a pod reported again after a reset gets one more event.
    if (undecodable_seen_.size() > 10000)
      undecodable_seen_.clear();
    if (!undecodable_seen_.insert(pod.uid + "/" + pod.resource_version).second)
      return;
  }
  io::object_ref ref;
  ref.kind = "Pod";
  ref.api_version = "v1";
  ref.ns = pod.ns;
  ref.name = pod.name;
  ref.uid = pod.uid;
  ref.resource_version = pod.resource_version;
  std::string message = "the scheduler cannot read this pod: " + why;
  record_ref(ref, pod.scheduler_name, "Warning", "FailedScheduling",
             "Scheduling", truncate_event_message(message), std::nullopt);
  if (!pod.node_name.empty())
    return;
  io::condition_patch c;
  c.type = "PodScheduled";
  c.status = "False";
  c.reason = "SchedulerError";
  c.message = std::move(message);
  c.last_transition = std::chrono::system_clock::now();
  std::string body = io::encode_pod_status_patch({c}, false, {});
  post_status(
    [this, ns = pod.ns, name = pod.name, body = std::move(body)]() mutable {
      error e = client_.patch_pod_status(ns, name, std::move(body));
      if (!e)
        stats_.status_patches.fetch_add(1, std::memory_order_relaxed);
      else if (e.code != ec::not_found)
        stats_.write_errors.fetch_add(1, std::memory_order_relaxed);
    });
}

void api_sink::post_status(std::function<void()> work,
                           std::function<void(error)> refused) {
  const error stopping{ec::unavailable, "the scheduler is stopping"};
  if (closed_.load()) {
    if (refused)
      refused(stopping);
    return;
  }
  work_pool::job j;
  j.run = [this, work = std::move(work), refused] {
    if (error held = check_write_gate()) {
      if (refused)
        refused(held);
      return;
    }
    work();
  };
  if (refused)
    j.abandon = [refused, stopping] { refused(stopping); };
  if (!writes_->post(std::move(j)) && refused)
    refused(stopping);
}

void api_sink::scheduled(const model::pod_ptr& pod, model::symbol node) {
  if (closed_.load())
    return;
  record(*pod, "Normal", "Scheduled", "Binding",
         "Successfully assigned " + pod->key() + " to "
           + std::string{node.view()});
}

void api_sink::unschedulable(const model::pod_ptr& pod,
                             const actors::failure_report& report) {
  if (closed_.load())
    return;
  record(*pod, "Warning", "FailedScheduling", "Scheduling",
         truncate_event_message(report.message));
  const auto& old = pod->scheduled_condition;
  bool was_false = old && old->status == "False";
  bool same = was_false && old->reason == report.reason
              && old->message == report.message;
  bool nomination = report.update_nomination
                    && pod->nominated_node_name != report.nominated_node;
  if (same && !nomination) {
    stats_.status_patches_skipped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  std::vector<io::condition_patch> conds;
  if (!same) {
    io::condition_patch c;
    c.type = "PodScheduled";
    c.status = "False";
    c.reason = report.reason;
    c.message = report.message;
    if (!was_false)
      c.last_transition = std::chrono::system_clock::now();
    conds.push_back(std::move(c));
  }
  std::string body = io::encode_pod_status_patch(conds, nomination,
                                                 report.nominated_node.view());
  auto queued_at = next_bind_note();
  post_status([this, pod, queued_at, body = std::move(body)]() mutable {
    // A later cycle bound the pod meanwhile: this failure is history, and
    // its PodScheduled=False would overwrite the binding's True.
    if (bind_noted_since(pod->uid, queued_at)) {
      stats_.status_patches_stale.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    error e
      = client_.patch_pod_status(pod->ns.view(), pod->name, std::move(body));
    if (!e) {
      stats_.status_patches.fetch_add(1, std::memory_order_relaxed);
    } else if (e.code != ec::not_found) {
      stats_.write_errors.fetch_add(1, std::memory_order_relaxed);
      TLOG_WARN("cannot update the pod's scheduling condition", "pod",
                pod->key(), "err", e.message);
    }
  });
}

void api_sink::preempt(const model::pod_ptr& victim,
                       const model::pod_ptr& preemptor, model::symbol node,
                       std::function<void(error)> done) {
  post_status(
    [this, victim, preemptor, node, done] {
      io::condition_patch c;
      c.type = "DisruptionTarget";
      c.status = "True";
      c.reason = "PreemptionByScheduler";
      c.message = preemptor->scheduler_name.str()
                  + ": preempting to accommodate a higher priority pod";
      c.last_transition = std::chrono::system_clock::now();
      error e
        = client_.patch_pod_status(victim->ns.view(), victim->name,
                                   io::encode_pod_status_patch({c}, false, {}));
      if (e && e.code != ec::not_found) {
        stats_.write_errors.fetch_add(1, std::memory_order_relaxed);
        TLOG_WARN("cannot mark a preemption victim", "pod", victim->key(),
                  "err", e.message);
      }
      e = client_.delete_pod(victim->ns.view(), victim->name);
      if (!e) {
        stats_.deletions.fetch_add(1, std::memory_order_relaxed);
      } else if (e.code != ec::not_found) {
        stats_.write_errors.fetch_add(1, std::memory_order_relaxed);
        TLOG_WARN("cannot delete a preemption victim", "pod", victim->key(),
                  "err", e.message);
        done(e);
        return;
      }
      record(*victim, "Normal", "Preempted", "Preempting",
             "Preempted by pod " + preemptor->uid + " on node "
               + std::string{node.view()},
             preemptor.get());
      done({});
    },
    done);
}

void api_sink::clear_nomination(const model::pod_ptr& pod) {
  if (closed_.load())
    return;
  post_status([this, pod] {
    error e = client_.patch_pod_status(
      pod->ns.view(), pod->name, io::encode_pod_status_patch({}, true, {}));
    if (!e)
      stats_.status_patches.fetch_add(1, std::memory_order_relaxed);
    else if (e.code != ec::not_found)
      stats_.write_errors.fetch_add(1, std::memory_order_relaxed);
  });
}

bool api_sink::drain(std::chrono::milliseconds timeout) {
  closed_.store(true);
  binds_->close();
  writes_->close();
  auto deadline = std::chrono::steady_clock::now() + timeout;
  bool idle = binds_->wait_idle(timeout);
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
    deadline - std::chrono::steady_clock::now());
  idle
    = writes_->wait_idle(std::max(left, std::chrono::milliseconds(0))) && idle;
  return idle;
}

void api_sink::stop() {
  closed_.store(true);
  std::size_t abandoned = binds_->shutdown(std::chrono::milliseconds(0));
  abandoned += writes_->shutdown(std::chrono::milliseconds(0));
  volumes_->stop();
  if (abandoned > 0)
    TLOG_INFO("abandoned pending API writes at shutdown", "count", abandoned);
}

} // namespace tessera::adapters
