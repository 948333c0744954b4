// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/eviction.hpp"
#include "io/apiserver/handler.hpp"
#include "io/apiserver/kube_core.pb.h"
#include "io/apiserver/kube_groups.pb.h"
#include "io/apiserver/kube_wire.pb.h"
#include "io/apiserver/store.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <string>

namespace tessera::apiserver {
namespace {

namespace json = boost::json;

class EvictionTest : public ::testing::Test {
protected:
  EvictionTest() : st_(store_config{.seed = 7}), handler_(st_, {}) {
  }

  const resource_info& pods() const {
    return primary_resource(storage_kind::pod);
  }
  const resource_info& budgets() const {
    return primary_resource(storage_kind::pod_disruption_budget);
  }

  /// A pod of app=web bound to a node; Running and Ready unless `phase`
  /// or `ready` say otherwise.
  void add_pod(const std::string& name, const std::string& phase = "Running",
               bool ready = true) {
    ASSERT_TRUE(st_.create(
      pods(), "default",
      R"({"metadata":{"name":")" + name
        + R"(","labels":{"app":"web"}},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"busybox"}]}})"));
    ASSERT_TRUE(st_.patch(pods(), "default", name, patch_type::merge,
                          R"({"status":{"phase":")" + phase
                            + R"(","conditions":[{"type":"Ready","status":")"
                            + (ready ? "True" : "False") + R"("}]}})",
                          subresource::status));
  }

  void add_budget(const std::string& name, const std::string& spec) {
    ASSERT_TRUE(st_.create(budgets(), "default",
                           R"({"metadata":{"name":")" + name + R"("},"spec":)"
                             + spec + "}"));
  }

  /// Pods p1..pN of app=web and the budget "web" with `spec` over them.
  void web_pods_with_budget(int n, const std::string& spec) {
    for (int i = 1; i <= n; ++i)
      add_pod("p" + std::to_string(i));
    add_budget("web", spec);
  }

  json::value budget(const std::string& name) {
    auto b = st_.get(budgets(), "default", name);
    EXPECT_TRUE(b);
    return b ? json::parse((*b)->json()) : json::value{};
  }

  /// Evicts through the handler, as kubectl does.
  http_reply post_eviction(const std::string& pod, std::string body = {},
                           std::string_view query = "") {
    if (body.empty())
      body
        = R"({"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":")"
          + pod + R"(","namespace":"default"}})";
    http_request_view r;
    r.method = "POST";
    std::string target = "/api/v1/namespaces/default/pods/" + pod + "/eviction"
                         + std::string{query};
    r.target = target;
    r.body = body;
    r.content_type = "application/json";
    r.accept = "application/json";
    return handler_.handle(r);
  }

  bool going(const std::string& pod) {
    auto p = st_.get(pods(), "default", pod);
    return !p
           || json::parse((*p)->json())
                .at("metadata")
                .as_object()
                .contains("deletionTimestamp");
  }

  store st_;
  api_handler handler_;
};

TEST_F(EvictionTest, WithoutABudgetThePodIsDeleted) {
  add_pod("p1");
  auto r = post_eviction("p1");
  EXPECT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(json::parse(r.body),
            json::parse(R"({"kind":"Status","apiVersion":"v1","metadata":{},
                            "status":"Success","code":201})"));
  EXPECT_TRUE(going("p1"));
}

TEST_F(EvictionTest, AMissingPodIsNotFound) {
  auto r = post_eviction("nope");
  EXPECT_EQ(r.status, 404) << r.body;
  EXPECT_NE(r.body.find(R"(pods \"nope\" not found)"), std::string::npos)
    << r.body;
}

TEST_F(EvictionTest, ABudgetWithoutDisruptionsLeftRefusesWith429) {
  web_pods_with_budget(
    2, R"({"minAvailable":2,"selector":{"matchLabels":{"app":"web"}}})");
  auto r = post_eviction("p1");
  ASSERT_EQ(r.status, 429) << r.body;
  auto v = json::parse(r.body);
  EXPECT_EQ(v.at("reason"), "TooManyRequests");
  EXPECT_EQ(v.at("message"), "Cannot evict pod as it would violate the pod's "
                             "disruption budget.");
  EXPECT_EQ(v.at("details").at("causes"),
            json::parse(R"([{"reason":"DisruptionBudget","message":
              "The disruption budget web needs 2 healthy pods and has 2 currently"}])"));
  EXPECT_FALSE(going("p1"));
}

TEST_F(EvictionTest, EachEvictionTakesOneDisruptionFromTheBudget) {
  web_pods_with_budget(
    2, R"({"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}})");
  auto first = post_eviction("p1");
  ASSERT_EQ(first.status, 201) << first.body;
  EXPECT_TRUE(going("p1"));
  auto status = budget("web").at("status");
  EXPECT_EQ(status.at("disruptionsAllowed"), 0);
  EXPECT_TRUE(status.at("disruptedPods").as_object().contains("p1"));
  EXPECT_EQ(status.at("conditions").at(0).at("reason"), "InsufficientPods");
  auto second = post_eviction("p2");
  EXPECT_EQ(second.status, 429) << second.body;
  EXPECT_FALSE(going("p2"));
}

