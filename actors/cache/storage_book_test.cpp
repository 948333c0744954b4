// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/cache/storage_book.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

namespace tessera::actors {
namespace {

constexpr std::int64_t gi = 1024ll * 1024 * 1024;

model::object local_class() {
  auto c = std::make_shared<model::storage_class>();
  c->name = "local";
  c->provisioner = std::string{model::no_provisioner};
  c->binding = model::binding_mode::wait_for_first_consumer;
  return model::object{model::storage_class_ptr{std::move(c)}};
}

model::persistent_volume_ptr local_pv(std::string name, std::string host,
                                      std::string rv = "1") {
  auto v = std::make_shared<model::persistent_volume>();
  v->name = std::move(name);
  v->resource_version = std::move(rv);
  v->storage_class = "local";
  v->capacity_bytes = gi;
  v->access_modes = model::read_write_once | model::read_write_once_pod;
  v->phase = model::volume_phase::available;
  model::node_selector_requirement req;
  req.key = model::symbol{"kubernetes.io/hostname"};
  req.values.push_back(model::symbol{host});
  v->node_affinity = model::node_selector{{{{req}, {}}}};
  return v;
}

model::persistent_volume_claim_ptr
claim(std::string name, std::uint8_t modes = model::read_write_once) {
  auto c = std::make_shared<model::persistent_volume_claim>();
  c->ns = model::symbol{"default"};
  c->name = std::move(name);
  c->uid = "uid-" + c->name;
  c->storage_class = "local";
  c->request_bytes = gi;
  c->access_modes = modes;
  return c;
}

model::pod_ptr pod_with(std::string name, std::string claim_name) {
  model::pod p = test::make_pod(std::move(name)).build_value();
  model::volume v;
  v.name = "data";
  v.type = "persistentVolumeClaim";
  v.claim_name = std::move(claim_name);
  p.volumes.push_back(std::move(v));
  return std::make_shared<model::pod>(std::move(p));
}

model::node hostname_node(std::string name) {
  return *test::make_node(name).label("kubernetes.io/hostname", name).build();
}

using event_kind = object_event::kind;

} // namespace

// Two pods in flight with different claims must not take the same volume:
// the first assume records its choice, the second finds it taken; a
// forget gives it back.
TEST(StorageBook, AnAssumedVolumeIsTaken) {
  storage_book book;
  book.apply(event_kind::added, local_class());
  book.apply(event_kind::added, model::object{local_pv("pv-n1", "n1")});
  book.apply(event_kind::added, model::object{claim("a")});
  book.apply(event_kind::added, model::object{claim("b")});
  model::volume_binding_plan_ptr plan;
  EXPECT_EQ(
    book.assume("default/p", *pod_with("p", "a"), hostname_node("n1"), plan),
    "");
  ASSERT_NE(plan, nullptr);
  ASSERT_EQ(plan->bindings.size(), 1u);
  EXPECT_EQ(plan->bindings[0].volume->name, "pv-n1");
  EXPECT_EQ(plan->bindings[0].claim->name, "a");
  // The published view shows the volume taken by claim a.
  auto view = book.view();
  ASSERT_TRUE(view->volume("pv-n1")->claim_ref.has_value());
  EXPECT_EQ(view->volume("pv-n1")->claim_ref->name, "a");

  model::volume_binding_plan_ptr second;
  EXPECT_EQ(
    book.assume("default/q", *pod_with("q", "b"), hostname_node("n1"), second),
    "node(s) didn't find available persistent volumes to bind");
  EXPECT_EQ(second, nullptr);

  book.forget("default/p");
  EXPECT_FALSE(book.view()->volume("pv-n1")->claim_ref.has_value());
  EXPECT_EQ(
    book.assume("default/q", *pod_with("q", "b"), hostname_node("n1"), second),
    "");
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->bindings[0].claim->name, "b");
}

// A second pod of the same claim follows the first one's choice.
TEST(StorageBook, PodsOfOneClaimShareItsVolume) {
  storage_book book;
  book.apply(event_kind::added, local_class());
  book.apply(event_kind::added, model::object{local_pv("pv-n1", "n1")});
  book.apply(event_kind::added, model::object{local_pv("pv-n2", "n2")});
  book.apply(event_kind::added, model::object{claim("shared")});
  model::volume_binding_plan_ptr plan;
  ASSERT_EQ(book.assume("default/p", *pod_with("p", "shared"),
                        hostname_node("n1"), plan),
            "");
  EXPECT_EQ(book.assume("default/q", *pod_with("q", "shared"),
                        hostname_node("n2"), plan),
            "node(s) didn't find available persistent volumes to bind");
  EXPECT_EQ(book.assume("default/q", *pod_with("q", "shared"),
                        hostname_node("n1"), plan),
            "");
  ASSERT_NE(plan, nullptr);
  EXPECT_EQ(plan->bindings[0].volume->name, "pv-n1");
}

