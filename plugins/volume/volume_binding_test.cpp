// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/storage_view.hpp"
#include "plugins/volume/test_storage.hpp"
#include "plugins/volume/volume_binding.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace tessera::plugins::volume_binding_test {

namespace {

using volume_testing::claim_volume;
using volume_testing::with_volumes;

constexpr std::int64_t gi = 1024ll * 1024 * 1024;

/// The objects of one case, built by hand.
struct storage {
  std::shared_ptr<model::storage_view> view
    = std::make_shared<model::storage_view>();

  storage& cls(std::string name, std::string provisioner,
               model::binding_mode mode
               = model::binding_mode::wait_for_first_consumer,
               std::vector<std::string> zones = {}) {
    auto c = std::make_shared<model::storage_class>();
    c->name = std::move(name);
    c->provisioner = std::move(provisioner);
    c->binding = mode;
    if (!zones.empty())
      c->allowed_topologies.push_back(
        {{{"topology.kubernetes.io/zone", std::move(zones)}}});
    view->classes[c->name] = std::move(c);
    return *this;
  }
  storage& claim(std::string name, std::optional<std::string> cls,
                 std::int64_t bytes = gi, std::string volume = {},
                 bool bound = false) {
    auto c = std::make_shared<model::persistent_volume_claim>();
    c->ns = model::symbol{"default"};
    c->name = std::move(name);
    c->storage_class = std::move(cls);
    c->request_bytes = bytes;
    c->access_modes = model::read_write_once;
    c->volume_name = std::move(volume);
    c->bind_completed = bound;
    auto key = model::claim_key(c->ns, c->name);
    view->claims.set(key, std::move(c));
    return *this;
  }
  storage&
  edit_claim(const std::string& name,
             const std::function<void(model::persistent_volume_claim&)>& f) {
    auto key = "default/" + name;
    auto c = std::make_shared<model::persistent_volume_claim>(
      **view->claims.find(key));
    f(*c);
    view->claims.set(key, std::move(c));
    return *this;
  }
  /// A volume; `pinned` (a hostname) or `zone` become its node affinity.
  storage& pv(std::string name, std::string cls, std::int64_t bytes,
              std::string pinned = {}, std::string zone = {}) {
    auto v = std::make_shared<model::persistent_volume>();
    v->name = std::move(name);
    v->storage_class = std::move(cls);
    v->capacity_bytes = bytes;
    v->access_modes = model::read_write_once;
    v->phase = model::volume_phase::available;
    auto pin = [&](const char* key, const std::string& value) {
      model::node_selector_requirement req;
      req.key = model::symbol{key};
      req.values.push_back(model::symbol{value});
      model::node_selector sel;
      sel.terms.push_back({{req}, {}});
      v->node_affinity = std::move(sel);
    };
    if (!pinned.empty())
      pin("kubernetes.io/hostname", pinned);
    if (!zone.empty())
      pin("topology.kubernetes.io/zone", zone);
    auto key = v->name;
    view->volumes.set(key, std::move(v));
    return *this;
  }
  storage& capacity_driver(std::string driver) {
    auto d = std::make_shared<model::csi_driver>();
    d->name = std::move(driver);
    d->storage_capacity = true;
    view->drivers[d->name] = std::move(d);
    return *this;
  }
  storage& capacity(std::string cls, std::string zone, std::int64_t bytes) {
    auto c = std::make_shared<model::csi_storage_capacity>();
    c->name = "cap-" + zone;
    c->storage_class = std::move(cls);
    c->capacity = bytes;
    c->node_topology = model::label_selector::from_requirements(
      {model::label_requirement{model::symbol{"topology.kubernetes.io/zone"},
                                model::label_requirement::op::in,
                                {model::symbol{zone}}}});
    view->capacities.push_back(std::move(c));
    return *this;
  }
  cluster_context context() const {
    view->index();
    cluster_context ctx;
    ctx.storage = view;
    return ctx;
  }
};

/// Three nodes: n1 and n2 in zone a, n3 in zone b.
std::vector<model::node_info> nodes() {
  std::vector<model::node_info> out;
  for (auto [name, zone] : {std::pair{"n1", "a"}, {"n2", "a"}, {"n3", "b"}})
    out.push_back(
      test::make_node_info(test::make_node(name)
                             .label("kubernetes.io/hostname", name)
                             .label("topology.kubernetes.io/zone", zone)
                             .build()));
  return out;
}

/// Each node's Filter message ("" = fits), after a successful PreFilter.
std::map<std::string, std::string> filter_all(const volume_binding& plugin,
                                              const cycle_state& state,
                                              const model::pod& p) {
  std::map<std::string, std::string> out;
  for (const auto& info : nodes()) {
    status s = plugin.filter(state, p, info);
    if (!s.ok()) {
      EXPECT_EQ(s.get_code(), code::unschedulable_and_unresolvable);
    }
    out[info.get_node()->name.str()] = s.ok() ? "" : s.message();
  }
  return out;
}

cycle_state fresh_state(volume_binding& plugin) {
  plugin.bind_context(plugin_context{0});
  return cycle_state{1};
}

const char* bind_conflict
  = "node(s) didn't find available persistent volumes to bind";

} // namespace

