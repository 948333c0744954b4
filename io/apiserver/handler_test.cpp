// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/handler.hpp"
#include "io/apiserver/namespace_controller.hpp"
#include "io/apiserver/store.hpp"
#include "test/support/api_client.hpp"
#include "test/support/wait.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace tessera::apiserver {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

/// One request to an api_handler over a fresh store, without sockets.
class HandlerTest : public ::testing::Test {
protected:
  explicit HandlerTest(store_config sc = {.seed = 5})
    : st_(std::move(sc)), handler_(st_, {}) {
  }

  http_reply send(std::string_view method, std::string_view target,
                  std::string_view body = {},
                  std::string_view content_type = "application/json",
                  std::string_view accept = "application/json") {
    http_request_view r;
    r.method = method;
    r.target = target;
    r.body = body;
    r.content_type = content_type;
    r.accept = accept;
    return handler_.handle(r);
  }

  static json::value parse(const std::string& s) {
    json::error_code ec;
    auto v = json::parse(s, ec);
    EXPECT_FALSE(ec) << s;
    return v;
  }

  static std::string at(const json::value& v,
                        std::initializer_list<std::string_view> path) {
    return test::json_text_at(v, path);
  }

  static std::string pod(const std::string& name,
                         const std::string& spec = "") {
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name
           + R"("},"spec":{"containers":[{"name":"c","image":"busybox"}])"
           + spec + "}}";
  }

  store st_;
  api_handler handler_;
};

TEST_F(HandlerTest, FailureStatusesCarryDetailsWhereUpstreamDoes) {
  ASSERT_EQ(send("POST", "/api/v1/namespaces/default/pods", pod("p1")).status,
            201);
  struct test_case {
    std::string name;
    std::string method;
    std::string target;
    std::string body;
    int code;
    /// Expected `details` JSON; "" = absent.
    std::string details;
  };
  const std::vector<test_case> cases = {
    {"missing object", "GET", "/api/v1/namespaces/default/pods/nope", "", 404,
     R"({"name":"nope","kind":"pods"})"},
    {"missing object in a group", "GET",
     "/apis/coordination.k8s.io/v1/namespaces/default/leases/l", "", 404,
     R"({"name":"l","group":"coordination.k8s.io","kind":"leases"})"},
    {"unknown resource", "GET", "/api/v1/widgets", "", 404, "{}"},
    {"unknown group version", "GET", "/apis/apps/v9/deployments", "", 404,
     "{}"},
    {"already exists", "POST", "/api/v1/namespaces/default/pods", pod("p1"),
     409, R"({"name":"p1","kind":"pods"})"},
    {"method not allowed", "PUT", "/api/v1/namespaces/default/pods", pod("x"),
     405, R"({"kind":"pods"})"},
    {"bad request has none", "POST", "/api/v1/namespaces/default/pods", "{",
     400, ""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto r = send(tc.method, tc.target, tc.body);
    EXPECT_EQ(r.status, tc.code) << r.body;
    auto v = parse(r.body);
    EXPECT_EQ(at(v, {"kind"}), "Status");
    EXPECT_EQ(at(v, {"code"}), std::to_string(tc.code));
    EXPECT_EQ(at(v, {"details"}), tc.details) << r.body;
  }
}

TEST_F(HandlerTest, VersionWithAndWithoutTrailingSlash) {
  for (const char* path : {"/version", "/version/", "/version?timeout=32s"}) {
    SCOPED_TRACE(path);
    auto r = send("GET", path);
    ASSERT_EQ(r.status, 200) << r.body;
    auto v = parse(r.body);
    EXPECT_EQ(at(v, {"major"}), "1");
    EXPECT_EQ(at(v, {"minor"}), "37");
    EXPECT_EQ(at(v, {"gitVersion"}), "v1.37.0");
  }
}

TEST_F(HandlerTest, NamespaceDeletionGoesThroughTerminating) {
  ASSERT_EQ(
    send("POST", "/api/v1/namespaces",
         R"({"metadata":{"name":"shop"},"status":{"phase":"Terminating"}})")
      .status,
    201);
  auto created = parse(send("GET", "/api/v1/namespaces/shop").body);
  EXPECT_EQ(at(created, {"status", "phase"}), "Active")
    << "a create cannot choose its phase";
  ASSERT_EQ(send("POST", "/api/v1/namespaces/shop/pods", pod("p1")).status,
            201);
  ASSERT_EQ(send("POST", "/api/v1/namespaces/shop/pods", pod("p2")).status,
            201);
  // Bound to a node without a kubelet: graceful deletion would never end.
  binding b;
  b.ns = "shop";
  b.name = "p1";
  b.node = "ghost";
  ASSERT_TRUE(st_.bind(b));

  // DELETE answers with the namespace, now Terminating; nothing is removed.
  auto del = send("DELETE", "/api/v1/namespaces/shop");
  ASSERT_EQ(del.status, 200) << del.body;
  auto ns = parse(del.body);
  EXPECT_EQ(at(ns, {"status", "phase"}), "Terminating");
  EXPECT_NE(at(ns, {"metadata", "deletionTimestamp"}), "");
  EXPECT_EQ(send("GET", "/api/v1/namespaces/shop/pods/p1").status, 200);
  // A repeated DELETE keeps it Terminating.
  EXPECT_EQ(at(parse(send("DELETE", "/api/v1/namespaces/shop").body),
               {"status", "phase"}),
            "Terminating");

  // Creates are refused as NamespaceLifecycle refuses them; deletes and
  // reads of the contents still work.
  auto refused = send("POST", "/api/v1/namespaces/shop/pods", pod("p3"));
  EXPECT_EQ(refused.status, 403);
  auto s = parse(refused.body);
  EXPECT_EQ(at(s, {"reason"}), "Forbidden");
  EXPECT_EQ(at(s, {"message"}),
            R"(pods "p3" is forbidden: unable to create new content in )"
            "namespace shop because it is being terminated");
  EXPECT_EQ(at(s, {"details", "causes"}),
            R"([{"reason":"NamespaceTerminating","message":"namespace shop )"
            R"(is being terminated","field":"metadata.namespace"}])");
  EXPECT_EQ(send("DELETE", "/api/v1/namespaces/shop/pods/p2").status, 200);

  // The namespace controller removes the rest, then the namespace.
  namespace_controller ctl{st_, {.resync = 20ms, .content_delay = 0ms}};
  ASSERT_TRUE(test::eventually(
    [&] { return send("GET", "/api/v1/namespaces/shop").status == 404; }));
  EXPECT_EQ(send("GET", "/api/v1/namespaces/shop/pods/p1").status, 404);
  EXPECT_EQ(ctl.finalized(), 1u);
  // NamespaceLifecycle keeps the system namespaces.
  auto kept = send("DELETE", "/api/v1/namespaces/kube-system");
  EXPECT_EQ(kept.status, 403);
  EXPECT_EQ(at(parse(kept.body), {"message"}),
            R"(namespaces "kube-system" is forbidden: this namespace may )"
            "not be deleted");
  // Other namespaces are untouched and a new one of the same name works.
  EXPECT_EQ(send("GET", "/api/v1/namespaces/default").status, 200);
  ASSERT_EQ(
    send("POST", "/api/v1/namespaces", R"({"metadata":{"name":"shop"}})")
      .status,
    201);
  EXPECT_EQ(send("POST", "/api/v1/namespaces/shop/pods", pod("p3")).status,
            201);
}

