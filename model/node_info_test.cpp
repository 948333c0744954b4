// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/node_info.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

// Each test file has its own namespace so that unity builds, which merge
// files, see no clashing helpers.
namespace tessera::model::node_info_test {
namespace {

using test::describe;
using test::make_container;
using test::make_node;
using test::make_node_info;
using test::make_pod;
using test::make_resources;

symbol sym(std::string_view s) {
  return symbol{s};
}

template <class PodPtr>
std::vector<std::string> names_of(const std::vector<PodPtr>& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods)
    out.push_back(p->name);
  return out;
}

template <class PodPtr>
std::vector<std::string> sorted_names(const std::vector<PodPtr>& pods) {
  auto out = names_of(pods);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::tuple<std::uint32_t, std::uint32_t, std::int32_t>>
sorted_ports(const std::vector<host_port>& ports) {
  std::vector<std::tuple<std::uint32_t, std::uint32_t, std::int32_t>> out;
  for (const auto& p : ports)
    out.emplace_back(p.ip.id(), p.protocol.id(), p.port);
  std::sort(out.begin(), out.end());
  return out;
}

// Each pod digest describes the pod at the same index, and the label
// storage holds exactly the pods' labels (nothing left behind by removals).
void expect_digests_match_pods(const node_info& info) {
  ASSERT_EQ(info.pod_digests().size(), info.pods().size());
  std::size_t labels = 0;
  for (std::size_t i = 0; i < info.pods().size(); ++i) {
    const pod_core& p = *info.pods()[i];
    const pod_digest& d = info.pod_digests()[i];
    SCOPED_TRACE(p.name);
    EXPECT_EQ(d.ns, p.ns);
    EXPECT_EQ(d.deleting, p.deleting);
    const label_view view = info.labels_of(d);
    std::vector<label> stored(view.begin(), view.end());
    EXPECT_EQ(stored, std::vector<label>(p.labels.begin(), p.labels.end()));
    labels += p.labels.size();
  }
  EXPECT_EQ(info.pod_label_count(), labels);
}

// Every aggregate of `actual` equals a node_info built from scratch with
// `expected_pods` (pod order aside).
void expect_same_aggregates(const node_info& actual,
                            const std::vector<pod_ptr>& expected_pods) {
  node_info fresh;
  for (const auto& p : expected_pods)
    fresh.add_pod(p);
  EXPECT_EQ(sorted_names(actual.pods()), sorted_names(fresh.pods()));
  EXPECT_EQ(sorted_names(actual.pods_with_affinity()),
            sorted_names(fresh.pods_with_affinity()));
  EXPECT_EQ(sorted_names(actual.pods_with_required_anti_affinity()),
            sorted_names(fresh.pods_with_required_anti_affinity()));
  EXPECT_EQ(describe(actual.requested()), describe(fresh.requested()));
  EXPECT_TRUE(actual.requested() == fresh.requested());
  EXPECT_EQ(describe(actual.non_zero_requested()),
            describe(fresh.non_zero_requested()));
  EXPECT_TRUE(actual.non_zero_requested() == fresh.non_zero_requested());
  EXPECT_EQ(sorted_ports(actual.used_ports()),
            sorted_ports(fresh.used_ports()));
  expect_digests_match_pods(actual);
}

TEST(node_info, empty_and_placeholder) {
  node_info empty;
  EXPECT_EQ(empty.get_node(), nullptr);
  EXPECT_TRUE(empty.name().empty());
  EXPECT_TRUE(empty.pods().empty());
  EXPECT_TRUE(empty.allocatable() == resource_list{});
  EXPECT_EQ(empty.image_size_of(sym("nginx:latest")), 0);

  // A pod of an unknown node makes a placeholder named after that node.
  node_info placeholder;
  placeholder.add_pod(make_pod("p").node("n9").cpu("1").build());
  EXPECT_EQ(placeholder.name(), sym("n9"));
  EXPECT_EQ(placeholder.get_node(), nullptr);
  EXPECT_TRUE(placeholder.allocatable() == resource_list{});
  EXPECT_EQ(describe(placeholder.requested()), "cpu=1000m");

  // The node shows up later: pods stay, allocatable appears.
  placeholder.set_node(make_node("n9").cpu("4").pods(10).build());
  ASSERT_NE(placeholder.get_node(), nullptr);
  EXPECT_EQ(placeholder.allocatable().milli_cpu, 4000);
  EXPECT_EQ(placeholder.allocatable().pods, 10);
  EXPECT_EQ(placeholder.pods().size(), 1u);
}

TEST(node_info, allocatable_follows_the_node) {
  auto n = make_node("n1")
             .cpu("4")
             .memory("32Gi")
             .pods(110)
             .allocatable("cpu", "3500m")
             .build();
  node_info info{n};
  EXPECT_EQ(info.name(), sym("n1"));
  EXPECT_EQ(info.node_pointer(), n);
  EXPECT_EQ(describe(info.allocatable()),
            describe(make_resources(
              {{"cpu", "3500m"}, {"memory", "32Gi"}, {"pods", "110"}})));
  info.clear_node();
  EXPECT_EQ(info.get_node(), nullptr);
  EXPECT_EQ(info.name(), sym("n1"));
  EXPECT_TRUE(info.allocatable() == resource_list{});
  // A null node behaves as clear_node.
  info.set_node(n);
  info.set_node(nullptr);
  EXPECT_EQ(info.get_node(), nullptr);
}

TEST(node_info, add_updates_every_aggregate) {
  const std::string host{node_labels::hostname};
  auto web = make_pod("web")
               .cpu("500m")
               .memory("1Gi")
               .host_port(80)
               .required_anti_affinity("app", "web", host)
               .build();
  auto db = make_pod("db")
              .cpu("1")
              .request("example.com/gpu", "2")
              .preferred_affinity(10, "app", "web", host)
              .build();
  auto plain = make_pod("plain").build();
  auto info = make_node_info(make_node("n1").build(), {web, db, plain});

  EXPECT_EQ(names_of(info.pods()),
            (std::vector<std::string>{"web", "db", "plain"}));
  EXPECT_EQ(names_of(info.pods_with_affinity()),
            (std::vector<std::string>{"web", "db"}));
  EXPECT_EQ(names_of(info.pods_with_required_anti_affinity()),
            (std::vector<std::string>{"web"}));
  EXPECT_EQ(
    describe(info.requested()),
    describe(make_resources(
      {{"cpu", "1500m"}, {"memory", "1Gi"}, {"example.com/gpu", "2"}})));
  // db lacks memory (200Mi), plain lacks both (100m, 200Mi).
  EXPECT_EQ(
    describe(info.non_zero_requested()),
    describe(make_resources(
      {{"cpu", "1600m"}, {"memory", "1424Mi"}, {"example.com/gpu", "2"}})));
  const std::vector<host_port> ports = {{sym("0.0.0.0"), sym("TCP"), 80}};
  EXPECT_EQ(info.used_ports(), ports);
}

TEST(node_info, remove_subtracts_the_stored_pod) {
  auto stored = make_pod("p").uid("u1").cpu("2").host_port(8080).build();
  auto info = make_node_info(make_node("n1").build(), {stored});
  // The caller's copy has other requests; the stored version is subtracted.
  auto newer = make_pod("p").uid("u1").cpu("5").build();
  EXPECT_TRUE(info.remove_pod(*newer));
  EXPECT_TRUE(info.pods().empty());
  EXPECT_TRUE(info.requested() == resource_list{})
    << describe(info.requested());
  EXPECT_TRUE(info.non_zero_requested() == resource_list{})
    << describe(info.non_zero_requested());
  EXPECT_TRUE(info.used_ports().empty());
  EXPECT_FALSE(info.remove_pod(*newer));
}

TEST(node_info, pod_volume_count_follows_the_pods) {
  auto a = make_pod("a").uid("ua").claim("d1").claim("d2").build();
  auto b = make_pod("b").uid("ub").claim("d3").build();
  auto info = make_node_info(make_node("n1").build(), {a, b});
  EXPECT_EQ(info.pod_volume_count(), 3u);
  // An update counts the stored pod out and the new one in.
  EXPECT_TRUE(info.update_pod(make_pod("a").uid("ua").claim("d1").build()));
  EXPECT_EQ(info.pod_volume_count(), 2u);
  EXPECT_TRUE(info.remove_pod(*b));
  EXPECT_EQ(info.pod_volume_count(), 1u);
}

TEST(node_info, remove_matches_by_identity) {
  struct test_case {
    std::string name;
    pod_ptr stored;
    pod_ptr removed;
    bool found;
  };
  const std::vector<test_case> cases = {
    {"same uid", make_pod("a").uid("u1").build(),
     make_pod("renamed").uid("u1").build(), true},
    {"other uid, same key", make_pod("a").uid("u1").build(),
     make_pod("a").uid("u2").build(), false},
    {"no uid, same key", make_pod("a").uid("").build(),
     make_pod("a").uid("").build(), true},
    {"no uid, other namespace", make_pod("a").uid("").build(),
     make_pod("a").ns("other").uid("").build(), false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto info = make_node_info(make_node("n1").build(), {tc.stored});
    EXPECT_EQ(info.remove_pod(*tc.removed), tc.found);
    EXPECT_EQ(info.pods().size(), tc.found ? 0u : 1u);
  }
}

TEST(node_info, removal_moves_the_last_pod_into_the_gap) {
  auto a = make_pod("a").build();
  auto b = make_pod("b").build();
  auto c = make_pod("c").build();
  auto d = make_pod("d").build();
  auto info = make_node_info(nullptr, {a, b, c, d});
  ASSERT_TRUE(info.remove_pod(*a));
  EXPECT_EQ(names_of(info.pods()), (std::vector<std::string>{"d", "b", "c"}));
  ASSERT_TRUE(info.remove_pod(*c));
  EXPECT_EQ(names_of(info.pods()), (std::vector<std::string>{"d", "b"}));
}

TEST(node_info, update_replaces_and_appends) {
  const std::string host{node_labels::hostname};
  auto a = make_pod("a").cpu("1").build();
  auto b = make_pod("b").cpu("1").build();
  auto c = make_pod("c").cpu("1").build();
  auto info = make_node_info(make_node("n1").build(), {a, b, c});

  auto a2 = make_pod("a")
              .cpu("3")
              .host_port(53, "UDP")
              .required_anti_affinity("app", "x", host)
              .build();
  ASSERT_TRUE(info.update_pod(a2));
  EXPECT_EQ(names_of(info.pods()), (std::vector<std::string>{"c", "b", "a"}));
  EXPECT_EQ(info.pods().back(), a2);
  EXPECT_EQ(info.requested().milli_cpu, 5000);
  EXPECT_EQ(info.used_ports().size(), 1u);
  EXPECT_EQ(names_of(info.pods_with_required_anti_affinity()),
            (std::vector<std::string>{"a"}));

  // Back to the plain version: the affinity entry and the port go away.
  auto a3 = make_pod("a").cpu("1").build();
  ASSERT_TRUE(info.update_pod(a3));
  EXPECT_TRUE(info.pods_with_required_anti_affinity().empty());
  EXPECT_TRUE(info.pods_with_affinity().empty());
  EXPECT_TRUE(info.used_ports().empty());
  expect_same_aggregates(info, {a3, b, c});

  EXPECT_FALSE(info.update_pod(make_pod("missing").build()));
  EXPECT_FALSE(info.update_pod(nullptr));
}

TEST(node_info, pod_digests_follow_removals_and_updates) {
  node_info info{make_node("n1").build()};
  auto a = make_pod("a").label("app", "web").label("tier", "front").build();
  auto b = make_pod("b").build();
  auto c = make_pod("c").ns("other").label("app", "db").deleting().build();
  info.add_pod(a);
  info.add_pod(b);
  info.add_pod(c);
  expect_digests_match_pods(info);
  EXPECT_EQ(info.pod_label_count(), 3u);
  // Removing the first pod moves the last one (c) into its slot; c's labels
  // stay readable through its digest.
  ASSERT_TRUE(info.remove_pod(*a));
  EXPECT_EQ(names_of(info.pods()), (std::vector<std::string>{"c", "b"}));
  expect_digests_match_pods(info);
  EXPECT_EQ(info.pod_label_count(), 1u);
  EXPECT_EQ(*info.labels_of(info.pod_digests()[0]).find(sym("app")), sym("db"));
  EXPECT_TRUE(info.pod_digests()[0].deleting);
  EXPECT_EQ(info.pod_digests()[0].ns, sym("other"));
  // An update with new labels appends the new version.
  ASSERT_TRUE(
    info.update_pod(make_pod("c").ns("other").label("x", "y").build()));
  EXPECT_EQ(names_of(info.pods()), (std::vector<std::string>{"b", "c"}));
  expect_digests_match_pods(info);
  EXPECT_FALSE(info.pod_digests()[1].deleting);
  EXPECT_EQ(info.labels_of(info.pod_digests()[1]).find(sym("app")), nullptr);
}

TEST(node_info, port_in_use) {
  auto info = make_node_info(
    make_node("n1").build(),
    {make_pod("any").host_port(80).build(),
     make_pod("one-ip").host_port(443, "TCP", "10.0.0.1").build(),
     make_pod("udp").host_port(53, "UDP", "10.0.0.1").build()});
  struct test_case {
    std::string name;
    host_port wanted;
    bool expected;
  };
  auto hp = [](std::string_view ip, std::string_view proto, int port) {
    return host_port{sym(ip), sym(proto), port};
  };
  const std::vector<test_case> cases = {
    {"port on every IP", hp("10.9.9.9", "TCP", 80), true},
    {"same IP", hp("10.0.0.1", "TCP", 443), true},
    {"any IP against one IP", hp("0.0.0.0", "TCP", 443), true},
    {"other IP", hp("10.0.0.2", "TCP", 443), false},
    {"other protocol", hp("10.0.0.1", "TCP", 53), false},
    {"udp any IP", hp("0.0.0.0", "UDP", 53), true},
    {"free port", hp("0.0.0.0", "TCP", 8080), false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(info.port_in_use(tc.wanted), tc.expected);
  }
}

TEST(node_info, image_sizes) {
  auto n = make_node("n1")
             .image({"nginx:1.2", "docker.io/library/nginx:1.2"}, 100)
             .image({"redis"}, 50)
             .build();
  struct test_case {
    std::string name;
    std::string image;
    std::int64_t expected;
  };
  node_info info{n};
  const std::vector<test_case> cases = {
    {"first name", "nginx:1.2", 100},
    {"second name", "docker.io/library/nginx:1.2", 100},
    {"untagged node image is normalized", "redis:latest", 50},
    {"absent", "busybox:latest", 0},
    {"lookups use normalized names only", "redis", 0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(info.image_size_of(sym(tc.image)), tc.expected);
  }
  EXPECT_EQ(info.image_sizes().size(), 3u);
}

TEST(node_info, image_index_follows_the_node) {
  // Raw names straight in the node object: indexed normalized anyway.
  node raw;
  raw.name = sym("n1");
  raw.images.push_back(node_image{{sym("busybox"), sym("shared:1")}, 10});
  raw.images.push_back(node_image{{sym("shared:1")}, 20});
  node_info info{std::make_shared<const node>(raw)};
  EXPECT_EQ(info.image_size_of(sym("busybox:latest")), 10);
  // A name listed by two images takes the later one's size.
  EXPECT_EQ(info.image_size_of(sym("shared:1")), 20);

  info.set_node(make_node("n1").image({"nginx:1.2"}, 7).build());
  EXPECT_EQ(info.image_size_of(sym("busybox:latest")), 0);
  EXPECT_EQ(info.image_size_of(sym("nginx:1.2")), 7);

  info.clear_node();
  EXPECT_EQ(info.image_size_of(sym("nginx:1.2")), 0);
  EXPECT_TRUE(info.image_sizes().empty());
}

// A random pod mixing every feature the aggregates track.
pod_ptr random_pod(std::mt19937& rng, int index) {
  auto pick
    = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const std::string host{node_labels::hostname};
  auto b = make_pod("p" + std::to_string(index));
  if (pick(4) != 0)
    b.cpu(std::to_string(pick(2000)) + "m");
  if (pick(4) != 0)
    b.memory(std::to_string(pick(4096)) + "Mi");
  if (pick(3) == 0)
    b.request("example.com/gpu", std::to_string(pick(3)));
  if (pick(3) == 0)
    b.ephemeral_storage(std::to_string(1 + pick(10)) + "Gi");
  if (pick(3) == 0)
    b.host_port(1 + pick(5), pick(2) ? "TCP" : "UDP",
                pick(2) ? "0.0.0.0" : "10.0.0.1");
  if (pick(3) == 0)
    b.init_container(
      make_container("init").cpu(std::to_string(pick(3000)) + "m"));
  if (pick(3) == 0)
    b.sidecar(make_container("side")
                .memory(std::to_string(pick(512)) + "Mi")
                .host_port(9000 + pick(3))
                .request("example.com/fpga", "1"));
  if (pick(4) == 0)
    b.overhead("cpu", "10m");
  // Labels, namespace and deletion feed the pod digests.
  for (int l = pick(4); l > 0; --l)
    b.label("k" + std::to_string(pick(5)), "v" + std::to_string(pick(3)));
  // The namespace is part of the identity: it follows the index so that
  // another random version of pod `index` replaces it.
  if (index % 3 == 0)
    b.ns("ns-" + std::to_string(index % 2));
  if (pick(5) == 0)
    b.deleting();
  if (pick(5) == 0)
    b.pod_request("cpu", std::to_string(1 + pick(4)));
  if (pick(4) == 0)
    b.required_anti_affinity("app", "x", host);
  if (pick(4) == 0)
    b.preferred_affinity(1 + pick(100), "app", "y", host);
  return b.build();
}

TEST(node_info, random_add_remove_round_trips) {
  for (unsigned seed : {1u, 7u, 42u, 2026u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng{seed};
    std::vector<pod_ptr> pods;
    for (int i = 0; i < 40; ++i)
      pods.push_back(random_pod(rng, i));

    auto n = make_node("n1").cpu("64").memory("256Gi").build();
    node_info info{n};
    const node_info empty{n};
    for (const auto& p : pods)
      info.add_pod(p);
    expect_same_aggregates(info, pods);

    auto remaining = pods;
    std::shuffle(remaining.begin(), remaining.end(), rng);
    while (!remaining.empty()) {
      ASSERT_TRUE(info.remove_pod(*remaining.back()));
      remaining.pop_back();
      expect_same_aggregates(info, remaining);
    }
    EXPECT_TRUE(info.pods().empty());
    EXPECT_TRUE(info.pods_with_affinity().empty());
    EXPECT_TRUE(info.pods_with_required_anti_affinity().empty());
    EXPECT_TRUE(info.requested() == empty.requested())
      << describe(info.requested());
    EXPECT_TRUE(info.non_zero_requested() == empty.non_zero_requested())
      << describe(info.non_zero_requested());
    EXPECT_TRUE(info.used_ports().empty());
  }
}

// The non-zero request a node sums from its pods' cores (cpu and memory
// kept, the rest taken from the effective request) is the sum of the full
// pods' non_zero_requests.
TEST(node_info, non_zero_requested_from_cores_matches_full_pods) {
  for (unsigned seed : {3u, 11u, 2027u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng{seed};
    node_info info;
    resource_list want;
    for (int i = 0; i < 40; ++i) {
      pod_ptr p = random_pod(rng, i);
      info.add_pod(std::make_shared<const pod_core>(*p));
      want.add(p->non_zero_requests);
    }
    const resource_list& got = info.non_zero_requested();
    EXPECT_EQ(got.milli_cpu, want.milli_cpu);
    EXPECT_EQ(got.memory, want.memory);
    EXPECT_EQ(got.ephemeral_storage, want.ephemeral_storage);
    EXPECT_EQ(got.pods, want.pods);
    for (const auto& s : want.scalars())
      EXPECT_EQ(got.scalar(s.name), s.value) << s.name.view();
    for (const auto& s : got.scalars())
      EXPECT_EQ(want.scalar(s.name), s.value) << s.name.view();
  }
}

TEST(node_info, random_updates_round_trip) {
  std::mt19937 rng{99};
  std::vector<pod_ptr> pods;
  for (int i = 0; i < 20; ++i)
    pods.push_back(random_pod(rng, i));
  node_info info;
  for (const auto& p : pods)
    info.add_pod(p);
  // Replace every pod by another random version with the same name, then
  // put the originals back.
  std::vector<pod_ptr> replaced;
  for (int i = 0; i < 20; ++i) {
    auto other = random_pod(rng, i);
    ASSERT_TRUE(info.update_pod(other));
    replaced.push_back(other);
  }
  expect_same_aggregates(info, replaced);
  for (const auto& p : pods)
    ASSERT_TRUE(info.update_pod(p));
  expect_same_aggregates(info, pods);
}

} // namespace
} // namespace tessera::model::node_info_test