TEST(VolumeBinding, PreFilterSortsClaimsAsUpstream) {
  struct test_case {
    std::string name;
    storage objects;
    std::vector<model::volume> volumes;
    code want;
    std::string message;
  };
  const std::vector<test_case> cases{
    {"no claim: skip", storage{}, {}, code::skip, ""},
    {"missing claim",
     storage{}.cls("local", "kubernetes.io/no-provisioner"),
     {claim_volume("data")},
     code::unschedulable_and_unresolvable,
     R"(persistentvolumeclaim "data" not found)"},
    {"claim being deleted",
     storage{}
       .claim("data", "x")
       .edit_claim("data", [](auto& c) { c.deleting = true; }),
     {claim_volume("data")},
     code::unschedulable_and_unresolvable,
     R"(persistentvolumeclaim "data" is being deleted)"},
    {"unbound claim without a class waits for the PV controller",
     storage{}.claim("data", std::nullopt),
     {claim_volume("data")},
     code::unschedulable_and_unresolvable,
     "pod has unbound immediate PersistentVolumeClaims"},
    {"unbound claim of an Immediate class",
     storage{}
       .cls("fast", "ebs.csi.aws.com", model::binding_mode::immediate)
       .claim("data", "fast"),
     {claim_volume("data")},
     code::unschedulable_and_unresolvable,
     "pod has unbound immediate PersistentVolumeClaims"},
    {"class that does not exist is an error",
     storage{}.claim("data", "gone"),
     {claim_volume("data")},
     code::error,
     R"(storageclass.storage.k8s.io "gone" not found)"},
    {"an ephemeral claim the pod does not own",
     storage{}
       .cls("local", "kubernetes.io/no-provisioner")
       .claim("p-scratch", "local"),
     {volume_testing::ephemeral_volume("p", "scratch")},
     code::unschedulable_and_unresolvable,
     "PVC default/p-scratch was not created for pod default/p (pod is not "
     "owner)"},
    {"a delayed claim passes to Filter",
     storage{}
       .cls("local", "kubernetes.io/no-provisioner")
       .claim("data", "local"),
     {claim_volume("data")},
     code::success,
     ""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    volume_binding plugin{config::volume_binding_args{}};
    cycle_state state = fresh_state(plugin);
    auto pod = with_volumes(test::make_pod("p"), tc.volumes);
    auto r = plugin.pre_filter(state, *pod, tc.objects.context());
    EXPECT_EQ(r.result.get_code(), tc.want);
    EXPECT_EQ(r.result.message(), tc.message);
  }
}

TEST(VolumeBinding, BoundVolumesPinnedToHostsNarrowTheNodes) {
  volume_binding plugin{config::volume_binding_args{}};
  cycle_state state = fresh_state(plugin);
  auto objects = storage{}
                   .pv("local-1", "", gi, "n2")
                   .claim("data", "", gi, "local-1", true)
                   .pv("zonal", "", gi, "", "a")
                   .claim("logs", "", gi, "zonal", true);
  auto pod = with_volumes(test::make_pod("p"),
                          {claim_volume("data"), claim_volume("logs")});
  auto r = plugin.pre_filter(state, *pod, objects.context());
  ASSERT_TRUE(r.result.ok()) << r.result.message();
  ASSERT_TRUE(r.nodes.has_value());
  EXPECT_EQ(*r.nodes, (std::unordered_set<model::symbol>{model::symbol{"n2"}}));
}

TEST(VolumeBinding, FilterFollowsTheBindersRules) {
  struct test_case {
    std::string name;
    storage objects;
    std::vector<std::string> claims;
    std::map<std::string, std::string> want;
  };
  const std::string affinity = "node(s) had volume node affinity conflict";
  const std::vector<test_case> cases{
    {"bound zonal volume",
     storage{}.pv("pv", "", gi, "", "a").claim("data", "", gi, "pv", true),
     {"data"},
     {{"n1", ""}, {"n2", ""}, {"n3", affinity}}},
    {"bound to a volume that does not exist",
     storage{}.claim("data", "", gi, "gone", true),
     {"data"},
     {{"n1", "node(s) unavailable due to one or more pvc(s) bound to "
             "non-existent pv(s)"},
      {"n2", "node(s) unavailable due to one or more pvc(s) bound to "
             "non-existent pv(s)"},
      {"n3", "node(s) unavailable due to one or more pvc(s) bound to "
             "non-existent pv(s)"}}},
    {"a local volume on n2 only",
     storage{}
       .cls("local", "kubernetes.io/no-provisioner")
       .pv("local-n2", "local", 2 * gi, "n2")
       .claim("data", "local"),
     {"data"},
     {{"n1", bind_conflict}, {"n2", ""}, {"n3", bind_conflict}}},
    {"a local volume too small",
     storage{}
       .cls("local", "kubernetes.io/no-provisioner")
       .pv("local-n2", "local", gi / 2, "n2")
       .claim("data", "local"),
     {"data"},
     {{"n1", bind_conflict}, {"n2", bind_conflict}, {"n3", bind_conflict}}},
    {"two claims cannot share one volume",
     storage{}
       .cls("local", "kubernetes.io/no-provisioner")
       .pv("local-n2", "local", gi, "n2")
       .pv("local-n3", "local", gi, "n3")
       .pv("local-n3b", "local", gi, "n3")
       .claim("data", "local")
       .claim("logs", "local"),
     {"data", "logs"},
     {{"n1", bind_conflict}, {"n2", bind_conflict}, {"n3", ""}}},
    {"provisioning limited by allowedTopologies",
     storage{}
       .cls("zonal", "pd.csi.storage.gke.io",
            model::binding_mode::wait_for_first_consumer, {"b"})
       .claim("data", "zonal"),
     {"data"},
     {{"n1", bind_conflict}, {"n2", bind_conflict}, {"n3", ""}}},
    {"provisioning limited by published capacity",
     storage{}
       .cls("fast", "csi.example.com")
       .capacity_driver("csi.example.com")
       .capacity("fast", "a", 10 * gi)
       .capacity("fast", "b", gi)
       .claim("data", "fast", 5 * gi),
     {"data"},
     {{"n1", ""},
      {"n2", ""},
      {"n3", "node(s) did not have enough free storage"}}},
    {"capacity is not checked for drivers that publish none",
     storage{}.cls("fast", "csi.example.com").claim("data", "fast", 5 * gi),
     {"data"},
     {{"n1", ""}, {"n2", ""}, {"n3", ""}}},
    {"a claim whose node was selected fits only there",
     storage{}
       .cls("fast", "csi.example.com")
       .claim("data", "fast")
       .edit_claim("data", [](auto& c) { c.selected_node = "n2"; }),
     {"data"},
     {{"n1", bind_conflict}, {"n2", ""}, {"n3", bind_conflict}}},
    {"bound and unbound rules both reported",
     storage{}
       .cls("local", "kubernetes.io/no-provisioner")
       .pv("zonal", "", gi, "", "b")
       .claim("logs", "", gi, "zonal", true)
       .pv("local-n2", "local", gi, "n2")
       .claim("data", "local"),
     {"data", "logs"},
     {{"n1", affinity + ", " + bind_conflict},
      {"n2", affinity},
      {"n3", bind_conflict}}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    volume_binding plugin{config::volume_binding_args{}};
    cycle_state state = fresh_state(plugin);
    std::vector<model::volume> volumes;
    for (const auto& c : tc.claims)
      volumes.push_back(claim_volume(c));
    auto pod = with_volumes(test::make_pod("p"), volumes);
    auto r = plugin.pre_filter(state, *pod, tc.objects.context());
    ASSERT_TRUE(r.result.ok()) << r.result.message();
    EXPECT_EQ(filter_all(plugin, state, *pod), tc.want);
  }
}

TEST(VolumeBinding, ClaimEventsQueueOnlyPodsUsingTheClaim) {
  volume_binding plugin{config::volume_binding_args{}};
  auto pod = with_volumes(test::make_pod("p"), {claim_volume("data")});
  const cluster_event_with_hint* claims = nullptr;
  auto events = plugin.events_to_register();
  for (const auto& e : events)
    if (e.event.resource == event_resource::persistent_volume_claim)
      claims = &e;
  ASSERT_NE(claims, nullptr);
  model::object mine{volume_testing::claim_object("default", "data")};
  model::object other{volume_testing::claim_object("default", "logs")};
  model::object elsewhere{volume_testing::claim_object("team", "data")};
  EXPECT_EQ(claims->hint(*pod, nullptr, &mine), queueing_hint::queue);
  EXPECT_EQ(claims->hint(*pod, nullptr, &other), queueing_hint::skip);
  EXPECT_EQ(claims->hint(*pod, nullptr, &elsewhere), queueing_hint::skip);
}

TEST(VolumeBinding, WaitsForTheBindingsAsConfigured) {
  config::volume_binding_args args;
  args.bind_timeout_seconds = 30;
  volume_binding plugin{args};
  EXPECT_EQ(plugin.api_wait_timeout(), std::chrono::milliseconds(30000));
  EXPECT_EQ(plugin.args(), args);
}

} // namespace tessera::plugins::volume_binding_test
