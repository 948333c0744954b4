// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// volume_binder against an in-memory API that keeps whole JSON documents and
// checks resourceVersion preconditions as an API server does.
#include "io/volume_binder.hpp"
#include "model/decode.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <future>
#include <map>
#include <mutex>

namespace tessera::io {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

/// Documents by "kind/ns/name"; every write bumps a global resourceVersion.
class fake_api {
public:
  volume_binder_api api() {
    volume_binder_api a;
    a.get = [this](model::object_kind k, std::string_view ns,
                   std::string_view name) -> expected<std::string> {
      std::lock_guard guard{mu_};
      ++gets_;
      if (fail_gets_)
        return make_error(ec::unavailable, "connection refused");
      auto it = docs_.find(key(k, ns, name));
      if (it == docs_.end())
        return make_error(ec::not_found, std::string{name} + " not found");
      return json::serialize(it->second);
    };
    a.update = [this](model::object_kind k, std::string_view ns,
                      std::string_view name, std::string body) -> error {
      std::lock_guard guard{mu_};
      auto it = docs_.find(key(k, ns, name));
      if (it == docs_.end())
        return make_error(ec::not_found, std::string{name} + " not found");
      auto doc = json::parse(body);
      auto rv
        = json::value_to<std::string>(doc.at("metadata").at("resourceVersion"));
      if (rv != rv_of(it->second))
        return make_error(ec::conflict, "the object has been modified");
      doc.at("metadata").as_object()["resourceVersion"] = next_rv();
      it->second = std::move(doc);
      ++updates_;
      return {};
    };
    return a;
  }

  void put(model::object_kind k, std::string_view ns, std::string_view name,
           std::string_view text) {
    std::lock_guard guard{mu_};
    auto doc = json::parse(text);
    doc.as_object()["metadata"].as_object()["resourceVersion"] = next_rv();
    docs_[key(k, ns, name)] = std::move(doc);
  }
  void remove(model::object_kind k, std::string_view ns,
              std::string_view name) {
    std::lock_guard guard{mu_};
    docs_.erase(key(k, ns, name));
  }
  /// Applies `f` to a stored document (a controller's write).
  void edit(model::object_kind k, std::string_view ns, std::string_view name,
            const std::function<void(json::object&)>& f) {
    std::lock_guard guard{mu_};
    auto& doc = docs_.at(key(k, ns, name)).as_object();
    f(doc);
    doc["metadata"].as_object()["resourceVersion"] = next_rv();
  }
  json::value doc(model::object_kind k, std::string_view ns,
                  std::string_view name) {
    std::lock_guard guard{mu_};
    auto it = docs_.find(key(k, ns, name));
    return it == docs_.end() ? json::value{} : it->second;
  }
  model::object decoded(model::object_kind k, std::string_view ns,
                        std::string_view name) {
    auto d = model::decode_object_json(json::serialize(doc(k, ns, name)), k,
                                       model::decode_options{false});
    EXPECT_TRUE(d) << d.err().message;
    return *d;
  }
  int updates() {
    std::lock_guard guard{mu_};
    return updates_;
  }
  void fail_gets(bool on) {
    std::lock_guard guard{mu_};
    fail_gets_ = on;
  }

private:
  static std::string key(model::object_kind k, std::string_view ns,
                         std::string_view name) {
    return std::string{model::to_string(k)} + "/" + std::string{ns} + "/"
           + std::string{name};
  }
  static std::string rv_of(const json::value& doc) {
    return json::value_to<std::string>(
      doc.at("metadata").at("resourceVersion"));
  }
  std::string next_rv() {
    return std::to_string(++rv_);
  }

  std::mutex mu_;
  std::map<std::string, json::value> docs_;
  int rv_ = 100;
  int gets_ = 0;
  int updates_ = 0;
  bool fail_gets_ = false;
};

constexpr auto pv_kind = model::object_kind::persistent_volume;
constexpr auto pvc_kind = model::object_kind::persistent_volume_claim;
constexpr auto pod_kind = model::object_kind::pod;

const char* pv_json = R"({"apiVersion":"v1","kind":"PersistentVolume",
  "metadata":{"name":"pv1","uid":"pv-uid"},
  "spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],
          "storageClassName":"local","local":{"path":"/mnt"},
          "persistentVolumeReclaimPolicy":"Retain"},
  "status":{"phase":"Available"}})";

std::string claim_json(const std::string& name) {
  return R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
    "metadata":{"name":")"
         + name + R"(","namespace":"ns","uid":")" + name + R"(-uid"},
    "spec":{"storageClassName":"local","accessModes":["ReadWriteOnce"],
            "resources":{"requests":{"storage":"1Gi"}}},
    "status":{"phase":"Pending"}})";
}

