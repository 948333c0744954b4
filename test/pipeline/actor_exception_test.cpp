// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// An exception that escapes a pipeline actor's handler ends the process
// with exit_internal_error and one log line naming the actor, instead of
// CAF's default (the actor alone ends, the pipeline stalls, the process
// lives on). Each case runs in a child process (a death test); the child
// builds its own actor system under CAF's deterministic test coordinator.

#include "actors/exit_on_exception.hpp"
#include "actors/memory_cluster.hpp"
#include "actors/pipeline.hpp"
#include "config/scheduler_config.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/registry.hpp"
#include "support/clock.hpp"
#include "support/internal_error.hpp"
#include "test/support/builders.hpp"

#include <caf/all.hpp>
#include <caf/scheduler/test_coordinator.hpp>
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::actor_exception_test {
namespace {

caf::actor_system_config& testing_config(caf::actor_system_config& cfg) {
  cfg.set("scheduler.policy", caf::atom("testing"));
  cfg.set("logger.verbosity", caf::atom("quiet"));
  return cfg;
}

// ------------------------------------------------ a test-only actor

struct thrower_state {
  static inline const char* name = "thrower";
};

// It takes the text it throws as an argument: spawning a function actor
// without arguments makes CAF 0.17 bind a reference to a null argument
// tuple, which UBSan stops at in the sanitizer build.
caf::behavior thrower(caf::stateful_actor<thrower_state>* self,
                      std::string what) {
  actors::exit_on_exception(self);
  return {
    [what](int) -> void { throw std::runtime_error(what); },
  };
}

// Sends the actor a message its handler throws on; returns only when the
// process is still alive afterwards.
void throw_in_a_test_actor() {
  caf::actor_system_config cfg;
  caf::actor_system sys{testing_config(cfg)};
  auto& sched
    = dynamic_cast<caf::scheduler::test_coordinator&>(sys.scheduler());
  auto a = sys.spawn(thrower, std::string{"handler exploded"});
  caf::anon_send(a, 1);
  sched.run();
}

// Runs `body` in a child process, which must end with the internal-error
// exit code and its log line naming `actor` and `error`.
void expect_internal_error_exit(void (*body)(), const std::string& actor,
                                const std::string& error) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(body(), ::testing::ExitedWithCode(exit_internal_error),
              "\"internal error; exiting\" actor=\"" + actor + "\" error=\""
                + error + "\" exitCode=70");
}

TEST(actor_exception, a_handler_that_throws_ends_the_process) {
  expect_internal_error_exit(throw_in_a_test_actor, "thrower",
                             "handler exploded");
}

// ------------------------------------- the real pipeline, a bad plugin

/// A Filter plugin with a bug: it throws on every node.
class throwing_filter final : public plugins::filter_plugin {
public:
  std::string_view name() const noexcept override {
    return "ThrowingFilter";
  }
  plugins::status filter(const plugins::cycle_state&, const model::pod&,
                         model::node_view) const override {
    throw std::logic_error("filter exploded");
  }
};

/// The default profile with ThrowingFilter added to its Filter plugins.
plugins::profile_ptr throwing_profile() {
  auto cfg = config::default_config();
  auto prof = cfg.profiles.front();
  prof.plugins.at(config::extension_point::filter)
    .push_back({"ThrowingFilter", 0});
  auto reg = plugins::make_in_tree_registry();
  if (auto err
      = reg.add("ThrowingFilter",
                plugins::no_args_factory(
                  "ThrowingFilter", []() -> std::shared_ptr<plugins::plugin> {
                    return std::make_shared<throwing_filter>();
                  })))
    test::builder_failure("registry: " + err.message);
  auto built
    = plugins::profile::build(prof, reg, cfg.percentage_of_nodes_to_score);
  if (!built)
    test::builder_failure("throwing profile: " + built.err().message);
  return *built;
}

// Schedules one pod through the whole pipeline with ThrowingFilter in the
// profile: the shard that filters throws. Returns only when the process is
// still alive afterwards.
void schedule_with_a_throwing_filter() {
  std::vector<model::object> objects;
  objects.emplace_back(
    test::make_node("n1").cpu("4").memory("8Gi").pods(110).build());
  objects.emplace_back(test::make_pod("p").cpu("1").build());
  actors::memory_cluster cluster{objects};
  manual_clock clk;
  caf::actor_system_config cfg;
  caf::actor_system sys{testing_config(cfg)};
  auto& sched
    = dynamic_cast<caf::scheduler::test_coordinator&>(sys.scheduler());
  actors::pipeline_config pc;
  pc.requeue = actors::requeue_policy::live;
  auto p = actors::start_pipeline(sys, pc, {throwing_profile()}, cluster,
                                  cluster, clk);
  sched.run();
  actors::stop_pipeline(p, cluster);
  sched.run();
}

TEST(actor_exception, a_plugin_that_throws_in_a_shard_ends_the_process) {
  expect_internal_error_exit(schedule_with_a_throwing_filter, "shard",
                             "filter exploded");
}

} // namespace
} // namespace tessera::actor_exception_test
