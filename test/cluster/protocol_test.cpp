// SPDX-FileCopyrightText: 2026 The tessera authors SPDX-License-Identifier:
// Apache-2.0 Protocol tests: the embedded API server over HTTP, driven by
// tessera's own client (docs/apiserver-protocol.md §9 checklist items 1-14 as
// seen on the wire).
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "io/http_client.hpp"
#include "test/support/api_client.hpp"

#include <arpa/inet.h>
#include <boost/json.hpp>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

// Options are designated initializers naming only what a case sets.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace tessera {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;
using apiserver::api_server;
using apiserver::server_config;
using apiserver::store;
using apiserver::store_config;

std::string pod_json(const std::string& name, const std::string& extra = "") {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name
         + R"("},"spec":{"containers":[{"name":"c","image":"busybox"}])" + extra
         + "}}";
}

json::value parse(const std::string& s) {
  json::error_code ec;
  auto v = json::parse(s, ec);
  EXPECT_FALSE(ec) << s;
  return v;
}

std::string str(const json::value& v,
                std::initializer_list<std::string_view> path) {
  return test::json_text_at(v, path);
}

/// Sends raw bytes on a fresh connection and returns what comes back
/// until the server closes it.
std::string raw_exchange(std::uint16_t port, const std::string& bytes) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string out;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    (void)!::write(fd, bytes.data(), bytes.size());
    char buf[4096];
    for (;;) {
      auto n = ::read(fd, buf, sizeof buf);
      if (n <= 0)
        break;
      out.append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return out;
}

class ApiServerTest : public ::testing::Test {
protected:
  void start(store_config sc = {}, server_config cfg = {}) {
    sc.seed = 7;
    st_ = std::make_unique<store>(sc);
    cfg.port = 0;
    cfg.threads = 2;
    auto s = api_server::start(*st_, cfg);
    ASSERT_TRUE(s) << s.err().message;
    server_ = std::move(*s);
  }
  void TearDown() override {
    if (server_)
      server_->stop();
  }
  io::client_config client_config() const {
    io::client_config c;
    c.port = server_->port();
    c.request_timeout = 10s;
    return c;
  }
  io::http_client client() const {
    return io::http_client{client_config()};
  }
  std::unique_ptr<io::line_stream> watch(const std::string& target) {
    io::http_client c{client_config()};
    io::http_request r;
    r.target = target;
    auto s = c.stream(r);
    EXPECT_TRUE(s) << s.err().message;
    if (!s)
      return nullptr;
    EXPECT_EQ((*s)->status(), 200);
    return std::move(*s);
  }
  /// Reads `n` events (or fewer if the stream ends or 5 s pass).
  static std::vector<json::value> read(io::line_stream& s, std::size_t n) {
    std::vector<json::value> out;
    auto deadline = std::chrono::steady_clock::now() + 5s;
    while (out.size() < n && std::chrono::steady_clock::now() < deadline) {
      auto line = s.next_line(200ms);
      if (!line) {
        if (line.err().code == ec::timeout)
          continue;
        break;
      }
      if (!*line)
        break;
      out.push_back(parse(**line));
    }
    return out;
  }
  /// Reads until the stream ends; true when it ended cleanly.
  static bool read_to_end(io::line_stream& s, std::vector<json::value>& out,
                          std::chrono::milliseconds limit = 5s) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      auto line = s.next_line(100ms);
      if (!line) {
        if (line.err().code == ec::timeout)
          continue;
        return false;
      }
      if (!*line)
        return true;
      out.push_back(parse(**line));
    }
    return false;
  }

  const apiserver::resource_info& pods_
    = apiserver::primary_resource(apiserver::storage_kind::pod);
  std::unique_ptr<store> st_;
  std::unique_ptr<api_server> server_;
};

