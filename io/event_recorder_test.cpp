// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/resources.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "io/event_recorder.hpp"
#include "io/rest_client.hpp"
#include "test/support/api_client.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace tessera::io {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

class EventRecorderTest : public ::testing::Test {
protected:
  void SetUp() override {
    server_ = test::start_test_server(store_);
    client_
      = std::make_unique<rest_client>(test::client_config_for(server_->url()));
  }
  void TearDown() override {
    server_->stop();
  }
  event_record failed(const std::string& pod, const std::string& note) {
    event_record e;
    e.ns = "default";
    e.regarding = {"Pod", "v1", "default", pod, "uid-" + pod, "1"};
    e.type = "Warning";
    e.reason = "FailedScheduling";
    e.action = "Scheduling";
    e.note = note;
    e.reporting_controller = "default-scheduler";
    e.reporting_instance = "default-scheduler-test";
    return e;
  }
  /// Events in the store (core/v1 view) about `pod`.
  std::vector<json::value> events_of(const std::string& pod) {
    apiserver::list_options lo;
    lo.field_selector = "involvedObject.name=" + pod;
    auto l = store_.list(*apiserver::find_resource("", "v1", "events"),
                         "default", lo);
    std::vector<json::value> out;
    if (!l)
      return out;
    for (const auto& o : l->items)
      out.push_back(json::parse(o->json()));
    return out;
  }
  void settle(event_recorder& r) {
    auto deadline = std::chrono::steady_clock::now() + 5s;
    while (r.queued() > 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(5ms);
    ASSERT_EQ(r.queued(), 0u);
  }
  static std::int64_t count_of(const json::value& ev) {
    const auto& o = ev.as_object();
    if (auto* s = o.if_contains("series"); s && s->is_object())
      if (auto* c = s->as_object().if_contains("count"); c && c->is_int64())
        return c->as_int64();
    if (auto* c = o.if_contains("count"); c && c->is_int64())
      return c->as_int64();
    return 1;
  }

  apiserver::store store_;
  std::unique_ptr<apiserver::api_server> server_;
  std::unique_ptr<rest_client> client_;
};

TEST_F(EventRecorderTest, SeriesDeduplication) {
  manual_clock clk;
  event_recorder_config cfg;
  cfg.time = &clk;
  event_recorder rec{*client_, cfg};
  rec.start();

  rec.record(failed("p1", "0/3 nodes are available: 3 Insufficient cpu."));
  settle(rec);
  auto evs = events_of("p1");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].at("reason").as_string(), "FailedScheduling");
  EXPECT_EQ(evs[0].at("message").as_string(),
            "0/3 nodes are available: 3 Insufficient cpu.");
  EXPECT_EQ(evs[0].at("type").as_string(), "Warning");
  EXPECT_EQ(rec.stats().created.load(), 1u);

  // The second occurrence opens a series (one PATCH, count 2); the next
  // ones only count — half an hour of retries is not 180 writes. The
  // periodic work runs after each occurrence, as the writers would.
  clk.advance(10s);
  rec.record(failed("p1", "0/3 nodes are available: 3 Insufficient cpu."));
  settle(rec);
  EXPECT_EQ(rec.stats().patched.load(), 1u);
  for (int i = 1; i <= 180; ++i) {
    clk.advance(10s);
    rec.record(failed("p1", "another message, same key"));
    rec.housekeeping();
  }
  settle(rec);
  EXPECT_EQ(rec.stats().created.load(), 1u);
  // One refresh at 30 min wrote the count reached then (2 + 179).
  EXPECT_EQ(rec.stats().patched.load(), 2u);
  EXPECT_EQ(rec.stats().deduplicated.load(), 180u);
  evs = events_of("p1");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(count_of(evs[0]), 181);

  // Another pod is another key.
  rec.record(failed("p2", "x"));
  settle(rec);
  EXPECT_EQ(events_of("p2").size(), 1u);

  // Six idle minutes finish the series (final write with the last count)
  // and forget the keys; the next occurrence starts a new Event.
  clk.advance(7min);
  rec.housekeeping();
  settle(rec);
  EXPECT_EQ(rec.stats().patched.load(), 3u);
  evs = events_of("p1");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(count_of(evs[0]), 182);
  rec.record(failed("p1", "later"));
  settle(rec);
  EXPECT_EQ(rec.stats().created.load(), 3u);
  EXPECT_EQ(events_of("p1").size(), 2u);
  rec.stop();
}

