// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// rest_client against the embedded API server (typed calls, TLS with client
// certificates, tokens, exec plugins) and against a scripted raw server
// (Retry-After, 401 refresh, cancellation).
#include "io/apiserver/resources.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "io/rest_client.hpp"
#include "test/support/api_client.hpp"
#include "test/support/temp_dir.hpp"
#include "test/support/wait.hpp"

#include <arpa/inet.h>
#include <boost/json.hpp>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <poll.h>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace tessera::io {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace std::chrono_literals;

const apiserver::resource_info& pods() {
  return *apiserver::find_resource("", "v1", "pods");
}

std::string minimal_pod_json(const std::string& name) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name
         + R"("},"spec":{"containers":[{"name":"c","image":"busybox"}]}})";
}

/// A private directory for token files, plugins and certificates.
using work_dir = test::temp_dir;

std::string read_text(const std::string& path) {
  std::ifstream in{path};
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

rest_client_config config_for(const std::string& url) {
  auto rc = test::client_config_for(url);
  rc.request_timeout = 5s;
  return rc;
}

// a scripted HTTP/1.1 server

/// Answers each request with `respond(request_head)`; an empty answer
/// means "never answer" (until stopped).
class raw_server {
public:
  explicit raw_server(std::function<std::string(const std::string&)> respond)
    : respond_(std::move(respond)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(fd_, 16);
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread{[this] { accept_loop(); }};
  }
  ~raw_server() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
    for (auto& t : conns_)
      t.join();
  }
  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(port_);
  }
  int requests() const {
    return requests_.load();
  }
  /// TCP connections accepted so far.
  int connections() const {
    return connections_.load();
  }

private:
  void accept_loop() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0)
        continue;
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0)
        continue;
      ++connections_;
      conns_.emplace_back([this, c] { serve(c); });
    }
  }
  void serve(int c) {
    std::string buf;
    char chunk[4096];
    while (!stop_) {
      auto end = buf.find("\r\n\r\n");
      if (end == std::string::npos) {
        pollfd p{c, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0)
          continue;
        auto n = ::read(c, chunk, sizeof chunk);
        if (n <= 0)
          break;
        buf.append(chunk, static_cast<std::size_t>(n));
        continue;
      }
      std::string head = buf.substr(0, end + 4);
      std::size_t body = 0;
      if (auto cl = head.find("Content-Length: "); cl != std::string::npos)
        body = std::stoul(head.substr(cl + 16));
      while (buf.size() < end + 4 + body) {
        auto n = ::read(c, chunk, sizeof chunk);
        if (n <= 0)
          break;
        buf.append(chunk, static_cast<std::size_t>(n));
      }
      buf.erase(0, end + 4 + body);
      ++requests_;
      std::string answer = respond_(head);
      if (answer.empty()) {
        while (!stop_)
          std::this_thread::sleep_for(10ms);
        break;
      }
      (void)!::write(c, answer.data(), answer.size());
    }
    ::close(c);
  }

  std::function<std::string(const std::string&)> respond_;
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::atomic<int> connections_{0};
  std::thread thread_;
  std::vector<std::thread> conns_;
};

std::string answer(int code, const std::string& body,
                   const std::string& extra_headers = "") {
  return "HTTP/1.1 " + std::to_string(code)
         + " X\r\nContent-Type: "
           "application/json\r\nContent-Length: "
         + std::to_string(body.size()) + "\r\n" + extra_headers + "\r\n" + body;
}

// against the embedded server

class RestClientTest : public ::testing::Test {
protected:
  void start(apiserver::server_config cfg = {}) {
    server_ = test::start_test_server(store_, std::move(cfg));
  }
  void TearDown() override {
    if (server_)
      server_->stop();
  }
  apiserver::store store_;
  std::unique_ptr<apiserver::api_server> server_;
};

