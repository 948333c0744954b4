// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/api_objects.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace tessera::io {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

json::value parse(const std::string& s) {
  return json::parse(s);
}

TEST(ApiObjects, Binding) {
  auto v = parse(encode_binding("default", "p1", "u-1", "node-000001"));
  EXPECT_EQ(v.at("kind").as_string(), "Binding");
  EXPECT_EQ(v.at("apiVersion").as_string(), "v1");
  EXPECT_EQ(v.at("metadata").at("name").as_string(), "p1");
  EXPECT_EQ(v.at("metadata").at("namespace").as_string(), "default");
  EXPECT_EQ(v.at("metadata").at("uid").as_string(), "u-1");
  EXPECT_EQ(v.at("target").at("kind").as_string(), "Node");
  EXPECT_EQ(v.at("target").at("name").as_string(), "node-000001");
}

TEST(ApiObjects, PodStatusPatch) {
  condition_patch c{"PodScheduled", "False", "Unschedulable", "0/3 nodes",
                    wall_time{std::chrono::seconds(1786082091)}};
  auto v = parse(encode_pod_status_patch({c}, true, "n3"));
  const auto& cond = v.at("status").at("conditions").at(0);
  EXPECT_EQ(cond.at("type").as_string(), "PodScheduled");
  EXPECT_EQ(cond.at("status").as_string(), "False");
  EXPECT_EQ(cond.at("reason").as_string(), "Unschedulable");
  EXPECT_EQ(cond.at("message").as_string(), "0/3 nodes");
  EXPECT_TRUE(cond.at("lastProbeTime").is_null());
  EXPECT_EQ(cond.at("lastTransitionTime").as_string(), "2026-08-07T05:54:51Z");
  EXPECT_EQ(v.at("status").at("nominatedNodeName").as_string(), "n3");
  EXPECT_FALSE(v.as_object().contains("metadata")) << "no UID, no precondition";
  v = parse(encode_pod_status_patch({c}, false, {}, "uid-1"));
  EXPECT_EQ(v.at("metadata").at("uid").as_string(), "uid-1");

  c.last_transition.reset();
  v = parse(encode_pod_status_patch({c}, false, {}));
  EXPECT_FALSE(v.at("status")
                 .at("conditions")
                 .at(0)
                 .as_object()
                 .contains("lastTransitionTime"));
  EXPECT_FALSE(v.at("status").as_object().contains("nominatedNodeName"));
  v = parse(encode_pod_status_patch({}, true, {}));
  EXPECT_TRUE(v.at("status").at("nominatedNodeName").is_null());
}

TEST(ApiObjects, Status) {
  auto s = decode_status(R"({"kind":"Status","status":"Failure","message":)"
                         R"("pods \"p1\" not found","reason":"NotFound",)"
                         R"("code":404})",
                         404);
  EXPECT_EQ(s.code, 404);
  EXPECT_EQ(s.reason, "NotFound");
  EXPECT_EQ(s.message, "pods \"p1\" not found");
  s = decode_status("404 page not found\n", 404);
  EXPECT_EQ(s.message, "404 page not found");
  s = decode_status("", 503);
  EXPECT_EQ(s.message, "HTTP 503");
}

TEST(ApiObjects, LeaseRoundTrip) {
  lease_record r;
  r.holder_identity = "host_1234";
  r.lease_duration_seconds = 15;
  r.acquire_time = wall_time{std::chrono::microseconds(1786082091000001)};
  r.renew_time = wall_time{std::chrono::microseconds(1786082101123456)};
  r.lease_transitions = 3;
  r.resource_version = "812";
  std::string text = encode_lease("kube-system", "kube-scheduler", r);
  auto v = parse(text);
  EXPECT_EQ(v.at("metadata").at("resourceVersion").as_string(), "812");
  EXPECT_EQ(v.at("spec").at("renewTime").as_string(),
            "2026-08-07T05:55:01.123456Z");
  auto back = decode_lease(text);
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_TRUE(back->same_record(r));
  EXPECT_EQ(back->resource_version, "812");
  EXPECT_FALSE(decode_lease(R"({"spec":{"renewTime":"yesterday"}})"));
}