TEST_F(EvictionTest, ACurrentStatusIsTakenAsWritten) {
  add_pod("p1");
  // Computed from the pods, this budget would allow one disruption; its
  // controller-written status says none.
  add_budget(
    "web", R"({"maxUnavailable":1,"selector":{"matchLabels":{"app":"web"}}})");
  ASSERT_TRUE(st_.patch(budgets(), "default", "web", patch_type::merge,
                        R"({"status":{"observedGeneration":1,
                            "disruptionsAllowed":0,"currentHealthy":1,
                            "desiredHealthy":1,"expectedPods":1}})",
                        subresource::status));
  EXPECT_EQ(post_eviction("p1").status, 429);
  ASSERT_TRUE(st_.patch(budgets(), "default", "web", patch_type::merge,
                        R"({"status":{"disruptionsAllowed":3}})",
                        subresource::status));
  EXPECT_EQ(post_eviction("p1").status, 201);
  EXPECT_EQ(budget("web").at("status").at("disruptionsAllowed"), 2);
}

TEST_F(EvictionTest, PendingAndUnhealthyPodsNeedNoDisruption) {
  add_pod("pending", "Pending", false);
  add_pod("p1");
  add_budget("web",
             R"({"minAvailable":5,"selector":{"matchLabels":{"app":"web"}}})");
  EXPECT_EQ(post_eviction("pending").status, 201);
  EXPECT_TRUE(going("pending"));
  add_pod("sick", "Running", false);
  EXPECT_EQ(post_eviction("sick").status, 429) << "budget not at its target";
  ASSERT_TRUE(
    st_.patch(budgets(), "default", "web", patch_type::merge,
              R"({"spec":{"unhealthyPodEvictionPolicy":"AlwaysAllow"}})",
              subresource::main));
  EXPECT_EQ(post_eviction("sick").status, 201);
  EXPECT_TRUE(going("sick"));
  EXPECT_FALSE(going("p1"));
}

TEST_F(EvictionTest, APercentageCountsTheControllersReplicas) {
  const auto& replica_sets = *find_resource("apps", "v1", "replicasets");
  ASSERT_TRUE(st_.create(
    replica_sets, "default",
    R"({"metadata":{"name":"rs"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}})"));
  for (const char* name : {"p1", "p2"}) {
    add_pod(name);
    ASSERT_TRUE(st_.patch(
      pods(), "default", name, patch_type::merge,
      R"({"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u","controller":true}]}})",
      subresource::main));
  }
  add_budget(
    "web",
    R"({"maxUnavailable":"50%","selector":{"matchLabels":{"app":"web"}}})");
  auto grace0 = [](const char* pod) {
    return std::string{R"({"metadata":{"name":")"} + pod
           + R"("},"deleteOptions":{"gracePeriodSeconds":0}})";
  };
  EXPECT_EQ(post_eviction("p1", grace0("p1")).status, 201);
  ASSERT_FALSE(st_.get(pods(), "default", "p1"));
  // The ReplicaSet still wants two: one of two may be down, and p1 is.
  auto r = post_eviction("p2", grace0("p2"));
  EXPECT_EQ(r.status, 429) << r.body;
  EXPECT_NE(r.body.find("needs 1 healthy pods and has 1 currently"),
            std::string::npos)
    << r.body;
  // Without the ReplicaSet the budget counts the pods that are left.
  ASSERT_TRUE(st_.remove(replica_sets, "default", "rs"));
  EXPECT_EQ(post_eviction("p2", grace0("p2")).status, 201);
}

TEST_F(EvictionTest, TwoBudgetsAreAServerError) {
  add_pod("p1");
  add_budget(
    "a", R"({"maxUnavailable":1,"selector":{"matchLabels":{"app":"web"}}})");
  add_budget("b", R"({"maxUnavailable":1,"selector":{}})");
  add_budget(
    "c", R"({"maxUnavailable":1,"selector":{"matchLabels":{"app":"web"}}})");
  auto r = post_eviction("p1");
  EXPECT_EQ(r.status, 500) << r.body;
  EXPECT_NE(r.body.find("more than one PodDisruptionBudget"),
            std::string::npos);
  EXPECT_FALSE(going("p1"));
}

TEST_F(EvictionTest, DryRunChangesNothing) {
  web_pods_with_budget(
    2, R"({"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}})");
  EXPECT_EQ(post_eviction("p1", {}, "?dryRun=All").status, 201);
  EXPECT_FALSE(going("p1"));
  EXPECT_FALSE(budget("web").as_object().contains("status"));
}

