// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/nominator.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

namespace tessera::actors {
namespace {

model::pod_ptr pod(const std::string& name, const char* nominated = "") {
  auto p = test::make_pod(name).uid("uid-" + name).build();
  if (*nominated == '\0')
    return p;
  auto copy = std::make_shared<model::pod>(*p);
  copy->nominated_node_name = model::symbol{nominated};
  return copy;
}

queue_input added(model::pod_ptr p) {
  return {queue_input::kind::pod_added, nullptr, std::move(p), {}, {}, {}};
}
queue_input updated(model::pod_ptr old, model::pod_ptr now) {
  return {
    queue_input::kind::pod_updated, std::move(old), std::move(now), {}, {}, {}};
}
queue_input deleted(model::pod_ptr p) {
  return {queue_input::kind::pod_deleted, std::move(p), nullptr, {}, {}, {}};
}

// node -> sorted pod names.
std::map<std::string, std::vector<std::string>> view(nominator& n) {
  std::map<std::string, std::vector<std::string>> out;
  n.current()->for_each(
    [&](model::symbol node, const std::vector<model::pod_ptr>& pods) {
      for (const auto& p : pods)
        out[node.str()].push_back(p->name);
    });
  for (auto& [node, names] : out)
    std::sort(names.begin(), names.end());
  return out;
}

using nominated = std::map<std::string, std::vector<std::string>>;

TEST(nominator, follows_the_api_and_the_coordinator) {
  struct step {
    std::string name;
    std::function<void(nominator&)> apply;
    nominated expected;
  };
  auto a = pod("a"), a_on_n1 = pod("a", "n1"), b = pod("b"),
       b_on_n2 = pod("b", "n2");
  std::vector<step> steps{
    {"a pod added without a nomination",
     [&](nominator& n) { n.apply(added(a)); },
     {}},
    {"the coordinator nominates it",
     [&](nominator& n) { n.nominate(a, model::symbol{"n1"}); },
     {{"n1", {"a"}}}},
    {"an older echo naming no node keeps it",
     [&](nominator& n) { n.apply(updated(a, a)); },
     {{"n1", {"a"}}}},
    {"the API echo of the nomination",
     [&](nominator& n) { n.apply(updated(a, a_on_n1)); },
     {{"n1", {"a"}}}},
    {"a pod arrives nominated by an earlier scheduler",
     [&](nominator& n) { n.apply(added(b_on_n2)); },
     {{"n1", {"a"}}, {"n2", {"b"}}}},
    {"the API clears b's nomination",
     [&](nominator& n) { n.apply(updated(b_on_n2, b)); },
     {{"n1", {"a"}}}},
    {"b is nominated to n1 too",
     [&](nominator& n) { n.nominate(b, model::symbol{"n1"}); },
     {{"n1", {"a", "b"}}}},
    {"a is assumed", [&](nominator& n) { n.drop(*a_on_n1); }, {{"n1", {"b"}}}},
    {"b is deleted", [&](nominator& n) { n.apply(deleted(b)); }, {}},
  };
  nominator n;
  for (const auto& s : steps) {
    SCOPED_TRACE(s.name);
    s.apply(n);
    EXPECT_EQ(view(n), s.expected);
  }
}

TEST(nominator, keeps_one_snapshot_until_something_changes) {
  nominator n;
  auto first = n.current();
  ASSERT_NE(first, nullptr);
  EXPECT_TRUE(first->empty());
  n.drop(*pod("nobody"));
  EXPECT_EQ(n.current(), first);
  auto p = pod("p");
  n.nominate(p, model::symbol{"n1"});
  auto second = n.current();
  EXPECT_NE(second, first);
  n.nominate(p, model::symbol{"n1"}); // the same nomination again
  EXPECT_EQ(n.current(), second);
  EXPECT_TRUE(first->on(model::symbol{"n1"}).empty())
    << "a published snapshot never changes";
}

TEST(nominator, a_moved_nomination_leaves_the_old_node) {
  nominator n;
  auto p = pod("p");
  n.nominate(p, model::symbol{"n1"});
  n.nominate(p, model::symbol{"n2"});
  EXPECT_EQ(view(n), (nominated{{"n2", {"p"}}}));
  EXPECT_EQ(n.size(), 1u);
}

} // namespace
} // namespace tessera::actors

namespace tessera::actors {
namespace {

// A nomination patch that lands after the pod was placed must not bring the
// nomination back: it would hold room for a pod running elsewhere, and a
// waiting pod that needs that room would never be retried.
TEST(nominator, a_late_nomination_of_a_placed_pod_holds_no_room) {
  nominator n;
  auto p = pod("p");
  auto p_on_n1 = pod("p", "n1");
  auto p_on_n3 = pod("p", "n3");
  n.nominate(p, model::symbol{"n3"});
  n.placed(*p);
  EXPECT_TRUE(view(n).empty());
  // The patch of the earlier nomination, then another one, arrive late.
  n.apply(updated(p, p_on_n1));
  n.apply(updated(p_on_n1, p_on_n3));
  EXPECT_TRUE(view(n).empty());
  // Bound: the binding event carries the stale nomination; still none.
  auto bound = std::make_shared<model::pod>(*p_on_n1);
  bound->node_name = model::symbol{"n3"};
  n.apply(updated(p_on_n3, bound));
  EXPECT_TRUE(view(n).empty());
  // A bound pod seen for the first time is not nominated either.
  nominator fresh;
  fresh.apply(added(bound));
  EXPECT_TRUE(view(fresh).empty());
  // Nominated here again (its binding failed, it preempted): followed again.
  n.nominate(p, model::symbol{"n2"});
  EXPECT_EQ(view(n), (nominated{{"n2", {"p"}}}));
  auto q = pod("q");
  n.placed(*q);
  n.apply(deleted(q));
  n.apply(added(pod("q", "n4")));
  EXPECT_EQ(view(n), (nominated{{"n2", {"p"}}, {"n4", {"q"}}}))
    << "a pod recreated under a placed pod's name is followed";
}

} // namespace
} // namespace tessera::actors
