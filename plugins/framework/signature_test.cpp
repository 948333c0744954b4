// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Pod signatures over the default profile: which pods have one, and which
// pods share it.
#include "plugins/framework/profile.hpp"
#include "plugins/framework/signature.hpp"
#include "test/support/builders.hpp"
#include "test/support/default_profile.hpp"

#include <gtest/gtest.h>

namespace tessera::plugins {
namespace {

using test::make_pod;

test::pod_builder replica() {
  return make_pod("web")
    .ns("shop")
    .label("app", "web")
    .cpu("500m")
    .memory("1Gi");
}

TEST(pod_signature, the_default_profile_signs_plain_replicas_alike) {
  auto prof = test::default_profile();
  ASSERT_TRUE(prof->batchable());
  cluster_context cluster;
  auto a = replica().build();
  auto b = replica().uid("other").build();
  ASSERT_TRUE(prof->signable(*a, cluster));
  ASSERT_TRUE(prof->signable(*b, cluster));
  EXPECT_TRUE(prof->same_signature(*a, *b));
}

TEST(pod_signature, each_field_a_plugin_reads_tells_pods_apart) {
  auto prof = test::default_profile();
  cluster_context cluster;
  auto base = replica().build();
  struct test_case {
    const char* name;
    model::pod_ptr other;
  };
  const std::vector<test_case> cases = {
    {"requests", replica().cpu("600m").build()},
    {"tolerations",
     replica().toleration("dedicated", "db", "NoSchedule").build()},
    {"node selector", replica().node_selector("disk", "ssd").build()},
    {"node affinity",
     replica().required_node_affinity("zone", "In", {"z1"}).build()},
    {"host ports", replica().host_port(8080).build()},
    {"images", replica().image("nginx:1.27").build()},
    {"labels (what other pods' terms match)",
     replica().label("tier", "front").build()},
    {"namespace", replica().ns("other").build()},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    ASSERT_TRUE(prof->signable(*tc.other, cluster));
    EXPECT_FALSE(prof->same_signature(*base, *tc.other));
  }
}

TEST(pod_signature, pods_scored_against_other_pods_have_none) {
  auto prof = test::default_profile();
  cluster_context cluster;
  const std::vector<std::pair<const char*, model::pod_ptr>> cases = {
    {"pod affinity", replica()
                       .required_affinity("app", "db", "kubernetes.io/hostname")
                       .build()},
    {"pod anti-affinity",
     replica()
       .required_anti_affinity("app", "web", "kubernetes.io/hostname")
       .build()},
    {"spread constraints", replica()
                             .spread("topology.kubernetes.io/zone", 1,
                                     "DoNotSchedule", {{"app", "web"}})
                             .build()},
    {"resource claims", replica().resource_claim("gpu", "gpu-claim").build()},
  };
  for (const auto& [name, p] : cases) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(prof->signable(*p, cluster));
  }
}

model::volume volume_of(std::string name, std::string type,
                        std::string claim = {}) {
  model::volume v;
  v.name = std::move(name);
  v.type = std::move(type);
  v.claim_name = std::move(claim);
  return v;
}

TEST(pod_signature, config_map_and_secret_volumes_do_not_count) {
  auto a = replica().build();
  auto b = replica().build();
  model::pod with_config = *b;
  with_config.volumes.push_back(volume_of("cfg", "configMap"));
  with_config.volumes.push_back(volume_of("creds", "secret"));
  EXPECT_TRUE(same_volumes(*a, with_config));
  model::pod with_claim = *b;
  with_claim.volumes.push_back(
    volume_of("data", "persistentVolumeClaim", "data-0"));
  EXPECT_FALSE(same_volumes(*a, with_claim));
  model::pod other_claim = with_claim;
  other_claim.volumes.back().claim_name = "data-1";
  EXPECT_FALSE(same_volumes(with_claim, other_claim));
  EXPECT_TRUE(same_volumes(with_claim, with_claim));
}

} // namespace
} // namespace tessera::plugins
