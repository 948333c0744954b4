// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// api_sink against the embedded API server over HTTP.
#include "adapters/api_client/api_sink.hpp"
#include "io/apiserver/resources.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "test/support/api_client.hpp"
#include "test/support/log_capture.hpp"
#include "test/support/storage_objects.hpp"
#include "test/support/wait.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <thread>

namespace tessera::adapters {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

const apiserver::resource_info& pods() {
  return *apiserver::find_resource("", "v1", "pods");
}
const apiserver::resource_info& events() {
  return *apiserver::find_resource("", "v1", "events");
}

class ApiSinkTest : public ::testing::Test {
protected:
  void SetUp() override {
    server_ = test::start_test_server(store_);
    client_ = std::make_unique<io::rest_client>(
      test::client_config_for(server_->url()));
    recorder_ = std::make_unique<io::event_recorder>(
      *client_, io::event_recorder_config{});
    recorder_->start();
    api_sink_config cfg;
    cfg.hostname = "testhost";
    cfg.bind_threads = 4;
    cfg.volume_poll_interval = 20ms;
    sink_ = std::make_unique<api_sink>(*client_, *recorder_, cfg);
  }
  void TearDown() override {
    sink_->stop();
    recorder_->stop();
    server_->stop();
  }
  model::pod_ptr create_pod(const std::string& name,
                            const std::string& extra_spec = "") {
    auto r
      = store_.create(pods(), "default",
                      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")"
                        + name + R"("},"spec":{)" + extra_spec
                        + R"("containers":[{"name":"c","image":"busybox"}]}})");
    EXPECT_TRUE(r) << name;
    return model_of(name);
  }
  model::pod_ptr model_of(const std::string& name) {
    auto o = store_.get(pods(), "default", name);
    if (!o)
      return nullptr;
    auto m = (*o)->to_model();
    EXPECT_TRUE(m);
    return std::get<model::pod_ptr>(*m);
  }
  json::value doc_of(const std::string& name) {
    auto o = store_.get(pods(), "default", name);
    EXPECT_TRUE(o);
    return json::parse((*o)->json());
  }
  error bind_now(const model::pod_ptr& p, const std::string& node) {
    std::promise<error> done;
    auto f = done.get_future();
    sink_->bind(p, model::symbol{node},
                [&done](error e) { done.set_value(std::move(e)); });
    EXPECT_EQ(f.wait_for(10s), std::future_status::ready);
    return f.get();
  }
  std::vector<json::value> events_of(const std::string& pod) {
    auto deadline = std::chrono::steady_clock::now() + 5s;
    while (recorder_->queued() > 0
           && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(5ms);
    apiserver::list_options lo;
    lo.field_selector = "involvedObject.name=" + pod;
    auto l = store_.list(events(), "default", lo);
    std::vector<json::value> out;
    for (const auto& o : l->items)
      out.push_back(json::parse(o->json()));
    return out;
  }
  void settle() {
    ASSERT_TRUE(sink_->drain(5s));
  }
  /// Starts over against a server that answers every request after
  /// `latency`.
  void slow_server(std::chrono::milliseconds latency) {
    TearDown();
    apiserver::server_config cfg;
    cfg.fault_latency = latency;
    server_ = test::start_test_server(store_, cfg);
    client_ = std::make_unique<io::rest_client>(
      test::client_config_for(server_->url()));
    recorder_ = std::make_unique<io::event_recorder>(
      *client_, io::event_recorder_config{});
    recorder_->start();
    sink_ = std::make_unique<api_sink>(*client_, *recorder_);
  }
  /// Replaces the sink with one made with `cfg`.
  void use_sink(api_sink_config cfg) {
    sink_->stop();
    sink_ = std::make_unique<api_sink>(*client_, *recorder_, std::move(cfg));
  }
  static actors::failure_report failure(std::string reason,
                                        std::string message) {
    actors::failure_report r;
    r.reason = std::move(reason);
    r.message = std::move(message);
    return r;
  }
  const json::value* scheduled_condition(const json::value& doc) {
    const auto& status = doc.at("status").as_object();
    if (!status.contains("conditions"))
      return nullptr;
    for (const auto& c : status.at("conditions").as_array())
      if (c.at("type").as_string() == "PodScheduled")
        return &c;
    return nullptr;
  }

  apiserver::store store_;
  std::unique_ptr<apiserver::api_server> server_;
  std::unique_ptr<io::rest_client> client_;
  std::unique_ptr<io::event_recorder> recorder_;
  std::unique_ptr<api_sink> sink_;
};

TEST_F(ApiSinkTest, BindOutcomes) {
  auto p1 = create_pod("p1");
  EXPECT_FALSE(bind_now(p1, "n1"));
  EXPECT_EQ(doc_of("p1").at("spec").at("nodeName").as_string(), "n1");
  sink_->scheduled(p1, model::symbol{"n1"});

  error again = bind_now(p1, "n2");
  EXPECT_EQ(again.code, ec::conflict);
  EXPECT_NE(again.message.find("already assigned to node \"n1\""),
            std::string::npos);
  auto p2 = create_pod("p2");
  ASSERT_TRUE(store_.remove(pods(), "default", "p2"));
  EXPECT_EQ(bind_now(p2, "n1").code, ec::not_found);
  EXPECT_EQ(sink_->stats().bound.load(), 1u);
  EXPECT_EQ(sink_->stats().bind_conflicts.load(), 1u);
  EXPECT_EQ(sink_->stats().bind_not_found.load(), 1u);
  EXPECT_EQ(sink_->stats().binds_in_flight.load(), 0u);

  auto evs = events_of("p1");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].at("reason").as_string(), "Scheduled");
  EXPECT_EQ(evs[0].at("type").as_string(), "Normal");
  EXPECT_EQ(evs[0].at("message").as_string(),
            "Successfully assigned default/p1 to n1");
  EXPECT_EQ(evs[0].at("reportingComponent").as_string(), "default-scheduler");
  EXPECT_EQ(evs[0].at("reportingInstance").as_string(),
            "default-scheduler-testhost");
}