// The namespace controller learns of Terminating namespaces from a watch.
// When the store refuses that watch and nothing is Terminating yet, the
// controller has no feed to wake it: it must poll until a watch opens, or a
// namespace deleted later stays Terminating for ever.
class RefusedWatchTest : public HandlerTest {
protected:
  RefusedWatchTest() : HandlerTest(refusing_one_watch()) {
  }
  static store_config refusing_one_watch() {
    store_config sc;
    sc.seed = 5;
    sc.refuse_watches = 1;
    return sc;
  }
};

TEST_F(RefusedWatchTest, NamespaceControllerPollsUntilItsWatchOpens) {
  ASSERT_EQ(
    send("POST", "/api/v1/namespaces", R"({"metadata":{"name":"shop"}})")
      .status,
    201);
  namespace_controller ctl{st_, {.resync = 20ms, .content_delay = 0ms}};
  // The controller's first pass asks for the watch at once and is refused:
  // the refusal is used up, so this watch opens.
  std::this_thread::sleep_for(100ms);
  ASSERT_TRUE(
    st_.watch(primary_resource(storage_kind::namespace_), "", {}).has_value())
    << "the controller did not ask for its watch first";
  EXPECT_EQ(send("DELETE", "/api/v1/namespaces/shop").status, 200);
  EXPECT_TRUE(test::eventually(
    [&] { return send("GET", "/api/v1/namespaces/shop").status == 404; }));
  EXPECT_EQ(ctl.finalized(), 1u);
}

/// The Warning header values of a reply.
std::vector<std::string> warnings_of(const http_reply& r) {
  std::vector<std::string> out;
  for (const auto& [k, v] : r.headers)
    if (k == "Warning")
      out.push_back(v);
  return out;
}

