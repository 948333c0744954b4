// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `selector`: the string forms of `?labelSelector=` and `?fieldSelector=`
/// (docs/apiserver-protocol.md §2.3), parsed once per request and matched
/// against an object's `object_attrs` — its labels and its selectable fields,
/// extracted once when the object is stored. Matching is on plain strings: the
/// API server sees unbounded label values and must not intern them (the model's
/// `label_selector` works on interned symbols for the scheduler's hot path).
///
/// Label grammar: comma = AND of `k=v`, `k==v`, `k!=v` (true when `k` is
/// absent), `k in (a,b)`, `k notin (a,b)` (true when absent), `k`, `!k`.
/// Field grammar: comma = AND of `f=v`, `f==v`, `f!=v`, with `\` escaping
/// `,`, `=` and `\`; only the fields the resource declares are accepted.
#pragma once

#include "io/apiserver/resources.hpp"
#include "io/apiserver/status.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::apiserver {

/// Labels and selectable fields of one object, extracted at store time.
struct object_attrs {
  std::vector<std::pair<std::string, std::string>> labels;
  /// (field path, value); absent fields are stored with their zero value
  /// ("" or "false"), as upstream's field sets do. Paths are static strings.
  std::vector<std::pair<std::string_view, std::string>> fields;

  /// The label value, or nullptr when absent.
  const std::string* label(std::string_view key) const noexcept;
  /// The field value, or nullptr when the object has no such field.
  const std::string* field(std::string_view path) const noexcept;
};

class selector {
public:
  enum class op : std::uint8_t {
    equals,
    not_equals,
    in,
    not_in,
    exists,
    does_not_exist
  };
  struct requirement {
    std::string key;
    op oper = op::equals;
    std::vector<std::string> values;
  };

  /// The empty selector: matches everything.
  selector() = default;

  /// Parses a label selector; errors are 400 BadRequest.
  static api_result<selector> parse_labels(std::string_view text);
  /// Parses a field selector for `resource`; an undeclared field is 400
  /// `field label not supported: <f>`.
  static api_result<selector> parse_fields(std::string_view text,
                                           const resource_info& resource);

  bool empty() const noexcept {
    return requirements_.empty();
  }
  /// Label selectors test `attrs.labels`, field selectors `attrs.fields`.
  bool matches(const object_attrs& attrs) const noexcept;
  const std::vector<requirement>& requirements() const noexcept {
    return requirements_;
  }
  /// Adds an ANDed requirement (a namespaced watch adds metadata.namespace).
  void add(requirement r);

private:
  std::vector<requirement> requirements_;
  bool fields_ = false;
};

/// True when `path` is a field selector the resource declares.
bool is_selectable_field(const resource_info& resource, std::string_view path);

} // namespace tessera::apiserver
