// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `progress`: what the harness shows while it waits. On a terminal a bar
/// redrawn in place (pods bound / total, current rate, ETA); otherwise a
/// plain line every few seconds, so logs of CI runs stay readable. Written
/// to stderr; results go to stdout.
#pragma once

#include "support/clock.hpp"

#include <cstdio>
#include <deque>
#include <string>
#include <utility>

namespace tessera::perf {

enum class progress_mode : std::uint8_t {
  /// A bar on a terminal, lines otherwise.
  automatic,
  bar,
  lines,
  off,
};

class progress {
public:
  progress(progress_mode mode, std::FILE* out = stderr,
           const clock& clk = system_clock::instance());
  ~progress();

  /// Starts a phase: `label` ("SchedulingBasic/500Nodes: measured pods"),
  /// counting `total` things that become `unit` ("bound", "created").
  void begin(std::string label, std::size_t total, std::string unit = "bound");
  /// Reports `done` of the phase's total (cheap; draws at most every
  /// 100 ms, or every 5 s as lines).
  void update(std::size_t done);
  /// Ends the phase with a final line.
  void end(std::size_t done);
  /// Prints a line of its own (clears the bar first).
  void note(const std::string& line);

  bool is_bar() const noexcept {
    return bar_;
  }

private:
  void draw(std::size_t done, bool final);
  double rate(std::size_t done, time_point now);

  std::FILE* out_;
  const clock& clk_;
  bool bar_ = false;
  bool off_ = false;
  std::string label_;
  std::string unit_;
  std::size_t total_ = 0;
  time_point started_;
  time_point last_draw_;
  bool drawn_ = false;
  /// (time, done) samples of the last ~2 s, for the current rate.
  std::deque<std::pair<time_point, std::size_t>> window_;
};

} // namespace tessera::perf