TEST_F(HandlerTest, FieldValidationOfCreates) {
  const std::string pods = "/api/v1/namespaces/default/pods";
  struct test_case {
    std::string name;
    std::string query;
    std::string body;
    int code;
    /// Strict: the message; Warn: the one Warning header.
    std::string said;
  };
  const std::vector<test_case> cases = {
    {"strict refuses an unknown field", "?fieldValidation=Strict",
     pod("a", R"(,"nodeSelectr":{"disk":"ssd"})"), 400,
     R"(Pod in version "v1" cannot be handled as a Pod: strict decoding )"
     R"(error: unknown field "spec.nodeSelectr")"},
    {"strict names nested paths and repeated keys in document order",
     "?fieldValidation=Strict",
     R"({"metadata":{"name":"b","name":"b","unknownMeta":1},"spec":{)"
     R"("containers":[{"name":"c","image":"i"},{"name":"d","image":"i",)"
     R"("imagePullPolcy":"Always","image":"j"}],"unknown1":{"x":1}}})",
     400,
     R"(Pod in version "v1" cannot be handled as a Pod: strict decoding )"
     R"(error: duplicate field "metadata.name", unknown field )"
     R"("metadata.unknownMeta", unknown field )"
     R"("spec.containers[1].imagePullPolcy", duplicate field )"
     R"("spec.containers[1].image", unknown field "spec.unknown1")"},
    {"warn stores without the field", "?fieldValidation=Warn",
     pod("c", R"(,"nodeSelectr":{"disk":"ssd"})"), 201,
     R"(299 - "unknown field \"spec.nodeSelectr\"")"},
    {"warn is the default", "", pod("d", R"(,"nodeSelectr":{"disk":"ssd"})"),
     201, R"(299 - "unknown field \"spec.nodeSelectr\"")"},
    {"ignore says nothing", "?fieldValidation=Ignore",
     pod("e", R"(,"nodeSelectr":{"disk":"ssd"})"), 201, ""},
    {"an unknown value of the parameter", "?fieldValidation=Loose", pod("f"),
     422,
     R"(CreateOptions.meta.k8s.io "" is invalid: fieldValidation: )"
     R"(Unsupported value: "Loose": supported values: "", "Ignore", )"
     R"("Strict", "Warn")"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto r = send("POST", pods + tc.query, tc.body);
    ASSERT_EQ(r.status, tc.code) << r.body;
    auto w = warnings_of(r);
    if (tc.code >= 400) {
      EXPECT_EQ(at(parse(r.body), {"message"}), tc.said);
      continue;
    }
    EXPECT_EQ(w, tc.said.empty() ? std::vector<std::string>{}
                                 : std::vector<std::string>{tc.said});
    auto stored = parse(r.body);
    EXPECT_EQ(at(stored, {"spec", "nodeSelectr"}), "") << "dropped";
  }
  EXPECT_EQ(send("GET", pods + "/a").status, 404) << "strict stored nothing";
}

TEST_F(HandlerTest, StrictAcceptsEveryFieldOfARichPod) {
  // Fields from every part of the schema, and open parts with anything.
  const std::string spec = R"(,
    "nodeSelector":{"disk":"ssd"},"priorityClassName":"",
    "tolerations":[{"key":"k","operator":"Equal","value":"v",
      "effect":"NoExecute","tolerationSeconds":5}],
    "affinity":{"nodeAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}],
         "matchFields":[{"key":"metadata.name","operator":"In",
           "values":["n1"]}]}]},
      "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,
        "preference":{"matchExpressions":[{"key":"z","operator":"Exists"}]}}]},
      "podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[
        {"weight":10,"podAffinityTerm":{"topologyKey":"zone",
          "labelSelector":{"matchLabels":{"app":"web"}},
          "matchLabelKeys":["pod-template-hash"]}}]}},
    "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone",
      "whenUnsatisfiable":"DoNotSchedule","minDomains":2,
      "labelSelector":{"matchExpressions":[{"key":"app","operator":"In",
        "values":["web"]}]},"nodeAffinityPolicy":"Honor"}],
    "volumes":[{"name":"data","persistentVolumeClaim":{"claimName":"c"}},
      {"name":"tmp","emptyDir":{"medium":"Memory","anything":1}}],
    "initContainers":[{"name":"init","image":"busybox",
      "restartPolicy":"Always"}],
    "securityContext":{"runAsUser":1000,"whatever":{"x":1}},
    "schedulingGates":[{"name":"wait"}],"overhead":{"cpu":"10m"},
    "resources":{"requests":{"cpu":"1"}})";
  std::string body
    = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"rich",)"
      R"("labels":{"app":"web"},"annotations":{"a":"b"},)"
      R"("ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",)"
      R"("name":"rs","uid":"u","controller":true}]},)"
      R"("spec":{"containers":[{"name":"c","image":"nginx",)"
      R"("ports":[{"containerPort":80,"protocol":"TCP"}],)"
      R"("env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}}],)"
      R"("resources":{"requests":{"cpu":"100m","memory":"64Mi"},)"
      R"("limits":{"cpu":"1"}},)"
      R"("livenessProbe":{"httpGet":{"path":"/","port":80}},)"
      R"("volumeMounts":[{"name":"data","mountPath":"/d"}]}])"
      + spec + R"(},"status":{"phase":"Pending","anything":true}})";
  auto r = send("POST",
                "/api/v1/namespaces/default/pods?fieldValidation=Strict", body);
  EXPECT_EQ(r.status, 201) << r.body;
  EXPECT_TRUE(warnings_of(r).empty());
}

