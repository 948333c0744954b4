// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/handler.hpp"

#include "io/apiserver/namespace_controller.hpp"
#include "io/apiserver/store.hpp"
#include "test/support/api_client.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace tessera::apiserver {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

/// One request to an api_handler over a fresh store, without sockets.
class HandlerTest : public ::testing::Test {
protected:
  HandlerTest() : st_(store_config{.seed = 5}), handler_(st_, {}) {
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

  static std::string pod(const std::string& name, const std::string& spec
                                                  = "") {
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name
           + R"("},"spec":{"containers":[{"name":"c","image":"busybox"}])"
           + spec + "}}";
  }

  template <class F> static bool eventually(F cond) {
    for (int i = 0; i < 500; ++i) {
      if (cond())
        return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
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
  ASSERT_EQ(send("POST", "/api/v1/namespaces",
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
  ASSERT_TRUE(eventually([&] {
    return send("GET", "/api/v1/namespaces/shop").status == 404;
  }));
  EXPECT_EQ(send("GET", "/api/v1/namespaces/shop/pods/p1").status, 404);
  EXPECT_EQ(ctl.finalized(), 1u);
  // Other namespaces are untouched and a new one of the same name works.
  EXPECT_EQ(send("GET", "/api/v1/namespaces/default").status, 200);
  ASSERT_EQ(
    send("POST", "/api/v1/namespaces", R"({"metadata":{"name":"shop"}})")
      .status,
    201);
  EXPECT_EQ(send("POST", "/api/v1/namespaces/shop/pods", pod("p3")).status,
            201);
}

} // namespace
} // namespace tessera::apiserver
