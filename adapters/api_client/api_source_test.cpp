// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// api_source against the embedded API server over HTTP.
#include "adapters/api_client/api_source.hpp"
#include "io/apiserver/resources.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "test/support/api_client.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

namespace tessera::adapters {
namespace {

using namespace std::chrono_literals;

const apiserver::resource_info& res(const char* group, const char* name) {
  return *apiserver::find_resource(group, "v1", name);
}

/// Records what a receiver gets, checking it is never called concurrently.
struct recording_receiver {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<actors::object_events> batches;
  int synced_after_batches = -1;
  std::atomic<int> inside{0};
  bool overlapped = false;

  actors::cluster_source::receiver make() {
    return {[this](actors::object_events evs) {
              if (inside.fetch_add(1) != 0)
                overlapped = true;
              {
                std::lock_guard g{mutex};
                batches.push_back(std::move(evs));
              }
              inside.fetch_sub(1);
              cv.notify_all();
            },
            [this] {
              std::lock_guard g{mutex};
              synced_after_batches = static_cast<int>(batches.size());
              cv.notify_all();
            }};
  }
  template <class Pred> bool wait(Pred p) {
    std::unique_lock lock{mutex};
    return cv.wait_for(lock, 10s, [&] { return p(); });
  }
};

/// An api_source on a test API server over `st`, started into a recording
/// receiver (members stop in reverse: the source before its client).
struct started_source {
  explicit started_source(apiserver::store& st)
    : srv(test::start_test_server(st)),
      client(test::client_config_for(srv->url())) {
    source.start(rec.make());
  }