TEST_F(HandlerTest, FieldValidationOfUpdatesPatchesAndOtherKinds) {
  const std::string lease
    = R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease",)"
      R"("metadata":{"name":"l"},"spec":{"holderIdentity":"a"}})";
  const std::string leases
    = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
  ASSERT_EQ(send("POST", leases + "?fieldValidation=Strict", lease).status,
            201);
  auto current = parse(send("GET", leases + "/l").body);
  auto rv = at(current, {"metadata", "resourceVersion"});
  struct test_case {
    std::string name;
    std::string method;
    std::string target;
    std::string body;
    std::string content_type;
    int code;
    std::string said;
  };
  const std::vector<test_case> cases = {
    {"strict update", "PUT", leases + "/l?fieldValidation=Strict",
     R"({"metadata":{"name":"l","resourceVersion":")" + rv
       + R"("},"spec":{"holderIdentty":"b"}})",
     "application/json", 400,
     R"(Lease in version "v1" cannot be handled as a Lease: strict )"
     R"(decoding error: unknown field "spec.holderIdentty")"},
    {"strict merge patch", "PATCH", leases + "/l?fieldValidation=Strict",
     R"({"spec":{"holderIdentty":"b"}})", "application/merge-patch+json", 400,
     R"(Lease in version "v1" cannot be handled as a Lease: strict )"
     R"(decoding error: unknown field "spec.holderIdentty")"},
    {"warned strategic merge patch", "PATCH", leases + "/l",
     R"({"spec":{"holderIdentty":"b","holderIdentity":"c"}})",
     "application/strategic-merge-patch+json", 200,
     R"(299 - "unknown field \"spec.holderIdentty\"")"},
    {"pod template of a ReplicaSet", "POST",
     "/apis/apps/v1/namespaces/default/replicasets?fieldValidation=Strict",
     R"({"metadata":{"name":"rs"},"spec":{"selector":{"matchLabels":)"
     R"({"app":"w"}},"template":{"metadata":{"labels":{"app":"w"}},)"
     R"("spec":{"nodeSelectr":{},"containers":[{"name":"c","image":"i"}]}}}})",
     "application/json", 400,
     R"(ReplicaSet in version "v1" cannot be handled as a ReplicaSet: )"
     R"(strict decoding error: unknown field "spec.template.spec.nodeSelectr")"},
    {"top level of a priority class", "POST",
     "/apis/scheduling.k8s.io/v1/priorityclasses?fieldValidation=Strict",
     R"({"metadata":{"name":"pc"},"value":5,"globalDefualt":true})",
     "application/json", 400,
     R"(PriorityClass in version "v1" cannot be handled as a PriorityClass: )"
     R"(strict decoding error: unknown field "globalDefualt")"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto r = send(tc.method, tc.target, tc.body, tc.content_type);
    ASSERT_EQ(r.status, tc.code) << r.body;
    if (tc.code >= 400)
      EXPECT_EQ(at(parse(r.body), {"message"}), tc.said);
    else
      EXPECT_EQ(warnings_of(r), std::vector<std::string>{tc.said});
  }
  auto after = parse(send("GET", leases + "/l").body);
  EXPECT_EQ(at(after, {"spec", "holderIdentity"}), "c");
  EXPECT_EQ(at(after, {"spec", "holderIdentty"}), "");
}

