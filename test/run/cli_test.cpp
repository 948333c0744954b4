// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The `tessera` binary as a user runs it: `tessera cluster` and `tessera
// run` as child processes, signals, exit codes and error messages.
#include "io/http_client.hpp"
#include "test/run/run_fixture.hpp"
#include "test/support/api_client.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <csignal>
#include <thread>
#include <unistd.h>
#include <vector>

namespace tessera::test {
namespace {

struct run_result {
  int code = -1;
  std::string err;
};

run_result run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), {tessera_binary(), "run"});
  child_process p{args};
  auto code = p.wait(20s);
  return {code.value_or(-1), p.stderr_text()};
}

TEST(RunCli, BadKubeconfigExitsTwoNamingFileAndField) {
  temp_dir dir;
  struct test_case {
    std::string name;
    std::string text; // empty = the file does not exist
    std::vector<std::string> fragments;
  };
  std::vector<test_case> cases = {
    {"missing file", "", {"cannot read file"}},
    {"yaml syntax", "clusters: [\n- {name: a\n", {"line "}},
    {"dangling cluster",
     "clusters: []\ncontexts:\n- name: c\n  context: {cluster: gone}\n"
     "current-context: c\n",
     {"contexts[0].context.cluster", "cluster \"gone\" not found"}},
    {"bad base64",
     "clusters:\n- name: a\n  cluster:\n    server: https://127.0.0.1:1\n"
     "    certificate-authority-data: '!!'\ncontexts:\n- name: c\n"
     "  context: {cluster: a}\ncurrent-context: c\n",
     {"clusters[0].cluster.certificate-authority-data", "invalid base64"}},
    {"ca data not PEM",
     "clusters:\n- name: a\n  cluster:\n    server: https://127.0.0.1:1\n"
     "    certificate-authority-data: bm90IGEgY2VydA==\ncontexts:\n"
     "- name: c\n  context: {cluster: a}\ncurrent-context: c\n",
     {"clusters[0].cluster.certificate-authority-data",
      "does not hold a PEM certificate"}},
    {"no server",
     "clusters:\n- name: a\n  cluster: {}\ncontexts:\n- name: c\n"
     "  context: {cluster: a}\ncurrent-context: c\n",
     {"clusters[0].cluster.server", "must not be empty"}},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& tc = cases[i];
    SCOPED_TRACE(tc.name);
    std::string path = dir.file("kc" + std::to_string(i));
    if (!tc.text.empty())
      dir.write("kc" + std::to_string(i), tc.text);
    auto r = run_cli({"--kubeconfig", path, "--leader-elect=false"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    for (const auto& f : tc.fragments)
      EXPECT_NE(r.err.find(f), std::string::npos)
        << "missing \"" << f << "\" in: " << r.err;
  }
}

TEST(RunCli, BadFlagsExitTwo) {
  struct test_case {
    std::string name;
    std::vector<std::string> args;
    std::string fragment;
  };
  std::vector<test_case> cases = {
    {"unknown flag", {"--no-such-flag"}, "no-such-flag"},
    {"renew deadline above lease",
     {"--master", "http://127.0.0.1:1", "--leader-elect-lease-duration=5s",
      "--leader-elect-renew-deadline=10s"},
     "leader-elect-lease-duration"},
    {"resource lock",
     {"--master", "http://127.0.0.1:1",
      "--leader-elect-resource-lock=endpoints"},
     "leader-elect-resource-lock"},
    {"bind address",
     {"--master", "http://127.0.0.1:1", "--bind-address=x"},
     "--bind-address"},
    {"port range",
     {"--master", "http://127.0.0.1:1", "--secure-port=70000"},
     "--secure-port"},
    {"master url", {"--master", "127.0.0.1:8080"}, "--master"},
    {"negative qps",
     {"--master", "http://127.0.0.1:1", "--kube-api-qps=-1"},
     "--kube-api-qps"},
    {"always-allow path with an inner star",
     {"--master", "http://127.0.0.1:1",
      "--authorization-always-allow-paths=/healthz,/a*b"},
     "--authorization-always-allow-paths: only a trailing * is allowed in "
     "\"/a*b\""},
    {"negative cache ttl",
     {"--master", "http://127.0.0.1:1",
      "--authorization-webhook-cache-authorized-ttl=-1s"},
     "--authorization-webhook-cache-authorized-ttl: must not be negative"},
    {"cache ttl not a duration",
     {"--master", "http://127.0.0.1:1",
      "--authentication-token-webhook-cache-ttl=soon"},
     "--authentication-token-webhook-cache-ttl"},
    {"front-proxy authentication",
     {"--master", "http://127.0.0.1:1",
      "--requestheader-client-ca-file=/etc/front-proxy-ca.crt"},
     "--requestheader-client-ca-file: not supported"},
    {"front-proxy headers",
     {"--master", "http://127.0.0.1:1",
      "--requestheader-username-headers=X-Remote-User"},
     "--requestheader-username-headers: not supported"},
    {"authentication kubeconfig",
     {"--master", "http://127.0.0.1:1",
      "--authentication-kubeconfig=/nonexistent/kubeconfig"},
     "--authentication-kubeconfig: "},
    {"authorization kubeconfig",
     {"--master", "http://127.0.0.1:1",
      "--authorization-kubeconfig=/nonexistent/kubeconfig"},
     "--authorization-kubeconfig: "},
    {"client ca file",
     {"--master", "http://127.0.0.1:1", "--leader-elect=false",
      "--client-ca-file=/nonexistent/ca.crt"},
     "--client-ca-file: cannot read /nonexistent/ca.crt"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto r = run_cli(tc.args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(tc.fragment), std::string::npos) << r.err;
  }
  auto help = run_cli({"--help"});
  EXPECT_EQ(help.code, 0);
}

// Serving certificate files that exist but do not hold PEM data are bad
// input (exit 2 naming the flag), found before any API call.
TEST(RunCli, ServingCertificateNotPemExitsTwo) {
  temp_dir dir;
  std::string junk = dir.write("junk.pem", "not a certificate\n");
  // The certificate is loaded before the port is bound, so the default
  // secure port is never taken.
  auto bad = run_cli({"--master", "http://127.0.0.1:1", "--leader-elect=false",
                      "--tls-cert-file", junk, "--tls-private-key-file", junk});
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--tls-cert-file"), std::string::npos) << bad.err;
  // Likewise a client CA bundle without a certificate.
  auto ca = run_cli({"--master", "http://127.0.0.1:1", "--leader-elect=false",
                     "--client-ca-file", junk});
  EXPECT_EQ(ca.code, 2) << ca.err;
  EXPECT_NE(ca.err.find("--client-ca-file: " + junk), std::string::npos)
    << ca.err;
}

TEST(RunCli, WriteConfigToAppliesFlagsAndExits) {
  temp_dir dir;
  std::string out = dir.file("effective.yaml");
  // No API server is needed: the verb writes the file and exits.
  auto r = run_cli({"--write-config-to", out, "--shards=3",
                    "--leader-elect=false", "--kube-api-qps=7"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string text = read_text(out);
  for (const char* want : {"leaderElect: false", "qps: 7", "shards: 3"})
    EXPECT_NE(text.find(want), std::string::npos) << want << " in:\n" << text;
}

/// Pods created over HTTP, as a user would with kubectl.
void create_pods(io::http_client& client, const std::string& prefix, int n) {
  for (int i = 0; i < n; ++i) {
    auto r = client.post(
      "/api/v1/namespaces/default/pods",
      R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + prefix
        + std::to_string(i)
        + R"("},"spec":{"containers":[{"name":"c","image":"busybox"}]}})");
    ASSERT_TRUE(r && r->status == 201);
  }
}

std::size_t bound(io::http_client& client) {
  auto r = client.get("/api/v1/namespaces/default/pods?fieldSelector="
                      "spec.nodeName%21%3D");
  if (!r || r->status != 200)
    return 0;
  std::size_t n = 0;
  for (auto pos = r->body.find("\"nodeName\""); pos != std::string::npos;
       pos = r->body.find("\"nodeName\"", pos + 1))
    ++n;
  return n;
}

TEST(RunCli, SchedulesATesseraClusterAndStopsOnSigterm) {
  // Every request takes 100 ms and one thread binds, so the SIGTERM lands while
  // bindings are in flight or queued; with no grace period the first instance
  // abandons them (its assumed pods stay unbound).
  child_process cluster{{tessera_binary(), "cluster", "--port", "0", "--nodes",
                         "3", "--fault-latency=100ms"}};
  std::string line = cluster.wait_for_line("listening on ");
  ASSERT_FALSE(line.empty()) << cluster.stderr_text();
  std::string url = line.substr(std::string{"listening on "}.size());
  auto client = http_client_for(url);
  const int pods = 20;
  create_pods(client, "p", pods);
  // --secure-port=0: no health server (tests run in parallel).
  std::vector<std::string> args = {tessera_binary(),
                                   "run",
                                   "--master",
                                   url,
                                   "--leader-elect=false",
                                   "--kube-api-qps=0",
                                   "--bind-threads=1",
                                   "--secure-port=0"};
  auto first_args = args;
  first_args.push_back("--shutdown-grace-period=0s");
  child_process first{first_args};
  ASSERT_TRUE(wait_until([&] { return bound(client) >= 2; }))
    << first.stderr_text();
  first.signal(SIGTERM);
  auto t0 = std::chrono::steady_clock::now();
  auto code = first.wait(10s);
  ASSERT_TRUE(code);
  EXPECT_EQ(*code, 0) << first.stderr_text();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 6s);
  std::size_t bound_by_first = bound(client);
  EXPECT_LT(bound_by_first, std::size_t{pods}) << "stopped too late";
  // No pod is lost: what the first instance left (never bound, or assumed
  // with its binding abandoned) the next one schedules, and the API server
  // refuses any second binding of a pod.
  child_process second{args};
  ASSERT_TRUE(wait_until([&] { return bound(client) == pods; }))
    << "first bound " << bound_by_first << "\n"
    << second.stderr_text();
  second.signal(SIGTERM);
  EXPECT_EQ(second.wait(10s).value_or(-1), 0) << second.stderr_text();
  cluster.signal(SIGTERM);
  EXPECT_EQ(cluster.wait(10s).value_or(-1), 0);
}

// --token-file keeps the token out of the process list and guards the API
// like --token.
TEST(RunCli, ClusterTokenFileGuardsTheApi) {
  temp_dir dir;
  std::string token = dir.write("token", "s3cret-from-file\n");
  child_process cluster{
    {tessera_binary(), "cluster", "--port", "0", "--token-file", token}};
  std::string url = cluster_url(cluster);
  ASSERT_FALSE(url.empty()) << cluster.stderr_text();
  auto anonymous = http_client_for(url).get("/api/v1/nodes");
  ASSERT_TRUE(anonymous);
  EXPECT_EQ(anonymous->status, 401);
  io::http_request r;
  r.target = "/api/v1/nodes";
  r.headers.push_back({"Authorization", "Bearer s3cret-from-file"});
  auto allowed = http_client_for(url).request(r);
  ASSERT_TRUE(allowed);
  EXPECT_EQ(allowed->status, 200);
  cluster.signal(SIGTERM);
  EXPECT_EQ(cluster.wait(10s).value_or(-1), 0);
}

// The secure port end to end, as a Prometheus scrape sees it: `tessera
// cluster` guards its API with a token, `tessera run` reaches it through a
// kubeconfig carrying that token, and /metrics answers only the token's
// holder (TokenReview + SubjectAccessReview by the cluster), while the
// probes stay open.
TEST(RunCli, SecurePortAnswersTheClustersTokenOnly) {
  temp_dir dir;
  std::string token_file = dir.write("token", "scrape-s3cret\n");
  child_process cluster{
    {tessera_binary(), "cluster", "--port", "0", "--token-file", token_file}};
  std::string url = cluster_url(cluster);
  ASSERT_FALSE(url.empty()) << cluster.stderr_text();
  std::string kubeconfig = dir.write(
    "kubeconfig",
    "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
    "    server: "
      + url
      + "\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\n"
        "current-context: c\nusers:\n- name: u\n  user:\n"
        "    tokenFile: "
      + token_file + "\n");
  int port = free_port();
  child_process run{{tessera_binary(), "run", "--kubeconfig", kubeconfig,
                     "--leader-elect=false", "--bind-address=127.0.0.1",
                     "--secure-port=" + std::to_string(port)}};
  io::client_config cc;
  cc.port = static_cast<std::uint16_t>(port);
  cc.tls.enabled = true;
  cc.tls.insecure_skip_verify = true;
  cc.request_timeout = 10s;
  auto get = [&](const std::string& target, const std::string& token) {
    io::http_client c{cc};
    io::http_request r;
    r.target = target;
    if (!token.empty())
      r.headers.push_back({"Authorization", "Bearer " + token});
    auto got = c.request(r);
    return got ? *got : io::http_response{};
  };
  ASSERT_TRUE(wait_until([&] { return get("/readyz", "").status == 200; }))
    << run.stderr_text();
  auto scrape = get("/metrics", "scrape-s3cret");
  EXPECT_EQ(scrape.status, 200) << scrape.body;
  EXPECT_NE(scrape.body.find("scheduler_schedule_attempts_total"),
            std::string::npos);
  EXPECT_EQ(get("/configz", "scrape-s3cret").status, 200);
  auto anonymous = get("/metrics", "");
  EXPECT_EQ(anonymous.status, 403) << anonymous.body;
  EXPECT_NE(anonymous.body.find(
              R"(forbidden: User \"system:anonymous\" cannot get path )"
              R"(\"/metrics\")"),
            std::string::npos)
    << anonymous.body;
  EXPECT_EQ(get("/configz", "").status, 403);
  auto wrong = get("/metrics", "guess");
  EXPECT_EQ(wrong.status, 401) << wrong.body;
  EXPECT_EQ(get("/healthz", "").status, 200);
  EXPECT_EQ(get("/livez", "").status, 200);
  run.signal(SIGTERM);
  EXPECT_EQ(run.wait(10s).value_or(-1), 0) << run.stderr_text();
  cluster.signal(SIGTERM);
  EXPECT_EQ(cluster.wait(10s).value_or(-1), 0);
}

// The client CA lookup: made at start unless --authentication-skip-lookup
// (the cluster logs every request at -v=4), and fatal only with
// --authentication-tolerate-lookup-failure=false.
TEST(RunCli, ClientCaLookupFollowsItsFlags) {
  auto configmap_reads = [](std::vector<std::string> extra) {
    child_process cluster{
      {tessera_binary(), "cluster", "--port", "0", "--v=4"}};
    std::string url = cluster_url(cluster);
    EXPECT_FALSE(url.empty()) << cluster.stderr_text();
    int port = free_port();
    std::vector<std::string> args = {tessera_binary(),
                                     "run",
                                     "--master",
                                     url,
                                     "--leader-elect=false",
                                     "--bind-address=127.0.0.1",
                                     "--secure-port=" + std::to_string(port)};
    args.insert(args.end(), extra.begin(), extra.end());
    child_process run{args};
    io::client_config cc;
    cc.port = static_cast<std::uint16_t>(port);
    cc.tls.enabled = true;
    cc.tls.insecure_skip_verify = true;
    std::string log;
    // Serving starts after the lookup.
    EXPECT_TRUE(wait_until([&] {
      log += cluster.stderr_text();
      auto r = io::http_client{cc}.get("/livez");
      return r && r->status == 200;
    }))
      << run.stderr_text();
    run.signal(SIGTERM);
    EXPECT_EQ(run.wait(10s).value_or(-1), 0) << run.stderr_text();
    cluster.signal(SIGTERM);
    cluster.wait(10s);
    log += cluster.stderr_text();
    return log.find("configmaps/extension-apiserver-authentication")
           != std::string::npos;
  };
  EXPECT_TRUE(configmap_reads({}));
  EXPECT_FALSE(configmap_reads({"--authentication-skip-lookup"}));

  // An API server that cannot be asked: a warning by default (the run goes
  // on), exit 1 when the lookup must succeed.
  temp_dir dir;
  std::string unreachable = dir.write(
    "unreachable",
    "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
    "    server: http://127.0.0.1:1\ncontexts:\n- name: c\n  context: "
    "{cluster: c, user: u}\ncurrent-context: c\nusers:\n- name: u\n  "
    "user: {}\n");
  auto strict = run_cli({"--master", "http://127.0.0.1:1",
                         "--leader-elect=false", "--bind-address=127.0.0.1",
                         "--secure-port=" + std::to_string(free_port()),
                         "--authentication-kubeconfig", unreachable,
                         "--authentication-tolerate-lookup-failure=false"});
  EXPECT_EQ(strict.code, 1) << strict.err;
  EXPECT_NE(strict.err.find("cannot read configmap "
                            "kube-system/extension-apiserver-authentication"),
            std::string::npos)
    << strict.err;
}

TEST(RunCli, TwoInstancesWithLeaderElectionHandOver) {
  child_process cluster{
    {tessera_binary(), "cluster", "--port", "0", "--nodes", "2"}};
  std::string url = cluster_url(cluster);
  ASSERT_FALSE(url.empty()) << cluster.stderr_text();
  auto client = http_client_for(url);
  auto args = elected_run_args(url);
  child_process a{args};
  create_pods(client, "a", 10);
  ASSERT_TRUE(wait_until([&] { return bound(client) == 10; }))
    << a.stderr_text();
  child_process b{args};
  // The lease names `a`'s process; stop it, `b` takes over.
  std::this_thread::sleep_for(1s);
  a.signal(SIGTERM);
  EXPECT_EQ(a.wait(10s).value_or(-1), 0) << a.stderr_text();
  create_pods(client, "b", 10);
  ASSERT_TRUE(wait_until([&] { return bound(client) == 20; }))
    << b.stderr_text();
  b.signal(SIGTERM);
  EXPECT_EQ(b.wait(10s).value_or(-1), 0) << b.stderr_text();
  auto lease
    = client.get("/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/"
                 "kube-scheduler");
  ASSERT_TRUE(lease && lease->status == 200);
  EXPECT_NE(lease->body.find("\"leaseTransitions\":1"), std::string::npos)
    << lease->body;
  EXPECT_NE(lease->body.find("\"holderIdentity\":\"\""), std::string::npos)
    << lease->body;
  cluster.signal(SIGTERM);
  cluster.wait(10s);
}

// A leader paused (SIGSTOP) past its lease while bindings were queued stops
// binding the moment it resumes: its successor has bound those pods, and
// the resumed instance sends no binding of its own (it would meet 409s),
// then exits on the lost lease.
TEST(RunCli, PausedLeaderBindsNothingAfterResuming) {
  child_process cluster{{tessera_binary(), "cluster", "--port", "0", "--nodes",
                         "3", "--fault-latency=100ms"}};
  std::string url = cluster_url(cluster);
  ASSERT_FALSE(url.empty()) << cluster.stderr_text();
  auto client = http_client_for(url);
  auto args = elected_run_args(url, {"--bind-threads=1"});
  const std::size_t pods = 30;
  create_pods(client, "p", static_cast<int>(pods));
  child_process a{args};
  // One binding thread at 100 ms a call: most of a's bindings are queued
  // when it stops.
  ASSERT_TRUE(wait_until([&] { return bound(client) >= 2; }))
    << a.stderr_text();
  a.signal(SIGSTOP);
  std::size_t bound_by_a = bound(client);
  child_process b{args};
  ASSERT_TRUE(wait_until([&] { return bound(client) == pods; }, 20s))
    << b.stderr_text();
  a.signal(SIGCONT);
  auto code = a.wait(10s);
  ASSERT_TRUE(code) << "the resumed leader kept running";
  EXPECT_EQ(*code, 1) << "it lost the lease";
  std::string err = a.stderr_text();
  EXPECT_EQ(err.find("binding conflict"), std::string::npos)
    << "bound " << bound_by_a << " before the pause\n"
    << err;
  EXPECT_LT(bound_by_a, pods / 2);
  b.signal(SIGTERM);
  EXPECT_EQ(b.wait(10s).value_or(-1), 0) << b.stderr_text();
  cluster.signal(SIGTERM);
  cluster.wait(10s);
}

/// A stand-in API server on a free loopback port that never helps: it
/// answers every request with 429 and a Retry-After of an hour, or (silent)
/// reads requests and never answers.
class unhelpful_server {
public:
  explicit unhelpful_server(bool silent) : silent_(silent) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    EXPECT_EQ(::listen(fd_, 64), 0);
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread{[this] { serve(); }};
  }
  ~unhelpful_server() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
    for (int c : clients_)
      ::close(c);
  }
  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(port_);
  }

