// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/batcher.hpp"
#include "test/support/builders.hpp"
#include "test/support/default_profile.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::actors {
namespace {

using namespace std::chrono_literals;
using reason = batcher::flush_reason;
using plan = batcher::plan;
using test::make_pod;

model::symbol sym(std::string_view s) {
  return model::symbol{s};
}

// The batcher with the default profile, recording the flushes.
struct fixture {
  plugins::profile_ptr prof = test::default_profile();
  std::vector<reason> flushed;
  batcher b{true, 500ms,
            [this](std::size_t, reason r) { flushed.push_back(r); }};
  batcher::time_point t0{};
  // NodeResourcesFit alone scores (it does not normalize).
  std::vector<std::size_t> fit_only{fit_index()};

  std::size_t fit_index() const {
    for (std::size_t i = 0; i < prof->score().size(); ++i)
      if (prof->score()[i].plugin->name() == "NodeResourcesFit")
        return i;
    ADD_FAILURE() << "no NodeResourcesFit";
    return 0;
  }

  batcher::candidate replica(std::uint64_t cycle, std::string cpu = "500m",
                             batcher::time_point now = {}) const {
    batcher::candidate c;
    c.cycle = cycle;
    c.prof = prof.get();
    c.pod = make_pod("web-" + std::to_string(cycle)).cpu(cpu).build();
    c.signable = true;
    c.score_plugins = fit_only;
    c.now = now;
    return c;
  }

  // What a full cycle over `nodes` (scores as given) leaves when it chose
  // `chosen`.
  plugins::batch_list left(std::vector<std::string> nodes,
                           std::vector<std::int64_t> scores,
                           std::size_t chosen) const {
    plugins::score_table t;
    for (auto& n : nodes)
      t.nodes.push_back(sym(n));
    t.plugins = fit_only;
    t.scores = scores;
    t.totals = scores;
    return plugins::batch_list::from_cycle(t, scores, chosen);
  }

  batcher::attempt end(bool assumed, std::string chosen, std::string hinted,
                       std::optional<plugins::batch_list> fresh,
                       std::vector<std::int64_t> again = {},
                       batcher::time_point now = {}) {
    batcher::ending e;
    e.assumed = assumed;
    e.chosen = sym(chosen);
    e.hinted = hinted.empty() ? model::symbol{} : sym(hinted);
    e.fresh = std::move(fresh);
    e.fits_again = !again.empty();
    e.scores = again;
    auto state = prof->new_cycle_state();
    auto pod = make_pod("p").build();
    e.state = &state;
    e.pod = pod.get();
    e.now = now;
    return b.on_end(std::move(e));
  }