TEST_F(ApiServerTest,
       ListThenWatchFromItsVersionDeliversExactlyTheLaterEvents) {
  start();
  auto c = client();
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(c.post("/api/v1/namespaces/default/pods",
                     pod_json("a" + std::to_string(i)))
                ->status,
              201);
  auto list = c.get("/api/v1/pods");
  ASSERT_TRUE(list);
  ASSERT_EQ(list->status, 200);
  auto l = parse(list->body);
  EXPECT_EQ(str(l, {"kind"}), "PodList");
  ASSERT_EQ(l.at("items").as_array().size(), 3u);
  EXPECT_EQ(str(l.at("items").at(0), {"kind"}), "") << "items carry no kind";
  auto rv = str(l, {"metadata", "resourceVersion"});
  EXPECT_EQ(rv, std::to_string(st_->resource_version()));

  auto w = watch("/api/v1/pods?watch=true&resourceVersion=" + rv);
  ASSERT_TRUE(w);
  std::vector<std::string> names;
  for (int i = 0; i < 4; ++i) {
    auto r = c.post("/api/v1/namespaces/default/pods",
                    pod_json("b" + std::to_string(i)));
    ASSERT_EQ(r->status, 201);
    names.push_back("b" + std::to_string(i));
  }
  auto events = read(*w, 4);
  ASSERT_EQ(events.size(), 4u);
  std::uint64_t last = std::stoull(rv);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(str(events[i], {"type"}), "ADDED");
    EXPECT_EQ(str(events[i], {"object", "kind"}), "Pod") << "self-describing";
    EXPECT_EQ(str(events[i], {"object", "metadata", "name"}), names[i]);
    auto erv
      = std::stoull(str(events[i], {"object", "metadata", "resourceVersion"}));
    EXPECT_GT(erv, last);
    last = erv;
  }
  // Unset resourceVersion starts with the state.
  auto all = watch("/api/v1/namespaces/default/pods?watch=1");
  ASSERT_TRUE(all);
  auto initial = read(*all, 7);
  EXPECT_EQ(initial.size(), 7u);
}

TEST_F(ApiServerTest, BookmarksOnlyWhenAllowedAndBeforeTimeout) {
  server_config cfg;
  cfg.handler.bookmark_interval = 100ms;
  start({}, cfg);
  auto rv = std::to_string(st_->resource_version());
  // Both watches run at once: one without allowWatchBookmarks, one with.
  auto t0 = std::chrono::steady_clock::now();
  auto plain
    = watch("/api/v1/pods?watch=true&timeoutSeconds=1&resourceVersion=" + rv);
  ASSERT_TRUE(plain);
  auto bm = watch(
    "/api/v1/"
    "pods?watch=true&allowWatchBookmarks=true&timeoutSeconds=1&resourceVersion="
    + rv);
  ASSERT_TRUE(bm);
  auto c = client();
  ASSERT_EQ(c.post("/api/v1/namespaces/default/pods", pod_json("p"))->status,
            201);
  // Without: only the event, and a clean end at the timeout.
  std::vector<json::value> events;
  ASSERT_TRUE(read_to_end(*plain, events));
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(took, 900ms);
  EXPECT_LT(took, 3s);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(str(events[0], {"type"}), "ADDED");
  // With: periodic bookmarks, each at least the RV of every event sent.
  events.clear();
  ASSERT_TRUE(read_to_end(*bm, events));
  unsigned long long max_event = 0;
  int bookmarks = 0;
  for (const auto& e : events) {
    auto erv = std::stoull(str(e, {"object", "metadata", "resourceVersion"}));
    if (str(e, {"type"}) == "BOOKMARK") {
      ++bookmarks;
      EXPECT_GE(erv, max_event);
      EXPECT_EQ(str(e, {"object", "kind"}), "Pod");
    } else {
      max_event = std::max(max_event, erv);
    }
  }
  EXPECT_GE(bookmarks, 2);
}

TEST_F(ApiServerTest, TooOldResourceVersionIsOneErrorEvent) {
  store_config sc;
  sc.history_size = 3;
  start(sc);
  auto c = client();
  for (int i = 0; i < 6; ++i)
    ASSERT_EQ(c.post("/api/v1/namespaces/default/pods",
                     pod_json("p" + std::to_string(i)))
                ->status,
              201);
  auto old = st_->compacted_resource_version() - 1;
  auto w
    = watch("/api/v1/pods?watch=true&resourceVersion=" + std::to_string(old));
  ASSERT_TRUE(w);
  std::vector<json::value> events;
  ASSERT_TRUE(read_to_end(*w, events));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(str(events[0], {"type"}), "ERROR");
  EXPECT_EQ(str(events[0], {"object", "code"}), "410");
  EXPECT_EQ(str(events[0], {"object", "reason"}), "Expired");
  EXPECT_EQ(str(events[0], {"object", "kind"}), "Status");
  // The oldest retained - 1 is still fine.
  auto ok = watch("/api/v1/pods?watch=true&resourceVersion="
                  + std::to_string(st_->compacted_resource_version()));
  ASSERT_TRUE(ok);
  EXPECT_EQ(read(*ok, 3).size(), 3u);
}

