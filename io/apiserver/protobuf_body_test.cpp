// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/handler.hpp"
#include "io/apiserver/kube_core.pb.h"
#include "io/apiserver/kube_groups.pb.h"
#include "io/apiserver/kube_wire.pb.h"
#include "io/apiserver/protobuf_body.hpp"
#include "io/apiserver/store.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace tessera::apiserver {
namespace {

namespace json = boost::json;

std::string from_hex(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out += static_cast<char>(
      std::stoi(std::string{hex.substr(i, 2)}, nullptr, 16));
  return out;
}

/// The envelope around `object` as kubectl writes it.
std::string envelope(const google::protobuf::Message& object,
                     const std::string& api_version, const std::string& kind) {
  kube::Unknown u;
  u.mutable_typemeta()->set_apiversion(api_version);
  u.mutable_typemeta()->set_kind(kind);
  u.set_raw(object.SerializeAsString());
  return std::string{"k8s\0", 4} + u.SerializeAsString();
}

json::value decode(std::string_view body) {
  auto r = protobuf_body_to_json(body);
  EXPECT_TRUE(r) << r.err().message;
  if (!r)
    return nullptr;
  return json::parse(*r);
}

// Bodies captured from kubectl 1.35 against the embedded server.
TEST(ProtobufBody, KubectlBodies) {
  struct test_case {
    std::string name;
    std::string_view hex;
    std::string_view want;
  };
  const std::vector<test_case> cases = {
    {"KubectlCreateNamespace",
     "6b3873000a0f0a02763112094e616d657370616365121b0a130a03666f6f12001a00"
     "22002a0032003800420012001a020a001a002200",
     R"({"kind":"Namespace","apiVersion":"v1",
              "metadata":{"name":"foo"},"spec":{},"status":{}})"},
    {"KubectlCreatePriorityClass",
     "6b3873000a250a147363686564756c696e672e6b38732e696f2f7631120d5072696f"
     "72697479436c61737312310a120a02686912001a0022002a00320038004200100718"
     "002201642a14507265656d70744c6f7765725072696f726974791a002200",
     R"({"kind":"PriorityClass",
              "apiVersion":"scheduling.k8s.io/v1","metadata":{"name":"hi"},
              "value":7,"description":"d",
              "preemptionPolicy":"PreemptLowerPriority"})"},
    {"KubectlCreatePodDisruptionBudget",
     "6b3873000a200a09706f6c6963792f76311213506f6444697372757074696f6e4275"
     "6467657412390a130a0377656212001a0022002a0032003800420012160a06080010"
     "011a00120c0a0a0a0361707012037765621a0a080018002000280030001a002200",
     R"({"kind":"PodDisruptionBudget",
              "apiVersion":"policy/v1","metadata":{"name":"web"},
              "spec":{"minAvailable":1,
                      "selector":{"matchLabels":{"app":"web"}}},
              "status":{"disruptionsAllowed":0,"currentHealthy":0,
                        "desiredHealthy":0,"expectedPods":0}})"},
    // kubectl create service clusterip s1 --tcp=80:8080 --tcp=443
    {"KubectlCreateServiceClusterIP",
     "6b3873000a0d0a0276311207536572766963651280010a1d0a02733112001a002200"
     "2a003200380042005a090a0361707012027331125b0a1b0a0738302d383038301203"
     "54435018502207080010903f1a0028000a180a03343433120354435018bb03220708"
     "0010bb031a00280012090a03617070120273311a002209436c757374657249503a00"
     "420052005a00600068001a020a001a002200",
     R"({"kind":"Service","apiVersion":"v1",
              "metadata":{"name":"s1","labels":{"app":"s1"}},
              "spec":{"ports":[
                {"name":"80-8080","protocol":"TCP","port":80,"targetPort":8080},
                {"name":"443","protocol":"TCP","port":443,"targetPort":443}],
                "selector":{"app":"s1"},"type":"ClusterIP"},
              "status":{}})"},
    // kubectl create deployment web --image=nginx --replicas=3 --port=80
    {"KubectlCreateDeployment",
     "6b3873000a150a07617070732f7631120a4465706c6f796d656e7412b8010a1f0a"
     "0377656212001a0022002a003200380042005a0a0a036170701203776562128601"
     "0803120c0a0a0a0361707012037765621a6c0a1c0a0012001a0022002a00320038"
     "0042005a0a0a036170701203776562124c122e0a056e67696e7812056e67696e78"
     "2a00320a0a001000185022002a0042006a007200800100880100900100a201001a"
     "00320042004a0052005800600068008201008a01009a0100c2010022020a002800"
     "38001a0c0800100018002000280038001a002200",
     R"({"kind":"Deployment","apiVersion":"apps/v1",
              "metadata":{"name":"web","labels":{"app":"web"}},
              "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
                "template":{"metadata":{"labels":{"app":"web"}},
                  "spec":{"containers":[{"name":"nginx","image":"nginx",
                    "ports":[{"containerPort":80}],"resources":{}}]}},
                "strategy":{}}})"},
    // kubectl create job j1 --image=busybox -- sleep 1
    {"KubectlCreateJob",
     "6b3873000a0f0a0862617463682f763112034a6f621284010a120a026a3112001a"
     "0022002a00320038004200126432620a100a0012001a0022002a00320038004200"
     "124e122b0a026a31120762757379626f781a05736c6565701a01312a0042006a00"
     "7200800100880100900100a201001a054e65766572320042004a00520058006000"
     "68008201008a01009a0100c201001a082000280030003a001a002200",
     R"({"kind":"Job","apiVersion":"batch/v1","metadata":{"name":"j1"},
              "spec":{"template":{"metadata":{},
                "spec":{"containers":[{"name":"j1","image":"busybox",
                  "command":["sleep","1"],"resources":{}}],
                  "restartPolicy":"Never"}}}})"},
    // kubectl create configmap cm1 --from-literal=a=b
    {"KubectlCreateConfigMap",
     "6b3873000a0f0a0276311209436f6e6669674d6170121d0a130a03636d3112001a"
     "0022002a0032003800420012060a01611201621a002200",
     R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm1"},
              "data":{"a":"b"}})"},
    // kubectl create secret generic s1 --from-literal=a=b: bytes in base64.
    {"KubectlCreateSecret",
     "6b3873000a0c0a0276311206536563726574121e0a120a02733112001a0022002a"
     "0032003800420012060a01611201621a001a002200",
     R"({"kind":"Secret","apiVersion":"v1","metadata":{"name":"s1"},
              "data":{"a":"Yg=="}})"},
    {"KubectlCreateServiceAccount",
     "6b3873000a140a027631120e536572766963654163636f756e7412150a130a0373"
     "613112001a0022002a003200380042001a002200",
     R"({"kind":"ServiceAccount","apiVersion":"v1",
              "metadata":{"name":"sa1"}})"},
    {"KubectlDrainDeleteOptions",
     "6b3873000a130a027631120d44656c6574654f7074696f6e7312001a002200",
     R"({"kind":"DeleteOptions","apiVersion":"v1"})"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(decode(from_hex(tc.hex)), json::parse(tc.want));
  }
}

