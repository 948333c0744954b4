// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/pipeline.hpp"
#include "actors/worker_polling.hpp"
#include "support/thread_name.hpp"

#include <caf/all.hpp>
#include <caf/defaults.hpp>
#include <gtest/gtest.h>
#include <sys/prctl.h>

namespace tessera::actors {
namespace {

// The timer slack of the scheduler thread that runs an actor.
long slack_seen_by_an_actor(caf::actor_system& sys) {
  // One argument: CAF 0.17 dereferences a null argument tuple when it
  // spawns a function that takes none (UBSan reports it).
  auto probe = sys.spawn(
    [](int) -> caf::behavior {
      return {[](caf::get_atom) {
        return static_cast<std::int64_t>(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
      }};
    },
    0);
  long seen = -1;
  caf::scoped_actor self{sys};
  self->request(probe, std::chrono::seconds(10), caf::get_atom::value)
    .receive([&](std::int64_t v) { seen = static_cast<long>(v); },
             [](const caf::error&) {});
  self->send_exit(probe, caf::exit_reason::user_shutdown);
  return seen;
}

// The name of the scheduler thread that runs an actor.
std::string thread_name_seen_by_an_actor(caf::actor_system& sys) {
  auto probe = sys.spawn(
    [](int) -> caf::behavior {
      return {[](caf::get_atom) { return thread_name(); }};
    },
    0);
  std::string seen;
  caf::scoped_actor self{sys};
  self->request(probe, std::chrono::seconds(10), caf::get_atom::value)
    .receive([&](const std::string& v) { seen = v; }, [](const caf::error&) {});
  self->send_exit(probe, caf::exit_reason::user_shutdown);
  return seen;
}

TEST(worker_polling, defaults_are_cafs) {
  worker_polling ours;
  EXPECT_EQ(ours.aggressive_polls,
            caf::defaults::work_stealing::aggressive_poll_attempts);
  EXPECT_EQ(ours.aggressive_steal_interval,
            caf::defaults::work_stealing::aggressive_steal_interval);
  EXPECT_EQ(ours.moderate_polls,
            caf::defaults::work_stealing::moderate_poll_attempts);
  EXPECT_EQ(ours.moderate_steal_interval,
            caf::defaults::work_stealing::moderate_steal_interval);
  EXPECT_EQ(caf::timespan{ours.moderate_sleep},
            caf::defaults::work_stealing::moderate_sleep_duration);
  EXPECT_EQ(caf::timespan{ours.relaxed_sleep},
            caf::defaults::work_stealing::relaxed_sleep_duration);
  EXPECT_EQ(ours.timer_slack.count(), 0);
}

TEST(worker_polling, eager_scheduler_steals_at_every_poll) {
  caf::actor_system_config cfg;
  configure_scheduler(cfg, 2, worker_polling::eager());
  caf::actor_system sys{cfg};
  const auto& c = sys.config();
  for (const char* key : {"work-stealing.aggressive-steal-interval",
                          "work-stealing.moderate-steal-interval",
                          "work-stealing.relaxed-steal-interval"})
    EXPECT_EQ(caf::get_or(c, key, std::size_t{0}), 1u) << key;
  EXPECT_EQ(
    caf::get_or(c, "work-stealing.moderate-poll-attempts", std::size_t{0}),
    worker_polling::eager().moderate_polls);
  EXPECT_EQ(
    caf::get_or(c, "work-stealing.moderate-sleep-duration", caf::timespan{}),
    caf::timespan{std::chrono::microseconds{10}});
  EXPECT_EQ(sys.scheduler().num_workers(), 2u);
}

TEST(worker_polling, eager_scheduler_threads_get_the_short_timer_slack) {
  long main_slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
  ASSERT_NE(main_slack, 1000) << "the test needs a thread with another slack";
  caf::actor_system_config cfg;
  configure_scheduler(cfg, 2, worker_polling::eager());
  caf::actor_system sys{cfg};
  EXPECT_EQ(slack_seen_by_an_actor(sys), 1000);
  // The hook touches only CAF's threads.
  EXPECT_EQ(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0), main_slack);
}

TEST(worker_polling, default_scheduler_threads_keep_the_inherited_slack) {
  long main_slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
  caf::actor_system_config cfg;
  configure_scheduler(cfg, 2);
  caf::actor_system sys{cfg};
  EXPECT_EQ(slack_seen_by_an_actor(sys), main_slack);
}

TEST(worker_polling, scheduler_threads_are_named_actors) {
  std::string main_name = thread_name();
  ASSERT_NE(main_name, "actors");
  for (const auto& polling : {worker_polling{}, worker_polling::eager()}) {
    caf::actor_system_config cfg;
    configure_scheduler(cfg, 2, polling);
    caf::actor_system sys{cfg};
    EXPECT_EQ(thread_name_seen_by_an_actor(sys), "actors");
  }
  EXPECT_EQ(thread_name(), main_name);
}

} // namespace
} // namespace tessera::actors
