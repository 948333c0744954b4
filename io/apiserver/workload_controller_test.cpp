// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The embedded workload controllers on a store with kwok's fake kubelet:
// replica sets, deployments (scale, rolling update), jobs, garbage
// collection, and no pod watch without workload objects.
#include "io/apiserver/kwok.hpp"
#include "io/apiserver/resources.hpp"
#include "io/apiserver/scale.hpp"
#include "io/apiserver/workload_controller.hpp"
#include "test/support/fake_binder.hpp"
#include "test/support/wait.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <thread>

// Options are designated initializers naming only what a case sets.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace tessera::apiserver {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

const resource_info& res(storage_kind k) {
  return primary_resource(k);
}

json::object doc_of(const object_ptr& o) {
  return json::parse(o->json()).as_object();
}

class WorkloadControllerTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(create_fake_nodes(st_, 2, {}));
  }

  std::vector<object_ptr> list(storage_kind k,
                               const std::string& field_selector = "") {
    auto l = st_.list(res(k), "default", {.field_selector = field_selector});
    return l ? l->items : std::vector<object_ptr>{};
  }

  std::size_t running_pods() {
    return list(storage_kind::pod, "status.phase=Running").size();
  }

  json::object get(storage_kind k, const std::string& name) {
    auto o = st_.get(res(k), "default", name);
    return o ? doc_of(*o) : json::object{};
  }

  void create(storage_kind k, const std::string& body) {
    auto r = st_.create(res(k), "default", body);
    ASSERT_TRUE(r) << r.err().message;
  }

  static std::string deployment(int replicas, const std::string& image) {
    return R"({"metadata":{"name":"web"},"spec":{"replicas":)"
           + std::to_string(replicas)
           + R"(,"selector":{"matchLabels":{"app":"web"}},)"
             R"("template":{"metadata":{"labels":{"app":"web"}},)"
             R"("spec":{"containers":[{"name":"c","image":")"
           + image + R"("}]}}}})";
  }

  /// True once the deployment's status is what `kubectl rollout status`
  /// calls rolled out with `replicas`.
  bool rolled_out(std::int64_t replicas) {
    auto d = get(storage_kind::deployment, "web");
    auto* status = d.if_contains("status");
    if (!status)
      return false;
    const auto& s = status->as_object();
    auto n = [&](const char* k) {
      auto* v = s.if_contains(k);
      return v && v->is_int64() ? v->as_int64() : 0;
    };
    return n("observedGeneration")
             >= d.at("metadata").at("generation").as_int64()
           && n("updatedReplicas") == replicas && n("replicas") == replicas
           && n("availableReplicas") == replicas;
  }

  store st_;
  kwok_controller kwok_{st_, kwok_config{}};
  workload_controller controller_{st_, {.resync = 50ms}};
};

TEST_F(WorkloadControllerTest, NoPodWatchWithoutWorkloadObjects) {
  for (int i = 0; i < 20; ++i)
    create(storage_kind::pod, R"({"metadata":{"name":"p)" + std::to_string(i)
                                + R"("},"spec":{"containers":[{"name":"c",)"
                                  R"("image":"nginx"}]}})");
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(controller_.watching_pods());
  EXPECT_EQ(controller_.writes(), 0u);
  create(storage_kind::job,
         R"({"metadata":{"name":"j"},"spec":{"suspend":true,"template":)"
         R"({"spec":{"restartPolicy":"Never","containers":[{"name":"c",)"
         R"("image":"busybox"}]}}}})");
  EXPECT_TRUE(test::eventually([&] { return controller_.watching_pods(); }));
  ASSERT_TRUE(st_.remove(res(storage_kind::job), "default", "j"));
  EXPECT_TRUE(test::eventually([&] { return !controller_.watching_pods(); }));
}

