// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Overload of the accept loops: idle connections and an exhausted
// descriptor table (a low RLIMIT_NOFILE). Each test runs in a process of its
// own (CTest runs every test case apart), so lowering the limit here touches
// no other test; the idle clients live in a forked child so that they do not
// use the server's descriptors.
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "io/http_client.hpp"
#include "io/serving/ops_server.hpp"
#include "test/support/api_client.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <functional>
#include <thread>
#include <unistd.h>
#include <vector>

namespace tessera {
namespace {

using namespace std::chrono_literals;

std::size_t open_fds() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e :
       std::filesystem::directory_iterator{"/proc/self/fd"})
    ++n;
  return n;
}

/// Lowers the soft descriptor limit for the scope.
struct fd_limit {
  explicit fd_limit(std::size_t soft) {
    ::getrlimit(RLIMIT_NOFILE, &saved);
    rlimit rl = saved;
    rl.rlim_cur = soft;
    EXPECT_EQ(::setrlimit(RLIMIT_NOFILE, &rl), 0);
  }
  ~fd_limit() {
    for (int fd : fillers)
      ::close(fd);
    ::setrlimit(RLIMIT_NOFILE, &saved);
  }
  /// Takes every descriptor still free below the limit.
  void exhaust() {
    for (int fd = ::dup(0); fd >= 0; fd = ::dup(0))
      fillers.push_back(fd);
  }
  rlimit saved{};
  std::vector<int> fillers;
};

/// A child process holding `n` idle connections to 127.0.0.1:port until it
/// is killed.
struct idle_clients {
  idle_clients(std::uint16_t port, int n) {
    pid = ::fork();
    if (pid == 0) {
      rlimit rl{};
      ::getrlimit(RLIMIT_NOFILE, &rl);
      rl.rlim_cur = rl.rlim_max;
      ::setrlimit(RLIMIT_NOFILE, &rl);
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_port = htons(port);
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      for (int i = 0; i < n; ++i) {
        int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0)
          break;
        (void)::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
      }
      for (;;)
        ::pause();
    }
  }
  ~idle_clients() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }
  pid_t pid = -1;
};

double cpu_seconds() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  auto sec = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return sec(ru.ru_utime) + sec(ru.ru_stime);
}

bool wait_for(const std::function<bool()>& p,
              std::chrono::milliseconds timeout = 10s) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (p())
      return true;
    std::this_thread::sleep_for(10ms);
  }
  return p();
}

serving::ops_providers ops_providers() {
  serving::ops_providers p;
  p.livez = {{"ping", [] { return std::string{}; }}};
  return p;
}

std::unique_ptr<serving::ops_server> start_ops_server(std::size_t limit) {
  serving::ops_server_config cfg;
  cfg.bind_address = "127.0.0.1";
  cfg.secure_port = 0;
  cfg.port = serving::any_port;
  cfg.limits.max_connections = limit;
  auto srv = serving::ops_server::start(cfg, ops_providers());
  if (!srv)
    ADD_FAILURE() << srv.err().message;
  return srv ? std::move(*srv) : nullptr;
}

/// Once accepts fail, a second of them costs little CPU, few retries and at
/// most two log lines.
void expect_backoff(const io::accept_guard& g) {
  ASSERT_TRUE(wait_for([&] { return g.errors() > 0; }));
  double cpu0 = cpu_seconds();
  auto errors0 = g.errors();
  std::this_thread::sleep_for(1s);
  EXPECT_LT(cpu_seconds() - cpu0, 0.3) << "the accept loop spins";
  EXPECT_LT(g.errors() - errors0, 50u);
  EXPECT_LE(g.logged(), 2u);
}

int healthz_status(std::uint16_t port) {
  io::client_config c;
  c.port = port;
  c.request_timeout = 5s;
  io::http_client client{c};
  auto r = client.get("/healthz");
  return r ? r->status : -1;
}

// Idle clients fill the connection limit and no more: the rest wait in the
// kernel's backlog, so the process keeps descriptors for its own calls.
TEST(overload, ops_server_holds_its_connection_limit) {
  auto srv = start_ops_server(16);
  ASSERT_NE(srv, nullptr);
  auto& server = *srv;
  std::size_t before = open_fds();
  idle_clients clients{server.port(), 200};
  ASSERT_TRUE(wait_for([&] { return server.accepts().open() == 16; }));
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(server.accepts().open(), 16u);
  EXPECT_LE(open_fds(), before + 16 + 4);
}

// Out of descriptors, every accept fails at once; the loop backs off instead
// of spinning, logs a few lines, and serves again once descriptors free up.
TEST(overload, ops_server_backs_off_when_out_of_descriptors) {
  auto srv = start_ops_server(1000);
  ASSERT_NE(srv, nullptr);
  auto& server = *srv;
  {
    fd_limit limit{open_fds() + 8};
    idle_clients clients{server.port(), 100};
    expect_backoff(server.accepts());
  }
  // The clients are gone and the limit is back: the server answers.
  ASSERT_TRUE(wait_for([&] { return server.accepts().open() == 0; }, 40s));
  EXPECT_EQ(healthz_status(server.port()), 200);
}

TEST(overload, api_server_backs_off_when_out_of_descriptors) {
  apiserver::store st;
  apiserver::server_config cfg;
  cfg.limits.max_connections = 1000;
  auto srv = test::start_test_server(st, cfg);
  {
    fd_limit limit{open_fds() + 8};
    idle_clients clients{srv->port(), 100};
    expect_backoff(srv->accepts());
  }
  io::rest_client client{test::client_config_for(srv->url())};
  ASSERT_TRUE(wait_for([&] { return srv->accepts().open() == 0; }, 40s));
  auto r = test::http_client_for(srv->url()).get("/api/v1/namespaces");
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_EQ(r->status, 200);
}

// With no descriptor left, a client call fails with an error: nothing is
// thrown across the caller's thread.
TEST(overload, client_call_without_descriptors_returns_an_error) {
  apiserver::store st;
  auto srv = test::start_test_server(st);
  auto client = test::http_client_for(srv->url());
  expected<io::http_response> r = make_error(ec::internal, "not called");
  {
    fd_limit limit{open_fds()};
    limit.exhaust();
    r = client.get("/api/v1/namespaces");
  }
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().code, ec::unavailable);
  auto again = client.get("/api/v1/namespaces");
  ASSERT_TRUE(again) << again.err().message;
  EXPECT_EQ(again->status, 200);
}

} // namespace
} // namespace tessera
