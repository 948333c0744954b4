// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_selector` (v1.NodeSelector) and its terms, as used by required node
/// affinity, preferred scheduling terms and NodeAffinityArgs.addedAffinity.
///
/// Semantics, as kube-scheduler applies them: terms are ORed; within a term all
/// matchExpressions (on node labels) and matchFields (only `metadata.name`)
/// are ANDed; a term with neither matches nothing; an empty term list matches
/// nothing. Gt and Lt compare the label value and the single requirement value
/// as integers; a label that is not an integer does not match.
///
/// A requirement upstream would refuse to build (In / NotIn without values,
/// Exists / DoesNotExist with values, Gt / Lt without exactly one value, a
/// field requirement other than In / NotIn with one value) never matches, so
/// its term never matches. So does a label requirement whose key is not a
/// valid label key, one of whose In / NotIn values is not a valid label value,
/// or whose Gt / Lt value is not an integer: the API server accepts such pods
/// (it checks only the shape), and kube-scheduler's selector parser rejects
/// the term, which then matches no node. The decoder records this in
/// `usable` once, so matching pays one branch. As in kube-scheduler, field
/// requirements are not checked against a node without a name, and a field
/// other than `metadata.name` reads as the empty string.
#pragma once

#include "model/labels.hpp"
#include "model/symbol.hpp"

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::model {

struct node_selector_requirement {
  enum class op : std::uint8_t { in, not_in, exists, does_not_exist, gt, lt };
  symbol key;
  op oper = op::in;
  boost::container::small_vector<symbol, 2> values;
  /// The parsed integer of `values[0]` for gt / lt.
  std::int64_t number = 0;
  /// False when `label_problem()` finds something (set by the decoders through
  /// `check_usable()`); an unusable requirement matches nothing.
  bool usable = true;

  /// What kube-scheduler's selector parser refuses in a label requirement.
  struct problem {
    /// The requirement's field: "key" or "values[<i>]".
    std::string field;
    std::string value;
    std::string detail;
  };
  /// The first thing kube-scheduler's selector parser refuses in this label
  /// requirement (an invalid key, an invalid In / NotIn value, a Gt / Lt
  /// value that is not an integer), if any.
  std::optional<problem> label_problem() const;
  /// Sets `usable` from `label_problem()`, and `number` for Gt / Lt.
  void check_usable();

  /// Matches against a label set (matchExpressions).
  bool matches(const label_set& labels) const noexcept;
  /// Matches against a field value (matchFields on metadata.name); only In
  /// and NotIn are meaningful there.
  bool matches_field(symbol value) const noexcept;
  friend bool operator==(const node_selector_requirement&,
                         const node_selector_requirement&)
    = default;
};

struct node_selector_term {
  std::vector<node_selector_requirement> match_expressions;
  /// Requirements on `metadata.name` (the only supported field).
  std::vector<node_selector_requirement> match_fields;

  bool matches(const label_set& node_labels, symbol node_name) const noexcept;
  /// The index in `match_expressions` and the problem of the first unusable
  /// requirement, if any.
  std::optional<std::pair<std::size_t, node_selector_requirement::problem>>
  first_problem() const;
  friend bool operator==(const node_selector_term&, const node_selector_term&)
    = default;
};

struct node_selector {
  std::vector<node_selector_term> terms;

  bool matches(const label_set& node_labels, symbol node_name) const noexcept;
  friend bool operator==(const node_selector&, const node_selector&) = default;
};

} // namespace tessera::model