  std::unique_ptr<apiserver::api_server> srv;
  io::rest_client client;
  api_source source{client};
  recording_receiver rec;
};

std::string kind_name(const model::object& o) {
  return std::string{model::to_string(model::kind_of(o))};
}

TEST(ApiSource, InitialStateInOneBatchThenLiveEvents) {
  apiserver::store st;
  auto nodes = res("", "nodes");
  auto pods = res("", "pods");
  ASSERT_TRUE(st.create(nodes, "",
                        R"({"kind":"Node","metadata":{"name":"n1"},)"
                        R"("status":{"allocatable":{"cpu":"4"}}})"));
  for (std::string name : {"a", "b", "done"})
    ASSERT_TRUE(st.create(pods, "default",
                          R"({"kind":"Pod","metadata":{"name":")" + name
                            + R"("},"spec":{"containers":[{"name":"c",)"
                              R"("image":"x"}]}})"));
  // A terminal pod is invisible (phase selector).
  ASSERT_TRUE(st.patch(pods, "default", "done", apiserver::patch_type::merge,
                       R"({"status":{"phase":"Succeeded"}})",
                       apiserver::subresource::status));
  ASSERT_TRUE(st.create(res("policy", "poddisruptionbudgets"), "default",
                        R"({"kind":"PodDisruptionBudget","metadata":{"name":)"
                        R"("pdb"},"spec":{"minAvailable":1}})"));
  started_source started{st};
  auto& source = started.source;
  auto& rec = started.rec;
  ASSERT_TRUE(rec.wait([&] { return rec.synced_after_batches >= 0; }));
  EXPECT_TRUE(source.synced());
  {
    std::lock_guard g{rec.mutex};
    // Everything in the first batch, delivered before `synced`.
    ASSERT_EQ(rec.synced_after_batches, 1);
    const auto& first = rec.batches[0];
    std::vector<std::string> kinds;
    std::size_t pods_seen = 0;
    for (const auto& e : first) {
      EXPECT_EQ(e.type, actors::object_event::kind::added);
      std::string k = kind_name(e.obj);
      if (kinds.empty() || kinds.back() != k)
        kinds.push_back(k);
      if (k == "Pod")
        ++pods_seen;
    }
    EXPECT_EQ(kinds, (std::vector<std::string>{"Namespace", "PriorityClass",
                                               "PodDisruptionBudget", "Service",
                                               "Node", "Pod"}))
      << "the Service is the store's own `kubernetes` Service";
    EXPECT_EQ(pods_seen, 2u);
  }

  // Live: a new pod, and a pod turning Succeeded arrives as DELETED.
  ASSERT_TRUE(st.create(pods, "default",
                        R"({"kind":"Pod","metadata":{"name":"c"},"spec":)"
                        R"({"containers":[{"name":"c","image":"x"}]}})"));
  ASSERT_TRUE(st.patch(pods, "default", "a", apiserver::patch_type::merge,
                       R"({"status":{"phase":"Succeeded"}})",
                       apiserver::subresource::status));
  bool added_c = false, deleted_a = false;
  ASSERT_TRUE(rec.wait([&] {
    for (std::size_t i = 1; i < rec.batches.size(); ++i)
      for (const auto& e : rec.batches[i])
        if (auto* p = std::get_if<model::pod_ptr>(&e.obj)) {
          added_c
            |= (*p)->name == "c" && e.type == actors::object_event::kind::added;
          deleted_a |= (*p)->name == "a"
                       && e.type == actors::object_event::kind::deleted;
        }
    return added_c && deleted_a;
  }));
  source.stop();
  EXPECT_FALSE(rec.overlapped);
  started.srv->stop();
}

// The storage kinds are listed with the rest, before the nodes, in the order
// their references run (classes and drivers before volumes and claims); an
// object that does not decode is skipped and counted, the others delivered.
TEST(ApiSource, StorageKindsBeforeNodesAndUndecodableOnesSkipped) {
  apiserver::store st;
  auto create = [&](const char* group, const char* resource, const char* ns,
                    const std::string& body) {
    auto r = st.create(res(group, resource), ns, body);
    ASSERT_TRUE(r) << resource << ": " << r.err().message;
  };
  create("", "nodes", "", R"({"kind":"Node","metadata":{"name":"n1"}})");
  create("", "persistentvolumeclaims", "default",
         R"({"kind":"PersistentVolumeClaim","metadata":{"name":"c"},)"
         R"("spec":{"storageClassName":"fast"}})");
  for (auto [name, size] : {std::pair{"good", "1Gi"}, {"bad", "-1Gi"}})
    create("", "persistentvolumes", "",
           std::string{R"({"kind":"PersistentVolume","metadata":{"name":")"}
             + name + R"("},"spec":{"capacity":{"storage":")" + size
             + R"("}}})");
  create("storage.k8s.io", "volumeattachments", "",
         R"({"kind":"VolumeAttachment","metadata":{"name":"va"},)"
         R"("spec":{"attacher":"d","nodeName":"n1",)"
         R"("source":{"persistentVolumeName":"good"}}})");
  create("storage.k8s.io", "csistoragecapacities", "default",
         R"({"kind":"CSIStorageCapacity","metadata":{"name":"cap"},)"
         R"("storageClassName":"fast","capacity":"1Gi"})");
  create("storage.k8s.io", "csinodes", "",
         R"({"kind":"CSINode","metadata":{"name":"n1"},)"
         R"("spec":{"drivers":[{"name":"d","nodeID":"x"}]}})");
  create("storage.k8s.io", "csidrivers", "",
         R"({"kind":"CSIDriver","metadata":{"name":"d"},"spec":{}})");
  create("storage.k8s.io", "storageclasses", "",
         R"({"kind":"StorageClass","metadata":{"name":"fast"},)"
         R"("provisioner":"d"})");
  started_source started{st};
  auto& source = started.source;
  auto& rec = started.rec;
  ASSERT_TRUE(rec.wait([&] { return rec.synced_after_batches >= 0; }));
  {
    std::lock_guard g{rec.mutex};
    // The store's built-in namespaces, priority classes and `kubernetes`
    // Service come first.
    std::vector<std::string> kinds;
    for (const auto& e : rec.batches[0]) {
      std::string k = kind_name(e.obj);
      if (k != "Namespace" && k != "PriorityClass" && k != "Service")
        kinds.push_back(k);
    }
    EXPECT_EQ(kinds, (std::vector<std::string>{
                       "StorageClass", "CSIDriver", "CSINode",
                       "PersistentVolume", "PersistentVolumeClaim",
                       "CSIStorageCapacity", "VolumeAttachment", "Node"}));
  }
  std::uint64_t undecodable = 0;
  for (const auto* r : source.reflectors())
    undecodable += r->stats().undecodable.load();
  EXPECT_EQ(undecodable, 1u);
  source.stop();
  started.srv->stop();
}

// A pod that does not decode never reaches the receiver, but its owner is
// told what can be read of it and why, from the list and from the watch.
TEST(ApiSource, UndecodablePodsAreReported) {
  apiserver::store st;
  auto pods = res("", "pods");
  auto bad_pod = [](const std::string& name) {
    return R"({"kind":"Pod","metadata":{"name":")" + name
           + R"("},"spec":{"schedulerName":"s1","containers":[{"name":"c",)"
             R"("image":"x","resources":{"requests":{"cpu":"-1"}}}]}})";
  };
  ASSERT_TRUE(st.create(pods, "default", bad_pod("listed")));
  auto srv = test::start_test_server(st);
  io::rest_client client{test::client_config_for(srv->url())};
  std::mutex mu;
  std::vector<std::pair<model::object_peek, std::string>> reported;
  api_source_config sc;
  sc.undecodable_pod = [&](const model::object_peek& p, const std::string& w) {
    std::lock_guard g{mu};
    reported.emplace_back(p, w);
  };
  api_source source{client, sc};
  recording_receiver rec;
  source.start(rec.make());
  ASSERT_TRUE(rec.wait([&] { return rec.synced_after_batches >= 0; }));
  ASSERT_TRUE(st.create(pods, "default", bad_pod("watched")));
  ASSERT_TRUE(rec.wait([&] {
    std::lock_guard g{mu};
    return reported.size() >= 2;
  }));
  source.stop();
  std::lock_guard g{mu};
  ASSERT_EQ(reported.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    const auto& [peek, why] = reported[i];
    EXPECT_EQ(peek.name, i == 0 ? "listed" : "watched");
    EXPECT_EQ(peek.ns, "default");
    EXPECT_FALSE(peek.uid.empty());
    EXPECT_EQ(peek.scheduler_name, "s1");
    EXPECT_NE(why.find("cpu"), std::string::npos) << why;
  }
  for (const auto& batch : rec.batches)
    for (const auto& e : batch)
      EXPECT_EQ(std::get_if<model::pod_ptr>(&e.obj), nullptr);
}

