// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/volume_writes.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace tessera::model {
namespace {

namespace json = boost::json;

persistent_volume_claim claim() {
  persistent_volume_claim c;
  c.ns = symbol{"ns"};
  c.name = "data";
  c.uid = "c-uid";
  c.resource_version = "7";
  return c;
}

TEST(VolumeWrites, BindVolumeSetsTheClaimRefAndThePrecondition) {
  struct test_case {
    std::string name;
    std::string pv;
    /// Expected pv.kubernetes.io/bound-by-controller ("" for absent).
    std::string bound_by_controller;
  };
  const std::vector<test_case> cases = {
    {"a free volume is bound by the controller",
     R"({"metadata":{"name":"v","resourceVersion":"99"},"spec":{}})", "yes"},
    {"a volume pre-bound to the claim by name stays the user's",
     R"({"metadata":{"name":"v"},"spec":{"claimRef":)"
     R"({"namespace":"ns","name":"data"}}})",
     ""},
    {"a volume pre-bound to another claim is taken by the controller",
     R"({"metadata":{"name":"v"},"spec":{"claimRef":)"
     R"({"namespace":"ns","name":"other"}}})",
     "yes"},
  };
  persistent_volume chosen;
  chosen.name = "v";
  chosen.resource_version = "42";
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto out = bind_volume_json(tc.pv, chosen, claim());
    ASSERT_TRUE(out) << out.err().message;
    auto doc = json::parse(*out);
    EXPECT_EQ(doc.at("metadata").at("resourceVersion"), "42");
    EXPECT_EQ(doc.at("spec").at("claimRef"),
              json::parse(R"({"kind":"PersistentVolumeClaim",)"
                          R"("apiVersion":"v1","namespace":"ns",)"
                          R"("name":"data","uid":"c-uid",)"
                          R"("resourceVersion":"7"})"));
    const auto* ann = doc.at("metadata").as_object().if_contains("annotations");
    std::string got;
    if (ann != nullptr)
      if (const auto* v = ann->as_object().if_contains(
            "pv.kubernetes.io/bound-by-controller"))
        got = v->as_string().c_str();
    EXPECT_EQ(got, tc.bound_by_controller);
  }
}

TEST(VolumeWrites, SelectNodeAnnotatesTheClaimKeepingTheRest) {
  auto out = select_node_json(
    R"({"metadata":{"name":"data","annotations":{"x":"y"}},)"
    R"("spec":{"storageClassName":"fast"},"status":{"phase":"Pending"}})",
    claim(), symbol{"n1"});
  ASSERT_TRUE(out) << out.err().message;
  EXPECT_EQ(json::parse(*out),
            json::parse(R"({"metadata":{"name":"data","annotations":{"x":"y",)"
                        R"("volume.kubernetes.io/selected-node":"n1"},)"
                        R"("resourceVersion":"7"},)"
                        R"("spec":{"storageClassName":"fast"},)"
                        R"("status":{"phase":"Pending"}})"));
}

TEST(VolumeWrites, RefusesDocumentsThatAreNotObjects) {
  for (std::string_view bad : {"[]", "{", ""}) {
    SCOPED_TRACE(bad);
    auto pv = bind_volume_json(bad, persistent_volume{}, claim());
    ASSERT_FALSE(pv);
    EXPECT_EQ(pv.err().code, ec::invalid_input);
    auto pvc = select_node_json(bad, claim(), symbol{"n1"});
    ASSERT_FALSE(pvc);
    EXPECT_EQ(pvc.err().code, ec::invalid_input);
  }
}

} // namespace
} // namespace tessera::model
