// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/taint.hpp"

namespace tessera::model {

std::string_view to_string(taint_effect e) noexcept {
  switch (e) {
  case taint_effect::no_schedule:
    return "NoSchedule";
  case taint_effect::prefer_no_schedule:
    return "PreferNoSchedule";
  case taint_effect::no_execute:
    return "NoExecute";
  }
  return "NoSchedule";
}

std::optional<taint_effect> parse_taint_effect(std::string_view s) noexcept {
  if (s == "NoSchedule")
    return taint_effect::no_schedule;
  if (s == "PreferNoSchedule")
    return taint_effect::prefer_no_schedule;
  if (s == "NoExecute")
    return taint_effect::no_execute;
  return std::nullopt;
}

bool toleration::tolerates(const taint& t) const noexcept {
  if (effect && *effect != t.effect)
    return false;
  // An empty key matches every key; API validation only lets it through
  // with Exists, but the matcher itself does not look at the operator.
  if (!key.empty() && key != t.key)
    return false;
  switch (oper) {
  case op::exists:
    return true;
  case op::equal:
    return value == t.value;
  }
  return false;
}

bool tolerated(const taint& t,
               std::span<const toleration> tolerations) noexcept {
  for (const auto& tol : tolerations)
    if (tol.tolerates(t))
      return true;
  return false;
}

const taint*
find_untolerated_hard_taint(std::span<const taint> taints,
                            std::span<const toleration> tolerations) noexcept {
  for (const auto& t : taints) {
    if (t.effect == taint_effect::prefer_no_schedule)
      continue;
    if (!tolerated(t, tolerations))
      return &t;
  }
  return nullptr;
}

} // namespace tessera::model
