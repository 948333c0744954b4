// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The kubeconfig target against an embedded API server (what `tessera
// cluster` serves) reached through a kubeconfig file: kwok-fake nodes,
// its own namespaces only, and clean-up after the run.
#include "io/apiserver/kwok.hpp"
#include "io/apiserver/resources.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "test/perf/perf_fixture.hpp"

#include <gtest/gtest.h>

namespace tessera::perf {
namespace {

using apiserver::storage_kind;

/// An embedded cluster on a loopback port and a kubeconfig naming it.
class kubeconfig_cluster : public ::testing::Test {
protected:
  void SetUp() override {
    store_ = std::make_unique<apiserver::store>(apiserver::store_config{});
    kwok_ = std::make_unique<apiserver::kwok_controller>(
      *store_, apiserver::kwok_config{});
    apiserver::server_config cfg;
    cfg.port = 0;
    cfg.threads = 2;
    auto s = apiserver::api_server::start(*store_, cfg);
    ASSERT_TRUE(s) << s.err().message;
    server_ = std::move(*s);
    kubeconfig_ = dir_.write(
      "kubeconfig",
      "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
      "    server: "
        + server_->url()
        + "\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\n"
          "current-context: x\nusers:\n- name: u\n  user: {}\n");
  }
  void TearDown() override {
    if (server_)
      server_->stop();
  }

  std::vector<std::string> names(storage_kind k) {
    std::vector<std::string> out;
    auto l = store_->list(apiserver::primary_resource(k), "",
                          apiserver::list_options{});
    EXPECT_TRUE(l);
    if (l)
      for (const auto& o : l->items)
        out.push_back(std::string{o->name()});
    return out;
  }

  run_options options() {
    auto o = testing::test_options(target_kind::kubeconfig);
    o.target.kubeconfig = kubeconfig_;
    return o;
  }

  testing::temp_dir dir_;
  std::unique_ptr<apiserver::store> store_;
  std::unique_ptr<apiserver::kwok_controller> kwok_;
  std::unique_ptr<apiserver::api_server> server_;
  std::string kubeconfig_;
};

TEST_F(kubeconfig_cluster, runs_on_kwok_fake_nodes_and_cleans_up) {
  auto p = testing::only_plan(testing::write_small_workload(
    dir_, testing::small_workload_text(3, 3, 20)));
  progress quiet{progress_mode::off};
  auto out = run_plan(p, options(), quiet);
  EXPECT_EQ(out.failure, "");
  ASSERT_EQ(out.results.size(), 1u);
  EXPECT_EQ(out.results[0].target, "kubeconfig");
  EXPECT_EQ(out.results[0].bound_pods, 20u);
  // Everything the run created is gone: its nodes and namespaces.
  EXPECT_TRUE(names(storage_kind::node).empty());
  for (const auto& ns : names(storage_kind::namespace_))
    EXPECT_NE(ns.rfind("namespace-", 0), 0u) << ns;
}

TEST_F(kubeconfig_cluster, refuses_a_namespace_it_did_not_create) {
  auto made = store_->create(
    apiserver::primary_resource(storage_kind::namespace_), "",
    R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"namespace-1"}})");
  ASSERT_TRUE(made);
  auto p = testing::only_plan(
    testing::write_small_workload(dir_, testing::small_workload_text(2, 2, 2)));
  progress quiet{progress_mode::off};
  auto out = run_plan(p, options(), quiet);
  EXPECT_NE(out.failure.find("namespace \"namespace-1\" already exists and "
                             "was not created by this run"),
            std::string::npos)
    << out.failure;
  // The existing namespace is untouched; the run's nodes are cleaned up.
  auto ns = names(storage_kind::namespace_);
  EXPECT_NE(std::find(ns.begin(), ns.end(), "namespace-1"), ns.end());
  EXPECT_TRUE(names(storage_kind::node).empty());
}

} // namespace
} // namespace tessera::perf
