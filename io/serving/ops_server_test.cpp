// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/http_client.hpp"
#include "io/serving/ops_server.hpp"
#include "io/serving/self_signed.hpp"

#include <gtest/gtest.h>

#include <atomic>

namespace tessera::serving {
namespace {

// Providers over two switches, like the run verb's status.
struct fake_status {
  std::atomic<bool> synced{false};
  std::atomic<bool> leading{true};

  ops_providers providers() {
    ops_providers p;
    p.metrics = [] { return std::string{"# TYPE x counter\nx 1\n"}; };
    p.configz = [] { return std::string{R"({"componentconfig":{}})"}; };
    p.livez = {{"ping", [] { return std::string{}; }}};
    p.readyz
      = {{"ping", [] { return std::string{}; }},
         {"sched-handler-sync",
          [this] { return synced.load() ? std::string{} : "not synced"; }},
         {"leaderElection",
          [this] { return leading.load() ? std::string{} : "not leading"; }}};
    return p;
  }
};

TEST(route, status_codes_and_bodies) {
  fake_status st;
  auto p = st.providers();
  struct test_case {
    std::string name;
    std::string method, target;
    bool synced;
    int status;
    std::string body_part;
  };
  std::vector<test_case> cases = {
    {"livez ok", "GET", "/livez", false, 200, "ok"},
    {"healthz is livez", "GET", "/healthz", false, 200, "ok"},
    {"readyz before sync", "GET", "/readyz", false, 500,
     "[-]sched-handler-sync failed: reason withheld\n"},
    {"readyz lists passing checks too", "GET", "/readyz", false, 500,
     "[+]ping ok\n"},
    {"readyz after sync", "GET", "/readyz", true, 200, "ok"},
    {"readyz verbose", "GET", "/readyz?verbose", true, 200,
     "[+]leaderElection ok\nreadyz check passed\n"},
    {"excluded check", "GET", "/readyz?exclude=sched-handler-sync", false, 200,
     "ok"},
    {"one check failing", "GET", "/readyz/sched-handler-sync", false, 500,
     "sched-handler-sync failed"},
    {"one check passing", "GET", "/readyz/ping", false, 200, "ok"},
    {"unknown check", "GET", "/readyz/nope", true, 404, "not found"},
    {"metrics", "GET", "/metrics", false, 200, "x 1\n"},
    {"configz", "GET", "/configz", false, 200, "componentconfig"},
    {"unknown path", "GET", "/debug/pprof", false, 404, "not found"},
    {"post", "POST", "/metrics", false, 405, "not allowed"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    st.synced = tc.synced;
    auto r = route(p, tc.method, tc.target);
    EXPECT_EQ(r.status, tc.status);
    EXPECT_NE(r.body.find(tc.body_part), std::string::npos) << r.body;
  }
  EXPECT_EQ(route(p, "GET", "/metrics").content_type,
            "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(route(p, "GET", "/configz").content_type, "application/json");
  EXPECT_EQ(route({}, "GET", "/metrics").status, 404);
}

TEST(ops_server, plain_port_probes_follow_status) {
  fake_status st;
  ops_server_config cfg;
  cfg.bind_address = "127.0.0.1";
  cfg.secure_port = 0;
  cfg.port = any_port;
  auto server = ops_server::start(cfg, st.providers());
  ASSERT_TRUE(server) << server.err().message;
  ASSERT_NE((*server)->port(), 0);
  EXPECT_EQ((*server)->secure_port(), 0);

  io::client_config cc;
  cc.port = (*server)->port();
  io::http_client client{cc};
  struct step {
    std::string name;
    bool synced, leading;
    std::string target;
    int status;
  };
  // Start-up, sync, standby, back to leading: one keep-alive connection.
  std::vector<step> steps = {
    {"starting: live", false, true, "/livez", 200},
    {"starting: not ready", false, true, "/readyz", 500},
    {"synced: ready", true, true, "/readyz", 200},
    {"lost lead: not ready", true, false, "/readyz", 500},
    {"lost lead: still live", true, false, "/healthz", 200},
    {"leading again", true, true, "/readyz", 200},
    {"metrics", true, true, "/metrics", 200},
  };
  for (const auto& s : steps) {
    SCOPED_TRACE(s.name);
    st.synced = s.synced;
    st.leading = s.leading;
    auto r = client.get(s.target);
    ASSERT_TRUE(r) << r.err().message;
    EXPECT_EQ(r->status, s.status) << r->body;
  }
  (*server)->stop();
  (*server)->stop(); // idempotent
  io::http_client after{cc};
  EXPECT_FALSE(after.get("/livez"));
}

TEST(ops_server, self_signed_https_verifies_against_served_certificate) {
  fake_status st;
  st.synced = true;
  ops_server_config cfg;
  cfg.bind_address = "127.0.0.1";
  cfg.secure_port = any_port;
  auto server = ops_server::start(cfg, st.providers());
  ASSERT_TRUE(server) << server.err().message;
  const auto& pem = (*server)->certificate_pem();
  ASSERT_FALSE(pem.empty());

  io::client_config cc;
  cc.port = (*server)->secure_port();
  cc.tls.enabled = true;
  cc.tls.ca_pem = pem;
  cc.tls.server_name = "127.0.0.1";
  io::http_client client{cc};
  auto r = client.get("/readyz");
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "ok");

  // Another certificate as the CA: verification must fail.
  auto other = make_self_signed_certificate({});
  ASSERT_TRUE(other);
  cc.tls.ca_pem = other->certificate;
  io::http_client wrong{cc};
  EXPECT_FALSE(wrong.get("/readyz"));

  // Plain HTTP to the TLS port gets no HTTP answer.
  io::client_config plain;
  plain.port = (*server)->secure_port();
  plain.request_timeout = std::chrono::seconds(10);
  io::http_client plain_client{plain};
  auto pr = plain_client.get("/readyz");
  EXPECT_TRUE(!pr || pr->status != 200);
}

TEST(ops_server, bad_configuration_names_the_flag) {
  struct test_case {
    std::string name;
    ops_server_config cfg;
    std::string expected;
  };
  auto base = [] {
    ops_server_config c;
    c.bind_address = "127.0.0.1";
    c.secure_port = any_port;
    return c;
  };
  std::vector<test_case> cases;
  {
    auto c = base();
    c.bind_address = "not-an-ip";
    cases.push_back({"bad address", c, "--bind-address"});
  }
  {
    auto c = base();
    c.tls_cert_file = "/nonexistent/cert.pem";
    cases.push_back({"cert without key", c, "must be given together"});
  }
  {
    auto c = base();
    c.tls_cert_file = "/nonexistent/cert.pem";
    c.tls_private_key_file = "/nonexistent/key.pem";
    cases.push_back({"missing cert", c, "--tls-cert-file: cannot read"});
  }
  {
    auto c = base();
    c.port = 70000;
    cases.push_back({"port out of range", c, "--port: 70000"});
  }
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto s = ops_server::start(tc.cfg, {});
    ASSERT_FALSE(s);
    EXPECT_NE(s.err().message.find(tc.expected), std::string::npos)
      << s.err().message;
  }
}

TEST(ops_server, given_certificate_files_are_served) {
  auto pem = make_self_signed_certificate({});
  ASSERT_TRUE(pem);
  auto dir = std::string{::testing::TempDir()};
  std::string cert = dir + "/ops_cert.pem", key = dir + "/ops_key.pem";
  {
    std::FILE* f = std::fopen(cert.c_str(), "w");
    std::fputs(pem->certificate.c_str(), f);
    std::fclose(f);
    f = std::fopen(key.c_str(), "w");
    std::fputs(pem->private_key.c_str(), f);
    std::fclose(f);
  }
  ops_server_config cfg;
  cfg.bind_address = "127.0.0.1";
  cfg.secure_port = any_port;
  cfg.tls_cert_file = cert;
  cfg.tls_private_key_file = key;
  fake_status st;
  auto server = ops_server::start(cfg, st.providers());
  ASSERT_TRUE(server) << server.err().message;
  EXPECT_EQ((*server)->certificate_pem(), pem->certificate);
  io::client_config cc;
  cc.port = (*server)->secure_port();
  cc.tls.enabled = true;
  cc.tls.ca_pem = pem->certificate;
  cc.tls.server_name = "localhost";
  io::http_client client{cc};
  auto r = client.get("/livez");
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_EQ(r->status, 200);
}

} // namespace
} // namespace tessera::serving