TEST_F(RestClientTest, TypedCallsMapStatusErrors) {
  start();
  ASSERT_TRUE(store_.create(pods(), "default", minimal_pod_json("p1")));
  ASSERT_TRUE(store_.create(pods(), "default", minimal_pod_json("p2")));
  rest_client c{config_for(server_->url())};
  auto p1 = store_.get(pods(), "default", "p1");
  ASSERT_TRUE(p1);
  std::string uid{
    json::parse((*p1)->json()).at("metadata").at("uid").as_string()};

  EXPECT_FALSE(c.bind("default", "p1", uid, "n1"));
  error again = c.bind("default", "p1", uid, "n2");
  EXPECT_EQ(again.code, ec::conflict);
  EXPECT_EQ(again.message, "Operation cannot be fulfilled on pods/binding "
                           "\"p1\": pod p1 is already assigned to node "
                           "\"n1\"");
  error gone = c.bind("default", "nope", "", "n1");
  EXPECT_EQ(gone.code, ec::not_found);
  EXPECT_EQ(gone.message, "pods \"nope\" not found");
  error wrong_uid = c.bind("default", "p2", "not-the-uid", "n1");
  EXPECT_EQ(wrong_uid.code, ec::conflict);

  condition_patch cond{"PodScheduled", "False", "Unschedulable",
                       "0/1 nodes are available", std::nullopt};
  EXPECT_FALSE(c.patch_pod_status("default", "p2",
                                  encode_pod_status_patch({cond}, true, "n9")));
  auto p2 = json::parse((*store_.get(pods(), "default", "p2"))->json());
  EXPECT_EQ(p2.at("status").at("nominatedNodeName").as_string(), "n9");
  bool found = false;
  for (const auto& cv : p2.at("status").at("conditions").as_array())
    if (cv.at("type").as_string() == "PodScheduled") {
      found = true;
      EXPECT_EQ(cv.at("message").as_string(), "0/1 nodes are available");
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(c.patch_pod_status("default", "nope", "{}").code, ec::not_found);

  EXPECT_FALSE(c.delete_pod("default", "p2"));
  EXPECT_EQ(c.delete_pod("default", "p2").code, ec::not_found);
  EXPECT_TRUE(c.has_events_v1());

  // Leases: create, conflicting update, update.
  auto none = c.get_lease("kube-system", "l1");
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  lease_record r;
  r.holder_identity = "me";
  r.lease_duration_seconds = 15;
  r.renew_time = std::chrono::system_clock::now();
  auto created = c.create_lease("kube-system", "l1", r);
  ASSERT_TRUE(created) << created.err().message;
  EXPECT_FALSE(created->resource_version.empty());
  EXPECT_EQ(c.create_lease("kube-system", "l1", r).err().code, ec::conflict);
  lease_record stale = *created;
  stale.resource_version = "1";
  EXPECT_EQ(c.update_lease("kube-system", "l1", stale).err().code,
            ec::conflict);
  lease_record next = *created;
  next.lease_transitions = 4;
  auto updated = c.update_lease("kube-system", "l1", next);
  ASSERT_TRUE(updated) << updated.err().message;
  EXPECT_EQ(updated->lease_transitions, 4);
  auto got = c.get_lease("kube-system", "l1");
  ASSERT_TRUE(got && *got);
  EXPECT_EQ((*got)->holder_identity, "me");
}

TEST_F(RestClientTest, BearerTokenAndExecPlugin) {
  apiserver::server_config cfg;
  cfg.handler.token = "s3cret";
  start(cfg);
  work_dir dir;
  auto ok = [](rest_client& c) {
    http_request r;
    r.target = "/api/v1/namespaces";
    auto resp = c.request(r);
    return resp ? resp->status : -1;
  };
  {
    rest_client c{config_for(server_->url())};
    EXPECT_EQ(ok(c), 401);
  }
  {
    auto rc = config_for(server_->url());
    rc.target.token = "s3cret";
    rest_client c{rc};
    EXPECT_EQ(ok(c), 200);
  }
  {
    // A token file rotated while running: the 401 makes the client
    // re-read it and retry.
    auto rc = config_for(server_->url());
    rc.target.token_file = dir.write("token", "old\n");
    rest_client c{rc};
    EXPECT_EQ(ok(c), 401);
    dir.write("token", "s3cret\n");
    EXPECT_EQ(ok(c), 200);
  }
  {
    // An exec plugin, which also receives KUBERNETES_EXEC_INFO.
    std::string info = dir.file("exec-info");
    std::string script = dir.write(
      "cred.sh",
      "#!/bin/sh\nprintf '%s' \"$KUBERNETES_EXEC_INFO\" > " + info
        + "\necho '{\"apiVersion\":\"client.authentication.k8s.io/v1\","
          "\"kind\":\"ExecCredential\",\"status\":{\"token\":\"'$MY_TOKEN'\"}}'"
          "\n",
      true);
    auto rc = config_for(server_->url());
    exec_config ex;
    ex.api_version = "client.authentication.k8s.io/v1";
    ex.command = script;
    ex.env = {{"MY_TOKEN", "s3cret"}};
    ex.interactive_mode = "Never";
    ex.provide_cluster_info = true;
    rc.target.exec = ex;
    rest_client c{rc};
    EXPECT_EQ(ok(c), 200);
    auto doc = json::parse(read_text(info));
    EXPECT_EQ(doc.at("kind").as_string(), "ExecCredential");
    EXPECT_EQ(doc.at("spec").at("cluster").at("server").as_string(),
              server_->url());
  }
  {
    auto rc = config_for(server_->url());
    exec_config ex;
    ex.api_version = "client.authentication.k8s.io/v1beta1";
    ex.command = dir.write("fail.sh", "#!/bin/sh\nexit 3\n", true);
    ex.install_hint = "install the plugin";
    rc.target.exec = ex;
    rest_client c{rc};
    http_request r;
    r.target = "/api/v1/namespaces";
    auto resp = c.request(r);
    ASSERT_FALSE(resp);
    EXPECT_NE(resp.err().message.find("exit status 3"), std::string::npos)
      << resp.err().message;
  }
}

/// Generates a CA, a server certificate for 127.0.0.1 and a client
/// certificate with the openssl CLI.
struct pki {
  explicit pki(const work_dir& d) : dir(d) {
    run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes "
        "-keyout "
        + d.file("ca.key") + " -out " + d.file("ca.crt")
        + " -days 2 -subj /CN=test-ca");
    run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes "
        "-keyout "
        + d.file("other-ca.key") + " -out " + d.file("other-ca.crt")
        + " -days 2 -subj /CN=other-ca");
    issue("server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1");
    issue("client", "/CN=tessera", "extendedKeyUsage=clientAuth");
  }
  void issue(const std::string& name, const std::string& subject,
             const std::string& ext) {
    run("openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes "
        "-keyout "
        + dir.file(name + ".key") + " -out " + dir.file(name + ".csr")
        + " -subj " + subject);
    dir.write(name + ".ext", ext + "\n");
    run("openssl x509 -req -in " + dir.file(name + ".csr") + " -CA "
        + dir.file("ca.crt") + " -CAkey " + dir.file("ca.key")
        + " -CAcreateserial -days 2 -extfile " + dir.file(name + ".ext")
        + " -out " + dir.file(name + ".crt"));
  }
  void run(const std::string& cmd) {
    int rc = std::system((cmd + " >/dev/null 2>&1").c_str());
    ASSERT_EQ(rc, 0) << cmd;
  }
  const work_dir& dir;
};