// The gates are asked right before each write: a leader whose lease ran out
// writes nothing, and a binding to a node the cache does not hold fails
// without reaching the API.
TEST_F(ApiSinkTest, GatesRefuseWritesBeforeTheyAreSent) {
  std::atomic<bool> leading{false};
  api_sink_config cfg;
  cfg.hostname = "testhost";
  cfg.write_gate = [&]() -> error {
    if (leading.load())
      return {};
    return make_error(ec::unavailable, "not the leader");
  };
  cfg.bind_gate = [](model::symbol node) -> error {
    if (node.view() == "n1")
      return {};
    return make_error(ec::unavailable, "node not in the cache");
  };
  sink_->stop();
  sink_ = std::make_unique<api_sink>(*client_, *recorder_, cfg);
  auto p = create_pod("p");

  error e = bind_now(p, "n1");
  EXPECT_EQ(e.code, ec::unavailable);
  EXPECT_EQ(e.message, "not the leader");
  actors::failure_report r;
  r.reason = "Unschedulable";
  r.message = "0/1 nodes are available";
  sink_->unschedulable(p, r);
  sink_->scheduled(p, model::symbol{"n1"});
  std::promise<error> deletion;
  sink_->preempt(p, p, model::symbol{"n1"},
                 [&](error err) { deletion.set_value(err); });
  EXPECT_EQ(deletion.get_future().get().message, "not the leader")
    << "a refused deletion is reported, so the preemptor is retried";
  settle();
  EXPECT_FALSE(doc_of("p").at("spec").as_object().contains("nodeName"));
  EXPECT_FALSE(
    doc_of("p").at("metadata").as_object().contains("deletionTimestamp"));
  EXPECT_FALSE(doc_of("p").at("status").as_object().contains("conditions"));
  EXPECT_TRUE(events_of("p").empty());
  EXPECT_EQ(sink_->stats().status_patches.load(), 0u);

  leading = true;
  sink_ = std::make_unique<api_sink>(*client_, *recorder_, cfg);
  e = bind_now(p, "gone");
  EXPECT_EQ(e.message, "node not in the cache");
  EXPECT_FALSE(doc_of("p").at("spec").as_object().contains("nodeName"));
  EXPECT_FALSE(bind_now(p, "n1"));
  EXPECT_EQ(doc_of("p").at("spec").at("nodeName").as_string(), "n1");
  EXPECT_EQ(sink_->stats().gated.load(), 1u);
}

