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

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <thread>

// Options are designated initializers naming only what a case sets.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace tessera::apiserver {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

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
    auto l = st_.list(primary_resource(k), "default",
                      {.field_selector = field_selector});
    return l ? l->items : std::vector<object_ptr>{};
  }

  std::size_t running_pods() {
    return list(storage_kind::pod, "status.phase=Running").size();
  }

  json::object get(storage_kind k, const std::string& name) {
    auto o = st_.get(primary_resource(k), "default", name);
    return o ? doc_of(*o) : json::object{};
  }

  void create(storage_kind k, const std::string& body) {
    auto r = st_.create(primary_resource(k), "default", body);
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

// The controller learns of owner objects from watches. When the store
// refuses them all and nothing is pending, no feed can wake it: it must
// poll until its watches open, or a Deployment created later never gets
// its ReplicaSet.
TEST(WorkloadControllerRefusedWatch, PollsUntilItsWatchesOpen) {
  store_config sc;
  // The five owner kinds' watches of the first pass.
  sc.refuse_watches = 5;
  store st{sc};
  workload_controller controller{st, {.resync = 50ms}};
  std::this_thread::sleep_for(150ms);
  ASSERT_TRUE(
    st.watch(primary_resource(storage_kind::deployment), "", {}).has_value())
    << "the controller did not ask for its five watches first";
  ASSERT_TRUE(st.create(primary_resource(storage_kind::deployment), "default",
                        R"({"metadata":{"name":"web"},"spec":{"replicas":1,)"
                        R"("selector":{"matchLabels":{"app":"web"}},)"
                        R"("template":{"metadata":{"labels":{"app":"web"}},)"
                        R"("spec":{"containers":[{"name":"c",)"
                        R"("image":"nginx"}]}}}})"));
  EXPECT_TRUE(test::eventually([&] {
    auto l = st.list(primary_resource(storage_kind::replica_set), "default");
    return l && l->items.size() == 1;
  }));
}

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
  ASSERT_TRUE(st_.remove(primary_resource(storage_kind::job), "default", "j"));
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
  ASSERT_TRUE(st_.remove(primary_resource(storage_kind::pod), "default", victim,
                         {.grace_period_seconds = 0}));
  EXPECT_TRUE(test::eventually([&] {
    auto pods = list(storage_kind::pod);
    return pods.size() == 3
           && std::none_of(pods.begin(), pods.end(),
                           [&](const auto& p) { return p->name() == victim; });
  }));
  // Scaling down deletes the unbound pods (nothing binds them here).
  ASSERT_TRUE(st_.patch(primary_resource(storage_kind::replica_set), "default",
                        "rs", patch_type::merge, R"({"spec":{"replicas":1}})",
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
  const std::string first{sets[0]->name()};
  EXPECT_EQ(first,
            "web-" + std::string{*sets[0]->attrs().label("pod-template-hash")});
  EXPECT_EQ(running_pods(), 4u);
  auto d = get(storage_kind::deployment, "web");
  EXPECT_EQ(
    d.at("metadata").at("annotations").at("deployment.kubernetes.io/revision"),
    "1");

  // kubectl scale: a merge patch of the Scale.
  auto scaled
    = write_scale(st_, primary_resource(storage_kind::deployment), "default",
                  "web", patch_type::merge, R"({"spec":{"replicas":6}})", {});
  ASSERT_TRUE(scaled) << scaled.err().message;
  EXPECT_NE(scaled->find(R"("replicas":6)"), std::string::npos) << *scaled;
  ASSERT_TRUE(test::eventually([&] { return rolled_out(6); }));
  EXPECT_EQ(list(storage_kind::replica_set).size(), 1u);
  auto read = read_scale(st_, primary_resource(storage_kind::deployment),
                         "default", "web");
  ASSERT_TRUE(read);
  auto scale = json::parse(*read).as_object();
  EXPECT_EQ(scale.at("status").at("replicas"), 6);
  EXPECT_EQ(scale.at("status").at("selector"), "app=web");

  // A template change: a second set takes over, the first goes to zero.
  ASSERT_TRUE(st_.patch(
    primary_resource(storage_kind::deployment), "default", "web",
    patch_type::merge,
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
  ASSERT_TRUE(
    st_.remove(primary_resource(storage_kind::deployment), "default", "web"));
  EXPECT_TRUE(test::eventually([&] {
    return list(storage_kind::replica_set).empty()
           && list(storage_kind::pod).empty();
  }));

  create(storage_kind::deployment, deployment(2, "nginx"));
  ASSERT_TRUE(test::eventually([&] { return rolled_out(2); }));
  ASSERT_TRUE(st_.remove(primary_resource(storage_kind::deployment), "default",
                         "web", {.propagation_policy = "Orphan"}));
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

TEST_F(WorkloadControllerTest, DaemonSetRunsOnePodPerFittingNode) {
  test::fake_binder b{st_, {"node-000000"}};
  // A third node whose taint the daemon does not tolerate.
  create(storage_kind::node,
         R"({"metadata":{"name":"tainted"},"spec":{"taints":[{"key":"gpu",)"
         R"("value":"yes","effect":"NoSchedule"}]}})");
  create(storage_kind::daemon_set,
         R"({"metadata":{"name":"agent"},"spec":{"selector":{"matchLabels":)"
         R"({"app":"agent"}},"template":{"metadata":{"labels":{"app":)"
         R"("agent"}},"spec":{"containers":[{"name":"c","image":"a:1"}]}}}})");
  auto settled = [&](const std::string& image) {
    auto ds = get(storage_kind::daemon_set, "agent");
    auto* status = ds.if_contains("status");
    if (!status)
      return false;
    auto pods = list(storage_kind::pod, "status.phase=Running");
    return status->at("desiredNumberScheduled") == 2
           && status->at("numberAvailable") == 2
           && status->at("updatedNumberScheduled") == 2 && pods.size() == 2
           && std::all_of(pods.begin(), pods.end(), [&](const auto& p) {
                return p->json().find(image) != std::string::npos;
              });
  };
  ASSERT_TRUE(test::eventually([&] { return settled("a:1"); }))
    << json::serialize(get(storage_kind::daemon_set, "agent"));
  std::set<std::string> nodes;
  for (const auto& p : list(storage_kind::pod)) {
    auto d = doc_of(p);
    const auto& term = d.at("spec")
                         .at("affinity")
                         .at("nodeAffinity")
                         .at("requiredDuringSchedulingIgnoredDuringExecution")
                         .at("nodeSelectorTerms")
                         .at(0)
                         .at("matchFields")
                         .at(0);
    EXPECT_EQ(term.at("key"), "metadata.name");
    EXPECT_EQ(term.at("values").at(0), d.at("spec").at("nodeName"))
      << "bound where its affinity says";
    nodes.insert(std::string{d.at("spec").at("nodeName").as_string()});
  }
  EXPECT_EQ(nodes, (std::set<std::string>{"node-000000", "node-000001"}));
  // A new image replaces the pods, one node at a time.
  ASSERT_TRUE(st_.patch(
    primary_resource(storage_kind::daemon_set), "default", "agent",
    patch_type::merge,
    R"({"spec":{"template":{"spec":{"containers":[{"name":"c","image":"a:2"}]}}}})",
    subresource::main));
  EXPECT_TRUE(test::eventually([&] { return settled("a:2"); }))
    << json::serialize(get(storage_kind::daemon_set, "agent"));
  // A node that stops fitting loses its pod.
  ASSERT_TRUE(st_.patch(
    primary_resource(storage_kind::node), "", "node-000001", patch_type::merge,
    R"({"spec":{"taints":[{"key":"gpu","value":"yes","effect":"NoSchedule"}]}})",
    subresource::main));
  EXPECT_TRUE(
    test::eventually([&] { return list(storage_kind::pod).size() == 1; }));
}

TEST_F(WorkloadControllerTest, StatefulSetCreatesOrdinalPodsAndClaimsInOrder) {
  test::fake_binder b{st_, {"node-000000", "node-000001"}};
  create(storage_kind::stateful_set,
         R"({"metadata":{"name":"db"},"spec":{"replicas":3,"serviceName":"db",)"
         R"("selector":{"matchLabels":{"app":"db"}},"template":{"metadata":)"
         R"({"labels":{"app":"db"}},"spec":{"containers":[{"name":"c",)"
         R"("image":"db:1"}]}},"volumeClaimTemplates":[{"metadata":{"name":)"
         R"("data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":)"
         R"({"requests":{"storage":"1Gi"}}}}]}})");
  ASSERT_TRUE(test::eventually([&] { return running_pods() == 3; }));
  std::vector<std::uint64_t> created;
  for (int i = 0; i < 3; ++i) {
    std::string name = "db-" + std::to_string(i);
    auto pod = st_.get(primary_resource(storage_kind::pod), "default", name);
    ASSERT_TRUE(pod) << name;
    auto d = doc_of(*pod);
    EXPECT_EQ(d.at("spec").at("hostname"), json::value(name));
    EXPECT_EQ(d.at("spec").at("subdomain"), "db");
    EXPECT_EQ(d.at("metadata").at("labels").at("apps.kubernetes.io/pod-index"),
              json::value(std::to_string(i)));
    EXPECT_EQ(d.at("spec")
                .at("volumes")
                .at(0)
                .at("persistentVolumeClaim")
                .at("claimName"),
              json::value("data-" + name));
    EXPECT_TRUE(st_.get(primary_resource(storage_kind::persistent_volume_claim),
                        "default", "data-" + name));
    created.push_back(
      st_.timing("default", name)->created->time_since_epoch().count());
  }
  EXPECT_TRUE(std::is_sorted(created.begin(), created.end()))
    << "each ordinal after the one before it";
  EXPECT_TRUE(test::eventually([&] {
    auto sts = get(storage_kind::stateful_set, "db");
    return sts.contains("status") && sts.at("status").at("readyReplicas") == 3
           && sts.at("status").at("currentRevision")
                == sts.at("status").at("updateRevision");
  }));
  // A new image rolls the pods over, the highest ordinal first.
  ASSERT_TRUE(st_.patch(
    primary_resource(storage_kind::stateful_set), "default", "db",
    patch_type::merge,
    R"({"spec":{"template":{"spec":{"containers":[{"name":"c","image":"db:2"}]}}}})",
    subresource::main));
  EXPECT_TRUE(test::eventually([&] {
    auto pods = list(storage_kind::pod, "status.phase=Running");
    return pods.size() == 3
           && std::all_of(pods.begin(), pods.end(), [](const auto& p) {
                return p->json().find("db:2") != std::string::npos;
              });
  }));
  // Scaling down removes the highest ordinals; the claims stay.
  ASSERT_TRUE(st_.patch(primary_resource(storage_kind::stateful_set), "default",
                        "db", patch_type::merge, R"({"spec":{"replicas":1}})",
                        subresource::main));
  EXPECT_TRUE(
    test::eventually([&] { return list(storage_kind::pod).size() == 1; }));
  EXPECT_TRUE(st_.get(primary_resource(storage_kind::pod), "default", "db-0"));
  EXPECT_EQ(list(storage_kind::persistent_volume_claim).size(), 3u);
}

} // namespace
} // namespace tessera::apiserver
