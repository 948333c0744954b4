// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `volume_binder`: PreBind's volume writes and the wait that follows, over
/// any API that can get and update one object as JSON (the REST client, the
/// embedded store). For each pod it
///
///   1. updates each static volume of the plan with its claimRef, then
///      annotates each claim to provision with the selected node (the first
///      failed update ends the attempt with that error);
///   2. every `poll_interval`, reads the plan's claims (and bound volumes)
///      until each claim is fully bound — spec.volumeName set and
///      pv.kubernetes.io/bind-completed present, a static volume's claimRef
///      still naming the claim — and then reports success;
///   3. reports "binding volumes: context deadline exceeded" when `timeout`
///      passes first, and "binding volumes: <why>" at once when the pod or a
///      claim is deleted, a claim is Lost, a volume's claimRef is reset or
///      taken, or a claim's selected-node annotation is removed or changed (the
///      provisioner gave the claim back to the scheduler).
///
/// The API calls block, so they run on the binder's own threads; `bind`
/// returns at once and `done` runs on one of those threads. Waiting pods
/// hold no thread: they sit in a queue ordered by their next check.
#pragma once

#include "model/object.hpp"
#include "model/storage_view.hpp"
#include "model/symbol.hpp"
#include "support/error.hpp"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace tessera::io {

/// The two calls the binder makes, blocking; both may run on any of the
/// binder's threads at once.
struct volume_binder_api {
  /// The object's JSON; ec::not_found when it does not exist.
  std::function<expected<std::string>(
    model::object_kind kind, std::string_view ns, std::string_view name)>
    get;
  /// Replaces the object with `body` (its metadata.resourceVersion is the
  /// precondition: ec::conflict when the object changed since).
  std::function<error(model::object_kind kind, std::string_view ns,
                      std::string_view name, std::string body)>
    update;
};

struct volume_binder_config {
  /// Between two checks of a pod's claims (kube-scheduler: one second).
  std::chrono::milliseconds poll_interval{1000};
  /// Threads making the calls.
  std::size_t threads = 2;
};

class volume_binder {
public:
  using done_fn = std::function<void(error)>;

  volume_binder(volume_binder_api api, volume_binder_config config = {});
  /// stop().
  ~volume_binder();
  volume_binder(const volume_binder&) = delete;
  volume_binder& operator=(const volume_binder&) = delete;

  /// Writes `plan` for `pod` on `node` and waits for the bindings, at most
  /// `timeout`; returns at once. After stop(), `done` gets ec::unavailable
  /// at once.
  void bind(model::pod_ptr pod, model::symbol node,
            model::volume_binding_plan_ptr plan,
            std::chrono::milliseconds timeout, done_fn done);

  /// Pods written or waiting.
  std::size_t pending() const;

  /// Joins the threads (a call in progress ends first: cancel the API's
  /// calls before); every pod still waiting gets ec::unavailable.
  void stop();

private:
  using steady = std::chrono::steady_clock;
  struct task {
    model::pod_ptr pod;
    model::symbol node;
    model::volume_binding_plan_ptr plan;
    steady::time_point deadline;
    done_fn done;
    bool written = false;
    /// Set by step() when the task is finished.
    error result;
  };
  using task_ptr = std::shared_ptr<task>;

  void loop();
  /// One step of `t`: the writes, or one check. True when `t` is finished
  /// (its `result` is set; the loop calls `done` once the task no longer
  /// counts as pending).
  bool step(task& t);
  error write(const task& t);
  /// Fully bound: true; still waiting: false; failed: the error.
  expected<bool> check(const task& t);
  expected<model::object> read(model::object_kind kind, std::string_view ns,
                               std::string_view name);

  volume_binder_api api_;
  volume_binder_config config_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  /// Tasks by the time of their next step.
  std::multimap<steady::time_point, task_ptr> queue_;
  std::size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

} // namespace tessera::io
