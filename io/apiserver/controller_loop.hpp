// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `controller_loop`: the thread of an embedded-cluster controller
/// (namespaces, volumes, workloads). It runs one pass at once, then sleeps
/// until a watch the pass opened reports a change (`notify`), the wait the
/// pass asked for ends, or the owner stops it. A pass that throws is logged
/// and tried again after `retry`, so one bad object never ends the thread.
/// Internal to io/apiserver.
#pragma once

#include "io/apiserver/wake_signal.hpp"

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <thread>

namespace tessera::apiserver {

class controller_loop {
public:
  using duration = std::chrono::nanoseconds;
  /// One pass; returns how long to sleep at most before the next one
  /// (nullopt: until a change is notified).
  using pass_fn = std::function<std::optional<duration>()>;

  /// Starts the thread. Declare the loop as its owner's last member, so
  /// that all a pass reads exists first.
  controller_loop(std::string name, duration retry, pass_fn pass);
  /// stop().
  ~controller_loop();
  controller_loop(const controller_loop&) = delete;
  controller_loop& operator=(const controller_loop&) = delete;

  /// Wakes the thread; quick, so watch notify callbacks may call it.
  void notify() {
    signal_.notify();
  }
  /// Ends the thread after its current pass and joins it; the owner calls
  /// this before it stops the watches the passes read.
  void stop();

private:
  void run();

  std::string name_;
  duration retry_;
  pass_fn pass_;
  wake_signal signal_;
  std::thread thread_;
};

} // namespace tessera::apiserver
