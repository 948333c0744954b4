// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/binder/binder_state.hpp"

#include "metrics/scheduler_metrics.hpp"
#include "support/log.hpp"

namespace tessera::actors {

namespace {

// Metrics: a binding ended. Upstream counts the attempt's result
// only now; for a bound pod also its attempts and the SLI (first enqueue,
// on the queue's steady clock, to bound).
void count_binding_end(metrics::scheduler_metrics* m, const bind_request& req,
                       bool bound) {
  if (m == nullptr)
    return;
  m->schedule_attempts
    .with({bound ? "scheduled" : "error", req.profile->scheduler_name()})
    .inc();
  if (!bound)
    return;
  m->pod_attempts.observe(req.attempts);
  if (req.flushed)
    m->scheduled_after_flush.inc();
  auto now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now().time_since_epoch())
                  .count();
  m->pod_sli_duration.with({metrics::attempts_label(req.attempts)})
    .observe(static_cast<double>(now_ns - req.initial_ns) / 1e9);
}

} // namespace

binder_state::binder_state(binder_config cfg, binder_ports& ports)
  : cfg_(cfg), ports_(ports) {
  if (cfg_.bind_concurrency == 0)
    cfg_.bind_concurrency = 1;
}

void binder_state::on_request(bind_request_ptr req) {
  if (running_.size() >= cfg_.bind_concurrency)
    waiting_.push_back(std::move(req));
  else
    start(std::move(req));
  publish_binding();
}

// Metrics: scheduler_goroutines{operation="binding"}, the binding cycles
// begun and not ended, those waiting for bindConcurrency included (upstream
// has no such limit: each has its goroutine at once).
void binder_state::publish_binding() {
  if (cfg_.metrics == nullptr)
    return;
  if (binding_gauge_ == nullptr)
    binding_gauge_ = &cfg_.metrics->goroutines.with({"binding"});
  binding_gauge_->set(static_cast<double>(running_.size() + waiting_.size()));
}

void binder_state::start(bind_request_ptr req) {
  std::uint64_t id = ++next_id_;
  auto [it, fresh] = running_.emplace(id, binding{req, *req->state, {}});
  binding& b = it->second;
  const plugins::profile& prof = *req->profile;
  const model::pod& p = *req->pod;
  for (const auto* r : prof.reserve()) {
    plugins::status s = r->reserve(b.state, p, req->node);
    if (!s.ok()) {
      fail(b, id,
           "running Reserve plugin \"" + std::string{r->name()}
             + "\": " + s.message(),
           true);
      return;
    }
  }
  for (const auto* pm : prof.permit()) {
    std::int64_t timeout_ms = 0;
    plugins::status s = pm->permit(b.state, p, req->node, timeout_ms);
    if (s.get_code() == plugins::code::wait) {
      // No in-tree plugin waits; out-of-tree waiting is not supported yet.
      fail(b, id,
           "permit plugin \"" + std::string{pm->name()}
             + "\" asked to wait, which tessera does not support yet",
           true);
      return;
    }
    if (!s.ok()) {
      fail(b, id,
           "running Permit plugin \"" + std::string{pm->name()}
             + "\": " + s.message(),
           true);
      return;
    }
  }
  std::optional<std::chrono::milliseconds> volume_wait;
  std::string_view waiter;
  for (const auto* pb : prof.pre_bind()) {
    plugins::status s = pb->pre_bind(b.state, p, req->node);
    if (!s.ok()) {
      fail(b, id,
           "running PreBind plugin \"" + std::string{pb->name()}
             + "\": " + s.message(),
           true);
      return;
    }
    if (!volume_wait) {
      volume_wait = pb->api_wait_timeout();
      waiter = pb->name();
    }
  }
  if (req->volumes && volume_wait) {
    b.volume_writer = waiter;
    ports_.start_volume_binding(id, req->pod, req->node, req->volumes,
                                *volume_wait);
    return;
  }
  bind(b, id);
}

void binder_state::bind(binding& b, std::uint64_t id) {
  const bind_request_ptr& req = b.req;
  const plugins::profile& prof = *req->profile;
  const model::pod& p = *req->pod;
  bool accepted = false;
  for (const auto* bp : prof.bind()) {
    plugins::status s = bp->accepts(b.state, p, req->node);
    if (s.is_skip())
      continue;
    if (!s.ok()) {
      fail(b, id,
           "running Bind plugin \"" + std::string{bp->name()}
             + "\": " + s.message(),
           true);
      return;
    }
    accepted = true;
    break;
  }
  if (!accepted) {
    fail(b, id, "all bind plugins skipped the pod", true);
    return;
  }
  ports_.start_bind(id, req->pod, req->node);
}