TEST_F(HandlerTest, InvalidObjectsAreRefusedWithTheirFieldPaths) {
  const std::string pods = "/api/v1/namespaces/default/pods";
  auto res = [](const std::string& requests, const std::string& limits = "") {
    return R"(,"containers":[{"name":"c","image":"i","resources":{)"
           R"("requests":{)"
           + requests + "}"
           + (limits.empty() ? "" : ",\"limits\":{" + limits + "}") + "}}]";
  };
  struct test_case {
    std::string name;
    std::string target;
    std::string body;
    int code;
    std::string reason;
    std::string message;
  };
  const std::string regex = "quantities must match the regular expression "
                            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  const std::vector<test_case> cases = {
    {"unparsable quantity", pods + "?fieldValidation=Ignore",
     R"({"metadata":{"name":"q1"},"spec":{)" + res(R"("cpu":"lots")").substr(1)
       + "}}",
     400, "BadRequest",
     R"(Pod in version "v1" cannot be handled as a Pod: )" + regex},
    {"negative quantity", pods,
     R"({"metadata":{"name":"q2"},"spec":{)" + res(R"("cpu":"-1")").substr(1)
       + "}}",
     422, "Invalid",
     R"(Pod "q2" is invalid: spec.containers[0].resources.requests[cpu]: )"
     R"(Invalid value: "-1": must be greater than or equal to 0)"},
    {"request above limit", pods,
     R"({"metadata":{"name":"q3"},"spec":{)"
       + res(R"("cpu":"2")", R"("cpu":"1")").substr(1) + "}}",
     422, "Invalid",
     R"(Pod "q3" is invalid: spec.containers[0].resources.requests: )"
     R"(Invalid value: "2": must be less than or equal to cpu limit of 1)"},
    {"name", pods, pod("Bad_Name"), 422, "Invalid",
     R"(Pod "Bad_Name" is invalid: metadata.name: Invalid value: )"
     R"("Bad_Name": a lowercase RFC 1123 subdomain must consist of lower )"
     R"(case alphanumeric characters, '-' or '.', and must start and end )"
     R"(with an alphanumeric character (e.g. 'example.com', regex used for )"
     R"(validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*)"
     R"([a-z0-9])?)*'))"},
    {"label value", pods,
     R"({"metadata":{"name":"l1","labels":{"app":"a b"}},"spec":)"
     R"({"containers":[{"name":"c","image":"i"}]}})",
     422, "Invalid",
     R"(Pod "l1" is invalid: metadata.labels: Invalid value: "a b": a valid )"
     R"(label must be an empty string or consist of alphanumeric )"
     R"(characters, '-', '_' or '.', and must start and end with an )"
     R"(alphanumeric character (e.g. 'MyValue',  or 'my_value',  or )"
     R"('12345', regex used for validation is )"
     R"('(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'))"},
    {"required containers", pods, R"({"metadata":{"name":"r1"},"spec":{}})",
     422, "Invalid", R"(Pod "r1" is invalid: spec.containers: Required value)"},
    {"node capacity", "/api/v1/nodes",
     R"({"metadata":{"name":"n1"},"status":{"capacity":{"cpu":"lots"}}})", 400,
     "BadRequest",
     R"(Node in version "v1" cannot be handled as a Node: )" + regex},
    {"claim request",
     pods.substr(0, pods.size() - 4) + "persistentvolumeclaims",
     R"({"metadata":{"name":"c1"},"spec":{"accessModes":["ReadWriteOnce"],)"
     R"("resources":{"requests":{"storage":"-1Gi"}}}})",
     422, "Invalid",
     R"(PersistentVolumeClaim "c1" is invalid: )"
     R"(spec.resources.requests[storage]: Invalid value: "-1Gi": must be )"
     R"(greater than or equal to 0)"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto r = send("POST", tc.target, tc.body);
    ASSERT_EQ(r.status, tc.code) << r.body;
    auto v = parse(r.body);
    EXPECT_EQ(at(v, {"reason"}), tc.reason);
    EXPECT_EQ(at(v, {"message"}), tc.message);
  }
}

TEST_F(HandlerTest, WhatTheModelCannotDecodeIsNeverStored) {
  // Admission names no rule for this, the model's decoder does.
  auto r = send("POST", "/api/v1/namespaces/default/pods",
                pod("t1", R"(,"tolerations":[{"operator":"Equal"}])"));
  ASSERT_EQ(r.status, 422) << r.body;
  auto v = parse(r.body);
  EXPECT_EQ(at(v, {"reason"}), "Invalid");
  EXPECT_NE(at(v, {"details", "causes"}).find("spec.tolerations[0]"),
            std::string::npos)
    << r.body;
  EXPECT_EQ(send("GET", "/api/v1/namespaces/default/pods/t1").status, 404);
  // In-process writers are trusted: no field or decode checks.
  auto trusted = st_.create(primary_resource(storage_kind::pod), "default",
                            pod("t2", R"(,"nodeSelectr":{})"));
  ASSERT_TRUE(trusted);
  EXPECT_NE((*trusted)->json().find("nodeSelectr"), std::string::npos);
}

TEST_F(HandlerTest, TablesHaveKubectlsColumnsForEveryKind) {
  const std::vector<std::pair<std::string, std::string>> objects = {
    {"/apis/policy/v1/namespaces/default/poddisruptionbudgets",
     R"({"metadata":{"name":"web"},"spec":{"minAvailable":2,)"
     R"("selector":{"matchLabels":{"app":"web"}}}})"},
    {"/apis/policy/v1/namespaces/default/poddisruptionbudgets",
     R"({"metadata":{"name":"pct"},"spec":{"maxUnavailable":"10%"}})"},
    {"/apis/scheduling.k8s.io/v1/priorityclasses",
     R"({"metadata":{"name":"high"},"value":1000,"globalDefault":true})"},
    {"/apis/coordination.k8s.io/v1/namespaces/default/leases",
     R"({"metadata":{"name":"l"},"spec":{"holderIdentity":"me"}})"},
    {"/api/v1/namespaces/default/events",
     R"({"metadata":{"name":"e1"},"involvedObject":{"kind":"Pod",)"
     R"("name":"web-1"},"reason":"FailedScheduling","type":"Warning",)"
     R"("message":" 0/2 nodes are available \n","count":3,)"
     R"("source":{"component":"default-scheduler"}})"},
    {"/api/v1/namespaces/default/services",
     R"({"metadata":{"name":"web"},"spec":{"clusterIP":"10.0.0.1",)"
     R"("selector":{"tier":"a","app":"web"},"ports":[{"port":80},)"
     R"({"port":53,"protocol":"UDP","nodePort":30053}]}})"},
    {"/apis/apps/v1/namespaces/default/replicasets",
     R"({"metadata":{"name":"web"},"spec":{"replicas":3,"selector":)"
     R"({"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier",)"
     R"("operator":"In","values":["a","b"]}]},"template":{"metadata":)"
     R"({"labels":{"app":"web","tier":"a"}},"spec":{"containers":[)"
     R"({"name":"c","image":"nginx"},{"name":"d","image":"redis"}]}}}})"},
    {"/apis/storage.k8s.io/v1/csidrivers",
     R"({"metadata":{"name":"d.example.com"},"spec":{"tokenRequests":[)"
     R"({"audience":"a"},{"audience":"b"}],"volumeLifecycleModes":)"
     R"(["Persistent","Ephemeral"]}})"},
    {"/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities",
     R"({"metadata":{"name":"cap"},"storageClassName":"fast",)"
     R"("capacity":"10Gi"})"},
    {"/api/v1/namespaces/default/replicationcontrollers",
     R"({"metadata":{"name":"rc"},"spec":{"selector":{"app":"rc"},)"
     R"("template":{"metadata":{"labels":{"app":"rc"}},"spec":)"
     R"({"containers":[{"name":"c","image":"i"}]}}}})"},
    {"/apis/apps/v1/namespaces/default/statefulsets",
     R"({"metadata":{"name":"db"},"spec":{"replicas":2,"selector":)"
     R"({"matchLabels":{"app":"db"}},"template":{"metadata":{"labels":)"
     R"({"app":"db"}},"spec":{"containers":[{"name":"c","image":"pg"}]}}}})"},
  };
  for (const auto& [target, body] : objects)
    ASSERT_EQ(send("POST", target, body).status, 201) << target << body;
  const std::string table_accept
    = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
  struct test_case {
    std::string name;
    std::string target;
    std::string columns;
    /// The cells of the row whose name is `row`, as JSON, without the age
    /// (the cell at `age_at`, checked for its shape).
    std::string row;
    std::string cells;
  };
  // Both views of the event storage print the same row.
  const std::string event_columns
    = R"(["Last Seen","Type","Reason","Object","Subobject","Source",)"
      R"("Message","First Seen","Count","Name"])";
  const std::string event_cells
    = R"(["<unknown>","Warning","FailedScheduling","pod/web-1","",)"
      R"("default-scheduler","0/2 nodes are available","<unknown>",3,"e1"])";
  const std::vector<test_case> cases = {
    {"events", "/api/v1/namespaces/default/events", event_columns, "e1",
     event_cells},
    {"events.k8s.io view", "/apis/events.k8s.io/v1/namespaces/default/events",
     event_columns, "e1", event_cells},
    {"namespaces", "/api/v1/namespaces", R"(["Name","Status","Age"])",
     "default", R"(["default","Active"])"},
    {"budgets", "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
     R"(["Name","Min Available","Max Unavailable","Allowed Disruptions",)"
     R"("Age"])",
     "pct", R"(["pct","N/A","10%",0])"},
    {"priority classes", "/apis/scheduling.k8s.io/v1/priorityclasses",
     R"(["Name","Value","Global-Default","Age","PreemptionPolicy"])", "high",
     R"(["high",1000,true,"PreemptLowerPriority"])"},
    {"leases", "/apis/coordination.k8s.io/v1/namespaces/default/leases",
     R"(["Name","Holder","Age"])", "l", R"(["l","me"])"},
    {"services", "/api/v1/namespaces/default/services",
     R"x(["Name","Type","Cluster-IP","External-IP","Port(s)","Age",)x"
     R"("Selector"])",
     "web",
     R"(["web","ClusterIP","10.0.0.1","<none>","80/TCP,53:30053/UDP",)"
     R"("app=web,tier=a"])"},
    {"replica sets", "/apis/apps/v1/namespaces/default/replicasets",
     R"(["Name","Desired","Current","Ready","Age","Containers","Images",)"
     R"("Selector"])",
     "web", R"x(["web",3,0,0,"c,d","nginx,redis","app=web,tier in (a,b)"])x"},
    {"CSI drivers", "/apis/storage.k8s.io/v1/csidrivers",
     R"(["Name","AttachRequired","PodInfoOnMount","StorageCapacity",)"
     R"("TokenRequests","RequiresRepublish","Modes","Age"])",
     "d.example.com",
     R"(["d.example.com",true,false,false,"a,b",false,)"
     R"("Persistent,Ephemeral"])"},
    {"storage capacities",
     "/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities",
     R"(["Name","StorageClassName","Capacity"])", "cap",
     R"(["cap","fast","10Gi"])"},
    {"replication controllers",
     "/api/v1/namespaces/default/replicationcontrollers",
     R"(["Name","Desired","Current","Ready","Age","Containers","Images",)"
     R"("Selector"])",
     "rc", R"(["rc",1,0,0,"c","i","app=rc"])"},
    {"stateful sets", "/apis/apps/v1/namespaces/default/statefulsets",
     R"(["Name","Ready","Age","Containers","Images"])", "db",
     R"(["db","0/2","c","pg"])"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto r = send("GET", tc.target, {}, "application/json", table_accept);
    ASSERT_EQ(r.status, 200) << r.body;
    auto t = parse(r.body);
    ASSERT_EQ(at(t, {"kind"}), "Table") << r.body;
    json::array names;
    std::size_t age = 0;
    const auto& defs = t.at("columnDefinitions").as_array();
    for (std::size_t i = 0; i < defs.size(); ++i) {
      names.push_back(defs[i].at("name"));
      if (defs[i].at("name") == "Age")
        age = i;
    }
    EXPECT_EQ(json::serialize(names), tc.columns);
    bool found = false;
    for (const auto& row : t.at("rows").as_array()) {
      if (at(row, {"object", "metadata", "name"}) != tc.row)
        continue;
      found = true;
      auto cells = row.at("cells").as_array();
      ASSERT_EQ(cells.size(), defs.size());
      if (age > 0) {
        EXPECT_TRUE(cells[age].is_string());
        EXPECT_NE(cells[age].as_string(), "<unknown>");
        cells.erase(cells.begin() + static_cast<std::ptrdiff_t>(age));
      }
      EXPECT_EQ(json::serialize(cells), tc.cells);
    }
    EXPECT_TRUE(found) << r.body;
  }
}

TEST_F(HandlerTest, GatedPodsAreMarkedAtCreationAndShownAsSchedulingGated) {
  auto gated = send("POST", "/api/v1/namespaces/default/pods",
                    pod("gated", R"(,"schedulingGates":[{"name":"wait"}])"));
  ASSERT_EQ(gated.status, 201) << gated.body;
  auto g = parse(gated.body);
  const auto& conds = g.at("status").at("conditions").as_array();
  ASSERT_EQ(conds.size(), 1u) << gated.body;
  EXPECT_EQ(at(conds[0], {"type"}), "PodScheduled");
  EXPECT_EQ(at(conds[0], {"status"}), "False");
  EXPECT_EQ(at(conds[0], {"reason"}), "SchedulingGated");
  EXPECT_EQ(at(conds[0], {"message"}),
            "Scheduling is blocked due to non-empty scheduling gates");
  EXPECT_FALSE(at(conds[0], {"lastTransitionTime"}).empty());

  auto plain = send("POST", "/api/v1/namespaces/default/pods", pod("plain"));
  ASSERT_EQ(plain.status, 201) << plain.body;
  EXPECT_FALSE(
    parse(plain.body).at("status").as_object().contains("conditions"))
    << plain.body;

  auto r
    = send("GET", "/api/v1/namespaces/default/pods", {}, "application/json",
           "application/json;as=Table;v=v1;g=meta.k8s.io");
  ASSERT_EQ(r.status, 200) << r.body;
  std::map<std::string, std::string> status_of;
  auto table = parse(r.body);
  for (const auto& row : table.at("rows").as_array())
    status_of[at(row, {"object", "metadata", "name"})]
      = json::value_to<std::string>(row.at("cells").at(2));
  EXPECT_EQ(status_of["gated"], "SchedulingGated");
  EXPECT_EQ(status_of["plain"], "Pending");
}

// Boost.JSON reads 1e400 as infinity and 0e400 as NaN; stored, either would
// be served as invalid JSON. Creates and patches with them are refused.
TEST_F(HandlerTest, NumbersOutOfRangeAreRefused) {
  auto made = send("POST", "/api/v1/namespaces/default/pods",
                   pod("p", R"(,"priority":1e400)"));
  EXPECT_EQ(made.status, 400) << made.body;
  EXPECT_NE(made.body.find("out of the range"), std::string::npos) << made.body;
  ASSERT_EQ(send("POST", "/api/v1/namespaces/default/pods", pod("q")).status,
            201);
  auto patched = send("PATCH", "/api/v1/namespaces/default/pods/q",
                      R"({"metadata":{"labels":{"a":"b"}},"x":0e3088})",
                      "application/merge-patch+json");
  EXPECT_EQ(patched.status, 400) << patched.body;
  auto got = send("GET", "/api/v1/namespaces/default/pods/q");
  ASSERT_EQ(got.status, 200);
  parse(got.body); // still valid JSON
  EXPECT_EQ(got.body.find("\"a\":\"b\""), std::string::npos)
    << "the refused patch changed nothing";
}

} // namespace
} // namespace tessera::apiserver

