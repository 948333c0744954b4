// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/node_selector.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

// Each test file has its own namespace so that unity builds, which merge
// files, see no clashing helpers.
namespace tessera::model::node_selector_test {
namespace {

using test::label_pairs;
using test::make_labels;
using test::name_field;
using test::node_requirement;
using test::node_term;

// A requirement built field by field, bypassing the builder's checks, to
// describe inputs the API would reject.
node_selector_requirement raw(std::string_view key,
                              node_selector_requirement::op oper,
                              std::vector<std::string_view> values,
                              std::int64_t number = 0) {
  node_selector_requirement r;
  r.key = symbol{key};
  r.oper = oper;
  for (auto v : values)
    r.values.push_back(symbol{v});
  r.number = number;
  return r;
}

using op = node_selector_requirement::op;

TEST(node_selector_requirement, matches_labels) {
  struct test_case {
    std::string name;
    node_selector_requirement r;
    label_pairs labels;
    bool expected;
  };
  const std::vector<test_case> cases = {
    {"In listed",
     node_requirement("disk", "In", {"ssd", "nvme"}),
     {{"disk", "nvme"}},
     true},
    {"In not listed",
     node_requirement("disk", "In", {"ssd"}),
     {{"disk", "hdd"}},
     false},
    {"In absent", node_requirement("disk", "In", {"ssd"}), {}, false},
    {"NotIn listed",
     node_requirement("disk", "NotIn", {"ssd"}),
     {{"disk", "ssd"}},
     false},
    {"NotIn not listed",
     node_requirement("disk", "NotIn", {"ssd"}),
     {{"disk", "hdd"}},
     true},
    {"NotIn absent", node_requirement("disk", "NotIn", {"ssd"}), {}, true},
    {"Exists present", node_requirement("gpu", "Exists"), {{"gpu", ""}}, true},
    {"Exists absent", node_requirement("gpu", "Exists"), {}, false},
    {"DoesNotExist absent", node_requirement("gpu", "DoesNotExist"), {}, true},
    {"DoesNotExist present",
     node_requirement("gpu", "DoesNotExist"),
     {{"gpu", "1"}},
     false},
    {"Gt greater",
     node_requirement("cores", "Gt", {"8"}),
     {{"cores", "16"}},
     true},
    {"Gt equal",
     node_requirement("cores", "Gt", {"8"}),
     {{"cores", "8"}},
     false},
    {"Gt smaller",
     node_requirement("cores", "Gt", {"8"}),
     {{"cores", "4"}},
     false},
    {"Gt absent", node_requirement("cores", "Gt", {"8"}), {}, false},
    {"Gt negative bound",
     node_requirement("t", "Gt", {"-5"}),
     {{"t", "-4"}},
     true},
    {"Gt label with plus sign",
     node_requirement("cores", "Gt", {"8"}),
     {{"cores", "+9"}},
     true},
    {"Gt label not an integer",
     node_requirement("cores", "Gt", {"8"}),
     {{"cores", "sixteen"}},
     false},
    {"Gt label with decimals",
     node_requirement("cores", "Gt", {"8"}),
     {{"cores", "9.5"}},
     false},
    {"Gt label hexadecimal",
     node_requirement("cores", "Gt", {"8"}),
     {{"cores", "0x10"}},
     false},
    {"Gt label overflowing int64",
     node_requirement("n", "Gt", {"1"}),
     {{"n", "9223372036854775808"}},
     false},
    {"Gt label int64 max",
     node_requirement("n", "Gt", {"1"}),
     {{"n", "9223372036854775807"}},
     true},
    {"Lt label int64 min",
     node_requirement("n", "Lt", {"0"}),
     {{"n", "-9223372036854775808"}},
     true},
    {"Lt label below int64 min",
     node_requirement("n", "Lt", {"0"}),
     {{"n", "-9223372036854775809"}},
     false},
    {"Gt empty label", node_requirement("n", "Gt", {"-1"}), {{"n", ""}}, false},
    {"Gt sign only", node_requirement("n", "Gt", {"-1"}), {{"n", "-"}}, false},
    {"Lt smaller",
     node_requirement("cores", "Lt", {"8"}),
     {{"cores", "7"}},
     true},
    {"Lt equal",
     node_requirement("cores", "Lt", {"8"}),
     {{"cores", "8"}},
     false},
    {"Lt label not an integer",
     node_requirement("cores", "Lt", {"8"}),
     {{"cores", "1e3"}},
     false},
    {"In without values never matches",
     raw("disk", op::in, {}),
     {{"disk", ""}},
     false},
    {"NotIn without values never matches",
     raw("disk", op::not_in, {}),
     {},
     false},
    {"Exists with values never matches",
     raw("disk", op::exists, {"x"}),
     {{"disk", "x"}},
     false},
    {"Gt with two values never matches",
     raw("n", op::gt, {"1", "2"}, 1),
     {{"n", "5"}},
     false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.r.matches(make_labels(tc.labels)), tc.expected);
  }
}

TEST(node_selector_requirement, matches_field) {
  struct test_case {
    std::string name;
    node_selector_requirement r;
    std::string value;
    bool expected;
  };
  const std::vector<test_case> cases = {
    {"In equal", name_field("In", "n1"), "n1", true},
    {"In other", name_field("In", "n1"), "n2", false},
    {"NotIn equal", name_field("NotIn", "n1"), "n1", false},
    {"NotIn other", name_field("NotIn", "n1"), "n2", true},
    {"In with two values is unusable",
     raw("metadata.name", op::in, {"n1", "n2"}), "n1", false},
    {"Exists is unsupported", raw("metadata.name", op::exists, {}), "n1",
     false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.r.matches_field(symbol{tc.value}), tc.expected);
  }
}

TEST(node_selector_term, matches) {
  struct test_case {
    std::string name;
    node_selector_term term;
    label_pairs labels;
    std::string node_name;
    bool expected;
  };
  const std::vector<test_case> cases = {
    {"empty term matches nothing",
     node_selector_term{},
     {{"a", "b"}},
     "n1",
     false},
    {"expression holds",
     node_term({node_requirement("a", "In", {"b"})}),
     {{"a", "b"}},
     "n1",
     true},
    {"expressions are ANDed",
     node_term(
       {node_requirement("a", "In", {"b"}), node_requirement("c", "Exists")}),
     {{"a", "b"}},
     "n1",
     false},
    {"field only, name matches",
     node_term({}, {name_field("In", "n1")}),
     {},
     "n1",
     true},
    {"field only, name differs",
     node_term({}, {name_field("In", "n1")}),
     {},
     "n2",
     false},
    {"field NotIn", node_term({}, {name_field("NotIn", "n1")}), {}, "n2", true},
    {"expression and field both hold",
     node_term({node_requirement("a", "Exists")}, {name_field("In", "n1")}),
     {{"a", ""}},
     "n1",
     true},
    {"expression holds, field fails",
     node_term({node_requirement("a", "Exists")}, {name_field("In", "n1")}),
     {{"a", ""}},
     "n2",
     false},
    {"field holds, expression fails",
     node_term({node_requirement("a", "Exists")}, {name_field("In", "n1")}),
     {},
     "n1",
     false},
    {"unsupported field reads as empty",
     node_term({}, {raw("spec.foo", op::in, {"n1"})}),
     {},
     "n1",
     false},
    {"unsupported field NotIn holds",
     node_term({}, {raw("spec.foo", op::not_in, {"n1"})}),
     {},
     "n1",
     true},
    {"nameless node skips fields",
     node_term({}, {name_field("In", "n1")}),
     {},
     "",
     true},
    {"unusable field fails even for a nameless node",
     node_term({}, {raw("metadata.name", op::in, {"a", "b"})}),
     {},
     "",
     false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.term.matches(make_labels(tc.labels), symbol{tc.node_name}),
              tc.expected);
  }
}

TEST(node_selector, terms_are_ored) {
  struct test_case {
    std::string name;
    node_selector selector;
    label_pairs labels;
    bool expected;
  };
  auto ssd = node_term({node_requirement("disk", "In", {"ssd"})});
  auto gpu = node_term({node_requirement("gpu", "Exists")});
  const std::vector<test_case> cases = {
    {"no terms match nothing", node_selector{}, {{"disk", "ssd"}}, false},
    {"first term", node_selector{{ssd, gpu}}, {{"disk", "ssd"}}, true},
    {"second term", node_selector{{ssd, gpu}}, {{"gpu", "1"}}, true},
    {"no term", node_selector{{ssd, gpu}}, {{"disk", "hdd"}}, false},
    {"empty term is skipped",
     node_selector{{node_selector_term{}, gpu}},
     {{"gpu", "1"}},
     true},
    {"only an empty term", node_selector{{node_selector_term{}}}, {}, false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.selector.matches(make_labels(tc.labels), symbol{"n1"}),
              tc.expected);
  }
}

} // namespace
} // namespace tessera::model::node_selector_test
