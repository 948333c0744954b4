// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `label_set` (an object's labels) and `label_selector` (metav1.LabelSelector:
/// matchLabels plus matchExpressions with In, NotIn, Exists, DoesNotExist).
///
/// Selector semantics follow apimachinery: requirements are ANDed; an empty
/// selector (`{}`) matches everything; a nil selector matches nothing, which
/// is how affinity terms, spread constraints and PDBs treat an absent
/// `labelSelector`. NotIn and DoesNotExist are true when the key is absent.
#pragma once

#include "model/symbol.hpp"
#include "support/error.hpp"

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::model {

struct label {
  symbol key;
  symbol value;
  friend bool operator==(const label&, const label&) = default;
};

/// A read-only view of labels sorted by key id, without duplicate keys: a
/// label_set's, or a copy of one kept elsewhere (node_info keeps its pods'
/// labels side by side so that selector scans stay in the node's memory).
class label_view {
public:
  label_view() = default;
  /// `sorted` must be ordered by key id with unique keys (a label_set's).
  explicit label_view(std::span<const label> sorted) noexcept
    : labels_(sorted) {
  }
  /// The value for `key`, or nullptr when absent.
  const symbol* find(symbol key) const noexcept {
    auto it
      = std::lower_bound(labels_.begin(), labels_.end(), key,
                         [](const label& l, symbol k) { return l.key < k; });
    if (it == labels_.end() || it->key != key)
      return nullptr;
    return &it->value;
  }
  bool empty() const noexcept {
    return labels_.empty();
  }
  auto begin() const noexcept {
    return labels_.begin();
  }
  auto end() const noexcept {
    return labels_.end();
  }

private:
  std::span<const label> labels_;
};

/// An immutable-by-convention set of labels, sorted by key id for fast lookup.
class label_set {
public:
  label_set() = default;
  /// Builds from pairs; a later duplicate key replaces an earlier one.
  explicit label_set(std::vector<label> labels);

  /// The value for `key`, or nullptr when absent.
  const symbol* find(symbol key) const noexcept {
    return view().find(key);
  }
  bool contains(symbol key) const noexcept {
    return find(key) != nullptr;
  }
  std::size_t size() const noexcept {
    return labels_.size();
  }
  bool empty() const noexcept {
    return labels_.empty();
  }
  auto begin() const noexcept {
    return labels_.begin();
  }
  auto end() const noexcept {
    return labels_.end();
  }
  /// Sets or replaces one label.
  void set(symbol key, symbol value);
  /// The labels as a view (valid until the set changes).
  label_view view() const noexcept {
    return label_view{std::span<const label>{labels_.data(), labels_.size()}};
  }

  friend bool operator==(const label_set&, const label_set&) = default;

private:
  boost::container::small_vector<label, 8> labels_;
};

/// One requirement of a label selector.
struct label_requirement {
  enum class op : std::uint8_t { in, not_in, exists, does_not_exist };
  symbol key;
  op oper = op::exists;
  /// For in / not_in; sorted by symbol id, duplicates removed.
  boost::container::small_vector<symbol, 2> values;

  bool matches(const label_set& labels) const noexcept {
    return matches(labels.view());
  }
  bool matches(label_view labels) const noexcept;
  friend bool operator==(const label_requirement&, const label_requirement&)
    = default;
};

class label_selector {
public:
  /// The nil selector: matches nothing.
  static label_selector nothing();
  /// The empty selector: matches everything.
  static label_selector everything();
  /// From matchLabels and matchExpressions (already validated); values are
  /// sorted and deduplicated, requirements ordered by key text.
  static label_selector from_requirements(std::vector<label_requirement> reqs);

  /// Parses the string form used in `?labelSelector=`: comma-separated
  /// `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, with
  /// blanks allowed between tokens. Keys and values are checked as
  /// apimachinery does (qualified names, 63-character label values); a
  /// missing value is the empty value (`k=`, `k in ()`). The numeric `k>n` /
  /// `k<n` forms are rejected. The empty string gives the empty selector.
  [[nodiscard]] static expected<label_selector> parse(std::string_view text);

  bool matches(const label_set& labels) const noexcept {
    return matches(labels.view());
  }
  bool matches(label_view labels) const noexcept;
  bool is_nothing() const noexcept {
    return nothing_;
  }
  /// True for the empty selector (matches everything).
  bool is_everything() const noexcept {
    return !nothing_ && requirements_.empty();
  }
  const std::vector<label_requirement>& requirements() const noexcept {
    return requirements_;
  }
  /// Adds one more ANDed requirement (used to merge matchLabelKeys); the
  /// nil selector stays nil.
  void add(label_requirement req);

  /// The string form, e.g. "app=web,tier in (a,b)": requirements ordered by
  /// key, values sorted, one-value In / NotIn written `k=v` / `k!=v`;
  /// "<none>" for nothing and "" for everything.
  std::string to_string() const;

  friend bool operator==(const label_selector&, const label_selector&)
    = default;

private:
  std::vector<label_requirement> requirements_;
  bool nothing_ = true;
};

/// Why `key` is not a valid label key (an optional DNS-subdomain prefix and
/// '/', then a qualified name part of at most 63 characters), or the empty
/// string when it is valid.
std::string label_key_problem(std::string_view key);

/// Why `value` is not a valid label value (empty, or a qualified name part of
/// at most 63 characters), or the empty string when it is valid.
std::string label_value_problem(std::string_view value);

} // namespace tessera::model
