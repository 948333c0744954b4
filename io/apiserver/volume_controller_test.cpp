// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The embedded volume controller on a store: binding, completing the
// scheduler's bindings, provisioning for a selected node, release.
#include "io/apiserver/resources.hpp"
#include "io/apiserver/volume_controller.hpp"
#include "test/support/wait.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>

namespace tessera::apiserver {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

const resource_info& pvs() {
  return primary_resource(storage_kind::persistent_volume);
}
const resource_info& pvcs() {
  return primary_resource(storage_kind::persistent_volume_claim);
}

/// The text at `path` of a stored object; "" when absent, "<gone>" when
/// the object does not exist.
std::string at(const store& st, const resource_info& r, std::string_view ns,
               std::string_view name, std::vector<std::string> path) {
  auto o = st.get(r, ns, name);
  if (!o)
    return "<gone>";
  json::value doc = json::parse((*o)->json());
  const json::value* v = &doc;
  for (const auto& p : path) {
    const auto* obj = v->if_object();
    if (obj == nullptr || !obj->contains(p))
      return "";
    v = &obj->at(p);
  }
  if (const auto* s = v->if_string())
    return std::string{s->data(), s->size()};
  return json::serialize(*v);
}

void create(store& st, const resource_info& r, std::string_view ns,
            const std::string& body) {
  auto o = st.create(r, ns, body);
  ASSERT_TRUE(o) << o.err().message << "\n" << body;
}

std::string pv(const std::string& name, const std::string& size,
               const std::string& cls, const std::string& policy = "Retain") {
  return R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":")"
         + name + R"("},"spec":{"capacity":{"storage":")" + size
         + R"("},"accessModes":["ReadWriteOnce"],"storageClassName":")" + cls
         + R"(","persistentVolumeReclaimPolicy":")" + policy
         + R"(","hostPath":{"path":"/tmp"}}})";
}

std::string claim(const std::string& name, const std::string& size,
                  const std::string& cls) {
  return R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",)"
         R"("metadata":{"name":")"
         + name + R"("},"spec":{"storageClassName":")" + cls
         + R"(","accessModes":["ReadWriteOnce"],)"
           R"("resources":{"requests":{"storage":")"
         + size + R"("}}}})";
}

std::string storage_class(const std::string& name,
                          const std::string& provisioner,
                          const std::string& extra = "") {
  return R"({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass",)"
         R"("metadata":{"name":")"
         + name + R"("},"provisioner":")" + provisioner
         + R"(","volumeBindingMode":"WaitForFirstConsumer")" + extra + "}";
}

std::string claim_phase(const store& st, const std::string& name) {
  return at(st, pvcs(), "default", name, {"status", "phase"});
}

std::string volume_phase(const store& st, const std::string& name) {
  return at(st, pvs(), "", name, {"status", "phase"});
}

class VolumeControllerTest : public ::testing::Test {
protected:
  void SetUp() override {
    volume_controller_config cfg;
    cfg.resync = 50ms;
    ctl_ = std::make_unique<volume_controller>(st_, cfg);
  }
  void select_node(const std::string& claim_name, const std::string& node) {
    auto r = st_.patch(pvcs(), "default", claim_name, patch_type::merge,
                       R"({"metadata":{"annotations":{)"
                       R"("volume.kubernetes.io/selected-node":")"
                         + node + R"("}}})",
                       subresource::main);
    ASSERT_TRUE(r) << r.err().message;
  }

  store st_;
  std::unique_ptr<volume_controller> ctl_;
};

TEST_F(VolumeControllerTest, BindsImmediateClaimsToTheSmallestMatchingVolume) {
  create(st_, pvs(), "", pv("big", "5Gi", "slow"));
  create(st_, pvs(), "", pv("small", "2Gi", "slow"));
  create(st_, pvs(), "", pv("tiny", "512Mi", "slow"));
  create(st_, pvs(), "", pv("other", "2Gi", "fast"));
  create(st_, pvcs(), "default", claim("data", "1Gi", "slow"));
  ASSERT_TRUE(
    test::eventually([&] { return claim_phase(st_, "data") == "Bound"; }))
    << claim_phase(st_, "data");
  EXPECT_EQ(at(st_, pvcs(), "default", "data", {"spec", "volumeName"}),
            "small");
  EXPECT_EQ(at(st_, pvcs(), "default", "data",
               {"metadata", "annotations", "pv.kubernetes.io/bind-completed"}),
            "yes");
  EXPECT_EQ(
    at(st_, pvcs(), "default", "data",
       {"metadata", "annotations", "pv.kubernetes.io/bound-by-controller"}),
    "yes");
  EXPECT_EQ(at(st_, pvcs(), "default", "data", {"status", "capacity"}),
            R"({"storage":"2Gi"})");
  EXPECT_EQ(at(st_, pvcs(), "default", "data", {"status", "accessModes"}),
            R"(["ReadWriteOnce"])");
  EXPECT_TRUE(
    test::eventually([&] { return volume_phase(st_, "small") == "Bound"; }));
  EXPECT_EQ(at(st_, pvs(), "", "small", {"spec", "claimRef", "name"}), "data");
  for (const char* free : {"big", "tiny", "other"})
    EXPECT_EQ(volume_phase(st_, free), "Available") << free;
}

