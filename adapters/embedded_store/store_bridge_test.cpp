// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/pipeline.hpp"
#include "adapters/embedded_store/store_bridge.hpp"
#include "config/scheduler_config.hpp"
#include "io/apiserver/kwok.hpp"
#include "io/apiserver/store.hpp"
#include "plugins/framework/registry.hpp"
#include "test/support/storage_objects.hpp"
#include "test/support/wait.hpp"

#include <caf/all.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tessera::adapters {
namespace {

using namespace std::chrono_literals;

const apiserver::resource_info& pods() {
  return apiserver::primary_resource(apiserver::storage_kind::pod);
}

std::string pod_json(const std::string& name, const std::string& cpu = "100m",
                     int priority_class = 0) {
  std::string spec = R"("containers":[{"name":"c","image":"pause","resources":)"
                     R"({"requests":{"cpu":")"
                     + cpu + R"(","memory":"100Mi"}}}])";
  if (priority_class > 0)
    spec += R"(,"priorityClassName":"high")";
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name
         + R"("},"spec":{)" + spec + "}}";
}

/// Collects what the bridge delivers.
struct collector {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<actors::object_event> events;
  bool synced = false;

  actors::cluster_source::receiver receiver() {
    return {[this](actors::object_events batch) {
              std::lock_guard guard{mu};
              for (auto& e : batch)
                events.push_back(std::move(e));
              cv.notify_all();
            },
            [this] {
              std::lock_guard guard{mu};
              synced = true;
              cv.notify_all();
            }};
  }

  /// Waits until `pred(events)` holds.
  template <class Pred> bool wait(Pred pred) {
    std::unique_lock lock{mu};
    return cv.wait_for(lock, 10s, [&] { return pred(events); });
  }
};

const model::pod* as_pod(const actors::object_event& e) {
  const auto* p = std::get_if<model::pod_ptr>(&e.obj);
  return p != nullptr ? p->get() : nullptr;
}

TEST(store_bridge, delivers_initial_state_then_changes_in_order) {
  apiserver::store st{apiserver::store_config{.seed = 7}};
  ASSERT_FALSE(apiserver::create_fake_nodes(st, 3, {}));
  ASSERT_TRUE(st.create(pods(), "default", pod_json("p0")));
  store_bridge bridge{st};
  collector c;
  bridge.start(c.receiver());
  ASSERT_TRUE(c.wait([&](const auto&) { return c.synced; }));
  std::size_t initial = 0;
  {
    std::lock_guard guard{c.mu};
    initial = c.events.size();
    std::size_t node_count = 0;
    for (const auto& e : c.events)
      node_count += std::holds_alternative<model::node_ptr>(e.obj);
    EXPECT_EQ(node_count, 3u);
    // Nodes come before pods.
    EXPECT_NE(as_pod(c.events.back()), nullptr);
  }
  ASSERT_TRUE(st.create(pods(), "default", pod_json("p1")));
  bool bound = false;
  auto got = st.get(pods(), "default", "p1");
  ASSERT_TRUE(got);
  bridge.bind(std::get<model::pod_ptr>(*(*got)->to_model()),
              model::symbol{"node-000001"}, [&](error e) { bound = !e; });
  EXPECT_TRUE(bound);
  ASSERT_TRUE(
    c.wait([&](const auto& evs) { return evs.size() >= initial + 2; }));
  std::lock_guard guard{c.mu};
  const auto* added = as_pod(c.events[initial]);
  const auto* modified = as_pod(c.events[initial + 1]);
  ASSERT_NE(added, nullptr);
  ASSERT_NE(modified, nullptr);
  EXPECT_EQ(c.events[initial].type, actors::object_event::kind::added);
  EXPECT_EQ(c.events[initial + 1].type, actors::object_event::kind::modified);
  EXPECT_EQ(modified->name, "p1");
  EXPECT_EQ(modified->node_name.view(), "node-000001");
  bridge.stop();
  EXPECT_EQ(bridge.stats().binds, 1u);
}

