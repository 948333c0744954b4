// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `fake_binder`: binds every unbound pod of an embedded store to the given
/// nodes in turn (a DaemonSet's pod to the node its affinity names),
/// standing in for a scheduler in tests of the workload controllers and of
/// clients that wait for pods to run.
#pragma once

#include "io/apiserver/store.hpp"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace tessera::test {

class fake_binder {
public:
  /// Starts binding in `st` (which must outlive it) to `nodes`.
  fake_binder(apiserver::store& st, std::vector<std::string> nodes);
  /// Stops and joins.
  ~fake_binder();
  fake_binder(const fake_binder&) = delete;
  fake_binder& operator=(const fake_binder&) = delete;

private:
  void run();

  apiserver::store& st_;
  std::vector<std::string> nodes_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

} // namespace tessera::test