TEST(ProtobufBody, PointersKeepZeroesAndSpecialTypesBecomeTheirJson) {
  kube::Eviction e;
  auto* meta = e.mutable_metadata();
  meta->set_name("p1");
  meta->set_namespace_("default");
  (*meta->mutable_labels())["app"] = "web";
  meta->mutable_creationtimestamp()->set_seconds(1767225600); // 2026-01-01
  auto* owner = meta->add_ownerreferences();
  owner->set_kind("ReplicaSet");
  owner->set_name("rs");
  owner->set_controller(false);
  auto* opts = e.mutable_deleteoptions();
  opts->set_graceperiodseconds(0);
  opts->mutable_preconditions()->set_uid("u-1");
  opts->add_dryrun("All");
  EXPECT_EQ(decode(envelope(e, "policy/v1", "Eviction")),
            json::parse(R"({"kind":"Eviction","apiVersion":"policy/v1",
              "metadata":{"name":"p1","namespace":"default",
                "creationTimestamp":"2026-01-01T00:00:00Z",
                "labels":{"app":"web"},
                "ownerReferences":[{"kind":"ReplicaSet","name":"rs",
                                    "controller":false}]},
              "deleteOptions":{"gracePeriodSeconds":0,
                "preconditions":{"uid":"u-1"},"dryRun":["All"]}})"));

  kube::PodDisruptionBudget pdb;
  pdb.mutable_metadata()->set_name("b");
  auto* spec = pdb.mutable_spec();
  spec->mutable_maxunavailable()->set_type(1);
  spec->mutable_maxunavailable()->set_strval("50%");
  auto* expr = spec->mutable_selector()->add_matchexpressions();
  expr->set_key("tier");
  expr->set_operator_("In");
  expr->add_values("web");
  (*pdb.mutable_status()->mutable_disruptedpods())["p1"].set_seconds(
    1767225600);
  auto v = decode(envelope(pdb, "policy/v1", "PodDisruptionBudget"));
  EXPECT_EQ(v.at("spec"), json::parse(R"({"maxUnavailable":"50%","selector":{
              "matchExpressions":[{"key":"tier","operator":"In",
                                   "values":["web"]}]}})"));
  EXPECT_EQ(v.at("status").at("disruptedPods"),
            json::parse(R"({"p1":"2026-01-01T00:00:00Z"})"));
}

