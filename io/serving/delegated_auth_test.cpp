// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/serving/delegated_auth.hpp"
#include "io/serving/test_reviews.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace tessera::serving {
namespace {

using namespace std::chrono_literals;

struct fixture {
  fake_reviews reviews;
  manual_clock time;
  std::unique_ptr<delegated_auth> auth;

  explicit fixture(delegated_auth_config cfg = {}) {
    reviews.add_token("good", "alice", {"team"});
    reviews.add_token("viewer", "bob");
    reviews.add_token("root", "carol", {"system:masters"});
    reviews.allow("alice");
    cfg.tokens = &reviews;
    cfg.access = &reviews;
    cfg.time = &time;
    auto a = delegated_auth::make(std::move(cfg));
    EXPECT_TRUE(a) << a.err().message;
    auth = std::move(*a);
  }
};

auth_request get(std::string_view path, std::string_view authorization = {}) {
  return {"GET", path, authorization, {}};
}

TEST(delegated_auth, decisions_as_kube_schedulers_secure_port) {
  struct test_case {
    std::string name;
    std::string method, path, authorization;
    int status; // 0 = allowed
    std::string body_part;
  };
  std::vector<test_case> cases = {
    {"anonymous may probe", "GET", "/healthz", "", 0, ""},
    {"anonymous may probe readyz", "GET", "/readyz", "", 0, ""},
    {"anonymous may probe livez", "GET", "/livez", "", 0, ""},
    {"a health check's subpath is not always allowed", "GET", "/livez/ping", "",
     403, R"(cannot get path \"/livez/ping\")"},
    {"anonymous is forbidden metrics", "GET", "/metrics", "", 403,
     R"(forbidden: User \"system:anonymous\" cannot get path \"/metrics\")"},
    {"anonymous is forbidden configz", "GET", "/configz", "", 403,
     R"("reason":"Forbidden","details":{},"code":403)"},
    {"a valid token whose user may", "GET", "/metrics", "Bearer good", 0, ""},
    {"the scheme is case-insensitive", "GET", "/metrics", "bearer good", 0, ""},
    {"a valid token whose user may not", "GET", "/metrics", "Bearer viewer",
     403, R"(User \"bob\" cannot get path \"/metrics\": no RBAC policy)"},
    {"HEAD is the verb head", "HEAD", "/metrics", "Bearer viewer", 403,
     "cannot head path"},
    {"an invalid token", "GET", "/metrics", "Bearer nope", 401,
     R"("message":"Unauthorized","reason":"Unauthorized","code":401)"},
    {"an invalid token fails even an always-allowed path", "GET", "/healthz",
     "Bearer nope", 401, "Unauthorized"},
    {"another scheme is anonymous", "GET", "/metrics",
     "Basic Zm9vOmJhcg==", 403, "system:anonymous"},
    {"system:masters skips the review", "GET", "/configz", "Bearer root", 0,
     ""},
  };
  fixture f;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto d = f.auth->check({tc.method, tc.path, tc.authorization, {}});
    if (tc.status == 0) {
      EXPECT_TRUE(d.allowed) << d.body;
      continue;
    }
    EXPECT_FALSE(d.allowed);
    EXPECT_EQ(d.status, tc.status);
    EXPECT_EQ(d.content_type, "application/json");
    EXPECT_NE(d.body.find(tc.body_part), std::string::npos) << d.body;
  }
  // The groups the reviews saw: system:authenticated added to a token's
  // user, system:unauthenticated for anonymous.
  bool saw_alice = false, saw_anonymous = false;
  for (const auto& u : f.reviews.reviewed()) {
    if (u.name == "alice") {
      saw_alice = true;
      EXPECT_EQ(u.groups,
                (std::vector<std::string>{"team", "system:authenticated"}));
    }
    if (u.name == "system:anonymous") {
      saw_anonymous = true;
      EXPECT_EQ(u.groups, (std::vector<std::string>{"system:unauthenticated"}));
    }
  }
  EXPECT_TRUE(saw_alice);
  EXPECT_TRUE(saw_anonymous);
}