TEST_F(RestClientTest, MutualTls) {
  work_dir dir;
  pki certs{dir};
  apiserver::server_config cfg;
  cfg.tls_cert_file = dir.file("server.crt");
  cfg.tls_key_file = dir.file("server.key");
  cfg.tls_client_ca_file = dir.file("ca.crt");
  start(cfg);
  ASSERT_EQ(server_->url().rfind("https://", 0), 0u);
  auto status = [](rest_client_config rc) -> std::string {
    rest_client c{std::move(rc)};
    http_request r;
    r.target = "/api/v1/nodes";
    auto resp = c.request(r);
    return resp ? std::to_string(resp->status) : resp.err().message;
  };
  auto base = config_for(server_->url());
  base.target.tls.ca_pem = read_text(dir.file("ca.crt"));
  base.target.tls.client_cert_pem = read_text(dir.file("client.crt"));
  base.target.tls.client_key_pem = read_text(dir.file("client.key"));
  EXPECT_EQ(status(base), "200");

  auto no_client_cert = base;
  no_client_cert.target.tls.client_cert_pem.clear();
  no_client_cert.target.tls.client_key_pem.clear();
  EXPECT_NE(status(no_client_cert), "200");

  auto wrong_ca = base;
  wrong_ca.target.tls.ca_pem = read_text(dir.file("other-ca.crt"));
  std::string msg = status(wrong_ca);
  EXPECT_NE(msg.find("certificate verify failed"), std::string::npos) << msg;

  auto insecure = base;
  insecure.target.tls.ca_pem.clear();
  insecure.target.tls.insecure_skip_verify = true;
  EXPECT_EQ(status(insecure), "200");

  auto wrong_name = base;
  wrong_name.target.tls.server_name = "kubernetes.default";
  EXPECT_NE(status(wrong_name), "200");
}

