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
