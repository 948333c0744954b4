// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/selector.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::apiserver {
namespace {

object_attrs pod_attrs() {
  static constexpr std::string_view paths[]
    = {"metadata.name", "metadata.namespace", "spec.nodeName", "status.phase",
       "spec.hostNetwork"};
  const std::string_view values[] = {"p1", "default", "n1", "Running", "false"};
  const std::pair<std::string_view, std::string_view> labels[]
    = {{"app", "web"}, {"tier", "front"}, {"empty", ""}};
  return object_attrs{paths, values, labels};
}

TEST(ObjectAttrs, PacksLabelsAndFieldsOfAnyLength) {
  // Pieces of 127, 128 and 20,000 bytes take one, two and three length
  // bytes; each must still be read back whole and in its place.
  const std::string long_value(20000, 'v');
  const std::string key_127(127, 'k');
  const std::string value_128(128, 'x');
  static constexpr std::string_view paths[]
    = {"metadata.name", "spec.nodeName", "status.phase"};
  const std::string_view values[] = {long_value, "", "Pending"};
  const std::pair<std::string_view, std::string_view> labels[]
    = {{key_127, value_128}, {"app", ""}, {"tier", long_value}};
  const object_attrs a{paths, values, labels};
  EXPECT_EQ(a.label_count(), 3u);
  EXPECT_EQ(a.label(key_127), std::optional<std::string_view>{value_128});
  EXPECT_EQ(a.label("app"), std::optional<std::string_view>{""});
  EXPECT_EQ(a.label("tier"), std::optional<std::string_view>{long_value});
  EXPECT_EQ(a.label("missing"), std::nullopt);
  EXPECT_EQ(a.field("metadata.name"),
            std::optional<std::string_view>{long_value});
  EXPECT_EQ(a.field("spec.nodeName"), std::optional<std::string_view>{""});
  EXPECT_EQ(a.field("status.phase"),
            std::optional<std::string_view>{"Pending"});
  EXPECT_EQ(a.field("app"), std::nullopt);
  EXPECT_EQ(object_attrs{}.field("metadata.name"), std::nullopt);
  EXPECT_EQ(object_attrs{}.label("app"), std::nullopt);
}

TEST(LabelSelector, ParsesAndMatches) {
  struct test_case {
    std::string name;
    std::string text;
    bool matches;
  };
  const std::vector<test_case> cases = {
    {"empty matches everything", "", true},
    {"equality", "app=web", true},
    {"double equality", "app==web", true},
    {"equality mismatch", "app=db", false},
    {"inequality", "app!=db", true},
    {"inequality on absent key is true", "missing!=x", true},
    {"in", "tier in (front,back)", true},
    {"in with spaces", "tier in ( back , front )", true},
    {"in mismatch", "tier in (back)", false},
    {"notin", "tier notin (back)", true},
    {"notin absent key is true", "missing notin (a)", true},
    {"exists", "app", true},
    {"exists absent", "missing", false},
    {"not exists", "!missing", true},
    {"not exists present", "!app", false},
    {"empty value", "empty=", true},
    {"and of all", "app=web,tier in (front),!missing,empty", true},
    {"and fails on one", "app=web,tier=back", false},
    {"prefixed key", "kubernetes.io/os=linux", false},
  };
  auto attrs = pod_attrs();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto sel = selector::parse_labels(tc.text);
    ASSERT_TRUE(sel.has_value()) << sel.err().message;
    EXPECT_EQ(sel->matches(attrs), tc.matches);
  }
}

TEST(LabelSelector, RejectsMalformed) {
  for (std::string text :
       {"app=web,", "in (a)", "app in", "app in (a", "app in ()", "!",
        "app=we b", "-bad-=x", "app=v@lue", ",app"}) {
    SCOPED_TRACE(text);
    auto sel = selector::parse_labels(text);
    ASSERT_FALSE(sel.has_value());
    EXPECT_EQ(sel.err().code, 400);
    EXPECT_EQ(sel.err().reason, "BadRequest");
  }
}

TEST(FieldSelector, ParsesAndMatches) {
  const auto& pods = *find_resource("", "v1", "pods");
  struct test_case {
    std::string name;
    std::string text;
    bool matches;
  };
  const std::vector<test_case> cases = {
    {"node name", "spec.nodeName=n1", true},
    {"double equals", "spec.nodeName==n1", true},
    {"unbound filter (kwok)", "spec.nodeName!=", true},
    {"phase filter (scheduler)", "status.phase!=Succeeded,status.phase!=Failed",
     true},
    {"phase filter excludes", "status.phase!=Running", false},
    {"metadata.name", "metadata.name=p1", true},
    {"namespace", "metadata.namespace=kube-system", false},
    {"bool field", "spec.hostNetwork=false", true},
    {"escaped comma", "metadata.name=p\\,1", false},
  };
  auto attrs = pod_attrs();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto sel = selector::parse_fields(tc.text, pods);
    ASSERT_TRUE(sel.has_value()) << sel.err().message;
    EXPECT_EQ(sel->matches(attrs), tc.matches);
  }
}

TEST(FieldSelector, RejectsUndeclaredFields) {
  const auto& pods = *find_resource("", "v1", "pods");
  const auto& nodes = *find_resource("", "v1", "nodes");
  auto bad = selector::parse_fields("spec.foo=bar", pods);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.err().code, 400);
  EXPECT_NE(bad.err().message.find("field label not supported: spec.foo"),
            std::string::npos);
  // Cluster-scoped kinds have no metadata.namespace field.
  EXPECT_FALSE(selector::parse_fields("metadata.namespace=x", nodes));
  EXPECT_TRUE(selector::parse_fields("spec.unschedulable=true", nodes));
  EXPECT_FALSE(selector::parse_fields("noequals", pods));
}

} // namespace
} // namespace tessera::apiserver