// against the scripted server

TEST(RestClientRaw, RetryAfterIsHonoured) {
  std::atomic<int> n{0};
  raw_server srv{[&](const std::string&) {
    switch (n++) {
    case 0:
      return answer(429, R"({"kind":"Status","code":429})",
                    "Retry-After: 0\r\n");
    case 1:
      return answer(503, "{}", "Retry-After: 0\r\n");
    case 2:
      return answer(200, R"({"kind":"NodeList","items":[]})");
    case 3:
      // 500 without Retry-After: returned as is.
      return answer(500, R"({"kind":"Status","message":"boom","code":500})");
    default:
      return answer(200, "{}");
    }
  }};
  rest_client c{config_for(srv.url())};
  http_request r;
  r.target = "/api/v1/nodes";
  auto resp = c.request(r);
  ASSERT_TRUE(resp) << resp.err().message;
  EXPECT_EQ(resp->status, 200);
  EXPECT_EQ(srv.requests(), 3);
  EXPECT_EQ(c.stats().retries.load(), 2u);
  auto failed = c.call(r);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.err().code, ec::unavailable);
  EXPECT_EQ(failed.err().message, "boom");
  EXPECT_EQ(srv.requests(), 4);
}

TEST(RetryDelay, RetryAfterSecondsUpToTheCap) {
  struct test_case {
    std::string name;
    /// The header's value; nullopt: no header.
    std::optional<std::string> retry_after;
    std::optional<std::chrono::milliseconds> delay;
  };
  const auto cap = rest_client_config{}.max_retry_after;
  const std::vector<test_case> cases{
    {"no header", std::nullopt, std::nullopt},
    {"zero", "0", 0ms},
    {"seconds below the cap", "2", 2s},
    {"the cap", "10", 10s},
    {"an hour is cut to the cap", "3600", 10s},
    {"negative", "-1", std::nullopt},
    {"an HTTP date", "Wed, 21 Oct 2015 07:28:00 GMT", std::nullopt},
  };
  ASSERT_EQ(cap, 10s) << "the default cap";
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    http_response r;
    r.status = 429;
    if (tc.retry_after)
      r.headers.push_back({"Retry-After", *tc.retry_after});
    EXPECT_EQ(retry_delay(r, cap), tc.delay);
  }
}