TEST_F(ApiServerTest, BindingOverHttp) {
  start();
  auto c = client();
  auto created = c.post("/api/v1/namespaces/default/pods", pod_json("p1"));
  ASSERT_EQ(created->status, 201);
  auto uid = str(parse(created->body), {"metadata", "uid"});
  auto w = watch("/api/v1/namespaces/default/pods?watch=true&resourceVersion="
                 + std::to_string(st_->resource_version()));
  ASSERT_TRUE(w);
  std::string binding
    = R"({"kind":"Binding","apiVersion":"v1","metadata":{"name":"p1","namespace":"default","uid":")"
      + uid
      + R"(","creationTimestamp":null},"target":{"kind":"Node","name":"node-000001"}})";
  auto r = c.post("/api/v1/namespaces/default/pods/p1/binding", binding);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 201);
  EXPECT_EQ(
    parse(r->body),
    parse(
      R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201})"));
  auto events = read(*w, 1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(str(events[0], {"type"}), "MODIFIED");
  EXPECT_EQ(str(events[0], {"object", "spec", "nodeName"}), "node-000001");
  auto again = c.post("/api/v1/namespaces/default/pods/p1/binding", binding);
  EXPECT_EQ(again->status, 409);
  auto st = parse(again->body);
  EXPECT_EQ(str(st, {"reason"}), "Conflict");
  EXPECT_EQ(
    str(st, {"message"}),
    R"(Operation cannot be fulfilled on pods/binding "p1": pod p1 is already assigned to node "node-000001")");
  EXPECT_EQ(str(st, {"details", "kind"}), "pods/binding");
  auto mismatch = c.post("/api/v1/namespaces/default/pods/p2/binding", binding);
  EXPECT_EQ(mismatch->status, 400);
  EXPECT_EQ(str(parse(mismatch->body), {"message"}),
            "name in URL does not match name in Binding object");
  auto missing
    = c.post("/api/v1/namespaces/default/pods/gone/binding",
             R"({"metadata":{"name":"gone"},"target":{"name":"n1"}})");
  EXPECT_EQ(missing->status, 404);
  // The legacy bindings collection takes the pod from the body.
  ASSERT_EQ(c.post("/api/v1/namespaces/default/pods", pod_json("p3"))->status,
            201);
  auto legacy = c.post(
    "/api/v1/namespaces/default/bindings",
    R"({"metadata":{"name":"p3"},"target":{"kind":"Node","name":"n9"}})");
  EXPECT_EQ(legacy->status, 201);
}