// PreBind's volume writes are writes of the leader too: one whose lease ran
// out leaves the volumes and the claims alone, and the binding fails with
// the gate's error, so that the binder backs the pod off, as it does when
// the gate refuses the binding itself.
TEST_F(ApiSinkTest, GateRefusesVolumeWritesBeforeTheyAreSent) {
  std::atomic<bool> leading{false};
  api_sink_config cfg;
  cfg.volume_poll_interval = 20ms;
  cfg.write_gate = [&]() -> error {
    if (leading.load())
      return {};
    return make_error(ec::unavailable, "not the leader");
  };
  use_sink(cfg);
  test::storage_objects objects{store_};
  struct test_case {
    std::string name;
    model::volume_binding_plan_ptr plan;
    /// What the refused write would have set; empty when not sent.
    std::function<std::string()> written;
  };
  const std::vector<test_case> cases{
    {"a static volume's claimRef", objects.static_plan(),
     [&] { return objects.claim_ref(); }},
    {"a claim's selected node", objects.provision_plan(),
     [&] {
       return objects.claim_annotation("dynamic",
                                       "volume.kubernetes.io/selected-node");
     }},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto refused = test::bind_volumes(*sink_, objects.pod(), tc.plan, 2s);
    ASSERT_EQ(refused.wait_for(10s), std::future_status::ready);
    error e = refused.get();
    EXPECT_EQ(e.code, ec::unavailable);
    EXPECT_EQ(e.message, "not the leader");
    EXPECT_EQ(tc.written(), "");
  }
  EXPECT_EQ(sink_->stats().gated.load(), cases.size());

  leading = true;
  auto bound
    = test::bind_volumes(*sink_, objects.pod(), objects.static_plan(), 10s);
  ASSERT_TRUE(test::eventually([&] { return !objects.claim_ref().empty(); }));
  objects.complete("static", "pv1");
  ASSERT_EQ(bound.wait_for(10s), std::future_status::ready);
  EXPECT_FALSE(bound.get());
}

