// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
//
// The reviews over a real REST client against the embedded API server, and
// the secure port deciding with them over TLS.
#include "io/apiserver/reviews.hpp"
#include "io/apiserver/server.hpp"
#include "io/rest_client.hpp"
#include "io/serving/ops_server.hpp"
#include "io/serving/review_client.hpp"
#include "io/serving/test_reviews.hpp"
#include "test/support/api_client.hpp"
#include "test/support/wait.hpp"

#include <gtest/gtest.h>

#include <future>
#include <thread>

namespace tessera::serving {
namespace {

using namespace std::chrono_literals;

constexpr const char* cluster_token = "s3cret";

class Reviews : public ::testing::Test {
protected:
  void SetUp() override {
    apiserver::server_config cfg;
    cfg.handler.token = cluster_token;
    server_ = test::start_test_server(store_, std::move(cfg));
    ASSERT_TRUE(server_);
    auto rc = test::client_config_for(server_->url());
    rc.target.token = cluster_token;
    rc.request_timeout = 5s;
    client_ = std::make_unique<io::rest_client>(std::move(rc));
    reviews_ = make_rest_review_client(*client_);
  }
  void TearDown() override {
    if (server_)
      server_->stop();
  }
  std::uint64_t api_requests() const {
    return server_->handler().stats().requests.load();
  }

  apiserver::store store_;
  std::unique_ptr<apiserver::api_server> server_;
  std::unique_ptr<io::rest_client> client_;
  std::unique_ptr<review_client> reviews_;
};

TEST_F(Reviews, EmbeddedServerAuthenticatesItsTokenOnly) {
  auto good = reviews_->review_token(cluster_token);
  ASSERT_TRUE(good) << good.err().message;
  EXPECT_TRUE(good->authenticated);
  EXPECT_EQ(good->user.name, apiserver::token_user);
  EXPECT_EQ(good->user.groups,
            std::vector<std::string>{"system:authenticated"});
  auto bad = reviews_->review_token("guess");
  ASSERT_TRUE(bad) << bad.err().message;
  EXPECT_FALSE(bad->authenticated);

  user_info admin{std::string{apiserver::token_user}, "", {}, {}};
  auto allowed = reviews_->review_access(admin, "/metrics", "get");
  ASSERT_TRUE(allowed) << allowed.err().message;
  EXPECT_TRUE(allowed->allowed);
  user_info anonymous{"system:anonymous", "", {"system:unauthenticated"}, {}};
  auto refused = reviews_->review_access(anonymous, "/metrics", "get");
  ASSERT_TRUE(refused) << refused.err().message;
  EXPECT_FALSE(refused->allowed);
  EXPECT_FALSE(refused->reason.empty());
}

TEST_F(Reviews, BodiesAreTheV1Objects) {
  EXPECT_EQ(token_review_body("t"),
            R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview",)"
            R"("spec":{"token":"t"}})");
  user_info u{"u", "42", {"g1", "g2"}, {{"scopes", {"a"}}}};
  EXPECT_EQ(access_review_body(u, "/metrics", "get"),
            R"({"apiVersion":"authorization.k8s.io/v1",)"
            R"("kind":"SubjectAccessReview","spec":{"nonResourceAttributes":)"
            R"({"path":"/metrics","verb":"get"},"user":"u","groups":)"
            R"(["g1","g2"],"uid":"42","extra":{"scopes":["a"]}}})");
  EXPECT_FALSE(parse_token_review("not json"));
  auto t = parse_token_review(
    R"({"status":{"authenticated":true,"user":{"username":"x","uid":"1",)"
    R"("groups":["a"],"extra":{"k":["v"]}}}})");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->user, (user_info{"x", "1", {"a"}, {{"k", {"v"}}}}));
}

TEST(ClientCa, FromTheConfigMapsKey) {
  struct test_case {
    std::string name;
    std::string json;
    bool ok;
    std::optional<std::string> ca;
  };
  std::vector<test_case> cases = {
    {"the key", R"({"data":{"client-ca-file":"PEM","other":"x"}})", true,
     "PEM"},
    {"front-proxy only", R"({"data":{"requestheader-client-ca-file":"PEM"}})",
     true, std::nullopt},
    {"no data", R"({"metadata":{}})", true, std::nullopt},
    {"not JSON", "<html>", false, std::nullopt},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto ca = client_ca_of_configmap(tc.json);
    ASSERT_EQ(static_cast<bool>(ca), tc.ok);
    if (ca) {
      EXPECT_EQ(*ca, tc.ca);
    }
  }
}

TEST_F(Reviews, ClientCaLookupFindsNoConfigMapInTheEmbeddedCluster) {
  auto ca = lookup_client_ca(*client_);
  ASSERT_TRUE(ca) << ca.err().message;
  EXPECT_FALSE(*ca) << "the embedded cluster serves no ConfigMaps";
}

/// A secure port deciding with `auth`, and a TLS client of it.
struct secure_port {
  std::unique_ptr<ops_server> server;