// What kube-scheduler's default (protobuf) client writes, built here from
// the schema: no kube-scheduler runs in the tests.
TEST(ProtobufBody, KubeSchedulersBindingLeaseAndEvent) {
  kube::Binding b;
  b.mutable_metadata()->set_name("p1");
  b.mutable_metadata()->set_namespace_("default");
  b.mutable_metadata()->set_uid("u-1");
  b.mutable_target()->set_kind("Node");
  b.mutable_target()->set_name("n1");
  EXPECT_EQ(decode(envelope(b, "v1", "Binding")),
            json::parse(R"({"kind":"Binding","apiVersion":"v1",
              "metadata":{"name":"p1","namespace":"default","uid":"u-1"},
              "target":{"kind":"Node","name":"n1"}})"));

  kube::Lease l;
  l.mutable_metadata()->set_name("kube-scheduler");
  l.mutable_spec()->set_holderidentity("host_1");
  l.mutable_spec()->set_leasedurationseconds(15);
  l.mutable_spec()->mutable_renewtime()->set_seconds(1767225600);
  l.mutable_spec()->mutable_renewtime()->set_nanos(123456789);
  l.mutable_spec()->set_leasetransitions(0);
  EXPECT_EQ(decode(envelope(l, "coordination.k8s.io/v1", "Lease")),
            json::parse(R"({"kind":"Lease",
              "apiVersion":"coordination.k8s.io/v1",
              "metadata":{"name":"kube-scheduler"},
              "spec":{"holderIdentity":"host_1","leaseDurationSeconds":15,
                "renewTime":"2026-01-01T00:00:00.123456Z",
                "leaseTransitions":0}})"));

  kube::Event e;
  e.mutable_metadata()->set_name("p1.1");
  e.mutable_eventtime()->set_seconds(1767225600);
  e.set_reportingcontroller("default-scheduler");
  e.set_action("Scheduling");
  e.set_reason("FailedScheduling");
  e.mutable_regarding()->set_kind("Pod");
  e.mutable_regarding()->set_name("p1");
  e.set_note("0/1 nodes are available");
  e.set_type("Warning");
  e.mutable_deprecatedsource();
  e.mutable_deprecatedfirsttimestamp();
  EXPECT_EQ(decode(envelope(e, "events.k8s.io/v1", "Event")),
            json::parse(R"({"kind":"Event","apiVersion":"events.k8s.io/v1",
              "metadata":{"name":"p1.1"},
              "eventTime":"2026-01-01T00:00:00.000000Z",
              "reportingController":"default-scheduler",
              "action":"Scheduling","reason":"FailedScheduling",
              "regarding":{"kind":"Pod","name":"p1"},
              "note":"0/1 nodes are available","type":"Warning",
              "deprecatedSource":{}})"));
  // core/v1's Event numbers its fields differently: not decoded.
  auto core = protobuf_body_to_json(envelope(e, "v1", "Event"));
  ASSERT_FALSE(core);
  EXPECT_EQ(core.err().code, 415);
}