TEST(store_bridge, sink_writes_what_kube_scheduler_writes) {
  struct test_case {
    std::string name;
    std::function<void(store_bridge&, const model::pod_ptr&)> act;
    std::function<void(apiserver::store&)> check;
  };
  auto pod_of = [](apiserver::store& st, const std::string& name) {
    auto got = st.get(pods(), "default", name);
    return got ? std::get<model::pod_ptr>(*(*got)->to_model())
               : model::pod_ptr{};
  };
  std::vector<test_case> cases = {
    {"bind twice is a conflict",
     [](store_bridge& b, const model::pod_ptr& p) {
       error first, second;
       b.bind(p, model::symbol{"n1"}, [&](error e) { first = std::move(e); });
       b.bind(p, model::symbol{"n2"}, [&](error e) { second = std::move(e); });
       EXPECT_FALSE(first);
       EXPECT_EQ(second.code, ec::conflict);
       EXPECT_NE(second.message.find("already assigned"), std::string::npos)
         << second.message;
     },
     [&](apiserver::store& st) {
       EXPECT_EQ(pod_of(st, "p")->node_name.view(), "n1");
     }},
    {"unschedulable sets the condition and the nomination",
     [](store_bridge& b, const model::pod_ptr& p) {
       actors::failure_report r{"Unschedulable", "0/3 nodes are available.",
                                model::symbol{"n3"}, true};
       b.unschedulable(p, r);
     },
     [&](apiserver::store& st) {
       auto p = pod_of(st, "p");
       ASSERT_TRUE(p->scheduled_condition);
       EXPECT_EQ(p->scheduled_condition->status, "False");
       EXPECT_EQ(p->nominated_node_name.view(), "n3");
       apiserver::list_options lo;
       auto events
         = st.list(apiserver::primary_resource(apiserver::storage_kind::event),
                   "default", lo);
       ASSERT_TRUE(events);
       ASSERT_EQ(events->items.size(), 1u);
       EXPECT_NE(events->items[0]->json().find("FailedScheduling"),
                 std::string::npos);
     }},
    {"clearing a nomination",
     [](store_bridge& b, const model::pod_ptr& p) {
       b.unschedulable(p, actors::failure_report{"Unschedulable", "no",
                                                 model::symbol{"n3"}, true});
       b.clear_nomination(p);
     },
     [&](apiserver::store& st) {
       EXPECT_TRUE(pod_of(st, "p")->nominated_node_name.empty());
     }},
    {"a victim is marked and deleted",
     [](store_bridge& b, const model::pod_ptr& p) {
       bool deleted = false;
       b.preempt(p, p, model::symbol{"n1"}, [&](error err) { deleted = !err; });
       EXPECT_TRUE(deleted);
     },
     [&](apiserver::store& st) { EXPECT_EQ(pod_of(st, "p"), nullptr); }},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    apiserver::store st{apiserver::store_config{.seed = 1}};
    ASSERT_TRUE(st.create(pods(), "default", pod_json("p")));
    store_bridge bridge{st};
    tc.act(bridge, pod_of(st, "p"));
    bridge.flush_events();
    tc.check(st);
  }
}

store_bridge_config polling_often() {
  store_bridge_config cfg;
  cfg.volume_poll_interval = 20ms;
  return cfg;
}

TEST(store_bridge, binds_volumes_and_waits_for_the_controller) {
  apiserver::store st;
  test::storage_objects objects{st};
  store_bridge bridge{st, polling_often()};
  auto bound
    = test::bind_volumes(bridge, objects.pod(), objects.provision_plan(), 10s);
  for (int i = 0;
       i < 500
       && objects
            .claim_annotation("dynamic", "volume.kubernetes.io/selected-node")
            .empty();
       ++i)
    std::this_thread::sleep_for(10ms);
  EXPECT_EQ(
    objects.claim_annotation("dynamic", "volume.kubernetes.io/selected-node"),
    "n1");
  EXPECT_EQ(bound.wait_for(100ms), std::future_status::timeout);
  objects.complete("dynamic", "pvc-1");
  ASSERT_EQ(bound.wait_for(10s), std::future_status::ready);
  EXPECT_FALSE(bound.get());
}