// The API's newer object replaces the assumption.
TEST(StorageBook, TheApisWordReplacesTheAssumption) {
  storage_book book;
  book.apply(event_kind::added, local_class());
  book.apply(event_kind::added, model::object{local_pv("pv-n1", "n1")});
  book.apply(event_kind::added, model::object{claim("a")});
  model::volume_binding_plan_ptr plan;
  ASSERT_EQ(
    book.assume("default/p", *pod_with("p", "a"), hostname_node("n1"), plan),
    "");
  // The PV controller released the volume (say the claim went away): the
  // API now says it is free, and the assumption must not hide that.
  auto fresh = local_pv("pv-n1", "n1", "2");
  auto ev = book.apply(event_kind::modified, model::object{fresh});
  EXPECT_TRUE(ev.has_value());
  EXPECT_FALSE(book.view()->volume("pv-n1")->claim_ref.has_value());
  // A forget after that does not resurrect anything.
  book.forget("default/p");
  EXPECT_FALSE(book.view()->volume("pv-n1")->claim_ref.has_value());
}

// A ReadWriteOncePod claim used by one pod (bound or assumed) cannot be
// had by another.
TEST(StorageBook, ReadWriteOncePodClaimsHaveOneUser) {
  storage_book book;
  book.apply(event_kind::added, local_class());
  auto bound = claim("solo", model::read_write_once_pod);
  auto with_volume = std::make_shared<model::persistent_volume_claim>(*bound);
  with_volume->volume_name = "pv-n1";
  with_volume->bind_completed = true;
  auto pv
    = std::make_shared<model::persistent_volume>(*local_pv("pv-n1", "n1"));
  pv->claim_ref
    = model::claim_reference{model::symbol{"default"}, "solo", "uid-solo"};
  book.apply(event_kind::added,
             model::object{model::persistent_volume_ptr{pv}});
  book.apply(event_kind::added,
             model::object{model::persistent_volume_claim_ptr{with_volume}});
  auto first = pod_with("p", "solo");
  model::volume_binding_plan_ptr plan;
  ASSERT_EQ(book.assume("default/p", *first, hostname_node("n1"), plan), "");
  EXPECT_EQ(plan, nullptr); // bound already: nothing to write
  book.pod_added(*first);
  EXPECT_EQ(
    book.assume("default/q", *pod_with("q", "solo"), hostname_node("n1"), plan),
    "node has pod using PersistentVolumeClaim with the same name and "
    "ReadWriteOncePod access mode");
  book.pod_removed(*first);
  EXPECT_EQ(
    book.assume("default/q", *pod_with("q", "solo"), hostname_node("n1"), plan),
    "");
}

TEST(StorageBook, EmitsEventsForChanges) {
  storage_book book;
  auto added = book.apply(event_kind::added, local_class());
  ASSERT_TRUE(added.has_value());
  EXPECT_EQ(added->resource, plugins::event_resource::storage_class);
  EXPECT_EQ(added->actions, plugins::action::add);
  EXPECT_FALSE(book.apply(event_kind::modified, local_class()).has_value());
  auto gone = book.apply(event_kind::deleted, local_class());
  ASSERT_TRUE(gone.has_value());
  EXPECT_EQ(gone->actions, plugins::action::remove);
  EXPECT_TRUE(gone->old_object.has_value());
  EXPECT_EQ(book.view(), nullptr);
}

// The view's smallest attach limit per driver follows CSINodes as they
// are added, changed and deleted.
TEST(StorageBook, TracksTheSmallestAttachLimitPerDriver) {
  auto csi = [](std::string name, std::vector<model::csi_node_driver> d) {
    auto n = std::make_shared<model::csi_node>();
    n->name = model::symbol{name};
    n->resource_version = std::to_string(d.size()) + name;
    n->drivers = std::move(d);
    return model::object{model::csi_node_ptr{std::move(n)}};
  };
  auto smallest = [](storage_book& book, const std::string& driver) {
    auto v = book.view();
    if (!v)
      return std::int64_t{-1};
    auto it = v->smallest_limits.find(driver);
    return it == v->smallest_limits.end() ? std::int64_t{-1} : it->second;
  };
  storage_book book;
  book.apply(event_kind::added, csi("a", {{"ebs", 39}, {"pd", std::nullopt}}));
  book.apply(event_kind::added, csi("b", {{"ebs", 16}}));
  book.apply(event_kind::added, csi("c", {{"ebs", 16}, {"pd", 4}}));
  EXPECT_EQ(smallest(book, "ebs"), 16);
  EXPECT_EQ(smallest(book, "pd"), 4);
  book.apply(event_kind::modified, csi("b", {{"ebs", 20}}));
  EXPECT_EQ(smallest(book, "ebs"), 16);
  book.apply(event_kind::deleted, csi("c", {}));
  EXPECT_EQ(smallest(book, "ebs"), 20);
  EXPECT_EQ(smallest(book, "pd"), -1);
  book.apply(event_kind::modified, csi("b", {{"ebs", 8}, {"pd", 2}}));
  EXPECT_EQ(smallest(book, "ebs"), 8);
  EXPECT_EQ(smallest(book, "pd"), 2);
}

} // namespace tessera::actors