TEST(ProtobufBody, KubeSchedulersWritesGoThroughTheHandler) {
  store st(store_config{.seed = 9});
  api_handler handler(st, {});
  ASSERT_TRUE(st.create(
    primary_resource(storage_kind::pod), "default",
    R"({"metadata":{"name":"p1"},"spec":{"containers":[{"name":"c","image":"i"}]}})"));
  auto post = [&](const std::string& target, const std::string& body) {
    http_request_view r;
    r.method = "POST";
    r.target = target;
    r.body = body;
    r.content_type = "application/vnd.kubernetes.protobuf";
    r.accept = "application/vnd.kubernetes.protobuf, application/json";
    return handler.handle(r);
  };
  kube::Binding b;
  b.mutable_metadata()->set_name("p1");
  b.mutable_target()->set_kind("Node");
  b.mutable_target()->set_name("n1");
  auto bound = post("/api/v1/namespaces/default/pods/p1/binding",
                    envelope(b, "v1", "Binding"));
  EXPECT_EQ(bound.status, 201) << bound.body;
  auto pod = st.get(primary_resource(storage_kind::pod), "default", "p1");
  ASSERT_TRUE(pod);
  EXPECT_EQ(*(*pod)->attrs().field("spec.nodeName"), "n1");

  kube::Lease l;
  l.mutable_metadata()->set_name("kube-scheduler");
  l.mutable_spec()->set_holderidentity("host_1");
  auto leased
    = post("/apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
           envelope(l, "coordination.k8s.io/v1", "Lease"));
  EXPECT_EQ(leased.status, 201) << leased.body;

  kube::Event e;
  e.mutable_metadata()->set_name("p1.1");
  e.mutable_eventtime()->set_seconds(1767225600);
  e.set_reportingcontroller("default-scheduler");
  e.set_reportinginstance("default-scheduler-host");
  e.set_action("Binding");
  e.set_reason("Scheduled");
  e.mutable_regarding()->set_kind("Pod");
  e.mutable_regarding()->set_namespace_("default");
  e.mutable_regarding()->set_name("p1");
  e.set_type("Normal");
  auto recorded = post("/apis/events.k8s.io/v1/namespaces/default/events",
                       envelope(e, "events.k8s.io/v1", "Event"));
  EXPECT_EQ(recorded.status, 201) << recorded.body;
}

TEST(ProtobufBody, GarbageIsABadRequestNamingTheProblem) {
  for (std::string_view body : {std::string_view{}, std::string_view{"k8s"},
                                std::string_view{R"({"kind":"Namespace"})"},
                                std::string_view{"k8s\0\xff\xff\xff\xff", 8},
                                std::string_view{"k8s\0\x0a\x05\x0a", 7}}) {
    auto r = protobuf_body_to_json(body);
    ASSERT_FALSE(r) << *r;
    EXPECT_EQ(r.err().code, 400);
    EXPECT_EQ(r.err().reason, "BadRequest");
    EXPECT_NE(r.err().message.find("couldn't decode the protobuf body"),
              std::string::npos)
      << r.err().message;
  }
  // A well-formed envelope whose object is not its kind's message.
  kube::Unknown u;
  u.mutable_typemeta()->set_kind("Namespace");
  u.set_raw("\xff\xff\xff");
  auto r
    = protobuf_body_to_json(std::string{"k8s\0", 4} + u.SerializeAsString());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().code, 400);
  EXPECT_NE(r.err().message.find("not a valid Namespace message"),
            std::string::npos);
}

TEST(ProtobufBody, StringsMustBeUtf8) {
  kube::Namespace ns;
  ns.mutable_metadata()->set_name("caf\xc3\xa9");
  EXPECT_EQ(decode(envelope(ns, "v1", "Namespace")).at("metadata").at("name"),
            "caf\xc3\xa9");
  kube::PodDisruptionBudget pdb;
  for (std::string bad :
       {"\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xff", "\xf4\x90\x80\x80"}) {
    (*ns.mutable_metadata()->mutable_labels())["k"] = bad;
    pdb.mutable_spec()->mutable_minavailable()->set_type(1);
    pdb.mutable_spec()->mutable_minavailable()->set_strval(bad);
    for (const auto& body :
         {envelope(ns, "v1", "Namespace"),
          envelope(pdb, "policy/v1", "PodDisruptionBudget")}) {
      auto r = protobuf_body_to_json(body);
      ASSERT_FALSE(r) << *r;
      EXPECT_EQ(r.err().code, 400);
      EXPECT_NE(r.err().message.find("is not UTF-8"), std::string::npos)
        << r.err().message;
    }
  }
}

TEST(ProtobufBody, AKindWithoutSchemaIsUnsupportedMediaType) {
  kube::Namespace ns;
  ns.mutable_metadata()->set_name("s1");
  auto r = protobuf_body_to_json(envelope(ns, "apps/v1", "DaemonSet"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().code, 415);
  EXPECT_NE(r.err().message.find("not \"DaemonSet\""), std::string::npos)
    << r.err().message;
  EXPECT_NE(r.err().message.find("application/json"), std::string::npos);
}

TEST(ProtobufBody, MediaType) {
  EXPECT_TRUE(is_protobuf_media_type("application/vnd.kubernetes.protobuf"));
  EXPECT_TRUE(
    is_protobuf_media_type(" application/vnd.kubernetes.protobuf ; x=y"));
  EXPECT_FALSE(is_protobuf_media_type("application/json"));
  EXPECT_FALSE(is_protobuf_media_type(""));
}

} // namespace
} // namespace tessera::apiserver
