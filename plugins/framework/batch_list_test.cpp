// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/batch_list.hpp"
#include "plugins/framework/normalize.hpp"
#include "plugins/framework/registry.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::batch_list_test {
namespace {

using test::make_pod;

model::symbol sym(std::string_view s) {
  return model::symbol{s};
}

// A Score plugin that never scores here: batch_list only reads its
// normalization and weight.
class unused_score : public score_plugin {
public:
  explicit unused_score(std::string name) : name_(std::move(name)) {
  }
  std::string_view name() const noexcept override {
    return name_;
  }
  std::int64_t score(const cycle_state&, const model::pod&,
                     const model::node_info&) const override {
    return 0;
  }

private:
  std::string name_;
};

// Normalizes to 100 * s / max, as NodeAffinity does.
class max_normalized final : public unused_score {
public:
  max_normalized() : unused_score("MaxNormalized") {
  }
  bool has_normalize() const noexcept override {
    return true;
  }
  status normalize_scores(const cycle_state&, const model::pod&,
                          std::span<node_score> scores) const override {
    default_normalize_score(scores, false);
    return {};
  }
};

profile_ptr profile_of(std::vector<std::string> names) {
  registry reg;
  EXPECT_FALSE(reg.add("Plain", [](const config::plugin_args&) {
    return expected<std::shared_ptr<plugin>>{
      std::make_shared<unused_score>("Plain")};
  }));
  EXPECT_FALSE(reg.add("MaxNormalized", [](const config::plugin_args&) {
    return expected<std::shared_ptr<plugin>>{
      std::make_shared<max_normalized>()};
  }));
  config::profile_config cfg;
  for (auto& n : names)
    cfg.plugins.score.push_back({n, n == "Plain" ? 2 : 1});
  auto prof = profile::build(cfg, reg, 0);
  EXPECT_TRUE(prof) << prof.err().message;
  return *prof;
}

// A scored table over `nodes` for plugin 0 with raw = totals = `scores`.
score_table table_of(std::vector<std::string> nodes,
                     std::vector<std::int64_t> scores) {
  score_table t;
  for (auto& n : nodes)
    t.nodes.push_back(sym(n));
  t.plugins = {0};
  t.scores = scores;
  t.totals = scores;
  return t;
}

std::vector<std::string> drain(batch_list& list) {
  std::vector<std::string> out;
  while (!list.empty())
    out.push_back(list.pop().str());
  return out;
}

TEST(batch_list, leaves_the_chosen_node_out_and_pops_best_first) {
  auto t = table_of({"a", "b", "c", "d", "e"}, {30, 50, 10, 50, 70});
  auto list = batch_list::from_cycle(t, t.scores, 4);
  EXPECT_EQ(list.size(), 4u);
  // Equal totals keep the cycle's order: b before d.
  EXPECT_EQ(drain(list), (std::vector<std::string>{"b", "d", "a", "c"}));
}

TEST(batch_list, a_node_rescored_without_normalization_takes_its_place) {
  auto prof = profile_of({"Plain"});
  auto t = table_of({"a", "b", "c"}, {80, 60, 20});
  // Totals are weighted (Plain has weight 2); the list keeps them.
  t.totals = {160, 120, 40};
  auto list = batch_list::from_cycle(t, t.scores, 0);
  cycle_state state = prof->new_cycle_state();
  auto pod = make_pod("p").build();
  std::vector<std::int64_t> raw{50};
  ASSERT_TRUE(list.add(*prof, sym("a"), raw).ok());
  ASSERT_TRUE(list.renormalize(*prof, state, *pod).ok());
  EXPECT_EQ(drain(list), (std::vector<std::string>{"b", "a", "c"}));
}

TEST(batch_list, normalization_is_computed_again_over_the_list) {
  auto prof = profile_of({"MaxNormalized"});
  // Raw 10, 20, 40: normalized over the cycle's three nodes 25, 50, 100.
  auto t = table_of({"a", "b", "c"}, {10, 20, 40});
  t.totals = {25, 50, 100};
  auto list = batch_list::from_cycle(t, t.scores, 2);
  cycle_state state = prof->new_cycle_state();
  auto pod = make_pod("p").build();
  // c comes back with raw 15: over {10, 20, 15} the maximum is 20, so the
  // totals become a 50, b 100, c 75.
  std::vector<std::int64_t> raw{15};
  ASSERT_TRUE(list.add(*prof, sym("c"), raw).ok());
  ASSERT_TRUE(list.renormalize(*prof, state, *pod).ok());
  EXPECT_EQ(drain(list), (std::vector<std::string>{"b", "c", "a"}));
}

TEST(batch_list, a_node_within_the_normalized_range_is_placed_among_them) {
  auto prof = profile_of({"MaxNormalized"});
  auto t = table_of({"a", "b", "c", "d"}, {10, 20, 40, 20});
  t.totals = {25, 50, 100, 50};
  auto list = batch_list::from_cycle(t, t.scores, 2);
  cycle_state state = prof->new_cycle_state();
  auto pod = make_pod("p").build();
  // c back at 15: normalized over {10, 20, 20, 15}: a 50, b 100, d 100,
  // c 75.
  std::vector<std::int64_t> c_raw{15};
  ASSERT_TRUE(list.add(*prof, sym("c"), c_raw).ok());
  ASSERT_TRUE(list.renormalize(*prof, state, *pod).ok());
  EXPECT_EQ(list.pop().str(), "b");
  // e at 18 leaves the lowest (10) and highest (20) as they were: 90.
  std::vector<std::int64_t> e_raw{18};
  ASSERT_TRUE(list.add(*prof, sym("e"), e_raw).ok());
  ASSERT_TRUE(list.renormalize(*prof, state, *pod).ok());
  EXPECT_EQ(drain(list), (std::vector<std::string>{"d", "e", "c", "a"}));
}

TEST(batch_list, scores_out_of_range_are_errors) {
  auto prof = profile_of({"Plain"});
  auto t = table_of({"a", "b"}, {10, 20});
  auto list = batch_list::from_cycle(t, t.scores, 0);
  std::vector<std::int64_t> raw{101};
  status s = list.add(*prof, sym("a"), raw);
  EXPECT_EQ(s.get_code(), code::error);
  EXPECT_NE(s.message().find("invalid score 101"), std::string::npos)
    << s.message();
  std::vector<std::int64_t> none;
  EXPECT_EQ(list.add(*prof, sym("a"), none).get_code(), code::error);
}

} // namespace
} // namespace tessera::plugins::batch_list_test