/// What the volume controller writes when it completes a binding.
void complete(json::object& claim, const std::string& volume) {
  claim["spec"].as_object()["volumeName"] = volume;
  auto& meta = claim["metadata"].as_object();
  if (!meta.contains("annotations"))
    meta["annotations"] = json::object{};
  meta["annotations"].as_object()["pv.kubernetes.io/bind-completed"] = "yes";
  claim["status"].as_object()["phase"] = "Bound";
}

class VolumeBinderTest : public ::testing::Test {
protected:
  void SetUp() override {
    api_ = std::make_unique<fake_api>();
    api_->put(pv_kind, "", "pv1", pv_json);
    api_->put(pvc_kind, "ns", "static", claim_json("static"));
    api_->put(pvc_kind, "ns", "dynamic", claim_json("dynamic"));
    api_->put(pod_kind, "ns", "web",
              R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web",)"
              R"("namespace":"ns","uid":"web-uid"},)"
              R"("spec":{"containers":[{"name":"c"}]}})");
    volume_binder_config cfg;
    cfg.poll_interval = 10ms;
    binder_ = std::make_unique<volume_binder>(api_->api(), cfg);
  }
  void TearDown() override {
    binder_->stop();
  }

  /// The plan as the scheduler chose it, from the objects as stored now.
  model::volume_binding_plan_ptr plan(bool with_static, bool with_dynamic) {
    auto p = std::make_shared<model::volume_binding_plan>();
    if (with_static)
      p->bindings.push_back({std::get<model::persistent_volume_claim_ptr>(
                               api_->decoded(pvc_kind, "ns", "static")),
                             std::get<model::persistent_volume_ptr>(
                               api_->decoded(pv_kind, "", "pv1"))});
    if (with_dynamic)
      p->provisions.push_back(std::get<model::persistent_volume_claim_ptr>(
        api_->decoded(pvc_kind, "ns", "dynamic")));
    return p;
  }

  std::future<error> start(model::volume_binding_plan_ptr p,
                           std::chrono::milliseconds timeout = 5s) {
    auto done = std::make_shared<std::promise<error>>();
    auto f = done->get_future();
    auto pod = std::get<model::pod_ptr>(api_->decoded(pod_kind, "ns", "web"));
    binder_->bind(pod, model::symbol{"n1"}, std::move(p), timeout,
                  [done](error e) { done->set_value(std::move(e)); });
    return f;
  }

  /// Waits until the binder's writes are visible (`updates` of them).
  void wait_for_writes(int updates) {
    for (int i = 0; i < 500 && api_->updates() < updates; ++i)
      std::this_thread::sleep_for(2ms);
    ASSERT_EQ(api_->updates(), updates);
  }

  std::unique_ptr<fake_api> api_;
  std::unique_ptr<volume_binder> binder_;
};

TEST_F(VolumeBinderTest, BindsStaticVolumesAndWaitsForTheController) {
  auto p = plan(true, false);
  std::string claim_rv = p->bindings[0].claim->resource_version;
  auto f = start(p);
  wait_for_writes(1);
  auto pv = api_->doc(pv_kind, "", "pv1");
  const auto& ref = pv.at("spec").at("claimRef").as_object();
  EXPECT_EQ(ref.at("kind"), "PersistentVolumeClaim");
  EXPECT_EQ(ref.at("apiVersion"), "v1");
  EXPECT_EQ(ref.at("namespace"), "ns");
  EXPECT_EQ(ref.at("name"), "static");
  EXPECT_EQ(ref.at("uid"), "static-uid");
  EXPECT_EQ(json::value_to<std::string>(ref.at("resourceVersion")), claim_rv);
  EXPECT_EQ(pv.at("metadata")
              .at("annotations")
              .at("pv.kubernetes.io/bound-by-controller"),
            "yes");
  // Fields the scheduler does not model survive the update.
  EXPECT_EQ(pv.at("spec").at("persistentVolumeReclaimPolicy"), "Retain");
  EXPECT_EQ(f.wait_for(50ms), std::future_status::timeout)
    << "the claim is not bound yet";
  api_->edit(pvc_kind, "ns", "static",
             [](json::object& c) { complete(c, "pv1"); });
  ASSERT_EQ(f.wait_for(5s), std::future_status::ready);
  EXPECT_FALSE(f.get());
  EXPECT_EQ(binder_->pending(), 0u);
}

