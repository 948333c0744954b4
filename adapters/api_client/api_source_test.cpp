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
#include <mutex>

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
  auto srv = test::start_test_server(st);
  io::rest_client client{test::client_config_for(srv->url())};
  api_source source{client};
  recording_receiver rec;
  source.start(rec.make());
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
    EXPECT_EQ(kinds,
              (std::vector<std::string>{"Namespace", "PriorityClass",
                                        "PodDisruptionBudget", "Node", "Pod"}));
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
  srv->stop();
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
  auto srv = test::start_test_server(st);
  io::rest_client client{test::client_config_for(srv->url())};
  api_source source{client};
  recording_receiver rec;
  source.start(rec.make());
  ASSERT_TRUE(rec.wait([&] { return rec.synced_after_batches >= 0; }));
  {
    std::lock_guard g{rec.mutex};
    // The store's built-in namespaces and priority classes come first.
    std::vector<std::string> kinds;
    for (const auto& e : rec.batches[0]) {
      std::string k = kind_name(e.obj);
      if (k != "Namespace" && k != "PriorityClass")
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
  srv->stop();
}

} // namespace
} // namespace tessera::adapters
