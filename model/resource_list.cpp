// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/resource_list.hpp"

#include "support/names.hpp"

#include <algorithm>
#include <limits>

namespace tessera::model {

namespace {
// A named scope of its own: unity builds merge the anonymous namespaces of
// all model sources, and these helper names are common.
namespace resource_name_rules {

constexpr std::string_view native_domain = "kubernetes.io/";
constexpr std::string_view quota_prefix = "requests.";

bool is_extended(std::string_view name) noexcept {
  const auto slash = name.find('/');
  // No '/' or a kubernetes.io/ name: a native resource.
  if (slash == std::string_view::npos
      || name.find(native_domain) != std::string_view::npos)
    return false;
  if (name.starts_with(quota_prefix))
    return false;
  // "requests.<name>" must be a qualified name: exactly one '/', a DNS
  // subdomain before it ("requests." is itself a valid first label).
  if (name.find('/', slash + 1) != std::string_view::npos)
    return false;
  const auto prefix = name.substr(0, slash);
  const auto part = name.substr(slash + 1);
  return quota_prefix.size() + prefix.size() <= max_dns1123_subdomain_length
         && is_dns1123_subdomain(prefix)
         && part.size() <= max_qualified_name_part_length
         && is_qualified_name_part(part);
}

bool is_scalar(std::string_view name) noexcept {
  return name.find(native_domain) != std::string_view::npos
         || name.starts_with(resource_names::hugepages_prefix)
         || name.starts_with(resource_names::attachable_volumes_prefix)
         || is_extended(name);
}

/// Where `name` is or would be in a vector sorted by symbol id.
template <class Scalars> auto slot_of(Scalars& scalars, symbol name) {
  return std::lower_bound(
    scalars.begin(), scalars.end(), name,
    [](const scalar_resource& r, symbol n) { return r.name < n; });
}

/// mine[n] = op(mine[n] or 0, v) for each (n, v) in theirs.
template <class Op>
void combine_scalars(
  boost::container::small_vector<scalar_resource, 2>& mine,
  const boost::container::small_vector<scalar_resource, 2>& theirs, Op op) {
  for (const auto& entry : theirs) {
    auto it = slot_of(mine, entry.name);
    if (it != mine.end() && it->name == entry.name)
      it->value = op(it->value, entry.value);
    else
      mine.insert(it, scalar_resource{entry.name, op(0, entry.value)});
  }
}

} // namespace resource_name_rules
} // namespace

bool is_extended_resource(std::string_view name) noexcept {
  return resource_name_rules::is_extended(name);
}

resource_kind classify_resource(std::string_view name) noexcept {
  if (name == resource_names::cpu)
    return resource_kind::cpu;
  if (name == resource_names::memory)
    return resource_kind::memory;
  if (name == resource_names::ephemeral_storage)
    return resource_kind::ephemeral_storage;
  if (name == resource_names::pods)
    return resource_kind::pods;
  return resource_name_rules::is_scalar(name) ? resource_kind::scalar
                                              : resource_kind::ignored;
}

std::int64_t saturating_add(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum))
    return sum;
  return b > 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}

std::int64_t saturating_sub(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t difference = 0;
  if (!__builtin_sub_overflow(a, b, &difference))
    return difference;
  return b < 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}

std::int64_t resource_list::scalar(symbol name) const noexcept {
  auto it = resource_name_rules::slot_of(scalars_, name);
  return it != scalars_.end() && it->name == name ? it->value : 0;
}

void resource_list::set_scalar(symbol name, std::int64_t value) {
  auto it = resource_name_rules::slot_of(scalars_, name);
  if (it != scalars_.end() && it->name == name)
    it->value = value;
  else
    scalars_.insert(it, scalar_resource{name, value});
}

std::int64_t resource_list::get(symbol name) const noexcept {
  switch (classify_resource(name.view())) {
  case resource_kind::cpu:
    return milli_cpu;
  case resource_kind::memory:
    return memory;
  case resource_kind::ephemeral_storage:
    return ephemeral_storage;
  case resource_kind::pods:
    return pods;
  case resource_kind::scalar:
    return scalar(name);
  case resource_kind::ignored:
    break;
  }
  return 0;
}

bool resource_list::set(symbol name, std::int64_t value) {
  switch (classify_resource(name.view())) {
  case resource_kind::cpu:
    milli_cpu = value;
    return true;
  case resource_kind::memory:
    memory = value;
    return true;
  case resource_kind::ephemeral_storage:
    ephemeral_storage = value;
    return true;
  case resource_kind::pods:
    pods = value;
    return true;
  case resource_kind::scalar:
    set_scalar(name, value);
    return true;
  case resource_kind::ignored:
    break;
  }
  return false;
}

namespace {

// Combines each named resource of `into` with `other`'s through `op` (the
// scalars go through resource_name_rules::combine_scalars).
template <class Op>
void combine_named(resource_list& into, const resource_list& other,
                   Op op) noexcept {
  into.milli_cpu = op(into.milli_cpu, other.milli_cpu);
  into.memory = op(into.memory, other.memory);
  into.ephemeral_storage = op(into.ephemeral_storage, other.ephemeral_storage);
  into.pods = op(into.pods, other.pods);
}

std::int64_t larger(std::int64_t a, std::int64_t b) noexcept {
  return std::max(a, b);
}

} // namespace

void resource_list::add(const resource_list& other) noexcept {
  combine_named(*this, other, saturating_add);
  resource_name_rules::combine_scalars(scalars_, other.scalars_,
                                       saturating_add);
}

void resource_list::subtract(const resource_list& other) noexcept {
  combine_named(*this, other, saturating_sub);
  resource_name_rules::combine_scalars(scalars_, other.scalars_,
                                       saturating_sub);
}

void resource_list::max_with(const resource_list& other) {
  combine_named(*this, other, larger);
  resource_name_rules::combine_scalars(scalars_, other.scalars_, larger);
}

bool resource_list::is_zero() const noexcept {
  return milli_cpu == 0 && memory == 0 && ephemeral_storage == 0
         && std::all_of(scalars_.begin(), scalars_.end(),
                        [](const scalar_resource& r) { return r.value == 0; });
}

} // namespace tessera::model