TEST_F(VolumeBinderTest, AnnotatesClaimsToProvisionWithTheSelectedNode) {
  auto f = start(plan(false, true));
  wait_for_writes(1);
  auto claim = api_->doc(pvc_kind, "ns", "dynamic");
  EXPECT_EQ(claim.at("metadata")
              .at("annotations")
              .at("volume.kubernetes.io/selected-node"),
            "n1");
  EXPECT_FALSE(claim.at("metadata")
                 .at("annotations")
                 .as_object()
                 .contains("volume.kubernetes.io/storage-provisioner"))
    << "the provisioner's annotation is the volume controller's to write";
  api_->edit(pvc_kind, "ns", "dynamic",
             [](json::object& c) { complete(c, "pvc-dynamic-uid"); });
  ASSERT_EQ(f.wait_for(5s), std::future_status::ready);
  EXPECT_FALSE(f.get());
}

TEST_F(VolumeBinderTest, ReportsWhyABindingEnds) {
  struct test_case {
    std::string name;
    bool with_static = false;
    bool with_dynamic = false;
    /// Runs after the plan is taken and before the binder starts.
    std::function<void(fake_api&)> before;
    /// Runs once the binder's writes are visible (`writes` of them).
    int writes = 0;
    std::function<void(fake_api&)> after;
    std::chrono::milliseconds timeout{5000};
    ec want_code;
    std::string want;
  };
  const std::vector<test_case> cases = {
    {"a volume changed since it was chosen: the update conflicts", true, false,
     [](fake_api& a) {
       a.edit(pv_kind, "", "pv1", [](json::object& pv) {
         pv["metadata"].as_object()["labels"] = json::object{{"x", "y"}};
       });
     },
     0, nullptr, 5000ms, ec::conflict, "the object has been modified"},
    {"the API fails", false, true, [](fake_api& a) { a.fail_gets(true); }, 0,
     nullptr, 5000ms, ec::unavailable, "connection refused"},
    {"nothing binds the claim in time", false, true, nullptr, 1, nullptr, 100ms,
     ec::timeout, "binding volumes: context deadline exceeded"},
    {"the claim is deleted while waiting", false, true, nullptr, 1,
     [](fake_api& a) { a.remove(pvc_kind, "ns", "dynamic"); }, 5000ms,
     ec::conflict, "binding volumes: claim ns/dynamic was deleted"},
    {"the claim is Lost", true, false, nullptr, 1,
     [](fake_api& a) {
       a.edit(pvc_kind, "ns", "static", [](json::object& c) {
         c["status"].as_object()["phase"] = "Lost";
       });
     },
     5000ms, ec::conflict, "binding volumes: claim ns/static is Lost"},
    {"the volume's claimRef is reset", true, false, nullptr, 1,
     [](fake_api& a) {
       a.edit(pv_kind, "", "pv1", [](json::object& pv) {
         pv["spec"].as_object().erase("claimRef");
       });
     },
     5000ms, ec::conflict, "binding volumes: ClaimRef got reset for pv pv1"},
    {"the pod is deleted while waiting", false, true, nullptr, 1,
     [](fake_api& a) { a.remove(pod_kind, "ns", "web"); }, 5000ms, ec::conflict,
     "binding volumes: pod does not exist any more"},
    {"the provisioner gives the claim back", false, true, nullptr, 1,
     [](fake_api& a) {
       a.edit(pvc_kind, "ns", "dynamic", [](json::object& c) {
         c["metadata"].as_object()["annotations"].as_object().erase(
           "volume.kubernetes.io/selected-node");
       });
     },
     5000ms, ec::conflict,
     "binding volumes: selectedNode annotation reset for PVC ns/dynamic"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    TearDown();
    SetUp();
    auto p = plan(tc.with_static, tc.with_dynamic);
    if (tc.before)
      tc.before(*api_);
    auto f = start(p, tc.timeout);
    if (tc.writes > 0)
      wait_for_writes(tc.writes);
    if (tc.after)
      tc.after(*api_);
    ASSERT_EQ(f.wait_for(5s), std::future_status::ready);
    error e = f.get();
    EXPECT_EQ(e.code, tc.want_code);
    EXPECT_NE(e.message.find(tc.want), std::string::npos) << e.message;
  }
}

TEST_F(VolumeBinderTest, StopReportsWaitingPodsAndRefusesNewOnes) {
  auto waiting = start(plan(false, true));
  wait_for_writes(1);
  binder_->stop();
  ASSERT_EQ(waiting.wait_for(1s), std::future_status::ready);
  EXPECT_EQ(waiting.get().code, ec::unavailable);
  auto late = start(plan(false, true));
  ASSERT_EQ(late.wait_for(1s), std::future_status::ready);
  EXPECT_EQ(late.get().code, ec::unavailable);
}

} // namespace
} // namespace tessera::io
