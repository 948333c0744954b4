// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/http_client.hpp"
#include "io/http_server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace tessera::io {
namespace {

using namespace std::chrono_literals;

/// Writes "a", waits for a wake-up from another thread (its deadline is far
/// off, so only the wake-up can end the wait), writes "b" and ends.
class woken_stream final : public http_stream {
public:
  ~woken_stream() override {
    if (waker_.joinable())
      waker_.join();
  }
  void start(std::function<void()> wake) override {
    waker_ = std::thread{[wake = std::move(wake)] {
      std::this_thread::sleep_for(20ms);
      wake();
    }};
  }
  step next(std::string& out, bool client_gone) override {
    if (client_gone)
      return {step::kind::abort};
    switch (calls_++) {
    case 0:
      out += "a\n";
      return {step::kind::write};
    case 1:
      return {step::kind::wait, clock::now() + 30s};
    case 2:
      out += "b\n";
      return {step::kind::write};
    default:
      return {step::kind::end};
    }
  }
  void stop() override {
    stopped = true;
  }

  std::atomic<bool> stopped{false};

private:
  int calls_ = 0;
  std::thread waker_;
};

struct test_handler final : http_handler {
  ~test_handler() override {
    for (auto& t : workers)
      t.join();
  }

  server_reply handle(const incoming_request& req) override {
    server_reply r;
    r.content_type = "text/plain";
    if (req.target == "/echo") {
      r.headers = {{"X-Method", std::string{req.method}}};
      r.body = std::string{req.body};
    } else if (req.target == "/later") {
      // Answered from another thread, the response made on the I/O one.
      r.deferred = [this](std::function<void(reply_maker)> deliver) {
        std::lock_guard l{mu};
        workers.emplace_back([deliver] {
          deliver([] {
            server_reply done;
            done.status = 202;
            done.content_type = "text/plain";
            done.body = "done later";
            return done;
          });
        });
      };
    } else if (req.target == "/stream") {
      stream = std::make_shared<woken_stream>();
      r.stream = stream;
    } else {
      r.status = 404;
    }
    return r;
  }

  std::optional<server_reply> reject(bool too_large,
                                     std::string_view why) override {
    server_reply r;
    r.status = too_large ? 413 : 400;
    r.content_type = "text/plain";
    r.body = std::string{why};
    return r;
  }

  std::mutex mu;
  std::vector<std::thread> workers;
  std::shared_ptr<woken_stream> stream;
};

struct served {
  served() : server(handler, {.name = "test", .limits = {}, .body_limit = 16}) {
    auto p = server.listen("127.0.0.1", 0, false);
    EXPECT_TRUE(p) << p.err().message;
    port = p ? *p : 0;
    server.run();
  }

  client_config client() const {
    client_config cc;
    cc.port = port;
    return cc;
  }