// A server asking for an hour gets max_retry_after: a Retry-After never
// parks a caller, or a scheduler stopping meanwhile, for longer.
TEST(RestClientRaw, RetryAfterIsCutToTheCap) {
  std::atomic<int> n{0};
  raw_server srv{[&](const std::string&) {
    if (n++ == 0)
      return answer(429, R"({"kind":"Status","code":429})",
                    "Retry-After: 3600\r\n");
    return answer(200, R"({"kind":"NodeList","items":[]})");
  }};
  auto rc = config_for(srv.url());
  rc.max_retry_after = 50ms;
  rest_client c{rc};
  http_request r;
  r.target = "/api/v1/nodes";
  std::optional<expected<http_response>> resp;
  test::finishes_within(
    "a call retried after Retry-After: 3600", [&] { resp = c.request(r); },
    10s);
  ASSERT_TRUE(*resp) << resp->err().message;
  EXPECT_EQ((*resp)->status, 200);
  EXPECT_EQ(srv.requests(), 2);
  EXPECT_EQ(c.stats().retries.load(), 1u);
}

TEST(RestClientRaw, KeepAliveReusesConnections) {
  raw_server srv{[&](const std::string&) {
    return answer(200, R"({"kind":"NodeList","items":[]})");
  }};
  rest_client c{config_for(srv.url())};
  http_request r;
  r.target = "/api/v1/nodes";
  for (int i = 0; i < 20; ++i) {
    auto resp = c.call(r);
    ASSERT_TRUE(resp) << resp.err().message;
  }
  EXPECT_EQ(srv.connections(), 1);
  // Concurrent callers each borrow a connection; the pool keeps them.
  std::vector<std::thread> callers;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&] {
      for (int i = 0; i < 10; ++i)
        if (c.call(r))
          ++ok;
    });
  for (auto& t : callers)
    t.join();
  EXPECT_EQ(ok.load(), 40);
  EXPECT_LE(srv.connections(), 4);
  EXPECT_EQ(srv.requests(), 60);
}

TEST(RestClientRaw, RetriesStopAtTheLimit) {
  raw_server srv{[&](const std::string&) {
    return answer(429, "{}", "Retry-After: 0\r\n");
  }};
  auto rc = config_for(srv.url());
  rc.max_retries = 3;
  rest_client c{rc};
  http_request r;
  r.target = "/x";
  auto resp = c.request(r);
  ASSERT_TRUE(resp);
  EXPECT_EQ(resp->status, 429);
  EXPECT_EQ(srv.requests(), 4);
}

TEST(RestClientRaw, CancelScopeAndShutdownAbortBlockedCalls) {
  raw_server srv{[&](const std::string&) { return std::string{}; }};
  auto rc = config_for(srv.url());
  rc.request_timeout = 30s;
  rest_client c{rc};
  cancel_scope scope;
  http_request r;
  r.target = "/hang";
  auto t0 = std::chrono::steady_clock::now();
  std::thread canceller{[&] {
    std::this_thread::sleep_for(200ms);
    scope.cancel();
  }};
  auto resp = c.request(r, &scope);
  canceller.join();
  EXPECT_FALSE(resp);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_FALSE(c.request(r, &scope)); // a cancelled scope fails at once

  // A watch being opened is cancellable too, and shutdown() aborts all.
  t0 = std::chrono::steady_clock::now();
  std::thread stopper{[&] {
    std::this_thread::sleep_for(200ms);
    c.shutdown();
  }};
  auto s = c.stream(r);
  stopper.join();
  EXPECT_FALSE(s);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_FALSE(c.request(r));
}

TEST(RestClientRaw, RateLimitApplies) {
  raw_server srv{[&](const std::string&) { return answer(200, "{}"); }};
  auto rc = config_for(srv.url());
  rc.qps = 20;
  rc.burst = 2;
  rest_client c{rc};
  http_request r;
  r.target = "/x";
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 6; ++i)
    ASSERT_TRUE(c.request(r));
  // 2 from the burst, 4 more at 50 ms each.
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 180ms);
}

} // namespace
} // namespace tessera::io