// A leader paused past its lease refuses writes until it renews, and may
// lead on: a failure it reported meanwhile is written once the gate
// opens, or its pod would wait, parked, with no reason shown. Not after the
// patience, though: a leader that lost its lease and won it back later
// may find its pod bound by the other one meanwhile.
TEST_F(ApiSinkTest, ARefusedStatusPatchWaitsForTheGateAWhile) {
  struct test_case {
    std::string name;
    /// How long the gate stays closed.
    std::chrono::milliseconds closed;
    bool lands;
  };
  const std::vector<test_case> cases{
    {"the gate opens within the patience", 50ms, true},
    {"the gate opens after it", 600ms, false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto opens = std::chrono::steady_clock::now() + tc.closed;
    api_sink_config cfg;
    cfg.gated_status_interval = 10ms;
    cfg.gated_status_patience = 300ms;
    cfg.write_gate = [opens]() -> error {
      if (std::chrono::steady_clock::now() >= opens)
        return {};
      return make_error(ec::unavailable, "not the leader");
    };
    use_sink(cfg);
    std::string name = tc.lands ? "resumed" : "deposed";
    sink_->unschedulable(create_pod(name),
                         failure("Unschedulable", "0/1 nodes are available"));
    auto landed = [&] {
      auto doc = doc_of(name);
      return scheduled_condition(doc) != nullptr;
    };
    EXPECT_EQ(test::eventually(landed, 1500ms), tc.lands);
    settle();
    EXPECT_EQ(landed(), tc.lands);
  }
}

// A status patch waiting for the write gate holds its writer thread: the
// wait ends as soon as the sink shuts down, so that neither drain() nor
// stop() sits out the retry interval; and it ends with the patience, so
// that the thread is free for other pods' writes once the patch is given
// up.
TEST_F(ApiSinkTest, AWaitForTheWriteGateEndsWithShutdownOrPatience) {
  struct test_case {
    std::string name;
    std::chrono::milliseconds patience;
    /// Shuts the sink down; empty: the gate opens and the sink writes on.
    std::function<void(api_sink&)> shut_down;
  };
  const std::vector<test_case> cases{
    {"drain", 1h, [](api_sink& s) { EXPECT_TRUE(s.drain(10s)); }},
    {"stop", 1h, [](api_sink& s) { s.stop(); }},
    {"patience", 100ms, {}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    std::atomic<bool> leading{false};
    api_sink_config cfg;
    cfg.status_threads = 1;
    // Far longer than any wait the test allows.
    cfg.gated_status_interval = 30s;
    cfg.gated_status_patience = tc.patience;
    cfg.write_gate = [&]() -> error {
      if (leading.load())
        return {};
      return make_error(ec::unavailable, "not the leader");
    };
    use_sink(cfg);
    sink_->unschedulable(create_pod("waits-" + tc.name),
                         failure("Unschedulable", "0/1 nodes are available"));
    ASSERT_TRUE(
      test::eventually([&] { return sink_->stats().gated.load() > 0; }));
    if (tc.shut_down) {
      test::finishes_within(
        "shutdown during the wait for the gate", [&] { tc.shut_down(*sink_); },
        5s);
      continue;
    }
    // The given-up patch frees the only writer thread for the next pod.
    std::this_thread::sleep_for(tc.patience);
    leading = true;
    std::string next = "next-" + tc.name;
    sink_->unschedulable(create_pod(next),
                         failure("Unschedulable", "0/1 nodes are available"));
    EXPECT_TRUE(test::eventually(
      [&] { return scheduled_condition(doc_of(next)) != nullptr; }, 5s));
  }
}

// A binding the API refuses with 409 (the pod bound by another instance, or
// by an earlier attempt whose answer was lost) is worth seeing without -v.
TEST_F(ApiSinkTest, BindingConflictIsLoggedAtDefaultVerbosity) {
  auto p = create_pod("taken");
  ASSERT_FALSE(bind_now(p, "n1"));
  test::log_capture logs{0};
  EXPECT_EQ(bind_now(p, "n2").code, ec::conflict);
  EXPECT_EQ(logs.count(R"("binding conflict" pod="default/taken" node="n2")"),
            1u);
}

// A pod the scheduler cannot read gets an event and, unbound, the
// PodScheduled=False condition; once per version.
TEST_F(ApiSinkTest, UndecodablePodGetsAnEventAndACondition) {
  create_pod("odd");
  auto doc = doc_of("odd");
  model::object_peek peek;
  peek.ns = "default";
  peek.name = "odd";
  peek.uid = std::string{doc.at("metadata").at("uid").as_string()};
  peek.resource_version
    = std::string{doc.at("metadata").at("resourceVersion").as_string()};
  sink_->undecodable_pod(peek, "spec.containers[0]: bad quantity");
  sink_->undecodable_pod(peek, "spec.containers[0]: bad quantity");
  settle();
  auto evs = events_of("odd");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].at("reason").as_string(), "FailedScheduling");
  EXPECT_EQ(evs[0].at("type").as_string(), "Warning");
  EXPECT_NE(std::string{evs[0].at("message").as_string()}.find(
              "cannot read this pod: spec.containers[0]: bad quantity"),
            std::string::npos);
  const json::value* cond = nullptr;
  auto after = doc_of("odd");
  for (const auto& c : after.at("status").at("conditions").as_array())
    if (c.at("type").as_string() == "PodScheduled")
      cond = &c;
  ASSERT_NE(cond, nullptr);
  EXPECT_EQ(cond->at("status").as_string(), "False");
  EXPECT_EQ(cond->at("reason").as_string(), "SchedulerError");
  EXPECT_EQ(sink_->stats().status_patches.load(), 1u);

  // A bound pod gets the event only.
  sink_ = std::make_unique<api_sink>(*client_, *recorder_);
  create_pod("bound");
  ASSERT_FALSE(bind_now(model_of("bound"), "n1"));
  peek.name = "bound";
  peek.uid = "u-bound";
  peek.node_name = "n1";
  sink_->undecodable_pod(peek, "bad");
  settle();
  EXPECT_EQ(events_of("bound").size(), 1u);
  EXPECT_EQ(sink_->stats().status_patches.load(), 0u);
}

// Status writes queue apart from bindings: a failure of one cycle whose
// patch is still queued when a later cycle binds the pod must not reach the
// API after the binding and turn its PodScheduled back to False.
/// A write gate that holds the first write made off the test thread (a
/// status patch) until released, so that the test can act meanwhile.
class first_write_holder {
public:
  /// The gate for api_sink_config::write_gate.
  std::function<error()> gate() {
    return [this, test_thread = std::this_thread::get_id()]() -> error {
      if (std::this_thread::get_id() == test_thread)
        return {};
      std::unique_lock lock{m_};
      if (!std::exchange(armed_, false))
        return {};
      held_ = true;
      cv_.notify_all();
      cv_.wait(lock, [&] { return released_; });
      return {};
    };
  }
  /// Waits until the write is held.
  bool wait_held() {
    std::unique_lock lock{m_};
    return cv_.wait_for(lock, 10s, [&] { return held_; });
  }
  void release() {
    {
      std::lock_guard lock{m_};
      released_ = true;
    }
    cv_.notify_all();
  }

private:
  std::mutex m_;
  std::condition_variable cv_;
  bool armed_ = true;
  bool held_ = false;
  bool released_ = false;
};