std::string node_json(const std::string& name) {
  return R"({"kind":"Node","metadata":{"name":")" + name
         + R"("},"status":{"allocatable":{"cpu":"4"}}})";
}

std::string pod_json(const std::string& name) {
  return R"({"kind":"Pod","metadata":{"name":")" + name
         + R"("},"spec":{"containers":[{"name":"c","image":"x"}]}})";
}

// An API outage after which the cluster comes back with fewer nodes (a new
// store on the same port): the new state's pods reach the receiver only
// after the vanished nodes were deleted from it, and no binding may target
// a vanished node, nor go out at all while an informer is re-listing.
TEST(ApiSource, AfterAnOutageNodesResyncBeforePodsAndBindingsWait) {
  auto nodes = res("", "nodes");
  auto pods = res("", "pods");
  apiserver::store before;
  for (std::string n : {"n1", "n2", "n3", "n4"})
    ASSERT_TRUE(before.create(nodes, "", node_json(n)));
  ASSERT_TRUE(before.create(pods, "default", pod_json("old")));
  auto srv = test::start_test_server(before);
  const std::uint16_t port = srv->port();
  api_source_config sc;
  sc.backoff_initial = 20ms;
  sc.backoff_max = 100ms;
  io::rest_client client{test::client_config_for(srv->url())};
  api_source source{client, sc};

  // The receiver as the cache would see it: its node set, and every new
  // pod checked against it on arrival.
  std::mutex mu;
  std::set<std::string> cache_nodes;
  std::vector<std::string> stale_views;
  std::atomic<bool> synced{false};
  actors::cluster_source::receiver r;
  r.deliver = [&](actors::object_events evs) {
    std::lock_guard g{mu};
    for (const auto& e : evs) {
      if (auto* n = std::get_if<model::node_ptr>(&e.obj)) {
        std::string name{(*n)->name.view()};
        if (e.type == actors::object_event::kind::deleted)
          cache_nodes.erase(name);
        else
          cache_nodes.insert(name);
      } else if (auto* p = std::get_if<model::pod_ptr>(&e.obj)) {
        if ((*p)->name.starts_with("new-")
            && cache_nodes != std::set<std::string>{"n1", "n2"})
          stale_views.push_back((*p)->name + " with "
                                + std::to_string(cache_nodes.size())
                                + " nodes");
      }
    }
  };
  r.synced = [&] { synced = true; };
  source.start(std::move(r));
  auto wait = [](const std::function<bool()>& p) {
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!p() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(5ms);
    return p();
  };
  ASSERT_TRUE(wait([&] { return synced.load() && source.in_sync(); }));
  EXPECT_FALSE(source.check_bind_target(model::symbol{"n3"}));
  EXPECT_EQ(source.check_bind_target(model::symbol{"n9"}).code,
            ec::unavailable);

  // Outage (the server goes away with its connections): the informers
  // notice and bindings stop.
  srv.reset();
  ASSERT_TRUE(wait([&] { return !source.in_sync(); }));
  EXPECT_EQ(source.check_bind_target(model::symbol{"n1"}).code,
            ec::unavailable);
  std::this_thread::sleep_for(500ms);

  // Back with half the nodes and new pods; its resourceVersions run past
  // the old store's.
  apiserver::store after;
  for (std::string n : {"n1", "n2"})
    ASSERT_TRUE(after.create(nodes, "", node_json(n)));
  for (int i = 0; i < 20; ++i)
    ASSERT_TRUE(
      after.create(pods, "default", pod_json("new-" + std::to_string(i))));
  apiserver::server_config cfg;
  cfg.port = port;
  auto back = apiserver::api_server::start(after, cfg);
  ASSERT_TRUE(back) << back.err().message;
  ASSERT_TRUE(wait([&] {
    std::lock_guard g{mu};
    return source.in_sync() && cache_nodes == std::set<std::string>{"n1", "n2"};
  }));
  {
    std::lock_guard g{mu};
    EXPECT_TRUE(stale_views.empty()) << stale_views.front();
  }
  EXPECT_FALSE(source.check_bind_target(model::symbol{"n1"}));
  EXPECT_EQ(source.check_bind_target(model::symbol{"n3"}).code,
            ec::unavailable);
  source.stop();
  (*back)->stop();
}

} // namespace
} // namespace tessera::adapters
