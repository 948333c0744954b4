// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/node_selector.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::model {

namespace {

constexpr std::string_view name_field = "metadata.name";

// Base-10 int64 with an optional sign and nothing else (Go's strconv.ParseInt
// with base 10): no blanks, no underscores, no overflow.
std::optional<std::int64_t> parse_int64(std::string_view text) noexcept {
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty())
    return std::nullopt;
  // Parse the magnitude as unsigned so that INT64_MIN is accepted.
  std::uint64_t magnitude = 0;
  auto [end, ec]
    = std::from_chars(text.data(), text.data() + text.size(), magnitude);
  if (ec != std::errc{} || end != text.data() + text.size())
    return std::nullopt;
  constexpr auto max = static_cast<std::uint64_t>(INT64_MAX);
  if (negative) {
    if (magnitude > max + 1)
      return std::nullopt;
    return magnitude == max + 1 ? INT64_MIN
                                : -static_cast<std::int64_t>(magnitude);
  }
  if (magnitude > max)
    return std::nullopt;
  return static_cast<std::int64_t>(magnitude);
}

bool listed(const boost::container::small_vector<symbol, 2>& values,
            symbol v) noexcept {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// The value a matchFields requirement sees: the node name for metadata.name,
// the empty string for any other (unsupported) field.
symbol field_value(const node_selector_requirement& r, symbol node_name) {
  return r.key == name_field ? node_name : symbol{};
}

} // namespace

std::optional<node_selector_requirement::problem>
node_selector_requirement::label_problem() const {
  if (auto why = label_key_problem(key.view()); !why.empty())
    return problem{"key", std::string{key.view()}, std::move(why)};
  switch (oper) {
  case op::in:
  case op::not_in:
    for (std::size_t i = 0; i < values.size(); ++i)
      if (auto why = label_value_problem(values[i].view()); !why.empty())
        return problem{"values[" + std::to_string(i) + "]",
                       std::string{values[i].view()}, std::move(why)};
    break;
  case op::gt:
  case op::lt:
    if (values.size() == 1 && !parse_int64(values.front().view()))
      return problem{"values[0]", std::string{values.front().view()},
                     "must be an integer"};
    break;
  default:
    break;
  }
  return std::nullopt;
}

void node_selector_requirement::check_usable() {
  usable = !label_problem();
  if (usable && (oper == op::gt || oper == op::lt) && values.size() == 1)
    number = *parse_int64(values.front().view());
}

bool node_selector_requirement::matches(
  const label_set& labels) const noexcept {
  using o = op;
  if (!usable)
    return false;
  const symbol* value = labels.find(key);
  switch (oper) {
  // A requirement that apimachinery would refuse to build (In/NotIn
  // without values, Exists with values, Gt/Lt without exactly one value)
  // makes its term unusable; it never matches here.
  case o::in:
    return !values.empty() && value != nullptr && listed(values, *value);
  case o::not_in:
    return !values.empty() && (value == nullptr || !listed(values, *value));
  case o::exists:
    return values.empty() && value != nullptr;
  case o::does_not_exist:
    return values.empty() && value == nullptr;
  case o::gt:
  case o::lt: {
    if (values.size() != 1 || value == nullptr)
      return false;
    auto label_number = parse_int64(value->view());
    if (!label_number)
      return false;
    return oper == o::gt ? *label_number > number : *label_number < number;
  }
  }
  return false;
}

bool node_selector_requirement::matches_field(symbol value) const noexcept {
  // Field requirements take exactly one value and only In / NotIn.
  if (values.size() != 1)
    return false;
  switch (oper) {
  case op::in:
    return value == values.front();
  case op::not_in:
    return value != values.front();
  default:
    return false;
  }
}

bool node_selector_term::matches(const label_set& node_labels,
                                 symbol node_name) const noexcept {
  if (match_expressions.empty() && match_fields.empty())
    return false;
  for (const auto& r : match_expressions)
    if (!r.matches(node_labels))
      return false;
  // A requirement that cannot be used fails the term even when the field
  // check is skipped below.
  for (const auto& r : match_fields) {
    bool usable = r.values.size() == 1
                  && (r.oper == node_selector_requirement::op::in
                      || r.oper == node_selector_requirement::op::not_in);
    if (!usable)
      return false;
  }
  // kube-scheduler only evaluates field requirements against a node that
  // has a name; a nameless node passes them.
  if (node_name.empty())
    return true;
  for (const auto& r : match_fields)
    if (!r.matches_field(field_value(r, node_name)))
      return false;
  return true;
}

std::optional<std::pair<std::size_t, node_selector_requirement::problem>>
node_selector_term::first_problem() const {
  for (std::size_t j = 0; j < match_expressions.size(); ++j)
    if (!match_expressions[j].usable)
      if (auto p = match_expressions[j].label_problem())
        return std::pair{j, std::move(*p)};
  return std::nullopt;
}

bool node_selector::matches(const label_set& node_labels,
                            symbol node_name) const noexcept {
  for (const auto& t : terms)
    if (t.matches(node_labels, node_name))
      return true;
  return false;
}

} // namespace tessera::model