  explicit secure_port(std::shared_ptr<delegated_auth> auth) {
    ops_server_config cfg;
    cfg.bind_address = "127.0.0.1";
    cfg.secure_port = any_port;
    cfg.auth = std::move(auth);
    ops_providers p;
    p.metrics = [] { return std::string{"x 1\n"}; };
    p.configz = [] { return std::string{"{}"}; };
    p.livez = {{"ping", [] { return std::string{}; }}};
    p.readyz = p.livez;
    auto s = ops_server::start(cfg, std::move(p));
    EXPECT_TRUE(s) << s.err().message;
    if (s)
      server = std::move(*s);
  }
  io::http_client client() const {
    io::client_config cc;
    cc.port = server->secure_port();
    cc.tls.enabled = true;
    cc.tls.ca_pem = server->certificate_pem();
    cc.tls.server_name = "127.0.0.1";
    cc.request_timeout = 20s;
    return io::http_client{cc};
  }
};

int status_of(io::http_client& c, const std::string& target,
              const std::string& token = {}) {
  io::http_request r;
  r.target = target;
  if (!token.empty())
    r.headers.push_back({"Authorization", "Bearer " + token});
  auto got = c.request(r);
  return got ? got->status : -1;
}

TEST_F(Reviews, SecurePortDelegatesToTheApiServer) {
  delegated_auth_config cfg;
  cfg.tokens = reviews_.get();
  cfg.access = reviews_.get();
  auto auth = delegated_auth::make(cfg);
  ASSERT_TRUE(auth);
  std::shared_ptr<delegated_auth> shared = std::move(*auth);
  secure_port port{shared};
  ASSERT_TRUE(port.server);
  auto c = port.client();

  struct test_case {
    std::string name;
    std::string target, token;
    int status;
  };
  std::vector<test_case> cases = {
    {"probe without credentials", "/healthz", "", 200},
    {"readyz without credentials", "/readyz", "", 200},
    {"metrics without credentials", "/metrics", "", 403},
    {"configz without credentials", "/configz", "", 403},
    {"metrics with the cluster's token", "/metrics", cluster_token, 200},
    {"configz with the cluster's token", "/configz", cluster_token, 200},
    {"metrics with another token", "/metrics", "guess", 401},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(status_of(c, tc.target, tc.token), tc.status);
  }
  // Within the TTL the answers come from the cache: no API request.
  auto before = api_requests();
  EXPECT_EQ(status_of(c, "/metrics", cluster_token), 200);
  EXPECT_EQ(status_of(c, "/metrics"), 403);
  EXPECT_EQ(status_of(c, "/metrics", "guess"), 401);
  EXPECT_EQ(api_requests(), before);

  // The API server goes away (its connections close): a new token gets
  // 401, anonymous a 500, the probes still answer, and nothing hangs.
  server_.reset();
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(status_of(c, "/metrics", "another"), 401);
  EXPECT_EQ(status_of(c, "/configz", "another"), 401);
  io::http_request r;
  r.target = "/configz/x";
  auto down = c.request(r);
  ASSERT_TRUE(down) << down.err().message;
  EXPECT_EQ(down->status, 500);
  EXPECT_NE(down->body.find("Internal Server Error: \"/configz/x\""),
            std::string::npos)
    << down->body;
  EXPECT_EQ(status_of(c, "/livez"), 200);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
}

TEST(SecurePort, ASlowReviewDelaysOnlyItsOwnRequest) {
  fake_reviews reviews;
  reviews.add_token("t", "alice");
  reviews.allow("alice");
  delegated_auth_config cfg;
  cfg.tokens = &reviews;
  cfg.access = &reviews;
  auto auth = delegated_auth::make(cfg);
  ASSERT_TRUE(auth);
  secure_port port{std::move(*auth)};
  ASSERT_TRUE(port.server);
  reviews.close_gate();
  auto slow = std::async(std::launch::async, [&] {
    auto c = port.client();
    return status_of(c, "/metrics", "t");
  });
  ASSERT_TRUE(test::eventually([&] { return reviews.token_calls.load() == 1; }))
    << "the review never started";
  // Meanwhile, on other connections: probes, and an anonymous request that
  // needs no token review but waits for its access review elsewhere.
  auto c = port.client();
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(status_of(c, "/healthz"), 200);
  EXPECT_EQ(status_of(c, "/readyz"), 200);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
  EXPECT_EQ(slow.wait_for(0s), std::future_status::timeout);
  reviews.open_gate();
  EXPECT_EQ(slow.get(), 200);
  // Stopping with a review stuck ends it rather than waiting.
  reviews.close_gate();
  auto stuck = std::async(std::launch::async, [&] {
    auto c2 = port.client();
    return status_of(c2, "/configz", "t");
  });
  ASSERT_TRUE(
    test::eventually([&] { return reviews.access_calls.load() == 2; }));
  auto s0 = std::chrono::steady_clock::now();
  port.server->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - s0, 5s);
  // The waiting request got its answer (the review failed: 500) before
  // the server stopped.
  EXPECT_EQ(stuck.get(), 500);
  EXPECT_LT(std::chrono::steady_clock::now() - s0, 5s);
}

} // namespace
} // namespace tessera::serving
