// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `resource_list`: the resources the scheduler accounts for, as integers in
/// the units kube-scheduler uses: cpu in millicores, memory and
/// ephemeral-storage in bytes, pods as a count, and "scalar" resources as
/// integer values. Scalar names are those kube-scheduler's
/// IsScalarResourceName accepts: extended resources (`example.com/gpu`),
/// `hugepages-*`, `attachable-volumes-*`, and any name containing
/// `kubernetes.io/` (prefixed native resources). Other names (`storage`,
/// `nvidia.com/`, `requests.example.com/x`) are not scheduling-relevant and
/// are dropped when a list is built from the API.
///
/// Arithmetic saturates instead of overflowing, so a hostile object cannot
/// wrap a node's totals.
#pragma once

#include "model/symbol.hpp"

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <string_view>

namespace tessera::model {

/// Well-known resource names.
namespace resource_names {
inline constexpr std::string_view cpu = "cpu";
inline constexpr std::string_view memory = "memory";
inline constexpr std::string_view ephemeral_storage = "ephemeral-storage";
inline constexpr std::string_view pods = "pods";
inline constexpr std::string_view hugepages_prefix = "hugepages-";
inline constexpr std::string_view attachable_volumes_prefix
  = "attachable-volumes-";
} // namespace resource_names

/// How a resource name is accounted.
enum class resource_kind : std::uint8_t {
  cpu,
  memory,
  ephemeral_storage,
  pods,
  /// Extended (domain-prefixed, not kubernetes.io/), hugepages-*,
  /// attachable-volumes-*, and names containing "kubernetes.io/".
  scalar,
  /// Anything else: ignored by the scheduler.
  ignored,
};

/// Classifies a resource name as kube-scheduler's Resource.Add does: the four
/// well-known names first, then IsScalarResourceName, else ignored.
resource_kind classify_resource(std::string_view name) noexcept;

/// True for extended resources (upstream's IsExtendedResourceName): a
/// domain-prefixed name outside the `kubernetes.io/` domain, not
/// `requests.`-prefixed, such that `requests.<name>` is a valid qualified
/// name (one '/', a DNS-1123 subdomain prefix of at most 253 characters with
/// the "requests." included, a name part of 1-63 characters).
bool is_extended_resource(std::string_view name) noexcept;

/// One scalar resource amount.
struct scalar_resource {
  symbol name;
  std::int64_t value = 0;
  friend bool operator==(const scalar_resource&, const scalar_resource&)
    = default;
};

/// Per-resource amounts: what a pod requests, what a node offers or has
/// promised. A plain value; absent resources count as 0.
class resource_list {
public:
  /// cpu in millicores.
  std::int64_t milli_cpu = 0;
  /// memory in bytes.
  std::int64_t memory = 0;
  /// ephemeral-storage in bytes.
  std::int64_t ephemeral_storage = 0;
  /// Number of pods.
  std::int64_t pods = 0;

  /// Value of a scalar resource (0 when absent).
  std::int64_t scalar(symbol name) const noexcept;
  /// Sets a scalar resource; setting 0 keeps an explicit entry.
  void set_scalar(symbol name, std::int64_t value);
  /// Scalar entries, sorted by symbol id.
  const auto& scalars() const noexcept {
    return scalars_;
  }

  /// Value by name for any resource kind (cpu in millis); 0 when absent.
  std::int64_t get(symbol name) const noexcept;
  /// Sets by name; `ignored` names are dropped. Returns false for them.
  bool set(symbol name, std::int64_t value);

  /// Per-resource sum, saturating at the int64 limits. Scalars missing here
  /// are added as entries.
  void add(const resource_list& other) noexcept;
  /// Per-resource difference, saturating; scalars missing here are created
  /// (as 0 minus the other value).
  void subtract(const resource_list& other) noexcept;
  /// Per-resource maximum. Like upstream's SetMaxResource, a scalar only in
  /// `other` becomes max(0, value); scalars only here are left alone.
  void max_with(const resource_list& other);

  /// True when cpu, memory, ephemeral-storage and every scalar are zero
  /// (pods is not considered).
  bool is_zero() const noexcept;

  /// Equal amounts and the same scalar entries (an explicit 0 entry counts).
  friend bool operator==(const resource_list&, const resource_list&) = default;

private:
  boost::container::small_vector<scalar_resource, 2> scalars_;
};

/// Saturating int64 addition.
std::int64_t saturating_add(std::int64_t a, std::int64_t b) noexcept;
/// Saturating int64 subtraction.
std::int64_t saturating_sub(std::int64_t a, std::int64_t b) noexcept;

} // namespace tessera::model