void binder_state::on_done(std::uint64_t id, const error& err) {
  auto it = running_.find(id);
  if (it == running_.end())
    return;
  binding& b = it->second;
  const bind_request& req = *b.req;
  if (!b.volume_writer.empty()) {
    std::string writer{b.volume_writer};
    b.volume_writer = {};
    if (err) {
      fail(b, id,
           "running PreBind plugin \"" + writer
             + "\": binding volumes: " + err.message,
           true);
      return;
    }
    bind(b, id);
    return;
  }
  if (err) {
    // A pod deleted meanwhile is not a failure worth reporting, nor a
    // conflict: the API refuses a binding with 409 when the pod is bound
    // already (by another scheduler instance, or by an earlier attempt
    // whose answer was lost), being deleted, or another pod by now (a new
    // UID). Its watch event settles it; a PodScheduled=False patch would
    // only mark a bound pod as failed.
    bool report = err.code != ec::not_found && err.code != ec::conflict;
    fail(b, id,
         "binding rejected: running Bind plugin \"DefaultBinder\": "
           + err.message,
         report);
    return;
  }
  for (const auto* pb : req.profile->post_bind())
    pb->post_bind(b.state, *req.pod, req.node);
  ports_.finish_binding(req.pod);
  count_binding_end(cfg_.metrics, req, true);
  ports_.sink().scheduled(req.pod, req.node);
  TLOG_V(2, "successfully bound pod to node", "pod", req.pod->key(), "node",
         req.node.view(), "evaluatedNodes", req.evaluated_nodes,
         "feasibleNodes", req.feasible_nodes);
  auto out = std::make_shared<bind_outcome>();
  out->pod = req.pod;
  out->bound = true;
  running_.erase(it);
  ports_.bound(std::move(out));
  next();
}

void binder_state::fail(binding& b, std::uint64_t id,
                        const std::string& message, bool report) {
  bind_request_ptr req = b.req;
  count_binding_end(cfg_.metrics, *req, false);
  const auto& reserve = req->profile->reserve();
  for (auto r = reserve.rbegin(); r != reserve.rend(); ++r)
    (*r)->unreserve(b.state, *req->pod, req->node);
  ports_.forget(req->pod);
  if (report) {
    failure_report f;
    f.reason = "SchedulerError";
    f.message = message;
    ports_.sink().unschedulable(req->pod, f);
  }
  TLOG_V(2, "binding failed", "pod", req->pod->key(), "node", req->node.view(),
         "err", message);
  auto out = std::make_shared<bind_outcome>();
  out->pod = req->pod;
  out->bound = false;
  out->message = message;
  running_.erase(id);
  ports_.bound(std::move(out));
  next();
}

void binder_state::next() {
  while (!waiting_.empty() && running_.size() < cfg_.bind_concurrency) {
    bind_request_ptr req = std::move(waiting_.front());
    waiting_.pop_front();
    start(std::move(req));
  }
  publish_binding();
}

void binder_state::on_eviction(const eviction& e) {
  for (const auto& p : e.cleared)
    ports_.sink().clear_nomination(p);
  if (e.victims.empty())
    return;
  std::uint64_t id = ++next_eviction_;
  evictions_.emplace(id, pending_eviction{e.preemptor, e.victims.size(), false,
                                          std::chrono::steady_clock::now()});
  for (const auto& v : e.victims)
    ports_.start_deletion(id, v, e.preemptor, e.node);
}

void binder_state::on_victim_deleted(std::uint64_t id, const error& err) {
  auto it = evictions_.find(id);
  if (it == evictions_.end())
    return;
  pending_eviction& p = it->second;
  if (err) {
    TLOG_WARN("a preemption victim was not deleted; the preemptor is retried",
              "preemptor", p.preemptor->key(), "err", err.message);
    p.failed = true;
  }
  if (--p.deletions_left > 0)
    return;
  if (auto* m = cfg_.metrics) {
    const char* result = p.failed ? "error" : "success";
    std::chrono::duration<double> took
      = std::chrono::steady_clock::now() - p.began;
    m->preemption_goroutines_duration.with({result}).observe(took.count());
    m->preemption_goroutines_execution.with({result}).inc();
  }
  if (p.failed) {
    // The room the nomination promised may never come: give it up, so
    // that the preemptor's next cycle looks again.
    ports_.sink().clear_nomination(p.preemptor);
  }
  ports_.preemption_ended(p.preemptor, p.failed);
  evictions_.erase(it);
}

} // namespace tessera::actors