TEST_F(EventRecorderTest, CoreEventsAndRecreateOnMissing) {
  manual_clock clk;
  event_recorder_config cfg;
  cfg.time = &clk;
  cfg.use_events_v1 = false;
  event_recorder rec{*client_, cfg};
  rec.start();
  rec.record(failed("p3", "first"));
  settle(rec);
  auto evs = events_of("p3");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].at("source").at("component").as_string(),
            "default-scheduler");
  // The Event vanished on the server (TTL): the series PATCH gets 404 and
  // the Event is written again.
  std::string name{evs[0].at("metadata").at("name").as_string()};
  ASSERT_TRUE(store_.remove(*apiserver::find_resource("", "v1", "events"),
                            "default", name));
  rec.record(failed("p3", "second"));
  settle(rec);
  evs = events_of("p3");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(count_of(evs[0]), 2);
  EXPECT_EQ(rec.stats().created.load(), 2u);
  rec.stop();
}

TEST_F(EventRecorderTest, WritesOfOneKeyStayInOrder) {
  // A slow server and several writers: an Event's series PATCH must not
  // overtake its create (it would get 404, create the Event itself, and
  // the original create would then fail with 409).
  apiserver::server_config sc;
  sc.fault_latency = 30ms;
  auto slow = test::start_test_server(store_, sc);
  rest_client client{test::client_config_for(slow->url())};
  event_recorder_config cfg;
  cfg.writers = 4;
  event_recorder rec{client, cfg};
  rec.start();
  const int pods = 12;
  for (int i = 0; i < pods; ++i)
    for (int n = 0; n < 3; ++n)
      rec.record(failed("o" + std::to_string(i), "m"));
  settle(rec);
  EXPECT_EQ(rec.stats().created.load(), std::uint64_t{pods});
  EXPECT_EQ(rec.stats().patched.load(), std::uint64_t{pods});
  EXPECT_EQ(rec.stats().failed.load(), 0u);
  for (int i = 0; i < pods; ++i) {
    auto evs = events_of("o" + std::to_string(i));
    ASSERT_EQ(evs.size(), 1u);
    EXPECT_EQ(count_of(evs[0]), 2); // the third occurrence is only counted
  }
  rec.stop();
  slow->stop();
}

// The write gate is asked when an event is sent, not when it is recorded:
// an event queued while the scheduler led (behind other writes, or waiting
// for a retry) is not sent once its lease ran out.
TEST_F(EventRecorderTest, WriteGateIsAskedRightBeforeEachWrite) {
  std::atomic<bool> leading{true};
  event_recorder_config cfg;
  cfg.write_gate = [&]() -> error {
    if (leading.load())
      return {};
    return make_error(ec::unavailable, "not the leader");
  };
  event_recorder rec{*client_, cfg}; // not started: the event waits
  rec.record(failed("paused", "recorded while leading"));
  leading = false;
  rec.start();
  settle(rec);
  EXPECT_TRUE(events_of("paused").empty());
  EXPECT_EQ(rec.stats().gated.load(), 1u);
  EXPECT_EQ(rec.stats().created.load(), 0u);

  // Leading again: the next occurrence writes the series whole.
  leading = true;
  rec.record(failed("paused", "recorded while leading again"));
  settle(rec);
  auto evs = events_of("paused");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(count_of(evs[0]), 2);
  rec.stop();
}

TEST_F(EventRecorderTest, FullQueueDrops) {
  event_recorder_config cfg;
  cfg.max_queued = 5;
  event_recorder rec{*client_, cfg}; // not started: nothing drains
  for (int i = 0; i < 8; ++i)
    rec.record(failed("q" + std::to_string(i), "m"));
  EXPECT_EQ(rec.queued(), 5u);
  EXPECT_EQ(rec.stats().dropped.load(), 3u);
}

} // namespace
} // namespace tessera::io
