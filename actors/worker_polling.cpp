// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/worker_polling.hpp"

#include "support/thread_name.hpp"

#include <caf/actor_system_config.hpp>
#include <caf/thread_hook.hpp>
#include <caf/timespan.hpp>
#include <sys/prctl.h>

namespace tessera::actors {

namespace {

// Names CAF's threads "actors" (its workers, timer and helpers alike) and,
// when asked, sets their timer slack: Linux rounds a thread's sleeps up by
// its timer slack (50 µs by default), which would make a 10 µs sleep a 60 µs
// one.
class actor_thread_hook : public caf::thread_hook {
public:
  explicit actor_thread_hook(std::chrono::nanoseconds slack) : slack_(slack) {
  }
  void init(caf::actor_system&) override {
  }
  void thread_started() override {
    set_thread_name("actors");
    // A hint: on failure the thread keeps the system's slack.
    if (slack_.count() > 0)
      prctl(PR_SET_TIMERSLACK, static_cast<unsigned long>(slack_.count()), 0, 0,
            0);
  }
  void thread_terminates() override {
  }

private:
  std::chrono::nanoseconds slack_;
};

} // namespace

worker_polling worker_polling::eager() noexcept {
  worker_polling p;
  p.aggressive_steal_interval = 1;
  p.moderate_polls = 100;
  p.moderate_steal_interval = 1;
  p.moderate_sleep = std::chrono::microseconds{10};
  p.timer_slack = std::chrono::nanoseconds{1000};
  return p;
}

void apply_worker_polling(caf::actor_system_config& cfg,
                          const worker_polling& p) {
  cfg.set("work-stealing.aggressive-poll-attempts", p.aggressive_polls);
  cfg.set("work-stealing.aggressive-steal-interval",
          p.aggressive_steal_interval);
  cfg.set("work-stealing.moderate-poll-attempts", p.moderate_polls);
  cfg.set("work-stealing.moderate-steal-interval", p.moderate_steal_interval);
  cfg.set("work-stealing.moderate-sleep-duration",
          caf::timespan{p.moderate_sleep});
  cfg.set("work-stealing.relaxed-steal-interval", std::size_t{1});
  cfg.set("work-stealing.relaxed-sleep-duration",
          caf::timespan{p.relaxed_sleep});
  cfg.add_thread_hook<actor_thread_hook>(p.timer_slack);
}

} // namespace tessera::actors
