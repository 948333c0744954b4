// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "adapters/api_client/api_sink.hpp"

#include "support/log.hpp"

#include <algorithm>
#include <unistd.h>

namespace tessera::adapters {

namespace {

std::string local_hostname() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0')
    return "localhost";
  return host;
}

/// A status write refused because the pod is gone (404) or is another pod
/// now (409: its UID precondition failed): nothing to report.
bool pod_replaced_or_gone(const error& e) {
  return e.code == ec::not_found || e.code == ec::conflict;
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
                      std::string_view name, std::string body) -> error {
    // PreBind's writes bind the pod as much as the binding does: refused
    // like it, they fail the pod's binding with the gate's error, and the
    // binder backs the pod off.
    if (error held = check_write_gate())
      return held;
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
  // A failure of an earlier cycle still waiting to be written is history
  // now; written after the binding it would mark the pod Unschedulable.
  {
    std::lock_guard guard{status_mutex_};
    if (status_pending_.erase(pod->key()) > 0)
      stats_.status_patches_stale.fetch_add(1, std::memory_order_relaxed);
  }
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

void api_sink::close() {
  {
    std::lock_guard guard{closing_mutex_};
    closed_.store(true);
  }
  closing_.notify_all();
}

bool api_sink::wait_while_open(std::chrono::steady_clock::time_point until) {
  std::unique_lock lock{closing_mutex_};
  return !closing_.wait_until(lock, until, [this] { return closed_.load(); });
}

error api_sink::check_write_gate() {
  if (!config_.write_gate)
    return {};
  error e = config_.write_gate();
  if (e)
    stats_.gated.fetch_add(1, std::memory_order_relaxed);
  return e;
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
  pending_status patch;
  patch.ns = pod.ns;
  patch.name = pod.name;
  patch.uid = pod.uid;
  io::condition_patch& c = patch.conds.emplace_back();
  c.type = "PodScheduled";
  c.status = "False";
  c.reason = "SchedulerError";
  c.message = std::move(message);
  c.last_transition = std::chrono::system_clock::now();
  patch_status(pod.ns + "/" + pod.name, std::move(patch));
}

void api_sink::post_status(std::string pod_key, std::function<void()> work,
                           std::function<void(error)> refused) {
  const error stopping{ec::unavailable, "the scheduler is stopping"};
  if (closed_.load()) {
    if (refused)
      refused(stopping);
    return;
  }
  work_pool::job j;
  j.key = std::move(pod_key);
  j.run = [this, work = std::move(work), refused] {
    if (error held = check_write_gate()) {
      if (refused)
        refused(held);
      return;
    }
    stats_.status_writes_in_flight.fetch_add(1, std::memory_order_relaxed);
    work();
    stats_.status_writes_in_flight.fetch_sub(1, std::memory_order_relaxed);
  };
  if (refused)
    j.abandon = [refused, stopping] { refused(stopping); };
  if (!writes_->post(std::move(j)) && refused)
    refused(stopping);
}

namespace {

/// `later` folded into `earlier`, both unsent patches of one pod: the later
/// condition of a type wins, keeping the earlier transition time when the
/// later one was computed from a pod that did not show the earlier yet.
void merge_into(std::vector<io::condition_patch>& earlier,
                std::vector<io::condition_patch> later) {
  for (auto& c : later) {
    auto same_type = std::find_if(
      earlier.begin(), earlier.end(),
      [&c](const io::condition_patch& e) { return e.type == c.type; });
    if (same_type == earlier.end()) {
      earlier.push_back(std::move(c));
      continue;
    }
    if (same_type->status == c.status && same_type->last_transition)
      c.last_transition = same_type->last_transition;
    *same_type = std::move(c);
  }
}

} // namespace

void api_sink::patch_status(
  std::string pod_key, pending_status patch,
  const std::function<bool(pending_status&)>& unless_sent) {
  {
    std::lock_guard guard{status_mutex_};
    auto waiting = status_pending_.find(pod_key);
    if (waiting != status_pending_.end() && waiting->second.uid != patch.uid) {
      // The waiting patch is for a pod deleted since and created again
      // under the name: history.
      stats_.status_patches_stale.fetch_add(1, std::memory_order_relaxed);
      waiting->second = std::move(patch);
      return;
    }
    if (waiting != status_pending_.end()) {
      merge_into(waiting->second.conds, std::move(patch.conds));
      if (patch.set_nomination) {
        waiting->second.set_nomination = true;
        waiting->second.nominated = std::move(patch.nominated);
      }
      stats_.status_patches_merged.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    if (unless_sent && !unless_sent(patch))
      return;
    status_pending_.emplace(pod_key, std::move(patch));
  }
  post_status_patch(pod_key, std::nullopt);
}

void api_sink::post_status_patch(
  const std::string& pod_key,
  std::optional<std::chrono::steady_clock::time_point> give_up) {
  auto refused = [this, pod_key, give_up](const error&) {
    // A leader paused past its lease refuses writes until its next renewal,
    // and leads on when nobody took over meanwhile. A failure dropped then
    // is lost for good: its pod waits, parked as unschedulable, with no
    // reason shown. So the patch waits for the gate, for a while.
    // The wait holds a writer thread, so it ends with the patience and as
    // soon as the sink closes.
    auto now = std::chrono::steady_clock::now();
    auto until = give_up.value_or(now + config_.gated_status_patience);
    if (now < until
        && wait_while_open(
          std::min(now + config_.gated_status_interval, until))) {
      post_status_patch(pod_key, until);
      return;
    }
    std::lock_guard guard{status_mutex_};
    status_pending_.erase(pod_key);
  };
  post_status(
    pod_key, [this, pod_key] { send_status(pod_key); }, std::move(refused));
}

void api_sink::send_status(const std::string& pod_key) {
  pending_status patch;
  {
    std::lock_guard guard{status_mutex_};
    auto waiting = status_pending_.find(pod_key);
    if (waiting == status_pending_.end())
      return;
    patch = std::move(waiting->second);
    status_pending_.erase(waiting);
  }
  error e = client_.patch_pod_status(
    patch.ns, patch.name,
    io::encode_pod_status_patch(patch.conds, patch.set_nomination,
                                patch.nominated, patch.uid));
  if (!e) {
    stats_.status_patches.fetch_add(1, std::memory_order_relaxed);
  } else if (pod_replaced_or_gone(e)) {
    TLOG_V(2, "status not written: the pod is gone", "pod", pod_key, "err",
           e.message);
  } else {
    stats_.write_errors.fetch_add(1, std::memory_order_relaxed);
    TLOG_WARN("cannot update the pod's status", "pod", pod_key, "err",
              e.message);
  }
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
  pending_status patch;
  patch.ns = std::string{pod->ns.view()};
  patch.name = pod->name;
  patch.uid = pod->uid;
  io::condition_patch& c = patch.conds.emplace_back();
  c.type = "PodScheduled";
  c.status = "False";
  c.reason = report.reason;
  c.message = report.message;
  patch.set_nomination = report.update_nomination;
  patch.nominated = std::string{report.nominated_node.view()};
  const auto& shown = pod->scheduled_condition;
  bool was_false = shown && shown->status == "False";
  if (!was_false)
    c.last_transition = std::chrono::system_clock::now();
  // The pod as the cache saw it is the truth only when no patch of ours is
  // still on its way; patch_status asks this only then.
  auto unless_shown = [&](pending_status& p) {
    bool same = was_false && shown->reason == report.reason
                && shown->message == report.message;
    p.set_nomination = report.update_nomination
                       && pod->nominated_node_name != report.nominated_node;
    if (same && !p.set_nomination) {
      stats_.status_patches_skipped.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
    if (same)
      p.conds.clear();
    return true;
  };
  patch_status(pod->key(), std::move(patch), unless_shown);
}

void api_sink::preempt(const model::pod_ptr& victim,
                       const model::pod_ptr& preemptor, model::symbol node,
                       std::function<void(error)> done) {
  post_status(
    victim->key(),
    [this, victim, preemptor, node, done] {
      io::condition_patch c;
      c.type = "DisruptionTarget";
      c.status = "True";
      c.reason = "PreemptionByScheduler";
      c.message = preemptor->scheduler_name.str()
                  + ": preempting to accommodate a higher priority pod";
      c.last_transition = std::chrono::system_clock::now();
      error e = client_.patch_pod_status(
        victim->ns.view(), victim->name,
        io::encode_pod_status_patch({c}, false, {}, victim->uid));
      if (e && !pod_replaced_or_gone(e)) {
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
  pending_status patch;
  patch.ns = std::string{pod->ns.view()};
  patch.name = pod->name;
  patch.uid = pod->uid;
  patch.set_nomination = true;
  patch_status(pod->key(), std::move(patch));
}

bool api_sink::drain(std::chrono::milliseconds timeout) {
  close();
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
  close();
  std::size_t abandoned = binds_->shutdown(std::chrono::milliseconds(0));
  abandoned += writes_->shutdown(std::chrono::milliseconds(0));
  volumes_->stop();
  if (abandoned > 0)
    TLOG_INFO("abandoned pending API writes at shutdown", "count", abandoned);
}

} // namespace tessera::adapters
