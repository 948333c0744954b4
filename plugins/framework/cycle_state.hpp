// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `cycle_state`: the data plugins keep for one scheduling cycle of one pod.
///
/// Each plugin of a profile owns one slot (its index in the profile). A slot
/// holds a `shared_ptr<const plugin_state>`, so copying a cycle_state is
/// cheap and shares every slot: the coordinator builds the state in PreFilter
/// and PreScore, freezes it, and sends `cycle_state_ptr` to the shards, which
/// only read. Whoever needs a variant (nominated pods, preemption dry runs,
/// assume validation) copies the cycle_state and replaces the slots it
/// changes; it never writes through a shared slot.
#pragma once

#include <bitset>
#include <cassert>
#include <cstdint>
#include <memory>
#include <vector>

namespace tessera::plugins {

struct cluster_context;

/// Base of every plugin's per-cycle data.
struct plugin_state {
  virtual ~plugin_state() = default;
};

/// The most plugins one profile may hold (bitsets below).
inline constexpr std::size_t max_plugins_per_profile = 64;

class cycle_state {
public:
  explicit cycle_state(std::size_t slots = 0) : slots_(slots) {
  }

  /// The state of slot `i` as T, or nullptr when the plugin wrote nothing.
  template <class T> const T* read(std::size_t i) const noexcept {
    assert(i < slots_.size());
    return static_cast<const T*>(slots_[i].get());
  }
  /// Replaces slot `i`.
  void write(std::size_t i, std::shared_ptr<const plugin_state> s) {
    assert(i < slots_.size());
    slots_[i] = std::move(s);
  }
  std::size_t size() const noexcept {
    return slots_.size();
  }

  /// Plugins whose PreFilter returned Skip: their Filter (and AddPod /
  /// RemovePod) do not run this cycle.
  std::bitset<max_plugins_per_profile> skip_filter;
  /// Plugins whose PreScore returned Skip: their Score does not run.
  std::bitset<max_plugins_per_profile> skip_score;
  /// Record plugin durations for this cycle (upstream samples 10%).
  bool sample_metrics = false;
  /// The cluster facts the cycle started with (set by begin_cycle), for
  /// Score plugins that read them without a PreScore (ImageLocality). The
  /// context must outlive the cycle; null when unset.
  const cluster_context* cluster = nullptr;
  /// Keeps `cluster` alive while the state travels (set by whoever owns
  /// the context, e.g. the coordinator; tests may leave it empty).
  std::shared_ptr<const cluster_context> cluster_owner;

private:
  std::vector<std::shared_ptr<const plugin_state>> slots_;
};

using cycle_state_ptr = std::shared_ptr<const cycle_state>;

} // namespace tessera::plugins
