// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/handler.hpp"
#include "io/apiserver/kube_core.pb.h"
#include "io/apiserver/kube_wire.pb.h"
#include "io/apiserver/protobuf_body.hpp"
#include "io/apiserver/protobuf_reply.hpp"
#include "io/apiserver/store.hpp"

#include <boost/json.hpp>
#include <google/protobuf/unknown_field_set.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace tessera::apiserver {
namespace {

namespace json = boost::json;
namespace pb = google::protobuf;

/// The envelope of an encoded reply; fails the test when it is not one.
kube::Unknown open_envelope(const std::string& bytes) {
  kube::Unknown u;
  EXPECT_EQ(bytes.substr(0, 4), protobuf_magic);
  EXPECT_TRUE(u.ParseFromString(bytes.substr(4)));
  return u;
}

/// What a protobuf-decoding client reads back, as JSON.
json::value read_back(const std::string& bytes) {
  auto r = protobuf_body_to_json(bytes);
  EXPECT_TRUE(r) << r.err().message;
  return r ? json::parse(*r) : json::value{};
}

TEST(ProtobufReply, ObjectsRoundTripThroughTheDecoder) {
  const std::vector<std::string> objects = {
    R"({"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team",
        "uid":"u-1","resourceVersion":"12","creationTimestamp":
        "2026-01-02T03:04:05Z","labels":{"a":"b"}},"spec":{"finalizers":
        ["kubernetes"]},"status":{"phase":"Active"}})",
    R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm",
        "namespace":"default"},"data":{"k":"v"},"binaryData":{"b":"AAEC"},
        "immutable":false})",
    R"({"kind":"PodDisruptionBudget","apiVersion":"policy/v1","metadata":
        {"name":"web","namespace":"default","generation":3},"spec":
        {"minAvailable":"50%","selector":{"matchLabels":{"app":"web"}}},
        "status":{"observedGeneration":3,"disruptionsAllowed":0,
        "currentHealthy":2,"desiredHealthy":2,"expectedPods":4,
        "disruptedPods":{"p1":"2026-01-02T03:04:05Z"}}})",
    R"({"kind":"Lease","apiVersion":"coordination.k8s.io/v1","metadata":
        {"name":"kube-scheduler","namespace":"kube-system"},"spec":
        {"holderIdentity":"a","leaseDurationSeconds":15,"renewTime":
        "2026-01-02T03:04:05.123456Z","leaseTransitions":0}})",
    R"({"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web",
        "namespace":"default"},"spec":{"replicas":0,"selector":
        {"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":
        {"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx",
        "resources":{"requests":{"cpu":"100m"}}}]}}}})",
  };
  for (const auto& text : objects) {
    SCOPED_TRACE(text);
    auto r = encode_protobuf_reply(text);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->dropped.empty()) << r->dropped.front();
    auto want = json::parse(text);
    auto u = open_envelope(r->bytes);
    EXPECT_EQ(u.typemeta().kind(), want.at("kind").as_string());
    EXPECT_EQ(u.typemeta().apiversion(), want.at("apiVersion").as_string());
    // Go's JSON omits a zero that is not a pointer (immutable above is one).
    EXPECT_EQ(read_back(r->bytes), want);
  }
}

// Go writes its zero time as nothing and any other, 1970 included, as a
// present `seconds`; a time of only nanos reads as 1970 (Time keeps whole
// seconds). Each reads back the same after a reply.
TEST(ProtobufReply, TheEpochIsATimeAndNothingIsNull) {
  kube::Namespace ns;
  ns.mutable_metadata()->set_name("n");
  ns.mutable_metadata()->mutable_deletiontimestamp()->set_nanos(5);
  ns.mutable_metadata()->mutable_creationtimestamp(); // empty: Go's zero
  kube::Unknown u;
  u.mutable_typemeta()->set_apiversion("v1");
  u.mutable_typemeta()->set_kind("Namespace");
  u.set_raw(ns.SerializeAsString());
  auto json_text = protobuf_body_to_json(std::string{protobuf_magic}
                                         + u.SerializeAsString());
  ASSERT_TRUE(json_text);
  auto first = json::parse(*json_text);
  EXPECT_EQ(first.at("metadata"), json::parse(R"({"name":"n",
              "deletionTimestamp":"1970-01-01T00:00:00Z"})"));
  auto reply = encode_protobuf_reply(*json_text);
  ASSERT_TRUE(reply);
  EXPECT_EQ(read_back(reply->bytes), first);
}

TEST(ProtobufReply, FieldsTheSchemaLacksAreNamed) {
  auto r = encode_protobuf_reply(
    R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm",
        "futureField":1},"data":{"k":"v"},"extra":{"x":true},
        "immutable":"yes"})");
  ASSERT_TRUE(r);
  std::vector<std::string> want
    = {"metadata.futureField", "extra", "immutable"};
  std::sort(want.begin(), want.end());
  auto got = r->dropped;
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  // What fits is still encoded.
  auto back = read_back(r->bytes);
  EXPECT_EQ(back.at("data"), json::parse(R"({"k":"v"})"));
}

