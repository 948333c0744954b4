// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `field_errors`: a list of configuration problems, each rendered the way
/// apimachinery's field.Error prints it — `<path>: <Type>[: <value>][:
/// <detail>]`, e.g. `parallelism: Invalid value: 0: should be an integer value
/// greater than zero` — plus the strict-decoding lines `strict decoding error:
/// unknown field "<path>"`. Values are printed as Go does for simple types
/// (strings quoted with %q, numbers and booleans bare); lists and objects are
/// printed as compact JSON. Internal to config/.
#pragma once

#include "support/text.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::config::detail {

/// `path.name` (just `name` for the root).
std::string child(std::string_view path, std::string_view name);
/// `path[i]`.
std::string index(std::string_view path, std::size_t i);

/// How a value appears after "Invalid value: ".
std::string show(std::int64_t value);
std::string show(std::string_view value);
std::string show_bool(bool value);

class field_errors {
public:
  /// `<path>: Invalid value: <value>: <detail>`; `value` is already shown.
  void invalid(std::string_view path, std::string_view value,
               std::string_view detail);
  /// `<path>: Required value[: <detail>]`.
  void required(std::string_view path, std::string_view detail = {});
  /// `<path>: Duplicate value: <value>`.
  void duplicate(std::string_view path, std::string_view value);
  /// `<path>: Unsupported value: <value>: supported values: "a", "b"`.
  void not_supported(std::string_view path, std::string_view value,
                     const std::vector<std::string_view>& supported);
  /// `<path>: Forbidden: <detail>`.
  void forbidden(std::string_view path, std::string_view detail);
  /// `strict decoding error: unknown field "<path>"`.
  void unknown_field(std::string_view path);
  /// `strict decoding error: duplicate field "<path>"`.
  void duplicate_field(std::string_view path);
  /// Any other line.
  void add(std::string line);
  /// Appends every line of `other`.
  void append(const field_errors& other);
  /// Records where in the input the last line's problem is (a character
  /// offset), so that decoding problems can be listed in document order.
  void set_position(long offset);
  /// Orders the lines by position (stable; lines without one go last).
  void sort_by_position();

  bool empty() const noexcept {
    return lines_.empty();
  }
  const std::vector<std::string>& lines() const noexcept {
    return lines_;
  }

private:
  void push_line(std::string line);

  std::vector<std::string> lines_;
  /// Parallel to lines_; -1 = unknown.
  std::vector<long> positions_;
};

} // namespace tessera::config::detail