TEST_F(ApiSinkTest, FailureQueuedBeforeABindingIsDropped) {
  // The status patch waits until released, so the binding overtakes it.
  first_write_holder holder;
  api_sink_config cfg;
  cfg.write_gate = holder.gate();
  sink_ = std::make_unique<api_sink>(*client_, *recorder_, cfg);
  auto p = create_pod("late");
  actors::failure_report r;
  r.reason = "Unschedulable";
  r.message = "0/1 nodes are available: 1 Insufficient cpu.";
  sink_->unschedulable(p, r);
  ASSERT_TRUE(holder.wait_held());
  EXPECT_FALSE(bind_now(p, "n1"));
  holder.release();
  settle();
  EXPECT_EQ(sink_->stats().status_patches_stale.load(), 1u);
  EXPECT_EQ(sink_->stats().status_patches.load(), 0u);
  std::string status;
  auto doc = doc_of("late");
  for (const auto& c : doc.at("status").at("conditions").as_array())
    if (c.at("type").as_string() == "PodScheduled")
      status = c.at("status").as_string();
  EXPECT_EQ(status, "True");

  // A failure reported after the binding started is patched.
  sink_ = std::make_unique<api_sink>(*client_, *recorder_);
  sink_->unschedulable(model_of("late"), r);
  settle();
  EXPECT_EQ(sink_->stats().status_patches.load(), 1u);
}

// A pod deleted and created again under its name (a controller's pod, a
// cluster restored after an outage) is another pod: the status of the old
// one, written late, must not land on it.
TEST_F(ApiSinkTest, StatusOfAnEarlierPodNeverLandsOnItsSuccessor) {
  struct test_case {
    std::string name;
    /// Whether the successor's own failure is reported while the
    /// predecessor's patch waits.
    bool successor_fails;
    /// The successor's PodScheduled reason afterwards ("": none).
    std::string reason;
  };
  const std::vector<test_case> cases{
    {"the late patch is refused by its UID", false, ""},
    {"a waiting patch is replaced, not merged", true, "Unschedulable"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    first_write_holder holder;
    api_sink_config cfg;
    cfg.write_gate = holder.gate();
    use_sink(cfg);
    auto first = create_pod("again");
    auto failed = failure("SchedulerError", "binding rejected: injected");
    failed.nominated_node = model::symbol{"n1"};
    failed.update_nomination = true;
    sink_->unschedulable(first, failed);
    ASSERT_TRUE(holder.wait_held());
    apiserver::delete_options now;
    now.grace_period_seconds = 0;
    ASSERT_TRUE(store_.remove(pods(), "default", "again", now));
    auto second = create_pod("again");
    ASSERT_NE(first->uid, second->uid);
    if (tc.successor_fails)
      sink_->unschedulable(second,
                           failure("Unschedulable", "0/1 nodes are available"));
    holder.release();
    settle();
    auto doc = doc_of("again");
    const json::value* c = scheduled_condition(doc);
    EXPECT_EQ(c ? std::string{c->at("reason").as_string()} : std::string{},
              tc.reason);
    EXPECT_FALSE(doc.at("status").as_object().contains("nominatedNodeName"))
      << json::serialize(doc);
    EXPECT_EQ(sink_->stats().write_errors.load(), 0u);
    ASSERT_TRUE(store_.remove(pods(), "default", "again", now));
  }
}

TEST_F(ApiSinkTest, UnschedulablePatchesOnlyChanges) {
  auto p = create_pod("stuck");
  actors::failure_report r;
  r.reason = "Unschedulable";
  r.message = "0/3 nodes are available: 3 Insufficient cpu.";
  sink_->unschedulable(p, r);
  settle();
  auto doc = doc_of("stuck");
  const json::value* cond = nullptr;
  for (const auto& c : doc.at("status").at("conditions").as_array())
    if (c.at("type").as_string() == "PodScheduled")
      cond = &c;
  ASSERT_NE(cond, nullptr);
  EXPECT_EQ(cond->at("status").as_string(), "False");
  EXPECT_EQ(cond->at("reason").as_string(), "Unschedulable");
  EXPECT_EQ(cond->at("message").as_string(), r.message);
  EXPECT_TRUE(cond->as_object().contains("lastTransitionTime"));
  EXPECT_EQ(sink_->stats().status_patches.load(), 1u);
  auto evs = events_of("stuck");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].at("reason").as_string(), "FailedScheduling");
  EXPECT_EQ(evs[0].at("type").as_string(), "Warning");
  EXPECT_EQ(evs[0].at("message").as_string(), r.message);

  // The same failure on the updated pod: no patch; a nomination: a patch.
  auto updated = model_of("stuck");
  ASSERT_TRUE(updated->scheduled_condition);
  sink_ = std::make_unique<api_sink>(*client_, *recorder_);
  sink_->unschedulable(updated, r);
  r.nominated_node = model::symbol{"n7"};
  r.update_nomination = true;
  sink_->unschedulable(updated, r);
  settle();
  EXPECT_EQ(sink_->stats().status_patches_skipped.load(), 1u);
  EXPECT_EQ(sink_->stats().status_patches.load(), 1u);
  EXPECT_EQ(doc_of("stuck").at("status").at("nominatedNodeName").as_string(),
            "n7");

  sink_ = std::make_unique<api_sink>(*client_, *recorder_);
  sink_->clear_nomination(model_of("stuck"));
  settle();
  EXPECT_FALSE(
    doc_of("stuck").at("status").as_object().contains("nominatedNodeName"));
}

