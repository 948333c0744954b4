// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/json_access.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <utility>

namespace tessera::model {
namespace {

namespace json = boost::json;

TEST(json_access, reads_members_leniently) {
  const json::object o
    = json::parse(R"({"s":"text","n":1,"o":{"k":"v"},"a":[1]})").as_object();
  EXPECT_EQ(string_at(o, "s"), "text");
  EXPECT_EQ(string_at(o, "n"), "");
  EXPECT_EQ(string_at(o, "missing"), "");
  EXPECT_EQ(string_at(static_cast<const json::object*>(nullptr), "s"), "");
  ASSERT_NE(object_at(o, "o"), nullptr);
  EXPECT_EQ(string_at(object_at(o, "o"), "k"), "v");
  EXPECT_EQ(object_at(o, "s"), nullptr);
  EXPECT_EQ(object_at(object_at(o, "missing"), "k"), nullptr);
  ASSERT_NE(array_at(&o, "a"), nullptr);
  EXPECT_EQ(array_at(&o, "a")->size(), 1u);
  EXPECT_EQ(array_at(&o, "o"), nullptr);
}

TEST(json_access, ensure_replaces_other_types) {
  json::object o = json::parse(R"({"o":1,"a":{"x":1}})").as_object();
  ensure_object(o, "o")["k"] = "v";
  ensure_array(o, "a").push_back(2);
  ensure_array(o, "new").push_back(3);
  EXPECT_EQ(json::serialize(o), R"({"o":{"k":"v"},"a":[2],"new":[3]})");
  auto* edit = object_at(o, "o");
  ASSERT_NE(edit, nullptr);
  (*edit)["k"] = "w";
  EXPECT_EQ(string_at(o, "o"), "");
  EXPECT_EQ(string_at(object_at(std::as_const(o), "o"), "k"), "w");
}

} // namespace
} // namespace tessera::model