namespace tessera::apiserver {
namespace {

/// The reviews other components delegate to the embedded server.
TEST(HandlerReviews, TokenAndSubjectAccessReviews) {
  struct test_case {
    std::string name;
    std::string server_token;
    std::string path;
    std::string body;
    int status;
    std::string body_part;
  };
  const std::string tr = "/apis/authentication.k8s.io/v1/tokenreviews";
  const std::string sar = "/apis/authorization.k8s.io/v1/subjectaccessreviews";
  const std::string ssar
    = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
  const std::string ssr = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
  auto token_review = [](const std::string& token) {
    return R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview",)"
           R"("spec":{"token":")"
           + token + R"("}})";
  };
  auto access_review = [](const std::string& user) {
    return R"({"apiVersion":"authorization.k8s.io/v1",)"
           R"("kind":"SubjectAccessReview","spec":{"user":")"
           + user
           + R"(","nonResourceAttributes":{"path":"/metrics","verb":"get"}}})";
  };
  std::vector<test_case> cases = {
    {"its token", "t0k", tr, token_review("t0k"), 201,
     R"("status":{"authenticated":true,"user":{"username":)"
     R"("tessera:cluster-admin","groups":["system:authenticated"]}})"},
    {"another token", "t0k", tr, token_review("nope"), 201,
     R"("status":{"user":{}})"},
    {"no token to match", "", tr, token_review(""), 201,
     R"("status":{"user":{}})"},
    {"not a TokenReview", "t0k", tr, R"({"kind":"Pod"})", 400,
     "does not hold a TokenReview"},
    {"the token's holder", "t0k", sar, access_review("tessera:cluster-admin"),
     201, R"("allowed":true)"},
    {"anyone else", "t0k", sar, access_review("system:anonymous"), 201,
     R"("allowed":false,"reason":"the embedded cluster allows only its )"
     R"(token's holder")"},
    {"everyone without a token", "", sar, access_review("system:anonymous"),
     201, R"("allowed":true)"},
    {"no subject", "", sar,
     R"({"spec":{"nonResourceAttributes":{"path":"/x","verb":"get"}}})", 422,
     "spec.user: Required value"},
    {"no attributes", "", sar, R"({"spec":{"user":"u"}})", 422,
     "exactly one of nonResourceAttributes or resourceAttributes"},
    // kubectl auth can-i: the requester got in, so it may.
    {"can-i with a token", "t0k", ssar,
     R"({"spec":{"resourceAttributes":{"verb":"create","resource":"pods"}}})",
     201,
     R"("status":{"allowed":true,"reason":"the embedded cluster allows )"
     R"(its token's holder"})"},
    {"can-i without one", "", ssar,
     R"({"spec":{"nonResourceAttributes":{"path":"/x","verb":"get"}}})", 201,
     R"("allowed":true)"},
    {"can-i about nothing", "", ssar, R"({"spec":{}})", 422,
     "exactly one of nonResourceAttributes or resourceAttributes"},
    // kubectl auth whoami.
    {"whoami with a token", "t0k", ssr, R"({"kind":"SelfSubjectReview"})", 201,
     R"("status":{"userInfo":{"username":"tessera:cluster-admin",)"
     R"("groups":["system:authenticated"]}})"},
    {"whoami without one", "", ssr, "{}", 201,
     R"("userInfo":{"username":"system:anonymous",)"
     R"("groups":["system:unauthenticated"]})"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    store st;
    handler_config hc;
    hc.token = tc.server_token;
    api_handler h{st, hc};
    std::string auth = "Bearer " + tc.server_token;
    http_request_view r;
    r.method = "POST";
    r.target = tc.path;
    r.body = tc.body;
    r.content_type = "application/json";
    r.accept = "application/json";
    r.authorization = auth;
    auto reply = h.handle(r);
    EXPECT_EQ(reply.status, tc.status) << reply.body;
    EXPECT_NE(reply.body.find(tc.body_part), std::string::npos) << reply.body;
  }
}

TEST_F(HandlerTest, ReviewsAreCreateOnlyInDiscovery) {
  auto tr = send("GET", "/apis/authentication.k8s.io/v1");
  EXPECT_EQ(tr.status, 200);
  EXPECT_NE(tr.body.find(R"("name":"tokenreviews")"), std::string::npos)
    << tr.body;
  EXPECT_NE(tr.body.find(R"("verbs":["create"])"), std::string::npos);
  auto sar = send("GET", "/apis/authorization.k8s.io/v1");
  EXPECT_NE(sar.body.find(R"("name":"subjectaccessreviews")"),
            std::string::npos)
    << sar.body;
  auto groups = send("GET", "/apis");
  EXPECT_NE(groups.body.find("authentication.k8s.io"), std::string::npos);
  EXPECT_NE(groups.body.find("authorization.k8s.io"), std::string::npos);
  // Nothing is stored, so nothing is listed or read.
  EXPECT_EQ(send("GET", "/apis/authentication.k8s.io/v1/tokenreviews").status,
            405);
  EXPECT_EQ(
    send("GET", "/apis/authorization.k8s.io/v1/subjectaccessreviews/x").status,
    405);
}

} // namespace
} // namespace tessera::apiserver
