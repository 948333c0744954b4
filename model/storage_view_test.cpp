// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/storage_view.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace tessera::model {
namespace {

// A WaitForFirstConsumer class with a provisioner, a zonal volume of it in
// zone a, and an unbound claim "data" of the class.
std::shared_ptr<storage_view> zonal_storage() {
  auto v = std::make_shared<storage_view>();
  auto cls = std::make_shared<storage_class>();
  cls->name = "zonal";
  cls->provisioner = "csi.example.com";
  cls->binding = binding_mode::wait_for_first_consumer;
  v->classes[cls->name] = cls;
  auto pv = std::make_shared<persistent_volume>();
  pv->name = "pv-a";
  pv->storage_class = "zonal";
  pv->capacity_bytes = 1 << 30;
  pv->access_modes = read_write_once;
  pv->phase = volume_phase::available;
  pv->node_affinity = node_selector{{test::node_term(
    {test::node_requirement("topology.kubernetes.io/zone", "In", {"a"})})}};
  v->volumes.set(pv->name, pv);
  auto c = std::make_shared<persistent_volume_claim>();
  c->ns = symbol{"default"};
  c->name = "data";
  c->storage_class = std::string{"zonal"};
  c->access_modes = read_write_once;
  c->request_bytes = 1 << 30;
  v->claims.set(claim_key(c->ns, c->name), c);
  return v;
}

claim_fit fit_on(const storage_view& v, const char* zone, const char* node) {
  auto p = test::make_pod("p").claim("data").build();
  pod_claims claims;
  EXPECT_FALSE(sort_claims(v, *p, claims).has_value());
  auto labels = test::make_labels({{"topology.kubernetes.io/zone", zone}});
  return fit_claims(v, claims, labels, symbol{node});
}

TEST(fit_claims, binds_a_free_volume_or_provisions) {
  auto v = zonal_storage();
  v->index();
  auto in_a = fit_on(*v, "a", "n1");
  ASSERT_TRUE(in_a.ok());
  ASSERT_EQ(in_a.plan.bindings.size(), 1u);
  EXPECT_EQ(in_a.plan.bindings[0].volume->name, "pv-a");
  auto in_b = fit_on(*v, "b", "n2");
  ASSERT_TRUE(in_b.ok());
  EXPECT_TRUE(in_b.plan.bindings.empty());
  EXPECT_EQ(in_b.plan.provisions.size(), 1u);
}

// Once the volume's claimRef names the claim (an earlier pod sharing the
// claim took it), the claim fits only where that volume is reachable: it
// is never provisioned elsewhere instead.
TEST(fit_claims, a_claim_with_a_reserved_volume_is_not_provisioned) {
  auto v = zonal_storage();
  auto taken = std::make_shared<persistent_volume>(**v->volumes.find("pv-a"));
  taken->claim_ref = claim_reference{symbol{"default"}, "data", ""};
  v->volumes.set("pv-a", taken);
  v->index();
  EXPECT_TRUE(v->has_reserved_volume(*v->claim(symbol{"default"}, "data")));
  auto in_a = fit_on(*v, "a", "n1");
  ASSERT_TRUE(in_a.ok());
  ASSERT_EQ(in_a.plan.bindings.size(), 1u);
  auto in_b = fit_on(*v, "b", "n2");
  EXPECT_FALSE(in_b.unbound_satisfied);
  EXPECT_TRUE(in_b.plan.provisions.empty());
}

} // namespace
} // namespace tessera::model
