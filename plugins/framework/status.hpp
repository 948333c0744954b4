// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `status`: the result of running a plugin at an extension point, with the
/// scheduling framework's codes and reason strings. Reasons are symbols
/// (interned), so that a status is cheap to copy, reasons of thousands of
/// failing nodes cost no allocation, and shards can send them as integers.
/// Plugins keep their reason texts as constants built once at construction.
#pragma once

#include "model/symbol.hpp"

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

namespace tessera::plugins {

/// Status codes in upstream's order; the names print as upstream's.
enum class code : std::uint8_t {
  success,
  error,
  unschedulable,
  unschedulable_and_unresolvable,
  wait,
  skip,
  pending,
};

/// "Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable",
/// "Wait", "Skip", "Pending".
std::string_view to_string(code c) noexcept;

class status {
public:
  /// Success.
  status() noexcept = default;
  status(code c, std::initializer_list<model::symbol> reasons);
  status(code c, model::symbol reason);

  static status success() noexcept {
    return {};
  }
  static status skip() {
    return status{code::skip, {}};
  }
  /// An Error status with a free-text message (rare: not on hot paths).
  static status make_error(std::string message);

  code get_code() const noexcept {
    return code_;
  }
  bool ok() const noexcept {
    return code_ == code::success;
  }
  bool is_skip() const noexcept {
    return code_ == code::skip;
  }
  /// Unschedulable, UnschedulableAndUnresolvable or Pending.
  bool is_rejected() const noexcept {
    return code_ == code::unschedulable
           || code_ == code::unschedulable_and_unresolvable
           || code_ == code::pending;
  }

  const auto& reasons() const noexcept {
    return reasons_;
  }
  void add_reason(model::symbol r) {
    reasons_.push_back(r);
  }
  /// Reasons joined by ", " (upstream's Message()); the error text for Error.
  std::string message() const;

  /// The plugin that produced the status (set by the framework).
  std::string_view plugin() const noexcept {
    return plugin_;
  }
  void set_plugin(std::string_view name) noexcept {
    plugin_ = name;
  }

  /// Changes the code, keeping reasons (e.g. U -> UR).
  void set_code(code c) noexcept {
    code_ = c;
  }

  friend bool operator==(const status& a, const status& b) noexcept {
    return a.code_ == b.code_ && a.reasons_ == b.reasons_;
  }

private:
  code code_ = code::success;
  boost::container::small_vector<model::symbol, 2> reasons_;
  std::string_view plugin_;
  std::shared_ptr<const std::string> error_;
};

} // namespace tessera::plugins
