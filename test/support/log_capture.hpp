// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `log_capture` (header-only): while it lives, the log lines written from
/// any thread are kept for the test instead of going to stderr, at a
/// verbosity of the test's choice; its end restores stderr and verbosity 0,
/// so one test's level never leaks into the next.
#pragma once

#include "support/log.hpp"

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::test {

class log_capture {
public:
  /// Captures from now on at `verbosity` (0: the default, `-v` unset).
  explicit log_capture(int verbosity = 0) {
    log::set_sink([this](std::string_view line) {
      while (!line.empty() && line.back() == '\n')
        line.remove_suffix(1);
      std::lock_guard guard{mutex_};
      lines_.emplace_back(line);
    });
    log::verbosity = verbosity;
  }
  ~log_capture() {
    log::set_sink(nullptr);
    log::verbosity = 0;
  }
  log_capture(const log_capture&) = delete;
  log_capture& operator=(const log_capture&) = delete;

  /// The lines so far, without their newline.
  std::vector<std::string> lines() const {
    std::lock_guard guard{mutex_};
    return lines_;
  }
  /// How many lines so far contain `text`.
  std::size_t count(std::string_view text) const {
    std::lock_guard guard{mutex_};
    std::size_t n = 0;
    for (const auto& l : lines_)
      if (l.find(text) != std::string::npos)
        ++n;
    return n;
  }

private:
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
};

} // namespace tessera::test