// A slow API server delays status patches by its latency, not by a queue:
// the patches of many pods are sent side by side.
TEST_F(ApiSinkTest, SlowStatusPatchesOfManyPodsRunSideBySide) {
  slow_server(300ms);
  actors::failure_report r;
  r.reason = "Unschedulable";
  r.message = "0/3 nodes are available: 3 Insufficient cpu.";
  const int pods = 12;
  for (int i = 0; i < pods; ++i)
    sink_->unschedulable(create_pod("p" + std::to_string(i)), r);
  EXPECT_TRUE(test::eventually(
    [&] { return sink_->stats().status_writes_in_flight.load() >= 8; }))
    << "in flight: " << sink_->stats().status_writes_in_flight.load();
  settle();
  EXPECT_EQ(sink_->stats().status_patches.load(), std::uint64_t{pods});
  for (int i = 0; i < pods; ++i)
    EXPECT_NE(scheduled_condition(doc_of("p" + std::to_string(i))), nullptr);
}

// While a pod's patch is on its way, newer reports of the pod wait for it
// and fold into one patch: the pod ends with the latest condition, keeps
// a nomination no later report changed, and costs two writes, not four.
TEST_F(ApiSinkTest, PatchesOfOnePodLandInOrderAndFoldWhileWaiting) {
  slow_server(300ms);
  auto p = create_pod("stuck");
  actors::failure_report r;
  r.reason = "Unschedulable";
  r.message = "first";
  sink_->unschedulable(p, r);
  ASSERT_TRUE(test::eventually(
    [&] { return sink_->stats().status_writes_in_flight.load() == 1; }));
  // Every report below is computed from the pod as it was before the first
  // patch landed, as the cache would still show it.
  r.message = "second";
  r.nominated_node = model::symbol{"n7"};
  r.update_nomination = true;
  sink_->unschedulable(p, r);
  r.message = "third";
  r.update_nomination = false;
  sink_->unschedulable(p, r);
  r.message = "fourth";
  sink_->unschedulable(p, r);
  settle();
  auto doc = doc_of("stuck");
  const json::value* cond = scheduled_condition(doc);
  ASSERT_NE(cond, nullptr);
  EXPECT_EQ(cond->at("message").as_string(), "fourth");
  EXPECT_TRUE(cond->as_object().contains("lastTransitionTime"));
  EXPECT_EQ(doc.at("status").at("nominatedNodeName").as_string(), "n7");
  EXPECT_EQ(sink_->stats().status_patches.load(), 2u);
  EXPECT_EQ(sink_->stats().status_patches_merged.load(), 2u);
}