TEST_F(WorkloadControllerTest, ReplicaSetKeepsItsReplicas) {
  create(storage_kind::replica_set,
         R"({"metadata":{"name":"rs"},"spec":{"replicas":3,)"
         R"("selector":{"matchLabels":{"app":"a"}},"template":{"metadata":)"
         R"({"labels":{"app":"a"}},"spec":{"containers":[{"name":"c",)"
         R"("image":"nginx"}]}}}})");
  ASSERT_TRUE(
    test::eventually([&] { return list(storage_kind::pod).size() == 3; }));
  for (const auto& p : list(storage_kind::pod)) {
    auto d = doc_of(p);
    const auto& ref = d.at("metadata").at("ownerReferences").at(0);
    EXPECT_EQ(ref.at("kind"), "ReplicaSet");
    EXPECT_EQ(ref.at("name"), "rs");
    EXPECT_EQ(ref.at("controller"), true);
    EXPECT_EQ(p->name().rfind("rs-", 0), 0u) << p->name();
    EXPECT_EQ(*p->attrs().label("app"), "a");
  }
  // A pod deleted by someone else is replaced.
  auto victim = list(storage_kind::pod).front()->name();
  ASSERT_TRUE(st_.remove(res(storage_kind::pod), "default", victim,
                         {.grace_period_seconds = 0}));
  EXPECT_TRUE(test::eventually([&] {
    auto pods = list(storage_kind::pod);
    return pods.size() == 3
           && std::none_of(pods.begin(), pods.end(),
                           [&](const auto& p) { return p->name() == victim; });
  }));
  // Scaling down deletes the unbound pods (nothing binds them here).
  ASSERT_TRUE(st_.patch(res(storage_kind::replica_set), "default", "rs",
                        patch_type::merge, R"({"spec":{"replicas":1}})",
                        subresource::main));
  EXPECT_TRUE(
    test::eventually([&] { return list(storage_kind::pod).size() == 1; }));
  EXPECT_TRUE(test::eventually([&] {
    auto rs = get(storage_kind::replica_set, "rs");
    return rs.contains("status") && rs.at("status").at("replicas") == 1
           && rs.at("status").at("observedGeneration") == 2;
  }));
}

TEST_F(WorkloadControllerTest, DeploymentRollsOutScalesAndRollsAgain) {
  test::fake_binder b{st_, {"node-000000", "node-000001"}};
  create(storage_kind::deployment, deployment(4, "nginx:1"));
  ASSERT_TRUE(test::eventually([&] { return rolled_out(4); }))
    << json::serialize(get(storage_kind::deployment, "web"));
  auto sets = list(storage_kind::replica_set);
  ASSERT_EQ(sets.size(), 1u);
  const std::string first = sets[0]->name();
  EXPECT_EQ(first, "web-" + *sets[0]->attrs().label("pod-template-hash"));
  EXPECT_EQ(running_pods(), 4u);
  auto d = get(storage_kind::deployment, "web");
  EXPECT_EQ(
    d.at("metadata").at("annotations").at("deployment.kubernetes.io/revision"),
    "1");

  // kubectl scale: a merge patch of the Scale.
  auto scaled
    = write_scale(st_, res(storage_kind::deployment), "default", "web",
                  patch_type::merge, R"({"spec":{"replicas":6}})", {});
  ASSERT_TRUE(scaled) << scaled.err().message;
  EXPECT_NE(scaled->find(R"("replicas":6)"), std::string::npos) << *scaled;
  ASSERT_TRUE(test::eventually([&] { return rolled_out(6); }));
  EXPECT_EQ(list(storage_kind::replica_set).size(), 1u);
  auto read = read_scale(st_, res(storage_kind::deployment), "default", "web");
  ASSERT_TRUE(read);
  auto scale = json::parse(*read).as_object();
  EXPECT_EQ(scale.at("status").at("replicas"), 6);
  EXPECT_EQ(scale.at("status").at("selector"), "app=web");

  // A template change: a second set takes over, the first goes to zero.
  ASSERT_TRUE(st_.patch(
    res(storage_kind::deployment), "default", "web", patch_type::merge,
    R"({"spec":{"template":{"spec":{"containers":[{"name":"c","image":"nginx:2"}]}}}})",
    subresource::main));
  ASSERT_TRUE(test::eventually([&] { return rolled_out(6); }))
    << json::serialize(get(storage_kind::deployment, "web"));
  sets = list(storage_kind::replica_set);
  ASSERT_EQ(sets.size(), 2u);
  for (const auto& s : sets) {
    auto sd = doc_of(s);
    EXPECT_EQ(sd.at("spec").at("replicas"), s->name() == first ? 0 : 6)
      << s->name();
  }
  EXPECT_TRUE(test::eventually([&] { return running_pods() == 6; }));
  for (const auto& p : list(storage_kind::pod))
    EXPECT_EQ(doc_of(p).at("spec").at("containers").at(0).at("image"),
              "nginx:2");
  d = get(storage_kind::deployment, "web");
  EXPECT_EQ(
    d.at("metadata").at("annotations").at("deployment.kubernetes.io/revision"),
    "2");
}