TEST(delegated_auth, reviews_are_cached_for_their_ttls) {
  delegated_auth_config cfg;
  cfg.token_ttl = 10s;
  cfg.authorized_ttl = 10s;
  cfg.unauthorized_ttl = 5s;
  fixture f{cfg};
  auto& r = f.reviews;
  EXPECT_TRUE(f.auth->check(get("/metrics", "Bearer good")).allowed);
  EXPECT_EQ(r.token_calls.load(), 1);
  EXPECT_EQ(r.access_calls.load(), 1);
  // Within the TTL: no new review, and no review needed at all.
  f.time.advance(9s);
  auto quick = f.auth->try_check(get("/metrics", "Bearer good"));
  ASSERT_TRUE(quick);
  EXPECT_TRUE(quick->allowed);
  EXPECT_EQ(r.token_calls.load(), 1);
  EXPECT_EQ(r.access_calls.load(), 1);
  // Another path is another access review, the token still cached.
  EXPECT_FALSE(f.auth->try_check(get("/configz", "Bearer good")));
  EXPECT_TRUE(f.auth->check(get("/configz", "Bearer good")).allowed);
  EXPECT_EQ(r.token_calls.load(), 1);
  EXPECT_EQ(r.access_calls.load(), 2);
  // Past the TTL: both reviewed again.
  f.time.advance(2s);
  EXPECT_FALSE(f.auth->try_check(get("/metrics", "Bearer good")));
  EXPECT_TRUE(f.auth->check(get("/metrics", "Bearer good")).allowed);
  EXPECT_EQ(r.token_calls.load(), 2);
  EXPECT_EQ(r.access_calls.load(), 3);

  // A refusal is cached for the unauthorized TTL, an unknown token too.
  EXPECT_EQ(f.auth->check(get("/metrics")).status, 403);
  EXPECT_EQ(f.auth->check(get("/metrics", "Bearer nope")).status, 401);
  int access = r.access_calls.load(), tokens = r.token_calls.load();
  f.time.advance(4s);
  EXPECT_EQ(f.auth->check(get("/metrics")).status, 403);
  EXPECT_EQ(f.auth->check(get("/metrics", "Bearer nope")).status, 401);
  EXPECT_EQ(r.access_calls.load(), access);
  EXPECT_EQ(r.token_calls.load(), tokens);
  f.time.advance(2s);
  EXPECT_EQ(f.auth->check(get("/metrics")).status, 403);
  EXPECT_EQ(r.access_calls.load(), access + 1);
  EXPECT_GT(f.auth->stats().cache_hits, 0u);

  // A refusal carrying an error is not cached (upstream treats it as a
  // failure of the review).
  r.refuse_with_error("expired", "token has expired");
  tokens = r.token_calls.load();
  EXPECT_EQ(f.auth->check(get("/metrics", "Bearer expired")).status, 401);
  EXPECT_EQ(f.auth->check(get("/metrics", "Bearer expired")).status, 401);
  EXPECT_EQ(r.token_calls.load(), tokens + 2);
}

TEST(delegated_auth, concurrent_requests_share_one_review) {
  fixture f;
  f.reviews.close_gate();
  std::vector<std::thread> requests;
  std::atomic<int> allowed{0};
  for (int i = 0; i < 4; ++i)
    requests.emplace_back([&] {
      if (f.auth->check(get("/metrics", "Bearer good")).allowed)
        ++allowed;
    });
  // Let every request reach the review before it answers.
  while (f.reviews.token_calls.load() == 0)
    std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(50ms);
  f.reviews.open_gate();
  for (auto& t : requests)
    t.join();
  EXPECT_EQ(allowed.load(), 4);
  EXPECT_EQ(f.reviews.token_calls.load(), 1);
  EXPECT_EQ(f.reviews.access_calls.load(), 1);
}