  // A head that scored a, b, c, chose a, and left b (60) and c (40).
  void leave_batch() {
    ASSERT_EQ(b.on_filter(replica(1)), plan::full);
    ASSERT_EQ(b.head(), 1u);
    EXPECT_EQ(end(true, "a", "", left({"a", "b", "c"}, {90, 60, 40}, 0)),
              batcher::attempt::no_hint);
    ASSERT_EQ(b.head(), 0u);
  }
};

TEST(batcher, replicas_park_behind_the_head_then_take_hints_in_order) {
  fixture f;
  ASSERT_EQ(f.b.on_filter(f.replica(1)), plan::full);
  EXPECT_EQ(f.b.on_filter(f.replica(2)), plan::park);
  EXPECT_EQ(f.b.on_filter(f.replica(3)), plan::park);
  f.end(true, "a", "", f.left({"a", "b", "c"}, {90, 60, 40}, 0));
  auto parked = f.b.take_parked();
  ASSERT_EQ(parked, (std::deque<std::uint64_t>{2, 3}));
  EXPECT_EQ(f.b.on_filter(f.replica(2)), plan::use);
  EXPECT_EQ(f.b.on_filter(f.replica(3)), plan::park);
  auto hint = f.b.take_hint();
  ASSERT_TRUE(hint);
  EXPECT_EQ(hint->str(), "b");
  EXPECT_EQ(f.end(true, "b", "b", std::nullopt), batcher::attempt::hint_used);
  EXPECT_EQ(f.b.batched(), 1u);
  EXPECT_EQ(f.b.take_parked(), (std::deque<std::uint64_t>{3}));
  EXPECT_EQ(f.b.on_filter(f.replica(3)), plan::use);
  EXPECT_EQ(f.b.take_hint()->str(), "c");
  EXPECT_TRUE(f.flushed.empty());
}

// A failed head leaves nothing to wait for: for the batch's age its parked
// replicas and new ones run full cycles side by side, none becomes a head
// for the others to park behind. After that, replicas park again.
TEST(batcher, replicas_of_a_failed_head_run_unparked_for_a_while) {
  fixture f;
  const batcher::time_point t0{};
  ASSERT_EQ(f.b.on_filter(f.replica(1, "500m", t0)), plan::full);
  EXPECT_EQ(f.b.on_filter(f.replica(2, "500m", t0)), plan::park);
  EXPECT_EQ(f.b.on_filter(f.replica(3, "500m", t0)), plan::park);
  f.end(false, "", "", std::nullopt, {}, t0 + 10ms);
  EXPECT_EQ(f.b.take_parked(), (std::deque<std::uint64_t>{2, 3}));
  EXPECT_EQ(f.b.on_filter(f.replica(2, "500m", t0 + 20ms)), plan::full);
  EXPECT_EQ(f.b.on_filter(f.replica(3, "500m", t0 + 20ms)), plan::full);
  EXPECT_EQ(f.b.on_filter(f.replica(4, "500m", t0 + 300ms)), plan::full);
  EXPECT_EQ(f.b.head(), 0u) << "no head: nothing to park behind";
  // Another signature is not held back.
  EXPECT_EQ(f.b.on_filter(f.replica(5, "2", t0 + 300ms)), plan::full);
  EXPECT_EQ(f.b.head(), 5u);
  f.end(true, "a", "", std::nullopt, {}, t0 + 320ms);
  // Past the age, a replica becomes a head again and the next parks.
  EXPECT_EQ(f.b.on_filter(f.replica(6, "500m", t0 + 600ms)), plan::full);
  EXPECT_EQ(f.b.head(), 6u);
  EXPECT_EQ(f.b.on_filter(f.replica(7, "500m", t0 + 600ms)), plan::park);
}

TEST(batcher, the_chosen_node_rejoins_the_list_when_a_replica_still_fits) {
  fixture f;
  f.leave_batch();
  ASSERT_EQ(f.b.on_filter(f.replica(2)), plan::use);
  ASSERT_EQ(f.b.take_hint()->str(), "b");
  // b still fits another replica and scores 50 now: above c (40).
  f.end(true, "b", "b", std::nullopt, {50});
  EXPECT_TRUE(f.b.rescored());
  ASSERT_EQ(f.b.on_filter(f.replica(3)), plan::use);
  EXPECT_EQ(f.b.take_hint()->str(), "b");
  f.end(true, "b", "b", std::nullopt, {30});
  ASSERT_EQ(f.b.on_filter(f.replica(4)), plan::use);
  EXPECT_EQ(f.b.take_hint()->str(), "c");
}

TEST(batcher, a_hint_not_used_replaces_the_batch_with_the_full_cycle) {
  fixture f;
  f.leave_batch();
  ASSERT_EQ(f.b.on_filter(f.replica(2)), plan::use);
  ASSERT_EQ(f.b.take_hint()->str(), "b");
  EXPECT_EQ(f.end(true, "x", "b", f.left({"x", "y"}, {70, 20}, 0)),
            batcher::attempt::hint_not_used);
  ASSERT_EQ(f.b.on_filter(f.replica(3)), plan::use);
  EXPECT_EQ(f.b.take_hint()->str(), "y");
}

TEST(batcher, batches_end_for_upstreams_reasons) {
  {
    SCOPED_TRACE("another signature");
    fixture f;
    f.leave_batch();
    EXPECT_EQ(f.b.on_filter(f.replica(2, "700m")), plan::full);
    EXPECT_EQ(f.flushed, (std::vector<reason>{reason::pod_incompatible}));
  }
  {
    SCOPED_TRACE("a pod without a signature, and a nominated one");
    fixture f;
    f.leave_batch();
    auto c = f.replica(2);
    c.signable = false;
    c.nominated = true;
    EXPECT_EQ(f.b.on_filter(c), plan::full);
    EXPECT_EQ(f.flushed, (std::vector<reason>{reason::pod_nominated}));
    EXPECT_EQ(f.b.head(), 0u) << "an unsignable pod is never the head";
  }
  {
    SCOPED_TRACE("another score plan");
    fixture f;
    f.leave_batch();
    auto c = f.replica(2);
    c.score_plugins.push_back(0);
    EXPECT_EQ(f.b.on_filter(c), plan::full);
    EXPECT_EQ(f.flushed, (std::vector<reason>{reason::pod_incompatible}));
  }
  {
    SCOPED_TRACE("expired");
    fixture f;
    f.leave_batch();
    EXPECT_EQ(f.b.on_filter(f.replica(2, "500m", f.t0 + 501ms)), plan::full);
    EXPECT_EQ(f.flushed, (std::vector<reason>{reason::expired}));
    EXPECT_EQ(f.b.head(), 2u) << "the pod leaves the next batch";
  }
  {
    SCOPED_TRACE("the head failed");
    fixture f;
    f.leave_batch();
    ASSERT_EQ(f.b.on_filter(f.replica(2)), plan::use);
    f.b.take_hint();
    f.end(false, "b", "b", std::nullopt);
    EXPECT_EQ(f.flushed, (std::vector<reason>{reason::pod_failed}));
    EXPECT_EQ(f.b.on_filter(f.replica(3)), plan::full);
  }
  {
    SCOPED_TRACE("the list ran out");
    fixture f;
    ASSERT_EQ(f.b.on_filter(f.replica(1)), plan::full);
    f.end(true, "a", "", f.left({"a", "b"}, {90, 60}, 0));
    ASSERT_EQ(f.b.on_filter(f.replica(2)), plan::use);
    f.b.take_hint();
    f.end(true, "b", "b", std::nullopt);
    ASSERT_EQ(f.b.on_filter(f.replica(3)), plan::use);
    EXPECT_FALSE(f.b.take_hint());
    EXPECT_EQ(f.flushed, (std::vector<reason>{reason::empty_list}));
  }
  {
    SCOPED_TRACE("one feasible node leaves nothing");
    fixture f;
    ASSERT_EQ(f.b.on_filter(f.replica(1)), plan::full);
    f.end(true, "a", "", plugins::batch_list{});
    EXPECT_EQ(f.flushed, (std::vector<reason>{reason::empty_list}));
  }
}

TEST(batcher, another_pod_during_the_head_ends_the_batch_when_the_head_does) {
  fixture f;
  f.leave_batch();
  ASSERT_EQ(f.b.on_filter(f.replica(2)), plan::use);
  f.b.take_hint();
  // Not consecutive: a different pod reached Filter meanwhile.
  EXPECT_EQ(f.b.on_filter(f.replica(3, "900m")), plan::full);
  EXPECT_TRUE(f.flushed.empty());
  f.end(true, "b", "b", std::nullopt);
  EXPECT_EQ(f.flushed, (std::vector<reason>{reason::pod_incompatible}));
  EXPECT_EQ(f.b.on_filter(f.replica(4)), plan::full);
}

TEST(batcher, off_it_never_batches) {
  std::vector<reason> flushed;
  batcher b{false, 500ms, [&](std::size_t, reason r) { flushed.push_back(r); }};
  fixture f;
  EXPECT_EQ(b.on_filter(f.replica(1)), plan::full);
  EXPECT_EQ(b.on_filter(f.replica(2)), plan::full);
  EXPECT_EQ(b.head(), 0u);
}

} // namespace
} // namespace tessera::actors
