// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `taint` and `toleration` with Kubernetes' matching rules:
/// - keys equal, or an empty toleration key, which matches every key (API
///   validation allows an empty key only with operator Exists, which then
///   tolerates every taint; the matcher, like upstream's, does not check);
/// - effects equal, or an empty toleration effect (matches every effect);
/// - operator Exists matches any value; Equal (also the empty operator)
///   requires equal values.
#pragma once

#include "model/symbol.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace tessera::model {

enum class taint_effect : std::uint8_t {
  no_schedule,
  prefer_no_schedule,
  no_execute,
};

/// "NoSchedule", "PreferNoSchedule", "NoExecute".
std::string_view to_string(taint_effect e) noexcept;
/// Parses the API spelling; nullopt for anything else.
std::optional<taint_effect> parse_taint_effect(std::string_view s) noexcept;

struct taint {
  symbol key;
  symbol value;
  taint_effect effect = taint_effect::no_schedule;
  friend bool operator==(const taint&, const taint&) = default;
};

struct toleration {
  enum class op : std::uint8_t { equal, exists };
  symbol key;
  op oper = op::equal;
  symbol value;
  /// nullopt = empty effect: matches all effects.
  std::optional<taint_effect> effect;
  std::optional<std::int64_t> toleration_seconds;

  bool tolerates(const taint& t) const noexcept;
  friend bool operator==(const toleration&, const toleration&) = default;
};

/// True when some toleration in `tolerations` tolerates `t`.
bool tolerated(const taint& t,
               std::span<const toleration> tolerations) noexcept;

/// The first taint with effect NoSchedule or NoExecute that no toleration
/// tolerates, or nullptr (TaintToleration's filter rule).
const taint*
find_untolerated_hard_taint(std::span<const taint> taints,
                            std::span<const toleration> tolerations) noexcept;

} // namespace tessera::model
