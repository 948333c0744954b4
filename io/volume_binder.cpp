// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/volume_binder.hpp"

#include "model/decode.hpp"
#include "model/volume_writes.hpp"
#include "support/log.hpp"
#include "support/thread_body.hpp"
#include "support/thread_name.hpp"

#include <algorithm>

namespace tessera::io {

namespace {

std::string claim_name(const model::persistent_volume_claim& c) {
  return model::claim_key(c.ns, c.name);
}

error binding_error(std::string why) {
  return make_error(ec::conflict, "binding volumes: " + std::move(why));
}

} // namespace

volume_binder::volume_binder(volume_binder_api api, volume_binder_config config)
  : api_(std::move(api)), config_(config) {
  std::size_t n = std::max<std::size_t>(config_.threads, 1);
  for (std::size_t i = 0; i < n; ++i)
    threads_.emplace_back([this] {
      set_thread_name("volumes");
      // loop() catches around each step and each callback; what still
      // escapes (a failed lock) ends this thread, logged, not the process.
      (void)run_thread_body("volumes", [this] { loop(); });
    });
}

volume_binder::~volume_binder() {
  stop();
}

void volume_binder::bind(model::pod_ptr pod, model::symbol node,
                         model::volume_binding_plan_ptr plan,
                         std::chrono::milliseconds timeout, done_fn done) {
  auto t = std::make_shared<task>();
  t->pod = std::move(pod);
  t->node = node;
  t->plan = std::move(plan);
  t->deadline = steady::now() + timeout;
  t->done = std::move(done);
  {
    std::lock_guard guard{mutex_};
    if (!stopping_) {
      queue_.emplace(steady::now(), std::move(t));
      wake_.notify_one();
      return;
    }
  }
  t->done(make_error(ec::unavailable, "scheduler is shutting down"));
}

std::size_t volume_binder::pending() const {
  std::lock_guard guard{mutex_};
  return queue_.size() + running_;
}

void volume_binder::stop() {
  {
    std::lock_guard guard{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable())
      t.join();
  threads_.clear();
  std::multimap<steady::time_point, task_ptr> left;
  {
    std::lock_guard guard{mutex_};
    left.swap(queue_);
  }
  for (auto& [when, t] : left)
    t->done(make_error(ec::unavailable, "scheduler is shutting down"));
}

void volume_binder::loop() {
  std::unique_lock lock{mutex_};
  while (!stopping_) {
    if (queue_.empty()) {
      wake_.wait(lock);
      continue;
    }
    auto first = queue_.begin();
    if (first->first > steady::now()) {
      // A copy: while this thread waits, another may take the entry.
      steady::time_point when = first->first;
      wake_.wait_until(lock, when);
      continue;
    }
    task_ptr t = std::move(first->second);
    queue_.erase(first);
    ++running_;
    lock.unlock();
    bool finished = true;
    // An exception must not end the process from this thread: the
    // binding fails and its pod is retried.
    try {
      finished = step(*t);
    } catch (...) {
      t->result = make_error(ec::internal,
                             "volume binding failed: "
                               + exception_text(std::current_exception()));
    }
    lock.lock();
    --running_;
    if (finished) {
      lock.unlock();
      // The callback is the caller's code: one that throws loses only its
      // own answer, and this thread keeps serving the others.
      try {
        t->done(std::move(t->result));
      } catch (...) {
        TLOG_ERROR("volume binding callback failed", "pod", t->pod->key(),
                   "error", exception_text(std::current_exception()));
      }
      lock.lock();
      continue;
    }
    auto next = std::min(steady::now() + config_.poll_interval, t->deadline);
    queue_.emplace(next, std::move(t));
    wake_.notify_one();
  }
}

bool volume_binder::step(task& t) {
  if (!t.written) {
    if (error e = write(t)) {
      TLOG_V(2, "volume binding failed", "pod", t.pod->key(), "node",
             t.node.view(), "err", e.message);
      t.result = std::move(e);
      return true;
    }
    t.written = true;
    // Like kube-scheduler, the first check comes one interval after the
    // writes: the volume controller needs at least that long.
    return false;
  }
  auto bound = check(t);
  if (!bound) {
    TLOG_V(2, "volume binding failed", "pod", t.pod->key(), "node",
           t.node.view(), "err", bound.err().message);
    t.result = bound.err();
    return true;
  }
  if (*bound)
    return true;
  if (steady::now() >= t.deadline) {
    t.result
      = make_error(ec::timeout, "binding volumes: context deadline exceeded");
    return true;
  }
  return false;
}

error volume_binder::write(const task& t) {
  for (const auto& b : t.plan->bindings) {
    auto current
      = api_.get(model::object_kind::persistent_volume, "", b.volume->name);
    if (!current)
      return current.err();
    auto body = model::bind_volume_json(*current, *b.volume, *b.claim);
    if (!body)
      return body.err();
    if (error e = api_.update(model::object_kind::persistent_volume, "",
                              b.volume->name, std::move(*body)))
      return e;
  }
  for (const auto& c : t.plan->provisions) {
    auto current = api_.get(model::object_kind::persistent_volume_claim,
                            c->ns.view(), c->name);
    if (!current)
      return current.err();
    auto body = model::select_node_json(*current, *c, t.node);
    if (!body)
      return body.err();
    if (error e = api_.update(model::object_kind::persistent_volume_claim,
                              c->ns.view(), c->name, std::move(*body)))
      return e;
  }
  return {};
}

expected<model::object> volume_binder::read(model::object_kind kind,
                                            std::string_view ns,
                                            std::string_view name) {
  auto text = api_.get(kind, ns, name);
  if (!text)
    return text.err();
  model::decode_options opts;
  opts.apply_defaults = false;
  return model::decode_object_json(*text, kind, opts);
}

expected<bool> volume_binder::check(const task& t) {
  // A deleted pod needs its volumes no more (kube-scheduler gives up too).
  auto pod = read(model::object_kind::pod, t.pod->ns.view(), t.pod->name);
  if (!pod) {
    if (pod.err().code == ec::not_found)
      return binding_error("pod does not exist any more");
    return pod.err();
  }
  if (std::get<model::pod_ptr>(*pod)->uid != t.pod->uid)
    return binding_error("pod does not exist any more");
  using claim_ptr = model::persistent_volume_claim_ptr;
  // The claim as it is now, or why waiting is over.
  auto current_claim
    = [&](const model::persistent_volume_claim& c) -> expected<claim_ptr> {
    auto o
      = read(model::object_kind::persistent_volume_claim, c.ns.view(), c.name);
    if (!o) {
      if (o.err().code == ec::not_found)
        return binding_error("claim " + claim_name(c) + " was deleted");
      return o.err();
    }
    auto now = std::get<claim_ptr>(*o);
    if (now->uid != c.uid || now->deleting)
      return binding_error("claim " + claim_name(c) + " was deleted");
    if (now->phase == model::claim_phase::lost)
      return binding_error("claim " + claim_name(c) + " is Lost");
    return now;
  };
  bool all = true;
  for (const auto& b : t.plan->bindings) {
    auto o = read(model::object_kind::persistent_volume, "", b.volume->name);
    if (!o) {
      if (o.err().code == ec::not_found)
        return binding_error("volume " + b.volume->name + " was deleted");
      return o.err();
    }
    const auto& pv = *std::get<model::persistent_volume_ptr>(*o);
    if (!pv.claim_ref || pv.claim_ref->uid.empty())
      return binding_error("ClaimRef got reset for pv " + pv.name);
    if (pv.claim_ref->ns != b.claim->ns || pv.claim_ref->name != b.claim->name
        || pv.claim_ref->uid != b.claim->uid)
      return binding_error("pv " + pv.name + " is bound to another claim");
    auto claim = current_claim(*b.claim);
    if (!claim)
      return claim.err();
    all = all && (*claim)->fully_bound() && (*claim)->volume_name == pv.name;
  }
  for (const auto& c : t.plan->provisions) {
    auto claim = current_claim(*c);
    if (!claim)
      return claim.err();
    const auto& now = **claim;
    if (now.selected_node.empty())
      return binding_error("selectedNode annotation reset for PVC "
                           + claim_name(now));
    if (now.selected_node != t.node.view())
      return binding_error("selectedNode annotation value \""
                           + now.selected_node
                           + "\" not set to scheduled node \""
                           + std::string{t.node.view()} + "\"");
    all = all && now.fully_bound();
  }
  return all;
}

} // namespace tessera::io