TEST(store_bridge, volume_binding_fails_on_conflicts_deletions_and_time) {
  apiserver::store st;
  test::storage_objects objects{st};
  store_bridge bridge{st, polling_often()};
  // The claim changed after the plan was made: the selected-node update
  // carries the resourceVersion the scheduler saw, and conflicts.
  auto plan = objects.provision_plan();
  objects.complete("dynamic", "elsewhere");
  auto stale = test::bind_volumes(bridge, objects.pod(), plan, 10s);
  ASSERT_EQ(stale.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(stale.get().code, ec::conflict);

  auto deleted
    = test::bind_volumes(bridge, objects.pod(), objects.static_plan(), 10s);
  test::eventually([&] { return !objects.claim_ref().empty(); });
  objects.remove_claim("static");
  ASSERT_EQ(deleted.wait_for(10s), std::future_status::ready);
  error e = deleted.get();
  EXPECT_EQ(e.message, "binding volumes: claim default/static was deleted");

  auto orphan
    = test::bind_volumes(bridge, objects.pod(), objects.provision_plan(), 10s);
  test::eventually([&] {
    return !objects
              .claim_annotation("dynamic", "volume.kubernetes.io/selected-node")
              .empty();
  });
  objects.remove_pod();
  ASSERT_EQ(orphan.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(orphan.get().message,
            "binding volumes: pod does not exist any more");

  apiserver::store st2;
  test::storage_objects fresh{st2};
  store_bridge bridge2{st2, polling_often()};
  auto late
    = test::bind_volumes(bridge2, fresh.pod(), fresh.provision_plan(), 200ms);
  ASSERT_EQ(late.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(late.get().message, "binding volumes: context deadline exceeded");
}

TEST(store_bridge, events_past_the_recorder_queue_are_dropped_and_counted) {
  apiserver::store st{apiserver::store_config{.seed = 2}};
  ASSERT_TRUE(st.create(pods(), "default", pod_json("p")));
  auto got = st.get(pods(), "default", "p");
  ASSERT_TRUE(got);
  auto pod = std::get<model::pod_ptr>(*(*got)->to_model());
  auto count_events = [&] {
    auto l
      = st.list(apiserver::primary_resource(apiserver::storage_kind::event),
                "default", apiserver::list_options{});
    return l ? l->items.size() : 0u;
  };
  {
    store_bridge full{st, store_bridge_config{.max_queued_events = 0}};
    full.scheduled(pod, model::symbol{"n1"});
    full.flush_events();
    EXPECT_EQ(full.stats().events_dropped, 1u);
    EXPECT_EQ(full.stats().events_recorded, 0u);
  }
  EXPECT_EQ(count_events(), 0u);
  {
    store_bridge roomy{st};
    for (int i = 0; i < 3; ++i)
      roomy.scheduled(pod, model::symbol{"n1"});
    roomy.flush_events();
    EXPECT_EQ(roomy.stats().events_recorded, 3u);
    EXPECT_EQ(roomy.stats().events_dropped, 0u);
  }
  EXPECT_EQ(count_events(), 3u);
}

TEST(store_bridge, re_lists_after_a_dropped_watch) {
  apiserver::store st{apiserver::store_config{.seed = 3}};
  ASSERT_TRUE(st.create(pods(), "default", pod_json("a")));
  ASSERT_TRUE(st.create(pods(), "default", pod_json("b")));
  store_bridge bridge{st};
  collector c;
  bridge.start(c.receiver());
  ASSERT_TRUE(c.wait([&](const auto&) { return c.synced; }));
  // Every watch ends; the bridge re-lists and reports what changed while it
  // was not watching.
  st.close_watchers();
  ASSERT_TRUE(st.remove(pods(), "default", "a"));
  ASSERT_TRUE(st.create(pods(), "default", pod_json("c")));
  ASSERT_TRUE(c.wait([&](const auto& evs) {
    bool a_gone = false, c_there = false;
    for (const auto& e : evs) {
      const auto* p = as_pod(e);
      if (p == nullptr)
        continue;
      a_gone |= p->name == "a" && e.type == actors::object_event::kind::deleted;
      c_there |= p->name == "c" && e.type == actors::object_event::kind::added;
    }
    return a_gone && c_there;
  }));
  bridge.stop();
  EXPECT_GE(bridge.stats().relists, 1u);
}

TEST(store_bridge, the_pipeline_schedules_pods_of_the_store) {
  apiserver::store st{apiserver::store_config{.seed = 5}};
  ASSERT_FALSE(apiserver::create_fake_nodes(st, 10, {}));
  apiserver::kwok_controller kwok{
    st, apiserver::kwok_config{.manage_all_nodes = true}};
  store_bridge bridge{st};
  auto cfg = config::default_config();
  auto reg = plugins::make_in_tree_registry();
  auto prof = plugins::profile::build(cfg.profiles[0], reg,
                                      cfg.percentage_of_nodes_to_score);
  ASSERT_TRUE(prof);
  caf::actor_system_config sys_cfg;
  sys_cfg.set("scheduler.max-threads", 2);
  caf::actor_system sys{sys_cfg};
  actors::pipeline_config pc;
  pc.shards = 2;
  pc.max_inflight_cycles = 4;
  auto p = actors::start_pipeline(sys, pc, {*prof}, bridge, bridge,
                                  system_clock::instance());
  constexpr int count = 60;
  for (int i = 0; i < count; ++i)
    ASSERT_TRUE(
      st.create(pods(), "default", pod_json("p" + std::to_string(i))));
  auto deadline = std::chrono::steady_clock::now() + 30s;
  std::size_t bound = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    bound = 0;
    auto listed = st.list(pods(), "default", {});
    ASSERT_TRUE(listed);
    for (const auto& o : listed->items)
      bound += o->json().find("\"nodeName\"") != std::string::npos;
    if (bound == count)
      break;
    std::this_thread::sleep_for(20ms);
  }
  actors::stop_pipeline(p, bridge);
  EXPECT_EQ(bound, static_cast<std::size_t>(count));
  EXPECT_EQ(bridge.stats().binds, static_cast<std::uint64_t>(count));
  EXPECT_EQ(bridge.stats().events_recorded, static_cast<std::uint64_t>(count));
  // Events reach the pipeline in batches, never more batches than events.
  auto s = bridge.stats();
  EXPECT_GE(s.deliveries, 1u);
  EXPECT_LE(s.deliveries, s.events_delivered);
}

} // namespace
} // namespace tessera::adapters