private:
  void serve() {
    for (;;) {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0)
        return;
      clients_.push_back(c);
      if (silent_)
        continue;
      std::thread{[c] {
        static constexpr std::string_view reply
          = "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3600\r\n"
            "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
        char buf[4096];
        std::string seen;
        for (;;) {
          auto n = ::read(c, buf, sizeof buf);
          if (n <= 0)
            return;
          seen.append(buf, static_cast<std::size_t>(n));
          for (auto end = seen.find("\r\n\r\n"); end != std::string::npos;
               end = seen.find("\r\n\r\n")) {
            seen.erase(0, end + 4);
            if (::write(c, reply.data(), reply.size()) < 0)
              return;
          }
        }
      }}.detach();
    }
  }

  bool silent_;
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::thread thread_;
  std::vector<int> clients_;
};

// SIGTERM ends `tessera run` promptly even while every API call is parked
// behind a huge Retry-After or waits on a server that never answers, with
// and without leader election.
TEST(RunCli, SigtermEndsBlockedApiCalls) {
  struct test_case {
    std::string name;
    bool silent;
    bool leader_elect;
  };
  std::vector<test_case> cases = {
    {"retry-after, no election", false, false},
    {"retry-after, leader election", false, true},
    {"silent server, no election", true, false},
    {"silent server, leader election", true, true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    unhelpful_server server{tc.silent};
    child_process run{
      {tessera_binary(), "run", "--master", server.url(), "--secure-port=0",
       tc.leader_elect ? "--leader-elect=true" : "--leader-elect=false"}};
    std::this_thread::sleep_for(1500ms);
    run.signal(SIGTERM);
    auto t0 = std::chrono::steady_clock::now();
    auto code = run.wait(15s);
    EXPECT_TRUE(code) << "still running 15 s after SIGTERM";
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 8s) << run.stderr_text();
  }
}

} // namespace
} // namespace tessera::test