TEST_F(VolumeControllerTest, WaitsForTheSchedulerThenCompletesItsBinding) {
  create(st_, primary_resource(storage_kind::storage_class), "",
         storage_class("local", "kubernetes.io/no-provisioner"));
  create(st_, pvs(), "", pv("local-1", "1Gi", "local"));
  create(st_, pvcs(), "default", claim("data", "1Gi", "local"));
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(claim_phase(st_, "data"), "Pending")
    << "WaitForFirstConsumer: the scheduler chooses";
  EXPECT_EQ(at(st_, pvs(), "", "local-1", {"spec", "claimRef"}), "");
  // The scheduler's PreBind: the volume's claimRef.
  std::string uid = at(st_, pvcs(), "default", "data", {"metadata", "uid"});
  auto r = st_.patch(
    pvs(), "", "local-1", patch_type::merge,
    R"({"spec":{"claimRef":{"kind":"PersistentVolumeClaim","apiVersion":"v1",)"
    R"("namespace":"default","name":"data","uid":")"
      + uid + R"("}}})",
    subresource::main);
  ASSERT_TRUE(r) << r.err().message;
  ASSERT_TRUE(
    test::eventually([&] { return claim_phase(st_, "data") == "Bound"; }));
  EXPECT_EQ(at(st_, pvcs(), "default", "data", {"spec", "volumeName"}),
            "local-1");
  EXPECT_TRUE(
    test::eventually([&] { return volume_phase(st_, "local-1") == "Bound"; }));
}

TEST_F(VolumeControllerTest, ProvisionsForTheSelectedNodeWithinTheTopology) {
  create(st_, primary_resource(storage_kind::node), "",
         R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1",)"
         R"("labels":{"kubernetes.io/hostname":"host-1","zone":"a"}}})");
  create(st_, primary_resource(storage_kind::node), "",
         R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n2",)"
         R"("labels":{"zone":"b"}}})");
  create(st_, primary_resource(storage_kind::storage_class), "",
         storage_class("fast", "example.com/disk",
                       R"(,"reclaimPolicy":"Delete","allowedTopologies":[)"
                       R"({"matchLabelExpressions":[{"key":"zone",)"
                       R"("values":["a"]}]}])"));
  create(st_, pvcs(), "default", claim("data", "3Gi", "fast"));
  create(st_, pvcs(), "default", claim("outside", "1Gi", "fast"));
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(claim_phase(st_, "data"), "Pending");
  EXPECT_EQ(st_.list(pvs(), "")->items.size(), 0u)
    << "nothing is provisioned before a node is selected";
  select_node("data", "n1");
  select_node("outside", "n2");
  ASSERT_TRUE(
    test::eventually([&] { return claim_phase(st_, "data") == "Bound"; }));
  std::string uid = at(st_, pvcs(), "default", "data", {"metadata", "uid"});
  std::string name = "pvc-" + uid;
  EXPECT_EQ(at(st_, pvcs(), "default", "data", {"spec", "volumeName"}), name);
  EXPECT_EQ(at(st_, pvs(), "", name, {"spec", "capacity", "storage"}), "3Gi");
  EXPECT_EQ(at(st_, pvs(), "", name, {"spec", "storageClassName"}), "fast");
  EXPECT_EQ(at(st_, pvs(), "", name, {"spec", "accessModes"}),
            R"(["ReadWriteOnce"])");
  EXPECT_EQ(at(st_, pvs(), "", name, {"spec", "persistentVolumeReclaimPolicy"}),
            "Delete");
  EXPECT_EQ(at(st_, pvs(), "", name, {"spec", "nodeAffinity"}),
            R"({"required":{"nodeSelectorTerms":[{"matchExpressions":[)"
            R"({"key":"kubernetes.io/hostname","operator":"In",)"
            R"("values":["host-1"]}]}]}})");
  EXPECT_EQ(at(st_, pvs(), "", name, {"spec", "claimRef", "uid"}), uid);
  EXPECT_TRUE(
    test::eventually([&] { return volume_phase(st_, name) == "Bound"; }));
  // n2 is in zone b, outside the class's allowed topologies.
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(claim_phase(st_, "outside"), "Pending");
  EXPECT_EQ(st_.list(pvs(), "")->items.size(), 1u);
}

TEST_F(VolumeControllerTest, ReleasesVolumesOfDeletedClaimsByTheirPolicy) {
  create(st_, pvs(), "", pv("kept", "1Gi", "a", "Retain"));
  create(st_, pvs(), "", pv("dropped", "1Gi", "b", "Delete"));
  create(st_, pvcs(), "default", claim("ca", "1Gi", "a"));
  create(st_, pvcs(), "default", claim("cb", "1Gi", "b"));
  ASSERT_TRUE(test::eventually([&] {
    return volume_phase(st_, "kept") == "Bound"
           && volume_phase(st_, "dropped") == "Bound";
  }));
  ASSERT_TRUE(st_.remove(pvcs(), "default", "ca"));
  ASSERT_TRUE(st_.remove(pvcs(), "default", "cb"));
  EXPECT_TRUE(
    test::eventually([&] { return volume_phase(st_, "kept") == "Released"; }));
  EXPECT_TRUE(
    test::eventually([&] { return volume_phase(st_, "dropped") == "<gone>"; }));
}

TEST_F(VolumeControllerTest, ABoundClaimWhoseVolumeIsDeletedIsLost) {
  create(st_, pvs(), "", pv("v", "1Gi", "a"));
  create(st_, pvcs(), "default", claim("c", "1Gi", "a"));
  ASSERT_TRUE(
    test::eventually([&] { return claim_phase(st_, "c") == "Bound"; }));
  ASSERT_TRUE(st_.remove(pvs(), "", "v"));
  EXPECT_TRUE(
    test::eventually([&] { return claim_phase(st_, "c") == "Lost"; }));
}

} // namespace
} // namespace tessera::apiserver