TEST_F(WorkloadControllerTest, DeletionCollectsDependentsUnlessOrphaned) {
  test::fake_binder b{st_, {"node-000000", "node-000001"}};
  create(storage_kind::deployment, deployment(3, "nginx"));
  ASSERT_TRUE(test::eventually([&] { return rolled_out(3); }));
  ASSERT_TRUE(st_.remove(res(storage_kind::deployment), "default", "web"));
  EXPECT_TRUE(test::eventually([&] {
    return list(storage_kind::replica_set).empty()
           && list(storage_kind::pod).empty();
  }));

  create(storage_kind::deployment, deployment(2, "nginx"));
  ASSERT_TRUE(test::eventually([&] { return rolled_out(2); }));
  ASSERT_TRUE(st_.remove(res(storage_kind::deployment), "default", "web",
                         {.propagation_policy = "Orphan"}));
  std::this_thread::sleep_for(200ms);
  auto sets = list(storage_kind::replica_set);
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_FALSE(
    doc_of(sets[0]).at("metadata").as_object().contains("ownerReferences"));
  EXPECT_EQ(list(storage_kind::pod).size(), 2u) << "the set keeps its pods";
}

TEST_F(WorkloadControllerTest, JobRunsToCompletion) {
  test::fake_binder b{st_, {"node-000000", "node-000001"}};
  create(storage_kind::job,
         R"({"metadata":{"name":"pi"},"spec":{"completions":3,)"
         R"("parallelism":2,"template":{"spec":{"restartPolicy":"Never",)"
         R"("containers":[{"name":"c","image":"busybox"}]}}}})");
  auto job = get(storage_kind::job, "pi");
  const auto& labels
    = job.at("spec").at("template").at("metadata").at("labels").as_object();
  EXPECT_EQ(labels.at("job-name"), "pi");
  EXPECT_EQ(labels.at("batch.kubernetes.io/controller-uid"),
            job.at("metadata").at("uid"));
  ASSERT_TRUE(test::eventually([&] {
    auto j = get(storage_kind::job, "pi");
    auto* s = j.if_contains("status");
    if (!s || !s->as_object().contains("conditions"))
      return false;
    for (const auto& c : s->at("conditions").as_array())
      if (c.at("type") == "Complete" && c.at("status") == "True")
        return true;
    return false;
  }))
    << json::serialize(get(storage_kind::job, "pi"));
  auto status = get(storage_kind::job, "pi").at("status").as_object();
  EXPECT_EQ(status.at("succeeded"), 3);
  EXPECT_EQ(status.at("active"), 0);
  EXPECT_EQ(list(storage_kind::pod, "status.phase=Succeeded").size(), 3u);
}

} // namespace
} // namespace tessera::apiserver
