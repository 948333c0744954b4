// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/field_errors.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <numeric>

namespace tessera::config::detail {

std::string child(std::string_view path, std::string_view name) {
  if (path.empty())
    return std::string{name};
  std::string out{path};
  out += '.';
  out += name;
  return out;
}

std::string index(std::string_view path, std::size_t i) {
  std::string out{path};
  out += '[';
  out += std::to_string(i);
  out += ']';
  return out;
}

std::string show(std::int64_t value) {
  return std::to_string(value);
}

std::string show(std::string_view value) {
  return go_quote(value);
}

std::string show_bool(bool value) {
  return value ? "true" : "false";
}

namespace {

// "<path>: <kind>", then ": <detail>" when there is one, as upstream's
// field.Error prints; a shown value is the end of `kind`.
std::string error_line(std::string_view path, std::string_view kind,
                       std::string_view detail = {}) {
  std::string line{path};
  line += ": ";
  line += kind;
  if (!detail.empty()) {
    line += ": ";
    line += detail;
  }
  return line;
}

} // namespace

void field_errors::invalid(std::string_view path, std::string_view value,
                           std::string_view detail) {
  push_line(error_line(path, "Invalid value: " + std::string{value}, detail));
}

void field_errors::required(std::string_view path, std::string_view detail) {
  push_line(error_line(path, "Required value", detail));
}

void field_errors::duplicate(std::string_view path, std::string_view value) {
  push_line(error_line(path, "Duplicate value: " + std::string{value}));
}

void field_errors::not_supported(
  std::string_view path, std::string_view value,
  const std::vector<std::string_view>& supported) {
  std::string values;
  for (std::size_t i = 0; i < supported.size(); ++i)
    values += (i == 0 ? "supported values: " : ", ") + go_quote(supported[i]);
  push_line(
    error_line(path, "Unsupported value: " + std::string{value}, values));
}

void field_errors::forbidden(std::string_view path, std::string_view detail) {
  push_line(error_line(path, "Forbidden", detail));
}

void field_errors::unknown_field(std::string_view path) {
  push_line("strict decoding error: unknown field " + go_quote(path));
}

void field_errors::duplicate_field(std::string_view path) {
  push_line("strict decoding error: duplicate field " + go_quote(path));
}

void field_errors::add(std::string line) {
  push_line(std::move(line));
}

void field_errors::append(const field_errors& other) {
  lines_.insert(lines_.end(), other.lines_.begin(), other.lines_.end());
  positions_.insert(positions_.end(), other.positions_.begin(),
                    other.positions_.end());
}

void field_errors::push_line(std::string line) {
  lines_.push_back(std::move(line));
  positions_.push_back(-1);
}

void field_errors::set_position(long offset) {
  if (!positions_.empty())
    positions_.back() = offset;
}

void field_errors::sort_by_position() {
  std::vector<std::size_t> order(lines_.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto key = [&](std::size_t i) {
    return positions_[i] < 0 ? std::numeric_limits<long>::max() : positions_[i];
  };
  std::stable_sort(
    order.begin(), order.end(),
    [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  std::vector<std::string> lines;
  std::vector<long> positions;
  for (auto i : order) {
    lines.push_back(std::move(lines_[i]));
    positions.push_back(positions_[i]);
  }
  lines_ = std::move(lines);
  positions_ = std::move(positions);
}

} // namespace tessera::config::detail
