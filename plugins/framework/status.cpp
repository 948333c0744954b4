// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/status.hpp"

#include "support/enum_text.hpp"

namespace tessera::plugins {

std::string_view to_string(code c) noexcept {
  static constexpr enum_names<7> names
    = {"Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable",
       "Wait",    "Skip",  "Pending"};
  static_assert(all_named(names));
  return enum_text(c, names, "Unknown");
}

status::status(code c, std::initializer_list<model::symbol> reasons)
  : code_(c), reasons_(reasons.begin(), reasons.end()) {
}

status::status(code c, model::symbol reason) : code_(c) {
  if (!reason.empty())
    reasons_.push_back(reason);
}

status status::make_error(std::string message) {
  status s;
  s.code_ = code::error;
  s.error_ = std::make_shared<const std::string>(std::move(message));
  return s;
}

std::string status::message() const {
  if (error_)
    return *error_;
  std::string out;
  for (auto r : reasons_) {
    if (!out.empty())
      out += ", ";
    out += r.view();
  }
  return out;
}

} // namespace tessera::plugins
