// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node`: the scheduling-relevant part of a v1.Node. `allocatable` already
/// carries the API server's defaulting (capacity when allocatable is absent).
/// Shared between actors as `node_ptr`.
#pragma once

#include "model/labels.hpp"
#include "model/resource_list.hpp"
#include "model/symbol.hpp"
#include "model/taint.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessera::model {

/// Well-known node labels.
namespace node_labels {
inline constexpr std::string_view hostname = "kubernetes.io/hostname";
inline constexpr std::string_view zone = "topology.kubernetes.io/zone";
inline constexpr std::string_view region = "topology.kubernetes.io/region";
} // namespace node_labels

struct node_image {
  /// Every name the image is known by (tags and digests), normalized.
  std::vector<symbol> names;
  std::int64_t size_bytes = 0;
  friend bool operator==(const node_image&, const node_image&) = default;
};

struct node_condition {
  symbol type;
  /// "True", "False" or "Unknown".
  symbol status;
  friend bool operator==(const node_condition&, const node_condition&)
    = default;
};

struct node {
  symbol name;
  std::string uid;
  std::string resource_version;
  std::int64_t creation_unix = 0;
  label_set labels;
  std::vector<taint> taints;
  bool unschedulable = false;
  resource_list capacity;
  resource_list allocatable;
  std::vector<node_image> images;
  std::vector<node_condition> conditions;
  /// status.declaredFeatures, sorted and without duplicates, so that a
  /// subset check is a merge.
  std::vector<symbol> declared_features;

  friend bool operator==(const node&, const node&) = default;
};

using node_ptr = std::shared_ptr<const node>;

} // namespace tessera::model