TEST(delegated_auth, api_server_down_answers_as_upstream) {
  fixture f;
  f.reviews.down = true;
  // The token cannot be reviewed: 401. Anonymous cannot be authorized:
  // 500 with the error. Neither failure is cached.
  EXPECT_EQ(f.auth->check(get("/metrics", "Bearer good")).status, 401);
  auto d = f.auth->check(get("/metrics"));
  EXPECT_EQ(d.status, 500);
  EXPECT_EQ(d.body,
            "Internal Server Error: \"/metrics\": connection refused\n");
  // Probes need no review.
  EXPECT_TRUE(f.auth->check(get("/healthz")).allowed);
  f.reviews.down = false;
  EXPECT_TRUE(f.auth->check(get("/metrics", "Bearer good")).allowed);
  EXPECT_EQ(f.reviews.token_calls.load(), 2);
}

TEST(delegated_auth, client_certificates) {
  fixture f;
  peer_certificate alice;
  alice.presented = true;
  alice.verified = true;
  alice.common_name = "alice";
  alice.organizations = {"ops"};
  auto d = f.auth->check({"GET", "/metrics", "Bearer viewer", alice});
  EXPECT_TRUE(d.allowed) << "the certificate wins over the token";
  EXPECT_EQ(f.reviews.token_calls.load(), 0);
  ASSERT_EQ(f.reviews.reviewed().size(), 1u);
  EXPECT_EQ(f.reviews.reviewed()[0].groups,
            (std::vector<std::string>{"ops", "system:authenticated"}));

  peer_certificate stranger = alice;
  stranger.verified = false;
  stranger.problem = "unable to get local issuer certificate";
  EXPECT_EQ(f.auth->check({"GET", "/healthz", "", stranger}).status, 401);

  peer_certificate no_cn = alice;
  no_cn.common_name.clear();
  EXPECT_EQ(f.auth->check({"GET", "/metrics", "", no_cn}).status, 403)
    << "a certificate without a CN authenticates no one";
}

TEST(delegated_auth, no_reviewers_and_no_anonymous) {
  delegated_auth_config cfg;
  auto a = delegated_auth::make(cfg);
  ASSERT_TRUE(a);
  // No token reviewer: a token is anonymous; no access reviewer: forbidden.
  auto d = (*a)->check(get("/metrics", "Bearer anything"));
  EXPECT_EQ(d.status, 403);
  EXPECT_NE(d.body.find("system:anonymous"), std::string::npos);
  EXPECT_TRUE((*a)->check(get("/readyz")).allowed);

  cfg.anonymous = false;
  auto strict = delegated_auth::make(cfg);
  ASSERT_TRUE(strict);
  EXPECT_EQ((*strict)->check(get("/readyz")).status, 401);
}

TEST(delegated_auth, always_allow_paths) {
  struct test_case {
    std::string name;
    std::vector<std::string> paths;
    std::string path;
    bool allowed;
  };
  std::vector<test_case> cases = {
    {"exact", {"/metrics"}, "/metrics", true},
    {"exact is not a prefix", {"/metrics"}, "/metrics/resources", false},
    {"trailing star", {"/debug/*"}, "/debug/pprof/heap", true},
    {"star matches the bare prefix", {"/debug/*"}, "/debug/", true},
    {"no paths", {}, "/healthz", false},
    {"slash", {"/"}, "/", true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    delegated_auth_config cfg;
    cfg.always_allow_paths = tc.paths;
    auto a = delegated_auth::make(cfg);
    ASSERT_TRUE(a) << a.err().message;
    EXPECT_EQ((*a)->check(get(tc.path)).allowed, tc.allowed);
  }
  delegated_auth_config bad;
  bad.always_allow_paths = {"/a*b"};
  auto a = delegated_auth::make(bad);
  ASSERT_FALSE(a);
  EXPECT_NE(a.err().message.find("--authorization-always-allow-paths: only a "
                                 "trailing * is allowed in \"/a*b\""),
            std::string::npos)
    << a.err().message;
  bad = {};
  bad.token_ttl = -1s;
  auto b = delegated_auth::make(bad);
  ASSERT_FALSE(b);
  EXPECT_NE(b.err().message.find("--authentication-token-webhook-cache-ttl"),
            std::string::npos);
}

} // namespace
} // namespace tessera::serving