TEST_F(ApiServerTest, DeleteProducesDeletedWithFinalState) {
  start();
  auto c = client();
  ASSERT_EQ(c.post("/api/v1/namespaces/default/pods",
                   pod_json("p1", R"(,"nodeName":"n1")"))
              ->status,
            201);
  auto w = watch("/api/v1/pods?watch=true&resourceVersion="
                 + std::to_string(st_->resource_version()));
  ASSERT_TRUE(w);
  auto graceful = c.del("/api/v1/namespaces/default/pods/p1",
                        R"({"propagationPolicy":"Background"})");
  ASSERT_EQ(graceful->status, 200);
  EXPECT_NE(str(parse(graceful->body), {"metadata", "deletionTimestamp"}), "");
  auto now = c.del("/api/v1/namespaces/default/pods/p1",
                   R"({"gracePeriodSeconds":0})");
  ASSERT_EQ(now->status, 200);
  auto events = read(*w, 2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(str(events[0], {"type"}), "MODIFIED");
  EXPECT_EQ(str(events[1], {"type"}), "DELETED");
  EXPECT_EQ(str(events[1], {"object", "spec", "nodeName"}), "n1");
  EXPECT_NE(str(events[1], {"object", "metadata", "deletionTimestamp"}), "");
  EXPECT_EQ(str(events[1], {"object", "metadata", "resourceVersion"}),
            std::to_string(st_->resource_version()));
  EXPECT_EQ(c.get("/api/v1/namespaces/default/pods/p1")->status, 404);
  // Other kinds answer a Success Status.
  ASSERT_EQ(c.post("/api/v1/nodes", R"({"metadata":{"name":"n1"}})")->status,
            201);
  auto node_del = c.del("/api/v1/nodes/n1");
  ASSERT_EQ(node_del->status, 200);
  EXPECT_EQ(str(parse(node_del->body), {"status"}), "Success");
  EXPECT_EQ(str(parse(node_del->body), {"details", "name"}), "n1");
}

TEST_F(ApiServerTest, PaginationReturnsEveryObjectOnceAtOneVersion) {
  start();
  auto c = client();
  for (int i = 0; i < 23; ++i)
    ASSERT_EQ(c.post("/api/v1/namespaces/default/pods",
                     pod_json("p" + std::to_string(100 + i)))
                ->status,
              201);
  std::set<std::string> seen;
  std::string token;
  std::string rv;
  int pages = 0;
  do {
    std::string target = "/api/v1/pods?limit=5";
    if (!token.empty())
      target += "&continue=" + token;
    auto r = c.get(target);
    ASSERT_EQ(r->status, 200) << r->body;
    auto l = parse(r->body);
    if (rv.empty())
      rv = str(l, {"metadata", "resourceVersion"});
    EXPECT_EQ(str(l, {"metadata", "resourceVersion"}), rv);
    for (const auto& item : l.at("items").as_array())
      EXPECT_TRUE(seen.insert(str(item, {"metadata", "name"})).second);
    token = str(l, {"metadata", "continue"});
    ++pages;
    // Writes between pages do not leak into the snapshot.
    ASSERT_EQ(c.post("/api/v1/namespaces/default/pods",
                     pod_json("x" + std::to_string(pages)))
                ->status,
              201);
  } while (!token.empty());
  EXPECT_EQ(pages, 5);
  EXPECT_EQ(seen.size(), 23u);
  auto bad = c.get("/api/v1/pods?limit=5&continue=%21%21");
  EXPECT_EQ(bad->status, 400);
}

TEST_F(ApiServerTest, WatchListStreamsStateThenMarker) {
  start();
  auto c = client();
  ASSERT_EQ(c.post("/api/v1/namespaces/default/pods", pod_json("p1"))->status,
            201);
  auto w = watch("/api/v1/"
                 "pods?watch=true&sendInitialEvents=true&resourceVersionMatch="
                 "NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=30");
  ASSERT_TRUE(w);
  auto events = read(*w, 2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(str(events[0], {"type"}), "ADDED");
  EXPECT_EQ(str(events[1], {"type"}), "BOOKMARK");
  EXPECT_EQ(str(events[1], {"object", "metadata", "annotations",
                            "k8s.io/initial-events-end"}),
            "true");
  // A plain list with sendInitialEvents is refused.
  auto list = c.get("/api/v1/pods?sendInitialEvents=true");
  EXPECT_EQ(list->status, 422);
}

TEST_F(ApiServerTest, WatchListCanBeRefused) {
  store_config sc;
  sc.refuse_watch_list = true;
  start(sc);
  auto c = client();
  auto r = c.get("/api/v1/"
                 "pods?watch=true&sendInitialEvents=true&resourceVersionMatch="
                 "NotOlderThan&allowWatchBookmarks=true");
  ASSERT_EQ(r->status, 422);
  auto st = parse(r->body);
  EXPECT_EQ(str(st, {"reason"}), "Invalid");
  EXPECT_EQ(
    str(st, {"message"}),
    R"(ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled)");
  EXPECT_EQ(
    str(st, {"details", "causes"}),
    R"([{"reason":"FieldValueForbidden","message":"Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled","field":"sendInitialEvents"}])");
}

TEST_F(ApiServerTest, HeadersFlushBeforeTheFirstEvent) {
  start();
  io::http_client c{client_config()};
  io::http_request r;
  r.target = "/api/v1/pods?watch=true&resourceVersion="
             + std::to_string(st_->resource_version());
  auto t0 = std::chrono::steady_clock::now();
  auto s = c.stream(r);
  ASSERT_TRUE(s) << s.err().message;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
  EXPECT_EQ((*s)->status(), 200);
  auto line = (*s)->next_line(100ms);
  ASSERT_FALSE(line);
  EXPECT_EQ(line.err().code, ec::timeout) << "no event yet, stream still open";
  ASSERT_TRUE(st_->create(pods_, "default", pod_json("late")));
  auto later = (*s)->next_line(5s);
  ASSERT_TRUE(later && *later);
  EXPECT_EQ(str(parse(**later), {"object", "metadata", "name"}), "late");
}

TEST_F(ApiServerTest, PendingEventsShareOneChunkOfWholeLines) {
  start();
  const auto rv = st_->resource_version();
  for (int i = 0; i < 50; ++i)
    ASSERT_TRUE(
      st_->create(pods_, "default", pod_json("p" + std::to_string(i))));
  // Replayed from the history, all 50 are pending when the stream starts.
  auto wire = raw_exchange(
    server_->port(),
    "GET /api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1"
    "&resourceVersion="
      + std::to_string(rv)
      + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  auto body_at = wire.find("\r\n\r\n");
  ASSERT_NE(body_at, std::string::npos) << wire;
  EXPECT_NE(wire.find("Transfer-Encoding: chunked"), std::string::npos);
  std::size_t pos = body_at + 4;
  std::vector<std::string> chunks;
  bool terminated = false;
  while (pos < wire.size()) {
    auto eol = wire.find("\r\n", pos);
    ASSERT_NE(eol, std::string::npos);
    auto size = std::stoul(wire.substr(pos, eol - pos), nullptr, 16);
    if (size == 0) {
      terminated = wire.compare(eol, 4, "\r\n\r\n") == 0;
      break;
    }
    ASSERT_LE(eol + 2 + size + 2, wire.size());
    chunks.push_back(wire.substr(eol + 2, size));
    ASSERT_EQ(wire.compare(eol + 2 + size, 2, "\r\n"), 0);
    pos = eol + 2 + size + 2;
  }
  EXPECT_TRUE(terminated) << "the body ends with the last chunk";
  ASSERT_FALSE(chunks.empty());
  EXPECT_LT(chunks.size(), 50u) << "pending events are batched";
  std::vector<std::string> names;
  for (const auto& c : chunks) {
    ASSERT_EQ(c.back(), '\n') << "a chunk never splits an event";
    std::size_t from = 0;
    for (auto nl = c.find('\n'); nl != std::string::npos;
         from = nl + 1, nl = c.find('\n', from)) {
      auto ev = parse(c.substr(from, nl - from));
      EXPECT_EQ(str(ev, {"type"}), "ADDED");
      names.push_back(str(ev, {"object", "metadata", "name"}));
    }
  }
  ASSERT_EQ(names.size(), 50u);
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(names[static_cast<std::size_t>(i)], "p" + std::to_string(i));
}

TEST_F(ApiServerTest, BadRequestsGetStatusBodiesAndNeverCrash) {
  server_config cfg;
  cfg.body_limit = 64 * 1024;
  start({}, cfg);
  auto c = client();
  struct test_case {
    std::string name;
    io::http_request request;
    int code;
    std::string reason; // empty: plain-text answer
  };
  auto req = [](std::string method, std::string target, std::string body = {},
                std::string ct = "application/json",
                std::string accept = "application/json") {
    io::http_request r;
    r.method = std::move(method);
    r.target = std::move(target);
    r.body = std::move(body);
    r.content_type = std::move(ct);
    r.accept = std::move(accept);
    return r;
  };
  ASSERT_EQ(c.post("/api/v1/namespaces/default/pods", pod_json("p1"))->status,
            201);
  const std::vector<test_case> cases = {
    {"malformed JSON",
     req("POST", "/api/v1/namespaces/default/pods", "{\"metadata\":"), 400,
     "BadRequest"},
    {"JSON array body", req("POST", "/api/v1/namespaces/default/pods", "[1,2]"),
     400, "BadRequest"},
    {"deep nesting",
     req("POST", "/api/v1/namespaces/default/pods", std::string(5000, '[')),
     400, "BadRequest"},
    {"huge body",
     req("POST", "/api/v1/namespaces/default/pods",
         std::string(200 * 1024, ' ')),
     413, "RequestEntityTooLarge"},
    {"unknown resource", req("GET", "/api/v1/widgets"), 404, "NotFound"},
    {"unknown resource", req("GET", "/apis/apps/v1/controllerrevisions"), 404,
     "NotFound"},
    {"unknown group",
     req("GET", "/apis/autoscaling/v2/horizontalpodautoscalers"), 404,
     "NotFound"},
    {"unknown path", req("GET", "/nothing/here"), 404, ""},
    {"namespaced item without namespace", req("GET", "/api/v1/pods/p1"), 404,
     "NotFound"},
    {"bad label selector", req("GET", "/api/v1/pods?labelSelector=a%20in%20(b"),
     400, "BadRequest"},
    {"bad field selector",
     req("GET", "/api/v1/pods?fieldSelector=spec.foo%3Dx"), 400, "BadRequest"},
    {"bad limit", req("GET", "/api/v1/pods?limit=abc"), 400, "BadRequest"},
    {"bad watch flag", req("GET", "/api/v1/pods?watch=maybe"), 400,
     "BadRequest"},
    {"bad resourceVersion", req("GET", "/api/v1/pods?resourceVersion=x"), 400,
     "BadRequest"},
    {"resourceVersionMatch without RV",
     req("GET", "/api/v1/pods?resourceVersionMatch=NotOlderThan"), 422,
     "Invalid"},
    {"bad merge patch",
     req("PATCH", "/api/v1/namespaces/default/pods/p1", "[]",
         "application/merge-patch+json"),
     422, "Invalid"},
    {"malformed patch",
     req("PATCH", "/api/v1/namespaces/default/pods/p1", "{",
         "application/merge-patch+json"),
     400, "BadRequest"},
    {"failing json patch",
     req("PATCH", "/api/v1/namespaces/default/pods/p1",
         R"([{"op":"remove","path":"/nope"}])", "application/json-patch+json"),
     422, "Invalid"},
    {"apply patch",
     req("PATCH", "/api/v1/namespaces/default/pods/p1", "{}",
         "application/apply-patch+yaml"),
     415, "UnsupportedMediaType"},
    {"yaml body",
     req("POST", "/api/v1/namespaces/default/pods", "kind: Pod",
         "application/yaml"),
     415, "UnsupportedMediaType"},
    {"protobuf body to an unknown resource",
     req("POST", "/api/v1/widgets", std::string{"k8s\0garbage", 11},
         "application/vnd.kubernetes.protobuf"),
     404, "NotFound"},
    {"malformed protobuf body",
     req("POST", "/api/v1/namespaces/default/pods",
         std::string{"k8s\0garbage", 11},
         "application/vnd.kubernetes.protobuf"),
     400, "BadRequest"},
    {"protobuf only, for discovery (served as JSON only)",
     req("GET", "/api/v1", "", "", "application/vnd.kubernetes.protobuf"), 406,
     "NotAcceptable"},
    {"method not allowed", req("PUT", "/api/v1/namespaces/default/pods"), 405,
     "MethodNotAllowed"},
    {"stale update",
     req(
       "PUT", "/api/v1/namespaces/default/pods/p1",
       R"({"metadata":{"name":"p1","resourceVersion":"1"},"spec":{"containers":[{"name":"c","image":"i"}]}})"),
     409, "Conflict"},
    {"name mismatch on update",
     req("PUT", "/api/v1/namespaces/default/pods/p1",
         R"({"metadata":{"name":"p2"}})"),
     400, "BadRequest"},
    {"bad dryRun",
     req("POST", "/api/v1/namespaces/default/pods?dryRun=Some", pod_json("d")),
     400, "BadRequest"},
    {"invalid delete options",
     req("DELETE", "/api/v1/namespaces/default/pods/p1", "{oops"), 400,
     "BadRequest"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    io::http_client fresh{client_config()};
    auto r = fresh.request(tc.request);
    ASSERT_TRUE(r) << r.err().message;
    EXPECT_EQ(r->status, tc.code) << r->body;
    if (tc.reason.empty())
      continue;
    auto st = parse(r->body);
    EXPECT_EQ(str(st, {"kind"}), "Status");
    EXPECT_EQ(str(st, {"status"}), "Failure");
    EXPECT_EQ(str(st, {"reason"}), tc.reason);
    EXPECT_EQ(str(st, {"code"}), std::to_string(tc.code));
    EXPECT_FALSE(str(st, {"message"}).empty());
  }
  // Malformed HTTP gets a 400 and a closed connection.
  EXPECT_EQ(
    raw_exchange(server_->port(),
                 "GET /api/v1/pods HTTP/1.1\r\nContent-Length: zzz\r\n\r\n")
      .substr(0, 12),
    "HTTP/1.1 400");
  EXPECT_EQ(
    raw_exchange(server_->port(), "NOT HTTP AT ALL\r\n\r\n").substr(0, 12),
    "HTTP/1.1 400");
  // dryRun=All validates without writing.
  auto rv = st_->resource_version();
  auto dry
    = c.post("/api/v1/namespaces/default/pods?dryRun=All", pod_json("dry"));
  EXPECT_EQ(dry->status, 201);
  EXPECT_EQ(st_->resource_version(), rv);
  // Still serving.
  auto health = c.get("/readyz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(health->body, "ok");
}

TEST_F(ApiServerTest, DiscoveryAndVersion) {
  start();
  auto c = client();
  auto api = parse(c.get("/api")->body);
  EXPECT_EQ(str(api, {"kind"}), "APIVersions");
  EXPECT_EQ(str(api, {"versions"}), R"(["v1"])");
  auto v1 = parse(c.get("/api/v1")->body);
  bool pods = false, binding = false, status = false;
  for (const auto& r : v1.at("resources").as_array()) {
    auto name = str(r, {"name"});
    if (name == "pods") {
      pods = true;
      EXPECT_EQ(str(r, {"kind"}), "Pod");
      EXPECT_EQ(str(r, {"namespaced"}), "true");
      EXPECT_NE(str(r, {"verbs"}).find("\"watch\""), std::string::npos);
    }
    binding |= name == "pods/binding";
    status |= name == "pods/status";
  }
  EXPECT_TRUE(pods && binding && status);
  auto groups = parse(c.get("/apis")->body);
  std::set<std::string> names;
  for (const auto& g : groups.at("groups").as_array())
    names.insert(str(g, {"name"}));
  EXPECT_EQ(names, (std::set<std::string>{
                     "apps", "authentication.k8s.io", "authorization.k8s.io",
                     "batch", "coordination.k8s.io", "events.k8s.io", "policy",
                     "scheduling.k8s.io", "storage.k8s.io"}));
  for (const auto& gv :
       {"/apis/apps/v1", "/apis/authentication.k8s.io/v1",
        "/apis/authorization.k8s.io/v1", "/apis/coordination.k8s.io/v1",
        "/apis/events.k8s.io/v1", "/apis/policy/v1",
        "/apis/scheduling.k8s.io/v1", "/apis/storage.k8s.io/v1"}) {
    SCOPED_TRACE(gv);
    auto r = c.get(gv);
    ASSERT_EQ(r->status, 200);
    EXPECT_EQ(str(parse(r->body), {"kind"}), "APIResourceList");
  }
  auto version = parse(c.get("/version")->body);
  EXPECT_EQ(str(version, {"major"}), "1");
  EXPECT_EQ(str(version, {"gitVersion"}).substr(0, 2), "v1");
  auto openapi = c.get("/openapi/v2?timeout=32s");
  EXPECT_EQ(openapi->status, 200);
  EXPECT_TRUE(openapi->body.empty());
  EXPECT_EQ(openapi->content_type, "application/octet-stream");
  // Table output for pods.
  ASSERT_EQ(c.post("/api/v1/namespaces/default/pods", pod_json("p1"))->status,
            201);
  io::http_request t;
  t.target = "/api/v1/namespaces/default/pods?limit=500";
  t.accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/"
             "json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
  auto table = parse(c.request(t)->body);
  EXPECT_EQ(str(table, {"kind"}), "Table");
  EXPECT_EQ(str(table.at("rows").at(0), {"cells"}).substr(0, 23),
            R"(["p1","0/1","Pending",0)");
  EXPECT_EQ(str(table.at("rows").at(0), {"object", "kind"}),
            "PartialObjectMetadata");
  auto metrics = c.get("/metrics");
  EXPECT_NE(metrics->body.find("tessera_apiserver_writes_total"),
            std::string::npos);
}

TEST_F(ApiServerTest, TokenIsRequiredWhenConfigured) {
  server_config cfg;
  cfg.handler.token = "s3cret";
  start({}, cfg);
  auto anon = client();
  auto denied = anon.get("/api/v1/pods");
  EXPECT_EQ(denied->status, 401);
  EXPECT_EQ(str(parse(denied->body), {"reason"}), "Unauthorized");
  EXPECT_EQ(anon.get("/healthz")->status, 200);
  auto cc = client_config();
  cc.bearer_token = "s3cret";
  io::http_client ok{cc};
  EXPECT_EQ(ok.get("/api/v1/pods")->status, 200);
}

TEST_F(ApiServerTest, ServesTls) {
  namespace fs = std::filesystem;
  auto dir
    = fs::temp_directory_path() / ("tessera-tls-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto cert = (dir / "cert.pem").string();
  auto key = (dir / "key.pem").string();
  std::string cmd
    = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 "
      "-nodes -days 1 "
      "-subj /CN=tessera -addext subjectAltName=IP:127.0.0.1 -keyout "
      + key + " -out " + cert + " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    fs::remove_all(dir);
    GTEST_SKIP() << "openssl CLI not available to make a test certificate";
  }
  server_config cfg;
  cfg.tls_cert_file = cert;
  cfg.tls_key_file = key;
  start({}, cfg);
  EXPECT_EQ(server_->url().substr(0, 8), "https://");
  std::ifstream in{cert};
  std::string pem{std::istreambuf_iterator<char>{in}, {}};
  auto cc = client_config();
  cc.tls.enabled = true;
  cc.tls.ca_pem = pem;
  io::http_client verified{cc};
  auto r = verified.get("/api/v1/namespaces");
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_EQ(r->status, 200);
  // Watches work over TLS too.
  io::http_request wr;
  wr.target = "/api/v1/namespaces?watch=true";
  auto s = verified.stream(wr);
  ASSERT_TRUE(s) << s.err().message;
  EXPECT_EQ(read(**s, 4).size(), 4u);
  // A name the certificate does not carry fails verification.
  auto wrong = cc;
  wrong.tls.server_name = "example.com";
  io::http_client mismatch{wrong};
  EXPECT_FALSE(mismatch.get("/api/v1/namespaces"));
  // Plain HTTP against the TLS port fails cleanly.
  io::http_client plain{client_config()};
  auto p = plain.get("/healthz");
  EXPECT_TRUE(!p || p->status != 200);
  fs::remove_all(dir);
}

TEST_F(ApiServerTest, SlowWatcherIsDroppedWhileOthersKeepUp) {
  store_config sc;
  sc.watch_queue_limit = 1000;
  sc.history_size = 200000;
  start(sc);
  auto rv = std::to_string(st_->resource_version());
  // The slow client opens a watch and never reads it.
  auto slow = watch("/api/v1/pods?watch=true&resourceVersion=" + rv);
  ASSERT_TRUE(slow);
  auto fast = watch("/api/v1/pods?watch=true&resourceVersion=" + rv);
  ASSERT_TRUE(fast);
  constexpr int total = 6000;
  std::string big_label(2000, 'x');
  std::atomic<int> got{0};
  std::thread writer([&] {
    for (int i = 0; i < total; ++i) {
      // Pace the writer to the fast reader: it must never be 500 behind.
      while (got.load() < i - 500)
        std::this_thread::yield();
      auto r = st_->create(
        pods_, "default",
        R"({"metadata":{"name":"p)" + std::to_string(i)
          + R"(","annotations":{"pad":")" + big_label
          + R"("}},"spec":{"containers":[{"name":"c","image":"i"}]}})");
      ASSERT_TRUE(r);
    }
  });
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (got < total && std::chrono::steady_clock::now() < deadline) {
    auto line = fast->next_line(1s);
    if (!line)
      continue;
    if (!*line)
      break;
    ++got;
  }
  writer.join();
  EXPECT_EQ(got.load(), total);
  EXPECT_EQ(st_->stats().watchers_dropped, 1u);
}

TEST_F(ApiServerTest, FaultInjection) {
  server_config cfg;
  cfg.fault_drop_watches_every = 200ms;
  start({}, cfg);
  auto w = watch("/api/v1/pods?watch=true");
  ASSERT_TRUE(w);
  auto t0 = std::chrono::steady_clock::now();
  std::vector<json::value> events;
  read_to_end(*w, events, 3s);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s)
    << "the watch was dropped";
  st_->fail_binds(1.0);
  auto c = client();
  ASSERT_EQ(c.post("/api/v1/namespaces/default/pods", pod_json("p1"))->status,
            201);
  auto b = c.post("/api/v1/namespaces/default/pods/p1/binding",
                  R"({"metadata":{"name":"p1"},"target":{"name":"n1"}})");
  EXPECT_EQ(b->status, 500);
  EXPECT_EQ(str(parse(b->body), {"reason"}), "InternalError");
}

TEST_F(ApiServerTest, EventsThroughBothApis) {
  start();
  auto c = client();
  auto r = c.post(
    "/apis/events.k8s.io/v1/namespaces/default/events",
    R"({"metadata":{"name":"p1.1"},"eventTime":"2026-08-07T05:54:51.000000Z","reportingController":"tessera","reportingInstance":"tessera-h","action":"Scheduling","reason":"Scheduled","regarding":{"kind":"Pod","namespace":"default","name":"p1","uid":"u1"},"note":"assigned","type":"Normal"})");
  ASSERT_EQ(r->status, 201) << r->body;
  auto core
    = c.get("/api/v1/namespaces/default/"
            "events?fieldSelector=involvedObject.uid%3Du1%2CinvolvedObject."
            "name%3Dp1%2CinvolvedObject.namespace%3Ddefault");
  ASSERT_EQ(core->status, 200);
  auto l = parse(core->body);
  ASSERT_EQ(l.at("items").as_array().size(), 1u);
  EXPECT_EQ(str(l.at("items").at(0), {"message"}), "assigned");
  auto v1 = parse(
    c.get("/apis/events.k8s.io/v1/namespaces/default/events/p1.1")->body);
  EXPECT_EQ(str(v1, {"note"}), "assigned");
  EXPECT_EQ(str(v1, {"apiVersion"}), "events.k8s.io/v1");
}

TEST_F(ApiServerTest, ClientReusesItsConnectionAndSurvivesServerCloses) {
  server_config cfg;
  cfg.idle_timeout = 200ms;
  start({}, cfg);
  auto c = client();
  for (int i = 0; i < 50; ++i)
    ASSERT_EQ(c.get("/healthz")->status, 200);
  std::this_thread::sleep_for(400ms); // the server closes the idle connection
  auto r = c.get("/api/v1/namespaces/default");
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(str(parse(r->body), {"kind"}), "Namespace");
}

TEST_F(ApiServerTest, CancelAbortsABlockedStream) {
  start();
  auto w = watch("/api/v1/pods?watch=true&resourceVersion="
                 + std::to_string(st_->resource_version()));
  ASSERT_TRUE(w);
  auto t0 = std::chrono::steady_clock::now();
  std::thread canceller([&] {
    std::this_thread::sleep_for(100ms);
    w->cancel();
  });
  auto line = w->next_line(10s);
  canceller.join();
  EXPECT_FALSE(line);
  EXPECT_NE(line ? ec::ok : line.err().code, ec::timeout);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
}

TEST(ServerUrl, Parses) {
  auto a = io::parse_server_url("https://10.0.0.1:6443");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->host, "10.0.0.1");
  EXPECT_EQ(a->port, 6443);
  EXPECT_TRUE(a->tls);
  auto b = io::parse_server_url("http://[::1]:8080/");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->host, "::1");
  EXPECT_EQ(b->port, 8080);
  auto c = io::parse_server_url("https://kube.example.com");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->port, 443);
  EXPECT_FALSE(io::parse_server_url("ftp://x"));
  EXPECT_FALSE(io::parse_server_url("http://host:99999"));
  EXPECT_FALSE(io::parse_server_url("http://host/path"));
}

} // namespace
} // namespace tessera