TEST(ProtobufReply, WithoutASchemaThereIsNoProtobufForm) {
  for (std::string_view text :
       {R"({"kind":"APIVersions","versions":["v1"]})",
        R"({"kind":"Table","apiVersion":"meta.k8s.io/v1","rows":[]})",
        R"({"major":"1","minor":"37"})", R"([1,2])", "not json"}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(encode_protobuf_reply(text));
  }
}

TEST(ProtobufReply, ListsAreListMetaThenItems) {
  auto r = encode_protobuf_reply(
    R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":
        {"resourceVersion":"42","continue":"tok","remainingItemCount":0},
        "items":[{"kind":"ConfigMap","apiVersion":"v1","metadata":
        {"name":"a"}},{"kind":"ConfigMap","apiVersion":"v1","metadata":
        {"name":"b"},"data":{"k":"v"}}]})");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->dropped.empty());
  auto u = open_envelope(r->bytes);
  EXPECT_EQ(u.typemeta().kind(), "ConfigMapList");
  pb::UnknownFieldSet fields;
  ASSERT_TRUE(fields.ParseFromString(u.raw()));
  ASSERT_EQ(fields.field_count(), 3);
  ASSERT_EQ(fields.field(0).number(), 1);
  kube::ListMeta meta;
  ASSERT_TRUE(meta.ParseFromString(fields.field(0).length_delimited()));
  EXPECT_EQ(meta.resourceversion(), "42");
  EXPECT_EQ(meta.continue_(), "tok");
  EXPECT_TRUE(meta.has_remainingitemcount());
  std::vector<std::string> names;
  for (int i = 1; i < 3; ++i) {
    EXPECT_EQ(fields.field(i).number(), 2);
    kube::ConfigMap cm;
    ASSERT_TRUE(cm.ParseFromString(fields.field(i).length_delimited()));
    names.push_back(cm.metadata().name());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
}

TEST(ProtobufReply, StatusesCarryTheirDetails) {
  auto r = encode_protobuf_reply(
    R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
        "message":"pods \"x\" not found","reason":"NotFound","details":
        {"name":"x","kind":"pods","causes":[{"reason":"FieldValueInvalid",
        "message":"bad","field":"spec"}],"retryAfterSeconds":3},
        "code":404})");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->dropped.empty());
  auto u = open_envelope(r->bytes);
  EXPECT_EQ(u.typemeta().kind(), "Status");
  kube::Status s;
  ASSERT_TRUE(s.ParseFromString(u.raw()));
  EXPECT_EQ(s.code(), 404);
  EXPECT_EQ(s.reason(), "NotFound");
  EXPECT_EQ(s.details().name(), "x");
  EXPECT_EQ(s.details().retryafterseconds(), 3);
  ASSERT_EQ(s.details().causes_size(), 1);
  EXPECT_EQ(s.details().causes(0).field(), "spec");
}

TEST(ProtobufReply, WatchFramesAreLengthPrefixedEvents) {
  std::string object
    = R"({"kind":"Namespace","apiVersion":"v1","metadata":{"name":"n1"}})";
  auto frame = encode_protobuf_watch_frame("ADDED", object);
  ASSERT_TRUE(frame);
  ASSERT_GE(frame->size(), 4u);
  std::uint32_t n = 0;
  for (int i = 0; i < 4; ++i)
    n = (n << 8) | static_cast<unsigned char>((*frame)[i]);
  EXPECT_EQ(n, frame->size() - 4);
  kube::WatchEvent ev;
  ASSERT_TRUE(ev.ParseFromString(frame->substr(4)));
  EXPECT_EQ(ev.type(), "ADDED");
  // The object inside carries its own envelope.
  EXPECT_EQ(read_back(ev.object().raw()), json::parse(object));
  EXPECT_FALSE(encode_protobuf_watch_frame("ADDED", R"({"kind":"Nope"})"));
}

/// The handler answers in protobuf when the client puts it first.
class ProtobufReplyHandler : public ::testing::Test {
protected:
  ProtobufReplyHandler() : st_(store_config{.seed = 5}), handler_(st_, {}) {
  }
  http_reply send(std::string_view method, std::string_view target,
                  std::string_view accept, std::string_view body = {}) {
    http_request_view r;
    r.method = method;
    r.target = target;
    r.body = body;
    r.content_type = "application/json";
    r.accept = accept;
    return handler_.handle(r);
  }
  static constexpr std::string_view typed_client
    = "application/vnd.kubernetes.protobuf, application/json";
  store st_;
  api_handler handler_;
};