  test_handler handler;
  http_server server;
  std::uint16_t port = 0;
};

TEST(http_server, answers_each_kind_of_reply) {
  served s;
  http_client c{s.client()};
  struct test_case {
    std::string name;
    std::string method, target, body;
    int want_status;
    std::string want_body;
  };
  const std::vector<test_case> cases = {
    {"a plain answer", "POST", "/echo", "hi", 200, "hi"},
    {"an answer made later", "GET", "/later", "", 202, "done later"},
    {"a chunked stream woken from another thread", "GET", "/stream", "", 200,
     "a\nb\n"},
    {"an unknown path", "GET", "/nope", "", 404, ""},
    {"a body past the limit", "POST", "/echo", std::string(17, 'x'), 413,
     "malformed HTTP request: body limit exceeded"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    http_client fresh{s.client()};
    http_request r;
    r.method = tc.method;
    r.target = tc.target;
    r.body = tc.body;
    const auto t0 = std::chrono::steady_clock::now();
    auto got = fresh.request(r);
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(got->status, tc.want_status);
    EXPECT_EQ(got->body, tc.want_body);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
  }
  ASSERT_NE(s.handler.stream, nullptr);
  EXPECT_TRUE(s.handler.stream->stopped);
  auto echo = c.post("/echo", "x", "text/plain");
  ASSERT_TRUE(echo) << echo.err().message;
  const std::string* method = echo->header("X-Method");
  ASSERT_NE(method, nullptr);
  EXPECT_EQ(*method, "POST");
  const std::string* cache = echo->header("Cache-Control");
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(*cache, "no-cache, private");
}

// While a stream is sent, a readable socket means the client left. The
// poller's word for it can be stale, so the socket itself is asked: only
// a close, a reset or bytes count, and asking takes nothing from it.
TEST(http_server, peer_left_asks_the_socket_itself) {
  namespace net = boost::asio;
  using tcp = net::ip::tcp;
  net::io_context ioc;
  tcp::acceptor acceptor{ioc, {net::ip::make_address("127.0.0.1"), 0}};
  struct test_case {
    std::string name;
    std::function<void(tcp::socket&)> client_does;
    bool left;
  };
  const std::vector<test_case> cases = {
    {"nothing yet", [](tcp::socket&) {}, false},
    {"a close", [](tcp::socket& c) { c.close(); }, true},
    {"a reset",
     [](tcp::socket& c) {
       c.set_option(net::socket_base::linger{true, 0});
       c.close();
     },
     true},
    {"bytes", [](tcp::socket& c) { net::write(c, net::buffer("x", 1)); }, true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    tcp::socket client{ioc};
    client.connect(acceptor.local_endpoint());
    tcp::socket server = acceptor.accept();
    tc.client_does(client);
    // What the client did takes a moment to reach the other end.
    bool left = false;
    for (int i = 0; i < 100 && !left; ++i) {
      left = peer_left(server.native_handle());
      if (!left)
        std::this_thread::sleep_for(5ms);
    }
    EXPECT_EQ(left, tc.left);
    if (tc.name == "bytes") {
      EXPECT_EQ(server.available(), 1u) << "the peek took the byte";
    }
  }
}

// An address connects without a lookup; a name still goes through the
// resolver; a name that does not resolve is an error naming it.
TEST(http_server, client_reaches_it_by_address_and_by_name) {
  served s;
  for (const char* host : {"127.0.0.1", "localhost"}) {
    SCOPED_TRACE(host);
    auto cc = s.client();
    cc.host = host;
    http_client c{cc};
    auto got = c.post("/echo", "hi", "text/plain");
    ASSERT_TRUE(got) << got.err().message;
    EXPECT_EQ(got->body, "hi");
  }
  auto cc = s.client();
  cc.host = "no-such-host.invalid";
  http_client c{cc};
  auto got = c.get("/echo");
  ASSERT_FALSE(got);
  EXPECT_NE(got.err().message.find("no-such-host.invalid"), std::string::npos)
    << got.err().message;
}

TEST(http_server, stop_is_idempotent_and_ends_periodic_tasks) {
  served s;
  std::atomic<int> ticks{0};
  s.server.every(5ms, [&] { ++ticks; });
  const auto until = std::chrono::steady_clock::now() + 5s;
  while (ticks.load() < 2 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(5ms);
  EXPECT_GE(ticks.load(), 2);
  s.server.stop();
  EXPECT_TRUE(s.server.stopped());
  int after = ticks.load();
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(ticks.load(), after);
  s.server.stop();
}

TEST(http_server, bind_addresses) {
  auto v4 = parse_ip_address("127.0.0.1");
  ASSERT_TRUE(v4);
  EXPECT_TRUE(v4->loopback);
  EXPECT_FALSE(v4->unspecified);
  auto any = parse_ip_address("::");
  ASSERT_TRUE(any);
  EXPECT_TRUE(any->unspecified);
  EXPECT_EQ(any->text, "::");
  EXPECT_FALSE(parse_ip_address("localhost"));
}

} // namespace
} // namespace tessera::io
