// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `cluster_source`: where the pipeline's objects come from — the API
/// client's list/watch (`tessera run`), an objects file (`simulate`), or the
/// embedded store (`perf`). A source delivers batches of object events in
/// order and says once when its initial state is complete.
#pragma once

#include "model/object.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace tessera::actors {

/// One change of one object, as a watch reports it.
struct object_event {
  enum class kind : std::uint8_t { added, modified, deleted };
  kind type = kind::added;
  model::object obj;
};

using object_events = std::vector<object_event>;
using object_events_ptr = std::shared_ptr<const object_events>;

class cluster_source {
public:
  virtual ~cluster_source() = default;

  /// Callbacks the pipeline gives the source. Both may be called from any
  /// thread, but never concurrently with themselves, and in event order.
  struct receiver {
    std::function<void(object_events)> deliver;
    /// Called once, after the events of the initial state were delivered.
    std::function<void()> synced;
  };

  /// Starts delivering; returns immediately.
  virtual void start(receiver r) = 0;
  /// Stops delivering; no callback runs after this returns.
  virtual void stop() = 0;
};

} // namespace tessera::actors