TEST(ApiObjects, Events) {
  event_record e;
  e.ns = "default";
  e.name = "p1.18a";
  e.regarding = {"Pod", "v1", "default", "p1", "u1", "7"};
  e.type = "Warning";
  e.reason = "FailedScheduling";
  e.action = "Scheduling";
  e.note = "0/3 nodes are available";
  e.reporting_controller = "default-scheduler";
  e.reporting_instance = "default-scheduler-host";
  e.event_time = wall_time{std::chrono::microseconds(1786082091000000)};
  auto v1 = parse(encode_event_v1(e));
  EXPECT_EQ(v1.at("apiVersion").as_string(), "events.k8s.io/v1");
  EXPECT_EQ(v1.at("regarding").at("uid").as_string(), "u1");
  EXPECT_EQ(v1.at("note").as_string(), e.note);
  EXPECT_EQ(v1.at("eventTime").as_string(), "2026-08-07T05:54:51.000000Z");
  EXPECT_FALSE(v1.as_object().contains("series"));
  auto core = parse(encode_event_core(e));
  EXPECT_EQ(core.at("involvedObject").at("name").as_string(), "p1");
  EXPECT_EQ(core.at("message").as_string(), e.note);
  EXPECT_EQ(core.at("source").at("component").as_string(), "default-scheduler");
  EXPECT_EQ(core.at("count").as_int64(), 1);
  e.series_count = 5;
  e.last_observed = e.event_time + 90s;
  auto patch = parse(encode_event_series_patch_v1(e));
  EXPECT_EQ(patch.at("series").at("count").as_int64(), 5);
  EXPECT_EQ(patch.at("series").at("lastObservedTime").as_string(),
            "2026-08-07T05:56:21.000000Z");
  auto cpatch = parse(encode_event_count_patch_core(e));
  EXPECT_EQ(cpatch.at("count").as_int64(), 5);
}

TEST(ApiObjects, ExecCredential) {
  const std::string v1 = "client.authentication.k8s.io/v1";
  auto c = decode_exec_credential(
    R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",)"
    R"("status":{"token":"t0k","expirationTimestamp":"2026-08-07T05:54:51Z"}})",
    v1);
  ASSERT_TRUE(c) << c.err().message;
  EXPECT_EQ(c->token, "t0k");
  ASSERT_TRUE(c->expiry);
  struct test_case {
    std::string name;
    std::string text;
    std::string fragment;
  };
  std::vector<test_case> bad = {
    {"not json", "hello", "not a JSON object"},
    {"version", R"({"apiVersion":"x","kind":"ExecCredential"})",
     "expected \"client.authentication.k8s.io/v1\""},
    {"no status",
     R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential"})",
     "no status"},
    {"empty status",
     R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}})",
     "neither a token"},
    {"half a certificate",
     R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientKeyData":"k"}})",
     "only one of"},
  };
  for (const auto& tc : bad) {
    SCOPED_TRACE(tc.name);
    auto r = decode_exec_credential(tc.text, v1);
    ASSERT_FALSE(r);
    EXPECT_NE(r.err().message.find(tc.fragment), std::string::npos)
      << r.err().message;
  }
  exec_cluster_info info{"https://x:6443", "api", false, "PEM"};
  auto v = parse(encode_exec_info(v1, &info));
  EXPECT_EQ(v.at("spec").at("interactive").as_bool(), false);
  EXPECT_EQ(v.at("spec").at("cluster").at("server").as_string(),
            "https://x:6443");
  EXPECT_EQ(
    v.at("spec").at("cluster").at("certificate-authority-data").as_string(),
    "UEVN");
}

TEST(ApiObjects, PeekWatchLine) {
  auto p = peek_watch_line(
    R"({"type":"MODIFIED","object":{"metadata":{"name":"p","namespace":"d",)"
    R"("resourceVersion":"9","uid":"u1"},"spec":{"containers":7,)"
    R"("schedulerName":"s"}}})");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->type, "MODIFIED");
  EXPECT_EQ(p->object.resource_version, "9");
  EXPECT_EQ(p->object.ns, "d");
  EXPECT_EQ(p->object.name, "p");
  EXPECT_EQ(p->object.uid, "u1");
  EXPECT_EQ(p->object.scheduler_name, "s");
  EXPECT_EQ(p->object.node_name, "");
  EXPECT_FALSE(peek_watch_line("{\"type\":"));
  EXPECT_FALSE(peek_watch_line("[]"));
}

} // namespace
} // namespace tessera::io