TEST_F(EvictionTest, DeleteOptionsApply) {
  add_pod("p1");
  auto r = post_eviction(
    "p1",
    R"({"metadata":{"name":"p1"},"deleteOptions":{"preconditions":{"uid":"wrong"}}})");
  EXPECT_EQ(r.status, 409) << r.body;
  r = post_eviction(
    "p1",
    R"({"metadata":{"name":"p1"},"deleteOptions":{"gracePeriodSeconds":0}})");
  EXPECT_EQ(r.status, 201) << r.body;
  EXPECT_FALSE(st_.get(pods(), "default", "p1")) << "gone at once";
}

TEST_F(EvictionTest, TheBodyMustNameThePod) {
  add_pod("p1");
  auto r = post_eviction("p1", R"({"metadata":{"name":"p2"}})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("name in URL does not match name in Eviction object"),
            std::string::npos);
  EXPECT_EQ(post_eviction("p1", "{").status, 400);
  EXPECT_FALSE(going("p1"));
}

TEST_F(EvictionTest, KubectlsProtobufEvictionAndDeleteOptions) {
  add_pod("p1");
  add_pod("p2");
  kube::Eviction e;
  e.mutable_metadata()->set_name("p1");
  e.mutable_metadata()->set_namespace_("default");
  e.mutable_deleteoptions();
  kube::Unknown u;
  u.mutable_typemeta()->set_apiversion("policy/v1");
  u.mutable_typemeta()->set_kind("Eviction");
  u.set_raw(e.SerializeAsString());
  std::string body = std::string{"k8s\0", 4} + u.SerializeAsString();
  http_request_view r;
  r.method = "POST";
  r.target = "/api/v1/namespaces/default/pods/p1/eviction";
  r.body = body;
  r.content_type = "application/vnd.kubernetes.protobuf";
  r.accept = "application/vnd.kubernetes.protobuf, application/json";
  auto reply = handler_.handle(r);
  EXPECT_EQ(reply.status, 201) << reply.body;
  // The Success Status comes back in the encoding kubectl asked for first.
  ASSERT_EQ(reply.content_type, "application/vnd.kubernetes.protobuf");
  kube::Unknown answer;
  ASSERT_TRUE(answer.ParseFromString(reply.body.substr(4)));
  EXPECT_EQ(answer.typemeta().kind(), "Status");
  kube::Status success;
  ASSERT_TRUE(success.ParseFromString(answer.raw()));
  EXPECT_EQ(success.status(), "Success");
  EXPECT_TRUE(going("p1"));

  kube::DeleteOptions d;
  d.set_graceperiodseconds(0);
  u.mutable_typemeta()->set_apiversion("v1");
  u.mutable_typemeta()->set_kind("DeleteOptions");
  u.set_raw(d.SerializeAsString());
  body = std::string{"k8s\0", 4} + u.SerializeAsString();
  r.method = "DELETE";
  r.target = "/api/v1/namespaces/default/pods/p2";
  r.body = body;
  reply = handler_.handle(r);
  EXPECT_EQ(reply.status, 200) << reply.body;
  EXPECT_FALSE(st_.get(pods(), "default", "p2")) << "grace 0: gone at once";

  r.method = "POST";
  r.target = "/api/v1/namespaces";
  r.body = "k8s";
  reply = handler_.handle(r);
  EXPECT_EQ(reply.status, 400) << reply.body;
}

TEST_F(EvictionTest, OnlyPostEvictsAndOnlyPods) {
  add_pod("p1");
  http_request_view r;
  r.method = "GET";
  r.target = "/api/v1/namespaces/default/pods/p1/eviction";
  EXPECT_EQ(handler_.handle(r).status, 405);
  r.method = "POST";
  r.target = "/api/v1/nodes/n1/eviction";
  r.body = R"({"metadata":{"name":"n1"}})";
  EXPECT_EQ(handler_.handle(r).status, 404);
  EXPECT_FALSE(going("p1"));
}

TEST_F(EvictionTest, DiscoveryListsTheSubresourceAsKubectlDrainLooksForIt) {
  http_request_view r;
  r.method = "GET";
  r.target = "/api/v1";
  auto reply = handler_.handle(r);
  ASSERT_EQ(reply.status, 200);
  bool found = false;
  auto doc = json::parse(reply.body);
  for (const auto& res : doc.at("resources").as_array())
    if (res.at("name") == "pods/eviction") {
      found = true;
      EXPECT_EQ(res.at("kind"), "Eviction");
      EXPECT_EQ(res.at("group"), "policy");
      EXPECT_EQ(res.at("version"), "v1");
      EXPECT_EQ(res.at("verbs"), json::parse(R"(["create"])"));
    }
  EXPECT_TRUE(found) << reply.body;
}

} // namespace
} // namespace tessera::apiserver