TEST_F(ApiSinkTest, PreemptionMarksDeletesAndReports) {
  auto victim = create_pod("victim");
  auto preemptor = create_pod("vip");
  ASSERT_TRUE(store_.bind({"default", "victim", "n1", "", "", {}}));
  victim = model_of("victim");
  std::promise<error> deletion;
  sink_->preempt(victim, preemptor, model::symbol{"n1"},
                 [&](error err) { deletion.set_value(err); });
  EXPECT_FALSE(deletion.get_future().get());
  settle();
  // Bound pods are deleted gracefully: the pod stays with a
  // deletionTimestamp and the DisruptionTarget condition.
  auto doc = doc_of("victim");
  EXPECT_TRUE(doc.at("metadata").as_object().contains("deletionTimestamp"));
  bool marked = false;
  for (const auto& c : doc.at("status").at("conditions").as_array())
    if (c.at("type").as_string() == "DisruptionTarget") {
      marked = true;
      EXPECT_EQ(c.at("reason").as_string(), "PreemptionByScheduler");
      EXPECT_EQ(c.at("message").as_string(),
                "default-scheduler: preempting to accommodate a higher "
                "priority pod");
    }
  EXPECT_TRUE(marked);
  auto evs = events_of("victim");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0].at("reason").as_string(), "Preempted");
  EXPECT_EQ(evs[0].at("message").as_string(),
            "Preempted by pod " + preemptor->uid + " on node n1");
}

TEST_F(ApiSinkTest, DrainAndStopAbandonLateWork) {
  auto p = create_pod("late");
  ASSERT_TRUE(sink_->drain(1s));
  std::promise<error> done;
  sink_->bind(p, model::symbol{"n1"},
              [&done](error e) { done.set_value(std::move(e)); });
  auto f = done.get_future();
  ASSERT_EQ(f.wait_for(1s), std::future_status::ready);
  EXPECT_EQ(f.get().code, ec::unavailable);
  EXPECT_FALSE(doc_of("late").at("spec").as_object().contains("nodeName"));
}

TEST_F(ApiSinkTest, BindVolumesWritesAndWaitsForTheController) {
  test::storage_objects objects{store_};
  auto bound
    = test::bind_volumes(*sink_, objects.pod(), objects.static_plan(), 10s);
  ASSERT_TRUE(test::eventually([&] { return !objects.claim_ref().empty(); }));
  EXPECT_EQ(objects.claim_ref().rfind("default/static/", 0), 0u)
    << objects.claim_ref();
  EXPECT_EQ(bound.wait_for(100ms), std::future_status::timeout)
    << "the claim is not bound yet";
  objects.complete("static", "pv1");
  ASSERT_EQ(bound.wait_for(10s), std::future_status::ready);
  EXPECT_FALSE(bound.get());
}

TEST_F(ApiSinkTest, BindVolumesReportsApiErrorsAndTimeouts) {
  test::storage_objects objects{store_};
  auto plan = objects.static_plan();
  // The volume is deleted after it was chosen: the GET fails.
  ASSERT_TRUE(store_.remove(
    apiserver::primary_resource(apiserver::storage_kind::persistent_volume), "",
    "pv1"));
  auto gone = test::bind_volumes(*sink_, objects.pod(), plan, 10s);
  ASSERT_EQ(gone.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(gone.get().code, ec::not_found);

  auto late = test::bind_volumes(*sink_, objects.pod(),
                                 objects.provision_plan(), 300ms);
  ASSERT_EQ(late.wait_for(10s), std::future_status::ready);
  error e = late.get();
  EXPECT_EQ(e.code, ec::timeout);
  EXPECT_EQ(e.message, "binding volumes: context deadline exceeded");
  EXPECT_EQ(
    objects.claim_annotation("dynamic", "volume.kubernetes.io/selected-node"),
    "n1");
}

TEST(TruncateEventMessage, KubeSchedulerLimit) {
  EXPECT_EQ(truncate_event_message("short"), "short");
  std::string exact(1024, 'x');
  EXPECT_EQ(truncate_event_message(exact), exact);
  std::string cut = truncate_event_message(std::string(2000, 'y'));
  EXPECT_EQ(cut.size(), 1024u);
  EXPECT_EQ(cut.substr(1020), " ...");
  EXPECT_EQ(cut.substr(0, 1020), std::string(1020, 'y'));
}

} // namespace
} // namespace tessera::adapters
