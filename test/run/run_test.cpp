// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// `tessera run` in-process against the embedded API server over HTTP: what
// a live scheduler must do (bind every pending pod once, report failures
// with events, survive watch drops and races, elect a leader, shut down
// cleanly).
#include "adapters/api_client/api_sink.hpp"
#include "io/apiserver/resources.hpp"
#include "io/apiserver/volume_controller.hpp"
#include "io/kubeconfig.hpp"
#include "support/base64.hpp"
#include "test/run/run_fixture.hpp"
#include "test/support/api_client.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

namespace tessera::test {
namespace {

namespace json = boost::json;

std::vector<std::string> base_args(const test_cluster& c) {
  return {"--master",         c.url(),      "--leader-elect=false",
          "--kube-api-qps=0", "--shards=2", "--max-inflight-cycles=4"};
}

std::vector<std::string> with(std::vector<std::string> a,
                              std::initializer_list<std::string> more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

/// The PodScheduled condition of a pod document (null when absent).
json::value scheduled_condition(const json::value& pod) {
  const auto* st = pod.at("status").as_object().if_contains("conditions");
  if (st == nullptr)
    return nullptr;
  for (const auto& c : st->as_array())
    if (c.at("type").as_string() == "PodScheduled")
      return c;
  return nullptr;
}

TEST(Run, SchedulesEveryPendingPodExactlyOnce) {
  test_cluster c;
  for (int i = 0; i < 4; ++i)
    c.create_node("n" + std::to_string(i));
  for (int i = 0; i < 40; ++i)
    c.create_pod("before-" + std::to_string(i));
  // Not ours: another scheduler's pod stays pending.
  c.create_pod("foreign", "100m", R"("schedulerName":"someone-else",)");
  scheduler_run run{base_args(c)};
  ASSERT_TRUE(run.wait_started());
  for (int i = 0; i < 40; ++i)
    c.create_pod("after-" + std::to_string(i));
  ASSERT_TRUE(wait_until([&] { return c.bound_pods() == 80; }))
    << c.bound_pods() << " of 80 bound";
  // The status follows the source's sync on run's 50 ms poll; a fast run
  // binds everything before that.
  ASSERT_TRUE(wait_until([&] { return run.status()->synced(); }));
  EXPECT_TRUE(run.status()->ready());
  auto stats = c.store().stats();
  EXPECT_EQ(stats.binds, 80u);
  EXPECT_EQ(stats.bind_conflicts, 0u);
  // Bindings refused while an informer re-synced (a watch cut short on a
  // loaded host makes it list again) never reached the server and were
  // tried again: every start beyond one per pod is such a refusal.
  auto started = run.sink()->stats().binds_started.load();
  EXPECT_GE(started, 80u);
  EXPECT_LE(started - 80u, run.sink()->stats().gated.load());
  // The server may have answered the last bindings before the sink counted
  // them.
  EXPECT_TRUE(wait_until([&] { return run.sink()->stats().bound == 80; }))
    << run.sink()->stats().bound;
  EXPECT_EQ(c.node_of("foreign"), "");
  // The Scheduled event of a pod.
  std::string node = *c.node_of("after-7");
  ASSERT_TRUE(wait_until([&] { return !c.events_of("after-7").empty(); }));
  auto ev = c.events_of("after-7")[0];
  EXPECT_EQ(ev.at("reason").as_string(), "Scheduled");
  EXPECT_EQ(ev.at("message").as_string(),
            "Successfully assigned default/after-7 to " + node);
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(c.store().stats().binds, 80u); // nothing bound twice later
  EXPECT_EQ(run.stop(), 0);
}

TEST(Run, ProfilesByScheduler) {
  test_cluster c;
  temp_dir dir;
  std::string cfg = dir.write(
    "config.yaml",
    "apiVersion: kubescheduler.config.k8s.io/v1\n"
    "kind: KubeSchedulerConfiguration\n"
    "profiles:\n- schedulerName: default-scheduler\n"
    "- schedulerName: bin-packer\n  plugins:\n    score:\n      disabled:\n"
    "      - name: NodeResourcesBalancedAllocation\n");
  c.create_node("n1");
  c.create_pod("a");
  c.create_pod("b", "100m", R"("schedulerName":"bin-packer",)");
  c.create_pod("z", "100m", R"("schedulerName":"nobody",)");
  scheduler_run run{with(base_args(c), {"--config", cfg})};
  ASSERT_TRUE(wait_until([&] { return c.bound_pods() == 2; }));
  EXPECT_EQ(c.node_of("a"), "n1");
  EXPECT_EQ(c.node_of("b"), "n1");
  EXPECT_EQ(c.node_of("z"), "");
  ASSERT_TRUE(wait_until([&] { return !c.events_of("b").empty(); }));
  EXPECT_EQ(c.events_of("b")[0].at("reportingComponent").as_string(),
            "bin-packer");
  EXPECT_EQ(run.stop(), 0);
}

// Default spreading over the watched workloads: a ReplicaSet stored in the
// cluster (no controller runs; its pods are created here, one at a time as a
// controller would) and five equal nodes, four in zone a and one in zone b.
// LeastAllocated alone puts one replica on each node and the sixth anywhere;
// the System default constraints (hostname 3, zone 5) put the second replica
// of zone b, the least used zone, on its node first and the sixth on the
// last empty node. The ReplicaSet and its pods are created through the API,
// and again with kubectl as a user would.
class ReplicaSetSpreading : public ::testing::TestWithParam<bool> {};

TEST_P(ReplicaSetSpreading, PodsSpreadOverNodesAndZones) {
  bool with_kubectl = GetParam();
  std::string kubectl = TESSERA_KUBECTL;
  if (with_kubectl && kubectl.empty())
    GTEST_SKIP() << "kubectl not found: run scripts/install-deps.sh";
  test_cluster c;
  temp_dir dir;
  std::string kubeconfig = dir.write(
    "config", "apiVersion: v1\nkind: Config\nclusters:\n- name: t\n"
              "  cluster:\n    server: "
                + c.url()
                + "\ncontexts:\n- name: t\n  context: {cluster: t, user: t}\n"
                  "current-context: t\nusers:\n- name: t\n  user: {}\n");
  int created = 0;
  // Creates one object from its JSON, in "default" when namespaced.
  auto create = [&](const char* group, const char* resource,
                    const std::string& ns, const std::string& body) {
    if (!with_kubectl) {
      auto r = c.store().create(
        *apiserver::find_resource(group, "v1", resource), ns, body);
      ASSERT_TRUE(r) << r.err().message;
      return;
    }
    std::string file
      = dir.write("object-" + std::to_string(++created) + ".json", body);
    std::string cmd = "env HOME=" + dir.file("home")
                      + " KUBECONFIG=" + kubeconfig + " timeout 30 " + kubectl
                      + " create --validate=false -f " + file + " 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  };
  for (int i = 1; i <= 5; ++i) {
    std::string name = "n" + std::to_string(i);
    create("", "nodes", "",
           R"({"kind":"Node","apiVersion":"v1","metadata":{"name":")" + name
             + R"(","labels":{"kubernetes.io/hostname":")" + name
             + R"(","topology.kubernetes.io/zone":")" + (i == 5 ? "b" : "a")
             + R"("}},"status":{"allocatable":{"cpu":"4","memory":"32Gi",)"
               R"("pods":"110"}}})");
  }
  // No replicas of its own: the embedded ReplicaSet controller would create
  // them all at once, where the test creates its pods one at a time. Only
  // the selector matters to spreading.
  create("apps", "replicasets", "default",
         R"({"kind":"ReplicaSet","apiVersion":"apps/v1","metadata":)"
         R"({"name":"web"},"spec":{"replicas":0,"selector":{"matchLabels":)"
         R"({"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},)"
         R"("spec":{"containers":[{"name":"c","image":"nginx"}]}}}})");
  scheduler_run run{base_args(c)};
  ASSERT_TRUE(run.wait_started());
  std::map<std::string, int> per_node;
  for (int i = 0; i < 6; ++i) {
    std::string name = "web-" + std::to_string(i);
    create(
      "", "pods", "default",
      R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name
        + R"(","labels":{"app":"web"},"ownerReferences":[{"apiVersion":)"
          R"("apps/v1","kind":"ReplicaSet","name":"web","uid":"u",)"
          R"("controller":true}]},"spec":{"containers":[{"name":"c",)"
          R"("image":"nginx","resources":{"requests":{"cpu":"100m"}}}]}})");
    ASSERT_TRUE(wait_until([&] { return !c.node_of(name)->empty(); })) << name;
    ++per_node[*c.node_of(name)];
  }
  EXPECT_EQ(per_node.size(), 5u);
  EXPECT_EQ(per_node["n5"], 2) << "zone b's node takes the second replica";
  EXPECT_EQ(run.stop(), 0);
}

INSTANTIATE_TEST_SUITE_P(Run, ReplicaSetSpreading, ::testing::Bool(),
                         [](const auto& info) {
                           return info.param ? "kubectl" : "api";
                         });

// Storage-aware scheduling end to end: a pod whose claim uses a
// WaitForFirstConsumer class with a dynamic provisioner is placed, PreBind
// annotates the claim with the chosen node, the embedded volume controller
// provisions a volume reachable from that node only and binds the claim,
// and only then is the pod bound. Node n2 is the only one the class's
// allowedTopologies admit, so the placement is not a tie-break.
/// Nodes n1 and n2 (n2 alone in zone z2, with `n2_cpu` CPUs), a
/// WaitForFirstConsumer class whose allowedTopologies admit z2 only, claim
/// "data" of that class and pod "db" (one CPU) using it.
void storage_scene(test_cluster& c, const std::string& n2_cpu = "4") {
  c.create_node("n1");
  c.create_node("n2", n2_cpu);
  auto create = [&](apiserver::storage_kind kind, std::string_view ns,
                    const std::string& body) {
    auto r = c.store().create(apiserver::primary_resource(kind), ns, body);
    ASSERT_TRUE(r) << r.err().message;
  };
  auto zone = c.store().patch(
    apiserver::primary_resource(apiserver::storage_kind::node), "", "n2",
    apiserver::patch_type::merge,
    R"({"metadata":{"labels":{"topology.kubernetes.io/zone":"z2"}}})",
    apiserver::subresource::main);
  ASSERT_TRUE(zone) << zone.err().message;
  create(apiserver::storage_kind::storage_class, "",
         R"({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass",)"
         R"("metadata":{"name":"wffc"},"provisioner":"example.com/disk",)"
         R"("volumeBindingMode":"WaitForFirstConsumer",)"
         R"("allowedTopologies":[{"matchLabelExpressions":[)"
         R"({"key":"topology.kubernetes.io/zone","values":["z2"]}]}]})");
  create(apiserver::storage_kind::persistent_volume_claim, "default",
         R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",)"
         R"("metadata":{"name":"data"},"spec":{"storageClassName":"wffc",)"
         R"("accessModes":["ReadWriteOnce"],)"
         R"("resources":{"requests":{"storage":"1Gi"}}}})");
  c.create_pod("db", "1",
               R"("volumes":[{"name":"data","persistentVolumeClaim":)"
               R"({"claimName":"data"}}],)");
}

/// Claim "data" as the store holds it (null when gone).
json::value claim_doc(test_cluster& c) {
  const auto& claims = apiserver::primary_resource(
    apiserver::storage_kind::persistent_volume_claim);
  auto o = c.store().get(claims, "default", "data");
  return o ? json::parse((*o)->json()) : json::value{};
}

bool claim_bound(test_cluster& c) {
  json::value doc = claim_doc(c);
  const auto* status = doc.is_object()
                         ? doc.at("status").as_object().if_contains("phase")
                         : nullptr;
  return status != nullptr && *status == "Bound";
}

// Storage-aware scheduling end to end: a pod whose claim uses a
// WaitForFirstConsumer class with a dynamic provisioner is placed, PreBind
// annotates the claim with the chosen node, the embedded volume controller
// provisions a volume reachable from that node only and binds the claim,
// and only then is the pod bound. Node n2 is the only one the class's
// allowedTopologies admit, so the placement is not a tie-break.
TEST(Run, WaitForFirstConsumerClaimIsProvisionedOnThePodsNode) {
  test_cluster c;
  apiserver::volume_controller volumes{c.store(), {.resync = 100ms}};
  storage_scene(c);
  scheduler_run run{base_args(c)};
  ASSERT_TRUE(wait_until([&] { return c.bound_pods() == 1; }));
  EXPECT_EQ(c.node_of("db"), "n2");
  ASSERT_TRUE(wait_until([&] { return claim_bound(c); }));
  EXPECT_EQ(claim_doc(c)
              .at("metadata")
              .at("annotations")
              .at("volume.kubernetes.io/selected-node"),
            "n2");
  std::string volume{claim_doc(c).at("spec").at("volumeName").as_string()};
  auto pv = c.store().get(
    apiserver::primary_resource(apiserver::storage_kind::persistent_volume), "",
    volume);
  ASSERT_TRUE(pv);
  auto doc = json::parse((*pv)->json());
  EXPECT_EQ(doc.at("spec")
              .at("nodeAffinity")
              .at("required")
              .at("nodeSelectorTerms")
              .at(0)
              .at("matchExpressions")
              .at(0)
              .at("values"),
            json::array{"n2"});
  EXPECT_EQ(run.stop(), 0);
}

// The API server goes away while PreBind waits for the claim to be
// provisioned: PreBind fails, Unreserve gives the pod's room back, and the
// pod is tried again once the server is back — no pod is lost and no
// assumption leaks. n2 has room for the pod once only, so a leaked
// assumption of its first attempt would leave it nowhere to go.
TEST(Run, ApiOutageDuringPreBindLosesNoPod) {
  test_cluster c;
  storage_scene(c, "1");
  scheduler_run run{base_args(c)};
  // No volume controller yet: PreBind annotates the claim and then waits
  // for it, the pod unbound, until the outage fails its next check.
  ASSERT_TRUE(wait_until([&] {
    json::value doc = claim_doc(c);
    const auto* annotations
      = doc.at("metadata").as_object().if_contains("annotations");
    return annotations != nullptr
           && annotations->as_object().contains(
             "volume.kubernetes.io/selected-node");
  }));
  EXPECT_EQ(c.node_of("db"), "");
  c.stop_server();
  // Past PreBind's next check of the claim (every second).
  std::this_thread::sleep_for(2500ms);
  c.restart_server();
  apiserver::volume_controller volumes{c.store(), {.resync = 100ms}};
  ASSERT_TRUE(wait_until([&] { return c.bound_pods() == 1; }, 60s));
  EXPECT_EQ(c.node_of("db"), "n2");
  EXPECT_TRUE(wait_until([&] { return claim_bound(c); }));
  ASSERT_NE(run.sink(), nullptr);
  // The store records the binding before the sink has read the answer.
  EXPECT_TRUE(
    wait_until([&] { return run.sink()->stats().bound.load() >= 1; }));
  EXPECT_EQ(run.sink()->stats().bound.load(), 1u);
  EXPECT_EQ(run.stop(), 0);
}

// A pod with a DRA resource claim is refused, not placed on a node without
// its device: PodScheduled=False and a FailedScheduling event say why.
TEST(Run, ResourceClaimsAreRefusedWithTheConditionAndAnEvent) {
  test_cluster c;
  c.create_node("n1");
  c.create_pod("gpu", "100m",
               R"("resourceClaims":[{"name":"gpu",)"
               R"("resourceClaimTemplateName":"one-gpu"}],)");
  scheduler_run run{base_args(c)};
  json::value cond;
  ASSERT_TRUE(wait_until([&] {
    cond = scheduled_condition(c.pod_doc("gpu"));
    return !cond.is_null();
  }));
  EXPECT_EQ(cond.at("status").as_string(), "False");
  std::string message{cond.at("message").as_string()};
  EXPECT_NE(message.find("resource claim \"gpu\""), std::string::npos)
    << message;
  EXPECT_NE(message.find("does not allocate dynamic resources"),
            std::string::npos)
    << message;
  ASSERT_TRUE(wait_until([&] { return !c.events_of("gpu").empty(); }));
  EXPECT_EQ(c.events_of("gpu")[0].at("reason").as_string(), "FailedScheduling");
  EXPECT_EQ(c.node_of("gpu"), "");
  EXPECT_EQ(run.stop(), 0);
}

// A pod the scheduler cannot read never reaches its queue; its owner learns
// why from the condition and an event, not only from the scheduler's log.
TEST(Run, UndecodablePodsGetTheConditionAndAnEvent) {
  test_cluster c;
  c.create_node("n1");
  c.create_pod("fine");
  c.create_pod("odd", "-1");
  scheduler_run run{base_args(c)};
  json::value cond;
  ASSERT_TRUE(wait_until([&] {
    cond = scheduled_condition(c.pod_doc("odd"));
    return !cond.is_null();
  }));
  EXPECT_EQ(cond.at("status").as_string(), "False");
  EXPECT_EQ(cond.at("reason").as_string(), "SchedulerError");
  std::string message{cond.at("message").as_string()};
  EXPECT_NE(message.find("the scheduler cannot read this pod"),
            std::string::npos)
    << message;
  ASSERT_TRUE(wait_until([&] { return !c.events_of("odd").empty(); }));
  EXPECT_EQ(c.events_of("odd")[0].at("reason").as_string(), "FailedScheduling");
  EXPECT_EQ(c.node_of("odd"), "");
  ASSERT_TRUE(wait_until([&] { return c.node_of("fine") == "n1"; }));
  EXPECT_EQ(run.stop(), 0);
}

TEST(Run, UnschedulablePodsGetTheConditionAndOneEventSeries) {
  test_cluster c;
  temp_dir dir;
  // Retry after one second so that a few attempts fit in the test.
  std::string cfg = dir.write(
    "config.yaml", "apiVersion: kubescheduler.config.k8s.io/v1\n"
                   "kind: KubeSchedulerConfiguration\n"
                   "podInitialBackoffSeconds: 1\npodMaxBackoffSeconds: 1\n");
  for (int i = 0; i < 3; ++i)
    c.create_node("n" + std::to_string(i), "2");
  c.create_pod("huge", "4");
  scheduler_run run{with(base_args(c), {"--config", cfg})};
  const std::string want
    = "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are "
      "available: 3 Preemption is not helpful for scheduling.";
  json::value cond;
  ASSERT_TRUE(wait_until([&] {
    cond = scheduled_condition(c.pod_doc("huge"));
    return !cond.is_null();
  }));
  EXPECT_EQ(cond.at("status").as_string(), "False");
  EXPECT_EQ(cond.at("reason").as_string(), "Unschedulable");
  EXPECT_EQ(cond.at("message").as_string(), want);
  ASSERT_TRUE(wait_until([&] { return !c.events_of("huge").empty(); }));
  auto ev = c.events_of("huge")[0];
  EXPECT_EQ(ev.at("reason").as_string(), "FailedScheduling");
  EXPECT_EQ(ev.at("type").as_string(), "Warning");
  EXPECT_EQ(ev.at("message").as_string(), want);

  // A node with room requeues the pod (NodeResourcesFit's hint), but its
  // taint keeps the pod out: more attempts, still one Event (a series).
  std::uint64_t writes = c.store().stats().writes;
  for (int i = 3; i < 6; ++i) {
    c.create_node("n" + std::to_string(i), "8", "110",
                  R"({"taints":[{"key":"dedicated","value":"x",)"
                  R"("effect":"NoSchedule"}]})");
    // Each attempt rewrites the condition: "0/<nodes> nodes are ...".
    std::string prefix = "0/" + std::to_string(i + 1) + " nodes";
    ASSERT_TRUE(wait_until([&] {
      auto msg = scheduled_condition(c.pod_doc("huge")).at("message");
      return msg.as_string().starts_with(prefix);
    }))
      << prefix;
  }
  std::vector<json::value> evs;
  ASSERT_TRUE(wait_until([&] {
    evs = c.events_of("huge");
    return evs.size() == 1 && evs[0].as_object().contains("series");
  }))
    << (evs.empty() ? "no event" : json::serialize(evs[0]));
  EXPECT_EQ(c.events_of("huge").size(), 1u);
  const auto* series = evs[0].as_object().if_contains("series");
  EXPECT_GE(series->at("count").as_int64(), 2);
  auto* sink = run.sink();
  ASSERT_NE(sink, nullptr);
  // The message changes with the node count (0/4, 0/5, ...), so each
  // attempt may patch; what must not happen is more than one per attempt.
  EXPECT_LE(c.store().stats().writes - writes, 3u /*nodes*/ + 3u + 1u);
  EXPECT_EQ(c.node_of("huge"), "");
  EXPECT_EQ(run.stop(), 0);
}

TEST(Run, WatchDisconnectionsAndGoneLoseNothing) {
  test_cluster c;
  for (int i = 0; i < 4; ++i)
    c.create_node("n" + std::to_string(i));
  scheduler_run run{base_args(c)};
  ASSERT_TRUE(run.wait_started());
  int created = 0;
  for (int round = 0; round < 6; ++round) {
    for (int i = 0; i < 15; ++i)
      c.create_pod("w" + std::to_string(created++));
    if (round % 2 == 0) {
      c.store().close_watchers();
    } else {
      // Drop the history and the watches: re-watching gets 410 and the
      // scheduler relists.
      c.store().compact();
      c.store().close_watchers();
    }
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_TRUE(wait_until([&] { return c.bound_pods() == 90; }))
    << c.bound_pods() << " of 90 bound";
  std::this_thread::sleep_for(300ms);
  auto stats = c.store().stats();
  EXPECT_EQ(stats.binds, 90u);
  EXPECT_EQ(stats.bind_conflicts, 0u);
  // Bindings refused while the informers re-sync after a relist are
  // retried after backoff; every pod's binding is sent once.
  const auto& sink_stats = run.sink()->stats();
  EXPECT_EQ(sink_stats.binds_started.load() - sink_stats.gated.load(), 90u);
  EXPECT_EQ(run.stop(), 0);
}

TEST(Run, PodDeletedOrBoundElsewhereWhileItsBindIsInFlight) {
  // Every request waits 400 ms in the server: a binding stays in flight
  // long enough for the test to change the pod under it.
  apiserver::server_config sc;
  sc.fault_latency = 400ms;
  test_cluster c{sc};
  c.create_node("only", "4", "1"); // room for one pod
  scheduler_run run{base_args(c)};
  ASSERT_TRUE(run.wait_started());
  ASSERT_TRUE(wait_until([&] { return run.status()->synced(); }));
  auto* sink = run.sink();

  // Deleted meanwhile: 404, the assumed pod is forgotten.
  c.create_pod("doomed");
  ASSERT_TRUE(
    wait_until([&] { return sink->stats().binds_in_flight.load() == 1; }));
  c.delete_pod("doomed");
  ASSERT_TRUE(
    wait_until([&] { return sink->stats().bind_not_found.load() == 1; }));
  // The node's only slot is free again: the next pod lands there.
  c.create_pod("next");
  ASSERT_TRUE(wait_until([&] { return c.node_of("next") == "only"; }));
  EXPECT_TRUE(c.events_of("doomed").empty()
              || c.events_of("doomed")[0].at("reason").as_string()
                   != "FailedScheduling");

  // Bound by someone else meanwhile: 409, forgotten, not retried.
  c.delete_pod("next");
  c.create_node("other", "4", "10");
  c.create_node("third", "4", "10");
  std::uint64_t started = sink->stats().binds_started.load();
  c.create_pod("raced");
  ASSERT_TRUE(wait_until(
    [&] { return sink->stats().binds_started.load() == started + 1; }));
  ASSERT_TRUE(c.store().bind({"default", "raced", "elsewhere", "", "", {}}));
  ASSERT_TRUE(
    wait_until([&] { return sink->stats().bind_conflicts.load() == 1; }));
  std::this_thread::sleep_for(2s);
  EXPECT_EQ(sink->stats().binds_started.load(), started + 1);
  EXPECT_EQ(c.node_of("raced"), "elsewhere");
  EXPECT_EQ(c.store().stats().bind_conflicts, 1u);
  // And scheduling goes on.
  c.create_pod("after");
  ASSERT_TRUE(wait_until([&] { return !c.node_of("after")->empty(); }));
  EXPECT_EQ(run.stop(), 0);
}

std::vector<std::string> le_args(const test_cluster& c) {
  return {"--master",
          c.url(),
          "--kube-api-qps=0",
          "--shards=1",
          "--leader-elect=true",
          "--leader-elect-lease-duration=2s",
          "--leader-elect-renew-deadline=1500ms",
          "--leader-elect-retry-period=250ms",
          "--leader-elect-resource-name=tessera-test"};
}

std::optional<io::lease_record> lease_of(test_cluster& c) {
  auto o = c.store().get(
    *apiserver::find_resource("coordination.k8s.io", "v1", "leases"),
    "kube-system", "tessera-test");
  if (!o)
    return std::nullopt;
  auto r = io::decode_lease((*o)->json());
  if (!r)
    return std::nullopt;
  return *r;
}

TEST(Run, LeaderElectionNeverLetsTwoInstancesSchedule) {
  test_cluster c;
  c.create_node("n1");
  auto first = std::make_unique<scheduler_run>(le_args(c));
  ASSERT_TRUE(first->wait_started());
  auto second = std::make_unique<scheduler_run>(le_args(c));
  for (int i = 0; i < 20; ++i)
    c.create_pod("a" + std::to_string(i));
  ASSERT_TRUE(wait_until([&] { return c.bound_pods() == 20; }));
  // The standby waits: alive, not leading, no pipeline.
  std::this_thread::sleep_for(2500ms);
  EXPECT_FALSE(second->started());
  ASSERT_NE(second->status(), nullptr);
  EXPECT_FALSE(second->status()->ready());
  auto lease = lease_of(c);
  ASSERT_TRUE(lease);
  EXPECT_EQ(lease->holder_identity, first->status()->identity());
  EXPECT_TRUE(test::is_host_uuid(lease->holder_identity))
    << lease->holder_identity;
  std::string second_id = second->status()->identity();

  // The leader stops: it releases the lease, the standby takes over at
  // once (not after the 2 s lease) and schedules what comes next.
  EXPECT_EQ(first->stop(), 0);
  ASSERT_TRUE(second->wait_started(5s));
  EXPECT_LT(second->started_at() - first->finished_at(), 1500ms);
  EXPECT_GE(second->started_at(), first->finished_at());
  for (int i = 0; i < 20; ++i)
    c.create_pod("b" + std::to_string(i));
  ASSERT_TRUE(wait_until([&] { return c.bound_pods() == 40; }));
  lease = lease_of(c);
  ASSERT_TRUE(lease);
  EXPECT_EQ(lease->holder_identity, second_id);
  EXPECT_EQ(lease->lease_transitions, 1);
  auto stats = c.store().stats();
  EXPECT_EQ(stats.binds, 40u);
  EXPECT_EQ(stats.bind_conflicts, 0u);
  EXPECT_EQ(second->stop(), 0);
  lease = lease_of(c);
  ASSERT_TRUE(lease);
  EXPECT_EQ(lease->holder_identity, ""); // released on shutdown
}

TEST(Run, LosingTheLeaseExitsNonZero) {
  test_cluster c;
  c.create_node("n1");
  scheduler_run run{le_args(c)};
  ASSERT_TRUE(run.wait_started());
  auto lease = lease_of(c);
  ASSERT_TRUE(lease);
  // Another process takes the lease over.
  lease->holder_identity = "usurper";
  lease->lease_duration_seconds = 60;
  auto r = c.store().update(
    *apiserver::find_resource("coordination.k8s.io", "v1", "leases"),
    "kube-system", "tessera-test",
    io::encode_lease("kube-system", "tessera-test", *lease),
    apiserver::subresource::main);
  ASSERT_TRUE(r);
  auto code = run.finished(10s);
  ASSERT_TRUE(code);
  EXPECT_EQ(*code, 1);
  EXPECT_EQ(lease_of(c)->holder_identity, "usurper");
}

TEST(Run, MutualTlsFromAKubeconfig) {
  temp_dir dir;
  test_pki pki{dir};
  ASSERT_TRUE(pki.ok) << pki.problem;
  apiserver::server_config sc;
  sc.tls_cert_file = dir.file("server.crt");
  sc.tls_key_file = dir.file("server.key");
  sc.tls_client_ca_file = dir.file("ca.crt");
  sc.handler.token = "t0ken";
  test_cluster c{sc};
  ASSERT_EQ(c.url().rfind("https://127.0.0.1:", 0), 0u);
  std::string kc = dir.write(
    "kubeconfig",
    "apiVersion: v1\nkind: Config\nclusters:\n- name: test\n  cluster:\n"
    "    server: "
      + c.url()
      + "\n    certificate-authority: ca.crt\n"
        "users:\n- name: sched\n  user:\n    client-certificate-data: "
      + base64_encode(read_text(dir.file("client.crt")))
      + "\n    client-key: client.key\n    token: t0ken\n"
        "contexts:\n- name: test\n  context: {cluster: test, user: sched}\n"
        "current-context: test\n");
  c.create_node("n1");
  for (int i = 0; i < 5; ++i)
    c.create_pod("tls-" + std::to_string(i));
  scheduler_run run{{"--kubeconfig", kc, "--leader-elect=false"}};
  ASSERT_TRUE(wait_until([&] { return c.bound_pods() == 5; }));
  EXPECT_EQ(run.stop(), 0);
}

TEST(Run, StopIsPromptAndFinishesInFlightBinds) {
  apiserver::server_config sc;
  sc.fault_latency = 300ms;
  test_cluster c{sc};
  c.create_node("n1");
  scheduler_run run{base_args(c)};
  ASSERT_TRUE(run.wait_started());
  ASSERT_TRUE(wait_until([&] { return run.status()->synced(); }));
  c.create_pod("last");
  ASSERT_TRUE(wait_until(
    [&] { return run.sink()->stats().binds_in_flight.load() == 1; }));
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(run.stop(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  // The binding in flight at the stop request completed.
  EXPECT_EQ(c.node_of("last"), "n1");
}

} // namespace
} // namespace tessera::test
