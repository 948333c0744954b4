// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/node_view.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::model::node_view_test {
namespace {

using test::make_node;
using test::make_node_info;
using test::make_pod;

const symbol gpu{"example.com/gpu"};

// What a filter may read of a view, as one comparable value.
struct reading {
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::int64_t ephemeral_storage = 0;
  std::int64_t gpus = 0;
  std::int64_t allocatable_cpu = 0;
  std::size_t pod_count = 0;
  std::size_t pod_volume_count = 0;
  std::vector<bool> ports_in_use;
  std::vector<std::string> pods;
  std::string name;
  bool has_node = false;
  friend bool operator==(const reading&, const reading&) = default;
};

// Ports probed against the view: same and other protocol, a specific IP,
// the wildcard, an unused port.
std::vector<host_port> probes() {
  auto port
    = [](std::string_view ip, std::string_view protocol, std::int32_t n) {
        return host_port{symbol{ip}, symbol{protocol}, n};
      };
  return {port("0.0.0.0", "TCP", 80),    port("0.0.0.0", "UDP", 80),
          port("10.0.0.1", "TCP", 8080), port("10.0.0.2", "TCP", 8080),
          port("0.0.0.0", "TCP", 8080),  port("0.0.0.0", "TCP", 9090)};
}

reading read(node_view v) {
  reading out;
  out.milli_cpu = v.requested().milli_cpu;
  out.memory = v.requested().memory;
  out.ephemeral_storage = v.requested().ephemeral_storage;
  out.gpus = v.requested().scalar(gpu);
  out.allocatable_cpu = v.allocatable().milli_cpu;
  out.pod_count = v.pod_count();
  out.pod_volume_count = v.pod_volume_count();
  for (const auto& p : probes())
    out.ports_in_use.push_back(v.port_in_use(p));
  v.for_each_pod([&](const pod_core& p) { out.pods.push_back(p.name); });
  out.name = std::string{v.name().view()};
  out.has_node = v.get_node() != nullptr;
  return out;
}

TEST(node_view, reads_as_a_node_with_the_pods_added) {
  struct test_case {
    std::string name;
    bool placeholder;
    std::vector<pod_ptr> running;
    std::vector<pod_ptr> extra;
  };
  const std::vector<test_case> cases = {
    {"empty node, nothing added", false, {}, {}},
    {"running pods only",
     false,
     {make_pod("a").node("n").cpu("1").memory("1Gi").host_port(80).build()},
     {}},
    {"pods added to an empty node",
     false,
     {},
     {make_pod("x").cpu("500m").host_port(8080, "TCP", "10.0.0.1").build()}},
    {"running and added pods, ports and scalars on both sides",
     false,
     {make_pod("a").node("n").cpu("1").request("example.com/gpu", "1").build(),
      make_pod("b").node("n").host_port(80, "UDP").build()},
     {make_pod("x").cpu("2").ephemeral_storage("1Gi").host_port(9090).build(),
      make_pod("y").request("example.com/gpu", "2").host_port(8080).build()}},
    {"volumes on both sides",
     false,
     {make_pod("a").node("n").claim("d1").claim("d2").build(),
      make_pod("b").node("n").claim("d3").build()},
     {make_pod("x").claim("d4").build()}},
    {"pods added to a placeholder",
     true,
     {make_pod("a").node("n").cpu("1").build()},
     {make_pod("x").cpu("1").build()}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    node_ptr n = tc.placeholder ? nullptr : make_node("n").cpu("8").build();
    node_info base = make_node_info(n, tc.running);
    node_info copy = base;
    node_overlay overlay;
    overlay.reset(base);
    for (const auto& p : tc.extra) {
      copy.add_pod(p);
      overlay.add(*p);
    }
    EXPECT_EQ(overlay.empty(), tc.extra.empty());
    reading want = read(copy);
    EXPECT_EQ(read(overlay.view()), want);
    // The base itself is left as it was.
    EXPECT_EQ(base.pods().size(), tc.running.size());
    // A reset drops what was added.
    overlay.reset(base);
    EXPECT_EQ(read(overlay.view()), read(base));
  }
}

TEST(node_view, any_pod_stops_at_the_first_match) {
  node_info base
    = make_node_info(make_node("n").build(), {make_pod("a").node("n").build(),
                                              make_pod("b").node("n").build()});
  auto x = make_pod("x").build();
  node_overlay overlay;
  overlay.reset(base);
  overlay.add(*x);
  struct test_case {
    std::string name;
    std::string target;
    bool want;
    std::vector<std::string> visited;
  };
  const std::vector<test_case> cases = {
    {"a running pod", "b", true, {"a", "b"}},
    {"an added pod", "x", true, {"a", "b", "x"}},
    {"no pod", "z", false, {"a", "b", "x"}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    std::vector<std::string> visited;
    bool found = overlay.view().any_pod([&](const pod_core& p) {
      visited.push_back(p.name);
      return p.name == tc.target;
    });
    EXPECT_EQ(found, tc.want);
    EXPECT_EQ(visited, tc.visited);
  }
}

} // namespace
} // namespace tessera::model::node_view_test
