// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/taint.hpp"

#include "support/enum_text.hpp"

namespace tessera::model {

namespace {

constexpr enum_names<3> taint_effect_names
  = {"NoSchedule", "PreferNoSchedule", "NoExecute"};
static_assert(all_named(taint_effect_names));

} // namespace

std::string_view to_string(taint_effect e) noexcept {
  return enum_text(e, taint_effect_names, "NoSchedule");
}

std::optional<taint_effect> parse_taint_effect(std::string_view s) noexcept {
  return enum_from_text<taint_effect>(s, taint_effect_names);
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
