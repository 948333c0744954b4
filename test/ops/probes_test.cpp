// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// `tessera run` in-process with the operations hooks (cmd/ops_hooks.hpp)
// against the embedded API server: probes through start-up, sync, standby,
// leading and shutdown; /metrics and /configz of a live run; who the
// secure port lets in.
#include "cmd/ops_hooks.hpp"
#include "io/http_client.hpp"
#include "io/serving/self_signed.hpp"
#include "test/run/run_fixture.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace tessera::test {
namespace {

namespace json = boost::json;

TEST(scheduler_providers, readiness_follows_run_status) {
  struct test_case {
    std::string name;
    bool leader_election, leading, synced, stopping;
    bool ready;
  };
  std::vector<test_case> cases = {
    {"starting, no leader election", false, true, false, false, false},
    {"synced, no leader election", false, true, true, false, true},
    {"standby waiting for the lease", true, false, false, false, true},
    {"leading, caches not synced", true, true, false, false, false},
    {"leading and synced", true, true, true, false, true},
    {"stopping", true, true, true, true, false},
    {"standby stopping", true, false, false, true, false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    cmd::run_status st;
    st.set_leader_election(tc.leader_election);
    st.set_leading(tc.leading);
    st.set_synced(tc.synced);
    st.set_stopping(tc.stopping);
    auto p = cmd::scheduler_providers(st);
    EXPECT_EQ(serving::route(p, "GET", "/readyz").status, tc.ready ? 200 : 500);
    EXPECT_EQ(serving::route(p, "GET", "/livez").status, 200);
    EXPECT_EQ(serving::route(p, "GET", "/healthz").status, 200);
  }
}

// run_scheduler on a thread with ops_hooks attached.
class served_run {
public:
  explicit served_run(std::vector<std::string> args) {
    ops_.attach(hooks_);
    hooks_.control = &control_;
    auto inner = hooks_.start_serving;
    hooks_.start_serving
      = [this, inner](const cmd::serving_options& o, const cmd::run_status& s) {
          status_.store(&s);
          return inner(o, s);
        };
    thread_ = std::thread{[this, args = std::move(args)] {
      code_.store(cmd::run_scheduler(cmd::args{args}, hooks_));
      status_.store(nullptr);
    }};
  }
  ~served_run() {
    stop();
  }
  int stop() {
    control_.request_stop();
    if (thread_.joinable())
      thread_.join();
    return code_.load();
  }
  const cmd::run_status* status() const {
    return status_.load();
  }
  cmd::ops_hooks& ops() {
    return ops_;
  }

private:
  cmd::ops_hooks ops_;
  cmd::run_control control_;
  cmd::run_hooks hooks_;
  std::atomic<const cmd::run_status*> status_{nullptr};
  std::atomic<int> code_{-1};
  std::thread thread_;
};

int status_of(io::http_client& c, const std::string& target) {
  auto r = c.get(target);
  return r ? r->status : -1;
}

TEST(probes, single_instance_start_sync_metrics_configz_shutdown) {
  test_cluster c;
  c.create_node("n0");
  c.create_pod("p0");
  int port = free_port();
  io::client_config cc;
  cc.port = static_cast<std::uint16_t>(port);
  cc.request_timeout = std::chrono::seconds(10);
  io::http_client client{cc};
  {
    served_run run{{"--master", c.url(), "--leader-elect=false",
                    "--kube-api-qps=0", "--bind-address=127.0.0.1",
                    "--secure-port=0", "--port=" + std::to_string(port)}};
    ASSERT_TRUE(wait_until([&] { return status_of(client, "/livez") == 200; }))
      << "the ops server did not come up";
    ASSERT_TRUE(
      wait_until([&] { return status_of(client, "/readyz") == 200; }));
    ASSERT_NE(run.status(), nullptr);
    EXPECT_TRUE(run.status()->synced());
    ASSERT_TRUE(wait_until([&] { return c.bound_pods() == 1; }));
    // The scrape shows what happened: one pod scheduled, one node cached.
    std::string scheduled_line
      = "scheduler_schedule_attempts_total{result=\"scheduled\","
        "profile=\"default-scheduler\"} 1";
    std::string body;
    ASSERT_TRUE(wait_until([&] {
      auto r = client.get("/metrics");
      body = r ? r->body : "";
      return body.find(scheduled_line) != std::string::npos;
    }))
      << body;
    EXPECT_NE(body.find("scheduler_cache_size{type=\"nodes\"} 1"),
              std::string::npos);
    EXPECT_NE(body.find("rest_client_requests_total{code=\"201\","
                        "method=\"POST\",host=\"127.0.0.1:"),
              std::string::npos)
      << "the binding POST is counted";
    EXPECT_NE(body.find("tessera_relists_total{resource=\"pods\"}"),
              std::string::npos);
    // The kubernetes-mixin's scheduler dashboard: the series behind its
    // panels that kube-scheduler 1.37 still serves (its Scheduling Rate also
    // reads e2e, binding and volume durations that kube-scheduler dropped,
    // and its Goroutines panel a Go runtime gauge). Each with the labels
    // the panel selects on.
    for (const char* series :
         {"scheduler_scheduling_algorithm_duration_seconds_count ",
          "rest_client_requests_total{code=\"200\"",
          "rest_client_request_duration_seconds_bucket{verb=\"POST\"",
          "rest_client_request_duration_seconds_bucket{verb=\"GET\"",
          "process_resident_memory_bytes ", "process_cpu_seconds_total "})
      EXPECT_NE(body.find(series), std::string::npos)
        << series << " (a kubernetes-mixin scheduler panel) is missing";
    auto configz = client.get("/configz");
    ASSERT_TRUE(configz);
    EXPECT_EQ(configz->status, 200);
    auto doc = json::parse(configz->body);
    EXPECT_EQ(
      doc.at("componentconfig").at("profiles").at(0).at("schedulerName"),
      "default-scheduler");
    EXPECT_EQ(run.stop(), 0);
  }
  // Shut down: the server is gone.
  io::http_client after{cc};
  EXPECT_FALSE(after.get("/livez"));
}

TEST(probes, standby_is_ready_and_takes_over_over_https) {
  test_cluster c;
  c.create_node("n0");
  auto args = [&](int secure) {
    return std::vector<std::string>{"--master",
                                    c.url(),
                                    "--kube-api-qps=0",
                                    "--leader-elect=true",
                                    "--leader-elect-lease-duration=2s",
                                    "--leader-elect-renew-deadline=1500ms",
                                    "--leader-elect-retry-period=250ms",
                                    "--bind-address=127.0.0.1",
                                    "--secure-port=" + std::to_string(secure),
                                    "--port=0"};
  };
  int port_a = free_port();
  auto leader = std::make_unique<served_run>(args(port_a));
  ASSERT_TRUE(wait_until(
    [&] { return leader->status() != nullptr && leader->status()->synced(); }));
  int port_b = free_port();
  served_run standby{args(port_b)};
  ASSERT_TRUE(wait_until([&] {
    return standby.ops().server() != nullptr && standby.status() != nullptr;
  }));
  io::client_config cc;
  cc.port = static_cast<std::uint16_t>(port_b);
  cc.tls.enabled = true;
  cc.tls.ca_pem = standby.ops().server()->certificate_pem();
  cc.tls.server_name = "127.0.0.1";
  cc.request_timeout = std::chrono::seconds(10);
  io::http_client client{cc};
  // Standing by correctly: live and ready, not leading.
  EXPECT_EQ(status_of(client, "/livez"), 200);
  EXPECT_EQ(status_of(client, "/readyz"), 200);
  EXPECT_FALSE(standby.status()->leading());
  // client-go's leader_election_master_status follows the lease.
  auto& master_status
    = standby.ops().scheduler_metrics().leader_election_master_status.with(
      {"kube-scheduler"});
  EXPECT_EQ(master_status.value(), 0);
  EXPECT_EQ(leader->ops()
              .scheduler_metrics()
              .leader_election_master_status.with({"kube-scheduler"})
              .value(),
            1);
  // The leader stops (releasing the lease); the standby leads and syncs.
  EXPECT_EQ(leader->stop(), 0);
  leader.reset();
  ASSERT_TRUE(wait_until(
    [&] { return standby.status()->leading() && standby.status()->synced(); }));
  EXPECT_EQ(master_status.value(), 1);
  EXPECT_EQ(status_of(client, "/readyz"), 200);
  c.create_pod("after-takeover");
  EXPECT_TRUE(wait_until([&] { return c.bound_pods() == 1; }));
}

// Client certificates signed by --client-ca-file authenticate as their CN
// (the cluster's SubjectAccessReview decides), others fail with 401;
// --authorization-always-allow-paths opens a path to anonymous clients.
TEST(probes, secure_port_client_certificates_and_always_allowed_paths) {
  temp_dir dir;
  test_pki pki{dir};
  if (!pki.ok)
    GTEST_SKIP() << "openssl CLI unavailable: " << pki.problem;
  apiserver::server_config sc;
  sc.handler.token = "cluster-token";
  test_cluster c{sc};
  c.create_node("n0");
  std::string kubeconfig = dir.write(
    "kubeconfig",
    "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
    "    server: "
      + c.url()
      + "\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\n"
        "current-context: c\nusers:\n- name: u\n  user: {token: "
        "cluster-token}\n");
  int port = free_port();
  served_run run{{"--kubeconfig", kubeconfig, "--leader-elect=false",
                  "--kube-api-qps=0", "--bind-address=127.0.0.1",
                  "--secure-port=" + std::to_string(port), "--client-ca-file",
                  dir.file("ca.crt"), "--authentication-skip-lookup",
                  "--authorization-always-allow-paths=/healthz,/readyz,"
                  "/livez,/configz"}};
  auto client_with = [&](const std::string& cert, const std::string& key) {
    io::client_config cc;
    cc.port = static_cast<std::uint16_t>(port);
    cc.tls.enabled = true;
    cc.tls.insecure_skip_verify = true;
    cc.tls.client_cert_pem = cert;
    cc.tls.client_key_pem = key;
    cc.request_timeout = std::chrono::seconds(10);
    return io::http_client{cc};
  };
  auto anonymous = client_with("", "");
  ASSERT_TRUE(
    wait_until([&] { return status_of(anonymous, "/readyz") == 200; }));
  auto stranger_pem = serving::make_self_signed_certificate({});
  ASSERT_TRUE(stranger_pem);
  struct test_case {
    std::string name;
    std::string cert, key;
    std::string target;
    int status;
    std::string body_part;
  };
  std::vector<test_case> cases = {
    {"the cluster's admin by certificate", read_text(dir.file("admin.crt")),
     read_text(dir.file("admin.key")), "/metrics", 200, "scheduler_"},
    {"another user by certificate: the review says no",
     read_text(dir.file("client.crt")), read_text(dir.file("client.key")),
     "/metrics", 403, R"(User \"tessera\" cannot get path \"/metrics\")"},
    {"a certificate of another CA", stranger_pem->certificate,
     stranger_pem->private_key, "/healthz", 401, "Unauthorized"},
    {"anonymous: metrics", "", "", "/metrics", 403, "system:anonymous"},
    {"anonymous: configz, always allowed by the flag", "", "", "/configz", 200,
     "componentconfig"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto cl = client_with(tc.cert, tc.key);
    auto r = cl.get(tc.target);
    ASSERT_TRUE(r) << r.err().message;
    EXPECT_EQ(r->status, tc.status) << r->body;
    EXPECT_NE(r->body.find(tc.body_part), std::string::npos) << r->body;
  }
  EXPECT_EQ(run.stop(), 0);
}

} // namespace
} // namespace tessera::test