TEST_F(ProtobufReplyHandler, TypedClientsGetProtobufOthersJson) {
  auto created
    = send("POST", "/api/v1/namespaces/default/configmaps", typed_client,
           R"({"apiVersion":"v1","kind":"ConfigMap","metadata":
                          {"name":"cm"},"data":{"k":"v"}})");
  ASSERT_EQ(created.status, 201);
  EXPECT_EQ(created.content_type, protobuf_content_type);
  EXPECT_EQ(read_back(created.body).at("data").at("k"), "v");

  struct test_case {
    std::string name;
    std::string target;
    std::string accept;
    int status;
    std::string_view content_type;
  };
  const std::vector<test_case> cases = {
    {"item, typed client", "/api/v1/namespaces/default/configmaps/cm",
     std::string{typed_client}, 200, protobuf_content_type},
    {"item, protobuf only", "/api/v1/namespaces/default/configmaps/cm",
     "application/vnd.kubernetes.protobuf", 200, protobuf_content_type},
    {"item, json first", "/api/v1/namespaces/default/configmaps/cm",
     "application/json, application/vnd.kubernetes.protobuf", 200,
     "application/json"},
    {"list, typed client", "/api/v1/namespaces/default/configmaps",
     std::string{typed_client}, 200, protobuf_content_type},
    {"table stays json", "/api/v1/namespaces/default/configmaps",
     "application/json;as=Table;v=v1;g=meta.k8s.io", 200, "application/json"},
    {"missing: a protobuf Status", "/api/v1/namespaces/default/configmaps/no",
     std::string{typed_client}, 404, protobuf_content_type},
    {"discovery stays json", "/api/v1", std::string{typed_client}, 200,
     "application/json"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto r = send("GET", c.target, c.accept);
    EXPECT_EQ(r.status, c.status) << r.body;
    EXPECT_EQ(r.content_type, c.content_type);
  }
  auto list
    = send("GET", "/api/v1/namespaces/default/configmaps", typed_client);
  EXPECT_EQ(open_envelope(list.body).typemeta().kind(), "ConfigMapList");
  auto missing
    = send("GET", "/api/v1/namespaces/default/configmaps/no", typed_client);
  kube::Status s;
  ASSERT_TRUE(s.ParseFromString(open_envelope(missing.body).raw()));
  EXPECT_EQ(s.reason(), "NotFound");
}

TEST_F(ProtobufReplyHandler, FieldsOutsideTheSchemaFallBackToJson) {
  // The server keeps fields it never reads deep in a pod template; the
  // schema may not know them, and a JSON reply loses nothing.
  ASSERT_EQ(send("POST", "/apis/apps/v1/namespaces/default/deployments",
                 "application/json",
                 R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":
                     {"name":"web"},"spec":{"selector":{"matchLabels":
                     {"app":"web"}},"template":{"metadata":{"labels":
                     {"app":"web"}},"spec":{"containers":[{"name":"c",
                     "image":"nginx","securityContext":
                     {"notARealField":true}}]}}}})")
              .status,
            201);
  auto r = send("GET", "/apis/apps/v1/namespaces/default/deployments/web",
                typed_client);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/json");
  // A client that takes only protobuf gets it, without that field, as
  // kube-apiserver would have dropped it on write.
  auto only = send("GET", "/apis/apps/v1/namespaces/default/deployments/web",
                   "application/vnd.kubernetes.protobuf");
  EXPECT_EQ(only.content_type, protobuf_content_type);
  EXPECT_EQ(read_back(only.body).at("metadata").at("name"), "web");
}

TEST_F(ProtobufReplyHandler, WatchesStreamLengthFramedEvents) {
  auto w = send("GET", "/api/v1/namespaces?watch=true", typed_client);
  ASSERT_EQ(w.status, 200);
  ASSERT_TRUE(w.watch);
  EXPECT_EQ(w.watch->content_type, protobuf_watch_content_type);
  ASSERT_TRUE(w.watch->render);
  ASSERT_EQ(send("POST", "/api/v1/namespaces", "application/json",
                 R"({"apiVersion":"v1","kind":"Namespace","metadata":
                     {"name":"team"}})")
              .status,
            201);
  std::vector<watch_event> events;
  w.watch->events->poll(events);
  ASSERT_FALSE(events.empty());
  std::string frame = w.watch->render(events.back(), true);
  kube::WatchEvent ev;
  ASSERT_TRUE(ev.ParseFromString(frame.substr(4)));
  EXPECT_EQ(ev.type(), "ADDED");
  EXPECT_EQ(read_back(ev.object().raw()).at("metadata").at("name"), "team");
  // A JSON client's watch is unchanged.
  auto plain = send("GET", "/api/v1/namespaces?watch=true", "application/json");
  ASSERT_TRUE(plain.watch);
  EXPECT_EQ(plain.watch->content_type, "application/json");
  EXPECT_FALSE(plain.watch->render);
}

} // namespace
} // namespace tessera::apiserver
