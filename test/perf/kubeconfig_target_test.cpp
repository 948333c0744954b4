// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The kubeconfig target against an embedded API server (what `tessera
// cluster` serves) reached through a kubeconfig file: kwok-fake nodes,
// its own namespaces only, and clean-up after the run.
#include "io/apiserver/store.hpp"
#include "test/perf/perf_fixture.hpp"
#include "test/support/wait.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace tessera::perf {
namespace {

using apiserver::storage_kind;

class kubeconfig_target : public ::testing::Test {
protected:
  testing::temp_dir dir_;
  testing::kubeconfig_cluster cluster_{dir_};
};

TEST_F(kubeconfig_target, runs_on_kwok_fake_nodes_and_cleans_up) {
  ASSERT_TRUE(cluster_.up());
  auto p = testing::only_plan(testing::write_small_workload(
    dir_, testing::small_workload_text(3, 3, 20)));
  progress quiet{progress_mode::off};
  auto out = run_plan(p, cluster_.options(), quiet);
  EXPECT_EQ(out.failure, "");
  ASSERT_EQ(out.results.size(), 1u);
  EXPECT_EQ(out.results[0].target, "kubeconfig");
  EXPECT_EQ(out.results[0].bound_pods, 20u);
  // Everything the run created is gone: its nodes, and its namespaces
  // once the namespace controller has emptied them (a deleted namespace is
  // Terminating first, as on a real cluster).
  EXPECT_TRUE(cluster_.names(storage_kind::node).empty());
  EXPECT_TRUE(test::eventually([&] {
    for (const auto& ns : cluster_.names(storage_kind::namespace_))
      if (ns.rfind("namespace-", 0) == 0)
        return false;
    return true;
  }));
}

TEST_F(kubeconfig_target, refuses_a_namespace_it_did_not_create) {
  ASSERT_TRUE(cluster_.up());
  auto made = cluster_.store().create(
    apiserver::primary_resource(storage_kind::namespace_), "",
    R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"namespace-1"}})");
  ASSERT_TRUE(made);
  auto p = testing::only_plan(
    testing::write_small_workload(dir_, testing::small_workload_text(2, 2, 2)));
  progress quiet{progress_mode::off};
  auto out = run_plan(p, cluster_.options(), quiet);
  EXPECT_NE(out.failure.find("namespace \"namespace-1\" already exists and "
                             "was not created by this run"),
            std::string::npos)
    << out.failure;
  // The existing namespace is untouched; the run's nodes are cleaned up.
  auto ns = cluster_.names(storage_kind::namespace_);
  EXPECT_NE(std::find(ns.begin(), ns.end(), "namespace-1"), ns.end());
  EXPECT_TRUE(cluster_.names(storage_kind::node).empty());
}

} // namespace
} // namespace tessera::perf
