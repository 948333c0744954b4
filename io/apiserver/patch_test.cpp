// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/patch.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::apiserver {
namespace {

namespace json = boost::json;

struct test_case {
  std::string name;
  patch_type type;
  storage_kind storage;
  std::string target;
  std::string patch;
  std::string want; // empty = expect an error
};

TEST(Patch, AppliesEachFormat) {
  const std::vector<test_case> cases = {
    {"merge adds and deletes keys", patch_type::merge, storage_kind::pod,
     R"({"metadata":{"labels":{"a":"1","b":"2"}}})",
     R"({"metadata":{"labels":{"b":null,"c":"3"}}})",
     R"({"metadata":{"labels":{"a":"1","c":"3"}}})"},
    {"merge replaces lists", patch_type::merge, storage_kind::pod,
     R"({"status":{"conditions":[{"type":"A"},{"type":"B"}]}})",
     R"({"status":{"conditions":[{"type":"C"}]}})",
     R"({"status":{"conditions":[{"type":"C"}]}})"},
    {"strategic merges conditions by type", patch_type::strategic,
     storage_kind::pod,
     R"({"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"PodScheduled","status":"True"}]}})",
     R"({"status":{"$setElementOrder/conditions":[{"type":"Ready"},{"type":"PodScheduled"}],"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]}})",
     R"({"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]}})"},
    {"strategic appends a new keyed element", patch_type::strategic,
     storage_kind::pod, R"({"status":{"conditions":[{"type":"A"}]}})",
     R"({"status":{"conditions":[{"type":"B","status":"True"}]}})",
     R"({"status":{"conditions":[{"type":"A"},{"type":"B","status":"True"}]}})"},
    {"strategic null clears nominatedNodeName", patch_type::strategic,
     storage_kind::pod,
     R"({"status":{"nominatedNodeName":"n3","phase":"Pending"}})",
     R"({"status":{"nominatedNodeName":null}})",
     R"({"status":{"phase":"Pending"}})"},
    {"strategic deletes a keyed element", patch_type::strategic,
     storage_kind::node,
     R"({"status":{"addresses":[{"type":"InternalIP","address":"1.2.3.4"},{"type":"Hostname","address":"n"}]}})",
     R"({"status":{"addresses":[{"type":"Hostname","$patch":"delete"}]}})",
     R"({"status":{"addresses":[{"type":"InternalIP","address":"1.2.3.4"}]}})"},
    {"strategic replaces unkeyed lists (taints)", patch_type::strategic,
     storage_kind::node,
     R"({"spec":{"taints":[{"key":"a","effect":"NoSchedule"}]}})",
     R"({"spec":{"taints":[{"key":"b","effect":"NoSchedule"}]}})",
     R"({"spec":{"taints":[{"key":"b","effect":"NoSchedule"}]}})"},
    {"strategic $patch replace on a map", patch_type::strategic,
     storage_kind::pod, R"({"metadata":{"labels":{"a":"1"}}})",
     R"({"metadata":{"labels":{"$patch":"replace","b":"2"}}})",
     R"({"metadata":{"labels":{"b":"2"}}})"},
    {"strategic merges finalizers as a set", patch_type::strategic,
     storage_kind::pod, R"({"metadata":{"finalizers":["a"]}})",
     R"({"metadata":{"finalizers":["a","b"]}})",
     R"({"metadata":{"finalizers":["a","b"]}})"},
    {"strategic deleteFromPrimitiveList", patch_type::strategic,
     storage_kind::pod, R"({"metadata":{"finalizers":["a","b"]}})",
     R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}})",
     R"({"metadata":{"finalizers":["b"]}})"},
    {"strategic keyed element without its key is an error",
     patch_type::strategic, storage_kind::pod,
     R"({"status":{"conditions":[{"type":"A"}]}})",
     R"({"status":{"conditions":[{"status":"True"}]}})", ""},
    {"json patch add, replace, remove", patch_type::json_patch,
     storage_kind::pod, R"({"a":{"b":[1,2]},"c":1})",
     R"([{"op":"add","path":"/a/b/-","value":3},{"op":"replace","path":"/c","value":2},{"op":"remove","path":"/a/b/0"}])",
     R"({"a":{"b":[2,3]},"c":2})"},
    {"json patch move and copy", patch_type::json_patch, storage_kind::pod,
     R"({"a":1})",
     R"([{"op":"copy","from":"/a","path":"/b"},{"op":"move","from":"/a","path":"/c"}])",
     R"({"b":1,"c":1})"},
    {"json patch failing test", patch_type::json_patch, storage_kind::pod,
     R"({"a":1})", R"([{"op":"test","path":"/a","value":2}])", ""},
    {"json patch missing path", patch_type::json_patch, storage_kind::pod,
     R"({"a":1})", R"([{"op":"remove","path":"/x/y"}])", ""},
    {"json patch must be a list", patch_type::json_patch, storage_kind::pod,
     R"({"a":1})", R"({"op":"remove"})", ""},
    {"apply is refused", patch_type::apply, storage_kind::pod, R"({})", R"({})",
     ""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    json::value target = json::parse(tc.target);
    json::value patch = json::parse(tc.patch);
    auto err = apply_patch(target, patch, tc.type, tc.storage);
    if (tc.want.empty()) {
      EXPECT_TRUE(err.has_value());
      continue;
    }
    ASSERT_FALSE(err.has_value()) << *err;
    EXPECT_EQ(target, json::parse(tc.want)) << json::serialize(target);
  }
}

// Copies of the root into itself double the document each time; the
// copies' total is bounded as kube-apiserver bounds it, so that a few dozen
// of them end in an error instead of gigabytes. Thirteen already pass the
// bound (8 MB of copies).
TEST(Patch, JsonPatchCopiesAreBoundedInTotal) {
  auto doubling = [](int copies) {
    json::array ops;
    for (int i = 0; i < copies; ++i)
      ops.push_back(json::object{
        {"op", "copy"}, {"from", ""}, {"path", "/c" + std::to_string(i)}});
    return json::value(std::move(ops));
  };
  json::value small = json::object{{"a", std::string(1000, 'x')}};
  // 2^10 copies of a kilobyte: a megabyte in all, under the bound.
  json::value target = small;
  auto fits = apply_patch(target, doubling(10), patch_type::json_patch,
                          storage_kind::pod);
  ASSERT_FALSE(fits) << *fits;
  EXPECT_GT(json::serialize(target).size(), 1000000u);
  target = small;
  auto err = apply_patch(target, doubling(13), patch_type::json_patch,
                         storage_kind::pod);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("Unable to complete the copy, the accumulated size "
                      "increase of copy is "),
            std::string::npos)
    << *err;
  EXPECT_NE(err->find("exceeding the limit 3145728"), std::string::npos)
    << *err;
}

TEST(Patch, ContentTypes) {
  EXPECT_EQ(patch_type_from_content_type("application/merge-patch+json"),
            patch_type::merge);
  EXPECT_EQ(patch_type_from_content_type(
              "application/strategic-merge-patch+json; charset=utf-8"),
            patch_type::strategic);
  EXPECT_EQ(patch_type_from_content_type("application/json-patch+json"),
            patch_type::json_patch);
  EXPECT_EQ(patch_type_from_content_type("application/apply-patch+yaml"),
            patch_type::apply);
  EXPECT_FALSE(patch_type_from_content_type("application/json"));
}

} // namespace
} // namespace tessera::apiserver
