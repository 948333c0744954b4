// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/labels.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

// Each test file has its own namespace so that unity builds, which merge
// files, see no clashing helpers.
namespace tessera::model::labels_test {
namespace {

using test::label_pairs;
using test::make_labels;

symbol sym(std::string_view s) {
  return symbol{s};
}

label_requirement req(std::string_view key, label_requirement::op oper,
                      std::vector<std::string_view> values = {}) {
  label_requirement r;
  r.key = sym(key);
  r.oper = oper;
  for (auto v : values)
    r.values.push_back(sym(v));
  return r;
}

using op = label_requirement::op;

TEST(label_set, later_duplicate_replaces_earlier) {
  label_set s{
    {{sym("b"), sym("1")}, {sym("a"), sym("2")}, {sym("b"), sym("3")}}};
  ASSERT_EQ(s.size(), 2u);
  ASSERT_NE(s.find(sym("b")), nullptr);
  EXPECT_EQ(*s.find(sym("b")), sym("3"));
  EXPECT_EQ(*s.find(sym("a")), sym("2"));
  EXPECT_EQ(s.find(sym("c")), nullptr);
  EXPECT_FALSE(s.contains(sym("c")));
}

TEST(label_set, set_inserts_and_replaces_keeping_order) {
  label_set s;
  s.set(sym("zeta"), sym("1"));
  s.set(sym("alpha"), sym("2"));
  s.set(sym("zeta"), sym("3"));
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(*s.find(sym("zeta")), sym("3"));
  // Iteration is sorted by key id.
  std::vector<symbol> keys;
  for (const auto& l : s)
    keys.push_back(l.key);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_LT(keys[0], keys[1]);
  // The same labels built another way compare equal.
  EXPECT_EQ(s, make_labels({{"alpha", "2"}, {"zeta", "3"}}));
}

TEST(label_requirement, matches) {
  struct test_case {
    std::string name;
    label_requirement r;
    label_pairs labels;
    bool expected;
  };
  const std::vector<test_case> cases = {
    {"in with listed value",
     req("app", op::in, {"web", "db"}),
     {{"app", "db"}},
     true},
    {"in with other value",
     req("app", op::in, {"web"}),
     {{"app", "api"}},
     false},
    {"in with key absent", req("app", op::in, {"web"}), {}, false},
    {"in with no values matches nothing",
     req("app", op::in),
     {{"app", ""}},
     false},
    {"in with empty value", req("app", op::in, {""}), {{"app", ""}}, true},
    {"not_in with listed value",
     req("app", op::not_in, {"web"}),
     {{"app", "web"}},
     false},
    {"not_in with other value",
     req("app", op::not_in, {"web"}),
     {{"app", "db"}},
     true},
    {"not_in with key absent", req("app", op::not_in, {"web"}), {}, true},
    {"exists present", req("app", op::exists), {{"app", ""}}, true},
    {"exists absent", req("app", op::exists), {{"other", "x"}}, false},
    {"does_not_exist absent", req("app", op::does_not_exist), {}, true},
    {"does_not_exist present",
     req("app", op::does_not_exist),
     {{"app", "x"}},
     false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.r.matches(make_labels(tc.labels)), tc.expected);
  }
}

TEST(label_selector, nothing_everything_and_requirements) {
  struct test_case {
    std::string name;
    label_selector s;
    label_pairs labels;
    bool expected;
  };
  auto both = label_selector::from_requirements(
    {req("app", op::in, {"web"}), req("tier", op::exists)});
  auto added_to_nothing = label_selector::nothing();
  added_to_nothing.add(req("app", op::does_not_exist));
  auto added_to_everything = label_selector::everything();
  added_to_everything.add(req("app", op::in, {"web"}));
  const std::vector<test_case> cases = {
    {"nothing on empty labels", label_selector::nothing(), {}, false},
    {"nothing on labels", label_selector::nothing(), {{"a", "b"}}, false},
    {"everything on empty labels", label_selector::everything(), {}, true},
    {"everything on labels", label_selector::everything(), {{"a", "b"}}, true},
    {"no requirements is everything",
     label_selector::from_requirements({}),
     {},
     true},
    {"all requirements hold", both, {{"app", "web"}, {"tier", "x"}}, true},
    {"one requirement fails", both, {{"app", "web"}}, false},
    {"add keeps nothing matching nothing", added_to_nothing, {}, false},
    {"add narrows everything", added_to_everything, {{"app", "db"}}, false},
    {"add narrows everything, match",
     added_to_everything,
     {{"app", "web"}},
     true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.s.matches(make_labels(tc.labels)), tc.expected);
  }
}

TEST(label_selector, flags) {
  EXPECT_TRUE(label_selector::nothing().is_nothing());
  EXPECT_FALSE(label_selector::nothing().is_everything());
  EXPECT_TRUE(label_selector::everything().is_everything());
  EXPECT_FALSE(label_selector::everything().is_nothing());
  auto s = label_selector::from_requirements({req("a", op::exists)});
  EXPECT_FALSE(s.is_everything());
  EXPECT_FALSE(s.is_nothing());
  EXPECT_NE(label_selector::nothing(), label_selector::everything());
}

TEST(label_selector, to_string) {
  struct test_case {
    std::string name;
    label_selector s;
    std::string expected;
  };
  const std::vector<test_case> cases = {
    {"nothing", label_selector::nothing(), "<none>"},
    {"everything", label_selector::everything(), ""},
    {"single in is equality",
     label_selector::from_requirements({req("app", op::in, {"web"})}),
     "app=web"},
    {"set in sorts values",
     label_selector::from_requirements(
       {req("tier", op::in, {"zeta", "alpha", "zeta"})}),
     "tier in (alpha,zeta)"},
    {"single not_in is inequality",
     label_selector::from_requirements({req("app", op::not_in, {"web"})}),
     "app!=web"},
    {"set not_in",
     label_selector::from_requirements({req("app", op::not_in, {"b", "a"})}),
     "app notin (a,b)"},
    {"exists and does not exist",
     label_selector::from_requirements(
       {req("b", op::does_not_exist), req("a", op::exists)}),
     "a,!b"},
    {"requirements ordered by key",
     label_selector::from_requirements(
       {req("zone", op::in, {"z1"}), req("app", op::in, {"web"})}),
     "app=web,zone=z1"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.s.to_string(), tc.expected);
  }
}

TEST(label_selector, parse_valid) {
  struct test_case {
    std::string name;
    std::string text;
    std::string expected;
  };
  const std::vector<test_case> cases = {
    {"empty", "", ""},
    {"blank", " \t ", ""},
    {"equality", "app=web", "app=web"},
    {"double equals", "app==web", "app=web"},
    {"inequality", "app!=web", "app!=web"},
    {"blanks around operators", "  app = web ,  tier != db ",
     "app=web,tier!=db"},
    {"in", "env in (prod, dev)", "env in (dev,prod)"},
    {"in without blanks", "env in(prod,dev)", "env in (dev,prod)"},
    {"notin deduplicates", "env notin (a,b,a)", "env notin (a,b)"},
    {"exists", "gpu", "gpu"},
    {"does not exist", "!gpu", "!gpu"},
    {"does not exist with blank", " ! gpu ", "!gpu"},
    {"empty value", "k=", "k="},
    {"empty value after double equals", "k==", "k="},
    {"empty inequality value", "k!=", "k!="},
    {"empty parentheses mean the empty value", "k in ()", "k="},
    {"trailing comma adds the empty value", "k in (a,)", "k in (,a)"},
    {"leading comma adds the empty value", "k notin (,a)", "k notin (,a)"},
    {"double comma adds the empty value", "k in (a,,b)", "k in (,a,b)"},
    {"keywords as key and value", "in in (in, notin)", "in in (in,notin)"},
    {"keyword as exact value", "k=notin", "k=notin"},
    {"prefixed key", "example.com/app=web", "example.com/app=web"},
    {"sorted by key", "b=1,a=2", "a=2,b=1"},
    {"value punctuation", "v=1.2_3-x", "v=1.2_3-x"},
    {"mixed", "tier notin (x),!legacy,app=web,zone",
     "app=web,!legacy,tier!=x,zone"},
    {"63 character name", "k" + std::string(62, 'x') + "=v",
     "k" + std::string(62, 'x') + "=v"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto s = label_selector::parse(tc.text);
    ASSERT_TRUE(s) << s.err().message;
    EXPECT_FALSE(s->is_nothing());
    EXPECT_EQ(s->to_string(), tc.expected);
  }
}

TEST(label_selector, parse_round_trips_through_to_string) {
  for (std::string text :
       {"a=1,b!=2", "k in (x,y,z)", "!k,j notin (q,r)", "a,b,c"}) {
    SCOPED_TRACE(text);
    auto first = label_selector::parse(text);
    ASSERT_TRUE(first) << first.err().message;
    auto second = label_selector::parse(first->to_string());
    ASSERT_TRUE(second) << second.err().message;
    EXPECT_EQ(*first, *second);
  }
}

TEST(label_selector, parse_equals_from_requirements) {
  auto parsed = label_selector::parse("tier in (b,a), app=web");
  ASSERT_TRUE(parsed) << parsed.err().message;
  auto built = label_selector::from_requirements(
    {req("app", op::in, {"web"}), req("tier", op::in, {"a", "b"})});
  EXPECT_EQ(*parsed, built);
}

TEST(label_selector, parse_invalid) {
  struct test_case {
    std::string name;
    std::string text;
    std::string message_part;
  };
  const std::vector<test_case> cases = {
    {"unclosed set", "k in (a", "found end of string, expected: ',' or ')'"},
    {"set without parentheses", "k in a", "found 'a', expected: '('"},
    {"missing key", "=v", "found '=', expected: '!', a key"},
    {"trailing comma", "k=v,", "expected: a key after ','"},
    {"leading comma", ",k=v", "found ','"},
    {"two values", "k=v w", "found 'w', expected: ',' or end of string"},
    {"does not exist with value", "!k=v", "found '=', expected: ','"},
    {"greater than", "k>1", "operator '>' is not supported"},
    {"less than", "k<1", "operator '<' is not supported"},
    {"uppercase prefix", "Example.com/k=v", "invalid label key"},
    {"two slashes", "a/b/c=v", "invalid label key"},
    {"empty prefix", "/k=v", "invalid label key"},
    {"key starting with dash", "-k=v", "invalid label key"},
    {"64 character name", std::string(64, 'k') + "=v",
     "no more than 63 characters"},
    {"value starting with dash", "k=-v", "invalid label value \"-v\""},
    {"64 character value", "k=" + std::string(64, 'v'),
     "no more than 63 characters"},
    {"set value with slash", "k in (a/b)", "invalid label value"},
    {"blank separated set", "k in (a b)", "found 'b', expected: ',' or ')'"},
    {"bang as operator", "k!v", "found '!', expected: in, notin"},
    {"notin without set", "k notin", "found end of string, expected: '('"},
    {"parenthesis first", "(k)", "found '('"},
    {"double bang", "!!k", "found '!', expected: a key"},
    {"triple equals", "k===v", "found '=', expected: a value"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto s = label_selector::parse(tc.text);
    ASSERT_FALSE(s) << "parsed as " << s->to_string();
    EXPECT_EQ(s.err().code, ec::invalid_input);
    EXPECT_NE(s.err().message.find(tc.message_part), std::string::npos)
      << s.err().message;
    EXPECT_EQ(s.err().message.rfind("unable to parse requirement: ", 0), 0u)
      << s.err().message;
  }
}

TEST(label_selector, parsed_matching) {
  struct test_case {
    std::string name;
    std::string text;
    label_pairs labels;
    bool expected;
  };
  const std::vector<test_case> cases = {
    {"equality holds", "app=web", {{"app", "web"}}, true},
    {"equality other value", "app=web", {{"app", "db"}}, false},
    {"equality key absent", "app=web", {}, false},
    {"inequality key absent", "app!=web", {}, true},
    {"inequality same value", "app!=web", {{"app", "web"}}, false},
    {"inequality other value", "app!=web", {{"app", "db"}}, true},
    {"notin key absent", "env notin (a)", {}, true},
    {"exists with empty value", "k", {{"k", ""}}, true},
    {"does not exist present", "!k", {{"k", "x"}}, false},
    {"does not exist absent", "!k", {}, true},
    {"empty value matches empty", "k=", {{"k", ""}}, true},
    {"empty value rejects non-empty", "k=", {{"k", "x"}}, false},
    {"and needs both", "a=1,b=2", {{"a", "1"}}, false},
    {"and with both", "a=1,b=2", {{"a", "1"}, {"b", "2"}}, true},
    {"empty selector matches all", "", {{"x", "y"}}, true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto s = label_selector::parse(tc.text);
    ASSERT_TRUE(s) << s.err().message;
    EXPECT_EQ(s->matches(make_labels(tc.labels)), tc.expected);
  }
}

} // namespace
} // namespace tessera::model::labels_test
