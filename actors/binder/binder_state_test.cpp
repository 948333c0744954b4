// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/binder/binder_state.hpp"
#include "metrics/scheduler_metrics.hpp"
#include "plugins/default_binder/default_binder.hpp"
#include "plugins/framework/registry.hpp"
#include "test/support/builders.hpp"
#include "test/support/recording_sink.hpp"

#include <gtest/gtest.h>

namespace tessera::actors {
namespace {

using journal = std::vector<std::string>;

// Test plugins that write what they are asked into a journal and reject
// pods carrying a label named after them.
class recording_reserve final : public plugins::reserve_plugin {
public:
  recording_reserve(std::string name, journal* j)
    : name_(std::move(name)), journal_(j) {
  }
  std::string_view name() const noexcept override {
    return name_;
  }
  plugins::status reserve(plugins::cycle_state&, const model::pod& p,
                          model::symbol) const override {
    journal_->push_back("reserve " + name_ + " " + p.name);
    if (p.labels.find(model::symbol{name_}) != nullptr)
      return {plugins::code::unschedulable, model::symbol{"no room"}};
    return {};
  }
  void unreserve(plugins::cycle_state&, const model::pod& p,
                 model::symbol) const override {
    journal_->push_back("unreserve " + name_ + " " + p.name);
  }

private:
  std::string name_;
  journal* journal_;
};

class recording_permit final : public plugins::permit_plugin {
public:
  explicit recording_permit(journal* j) : journal_(j) {
  }
  std::string_view name() const noexcept override {
    return "Gate";
  }
  plugins::status permit(plugins::cycle_state&, const model::pod& p,
                         model::symbol, std::int64_t& timeout) const override {
    journal_->push_back("permit " + p.name);
    if (p.labels.find(model::symbol{"Gate"}) != nullptr)
      return {plugins::code::unschedulable, model::symbol{"denied"}};
    if (p.labels.find(model::symbol{"Wait"}) != nullptr) {
      timeout = 1000;
      return {plugins::code::wait, model::symbol{"later"}};
    }
    return {};
  }

private:
  journal* journal_;
};

// A PreBind whose work is the binder's volume writes (as VolumeBinding's).
class volume_pre_bind final : public plugins::pre_bind_plugin {
public:
  std::string_view name() const noexcept override {
    return "Volumes";
  }
  plugins::status pre_bind(plugins::cycle_state&, const model::pod&,
                           model::symbol) const override {
    return {};
  }
  std::optional<std::chrono::milliseconds>
  api_wait_timeout() const noexcept override {
    return std::chrono::seconds(7);
  }
};

class skipping_binder final : public plugins::bind_plugin {
public:
  std::string_view name() const noexcept override {
    return "Skipper";
  }
  plugins::status accepts(const plugins::cycle_state&, const model::pod&,
                          model::symbol) const override {
    return plugins::status::skip();
  }
};

plugins::profile_ptr binding_profile(journal* j, bool only_skipper = false) {
  plugins::registry reg;
  auto add = [&](const char* name, auto make) {
    EXPECT_FALSE(reg.add(name,
                         [make](const config::plugin_args&)
                           -> expected<std::shared_ptr<plugins::plugin>> {
                           return std::shared_ptr<plugins::plugin>{make()};
                         }));
  };
  add("R1", [j] { return std::make_shared<recording_reserve>("R1", j); });
  add("R2", [j] { return std::make_shared<recording_reserve>("R2", j); });
  add("Gate", [j] { return std::make_shared<recording_permit>(j); });
  add("Skipper", [] { return std::make_shared<skipping_binder>(); });
  add("Volumes", [] { return std::make_shared<volume_pre_bind>(); });
  add("DefaultBinder", [] { return plugins::make_default_binder(); });
  config::profile_config cfg;
  auto ref = [](const char* name) { return config::plugin_ref{name, 0}; };
  cfg.plugins.reserve = {ref("R1"), ref("R2")};
  cfg.plugins.permit = {ref("Gate")};
  cfg.plugins.pre_bind = {ref("Volumes")};
  if (only_skipper)
    cfg.plugins.bind = {ref("Skipper")};
  else
    cfg.plugins.bind = {ref("Skipper"), ref("DefaultBinder")};
  auto built = plugins::profile::build(cfg, reg, 0);
  if (!built)
    test::builder_failure(built.err().message);
  return *built;
}

// The binder binds through its ports, never through the sink: a "bind"
// line in the journal would fail the journal checks.
using test::recording_sink;

class recording_ports final : public binder_ports {
public:
  explicit recording_ports(journal* j) : journal_(j), sink_(j) {
  }
  void start_bind(std::uint64_t id, const model::pod_ptr& pod,
                  model::symbol node) override {
    journal_->push_back("bind#" + std::to_string(id) + " " + pod->name + " "
                        + node.str());
  }
  void start_volume_binding(std::uint64_t id, const model::pod_ptr& pod,
                            model::symbol node,
                            const model::volume_binding_plan_ptr& plan,
                            std::chrono::milliseconds timeout) override {
    journal_->push_back("volumes#" + std::to_string(id) + " " + pod->name + " "
                        + node.str() + " "
                        + std::to_string(plan->bindings.size()) + "+"
                        + std::to_string(plan->provisions.size()) + " "
                        + std::to_string(timeout.count()) + "ms");
  }
  void start_deletion(std::uint64_t id, const model::pod_ptr& victim,
                      const model::pod_ptr& preemptor,
                      model::symbol node) override {
    journal_->push_back("delete#" + std::to_string(id) + " " + victim->name
                        + " for " + preemptor->name + " on " + node.str());
  }
  void preemption_ended(const model::pod_ptr& preemptor, bool failed) override {
    journal_->push_back((failed ? "retry preemptor " : "release preemptor ")
                        + preemptor->name);
  }
  void finish_binding(const model::pod_ptr& pod) override {
    journal_->push_back("finish " + pod->name);
  }
  void forget(const model::pod_ptr& pod) override {
    journal_->push_back("forget " + pod->name);
  }
  void bound(bind_outcome_ptr out) override {
    journal_->push_back("outcome " + out->pod->name + " "
                        + (out->bound ? "bound" : "failed"));
  }
  cluster_sink& sink() override {
    return sink_;
  }

private:
  journal* journal_;
  recording_sink sink_;
};

bind_request_ptr request(const plugins::profile_ptr& prof, model::pod_ptr pod) {
  auto r = std::make_shared<bind_request>();
  r->node = model::symbol{"n1"};
  auto assumed = std::make_shared<model::pod>(*pod);
  assumed->node_name = r->node;
  r->pod = std::move(assumed);
  r->profile = prof;
  r->state
    = std::make_shared<const plugins::cycle_state>(prof->new_cycle_state());
  return r;
}

TEST(BinderState, RunsTheBindingCycle) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    /// The sink's answer to the bind (unset: the bind is never started).
    std::optional<error> answer;
    journal expected;
  };
  const std::vector<test_case> cases{
    {"bound",
     test::make_pod("p").build(),
     error{},
     {"reserve R1 p", "reserve R2 p", "permit p", "bind#1 p n1", "finish p",
      "scheduled p n1", "outcome p bound"}},
    {"the API rejects the binding",
     test::make_pod("p").build(),
     error{ec::unavailable, "etcdserver: request timed out"},
     {"reserve R1 p", "reserve R2 p", "permit p", "bind#1 p n1",
      "unreserve R2 p", "unreserve R1 p", "forget p",
      "failed p SchedulerError: binding rejected: running Bind plugin "
      "\"DefaultBinder\": etcdserver: request timed out",
      "outcome p failed"}},
    {"the pod is bound already (409): no FailedScheduling, no status",
     test::make_pod("p").build(),
     error{ec::conflict, "pod p is already assigned to node \"n2\""},
     {"reserve R1 p", "reserve R2 p", "permit p", "bind#1 p n1",
      "unreserve R2 p", "unreserve R1 p", "forget p", "outcome p failed"}},
    {"the pod was deleted meanwhile: no FailedScheduling",
     test::make_pod("p").build(),
     error{ec::not_found, "gone"},
     {"reserve R1 p", "reserve R2 p", "permit p", "bind#1 p n1",
      "unreserve R2 p", "unreserve R1 p", "forget p", "outcome p failed"}},
    {"a Reserve plugin fails: every Reserve plugin is undone, in reverse",
     test::make_pod("p").label("R2", "x").build(),
     std::nullopt,
     {"reserve R1 p", "reserve R2 p", "unreserve R2 p", "unreserve R1 p",
      "forget p",
      "failed p SchedulerError: running Reserve plugin \"R2\": no room",
      "outcome p failed"}},
    {"a Permit plugin rejects",
     test::make_pod("p").label("Gate", "x").build(),
     std::nullopt,
     {"reserve R1 p", "reserve R2 p", "permit p", "unreserve R2 p",
      "unreserve R1 p", "forget p",
      "failed p SchedulerError: running Permit plugin \"Gate\": denied",
      "outcome p failed"}},
    {"a Permit plugin asks to wait (unsupported)",
     test::make_pod("p").label("Wait", "x").build(),
     std::nullopt,
     {"reserve R1 p", "reserve R2 p", "permit p", "unreserve R2 p",
      "unreserve R1 p", "forget p",
      "failed p SchedulerError: permit plugin \"Gate\" asked to wait, which "
      "tessera does not support yet",
      "outcome p failed"}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    journal j;
    auto prof = binding_profile(&j);
    recording_ports ports{&j};
    binder_state b{binder_config{4}, ports};
    b.on_request(request(prof, tc.pod));
    if (tc.answer) {
      EXPECT_EQ(b.in_flight(), 1u);
      b.on_done(1, *tc.answer);
    }
    EXPECT_EQ(j, tc.expected);
    EXPECT_EQ(b.in_flight(), 0u);
  }
}

TEST(BinderState, FailsWhenEveryBindPluginSkips) {
  journal j;
  auto prof = binding_profile(&j, true);
  recording_ports ports{&j};
  binder_state b{binder_config{4}, ports};
  b.on_request(request(prof, test::make_pod("p").build()));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.back(), "outcome p failed");
  EXPECT_NE(std::find(j.begin(), j.end(),
                      "failed p SchedulerError: all bind plugins skipped the "
                      "pod"),
            j.end());
}

// The assume's volume plan is written (and waited for) before the bind; a
// failure there undoes Reserve and loses no pod.
TEST(BinderState, WritesVolumesBeforeBinding) {
  auto with_plan = [](bind_request_ptr r) {
    auto plan = std::make_shared<model::volume_binding_plan>();
    plan->provisions.push_back(
      std::make_shared<const model::persistent_volume_claim>());
    auto copy = std::make_shared<bind_request>(*r);
    copy->volumes = std::move(plan);
    return bind_request_ptr{std::move(copy)};
  };
  {
    journal j;
    auto prof = binding_profile(&j);
    recording_ports ports{&j};
    binder_state b{binder_config{4}, ports};
    b.on_request(with_plan(request(prof, test::make_pod("p").build())));
    EXPECT_EQ(j, (journal{"reserve R1 p", "reserve R2 p", "permit p",
                          "volumes#1 p n1 0+1 7000ms"}));
    b.on_done(1, {});
    b.on_done(1, {});
    EXPECT_EQ(j, (journal{"reserve R1 p", "reserve R2 p", "permit p",
                          "volumes#1 p n1 0+1 7000ms", "bind#1 p n1",
                          "finish p", "scheduled p n1", "outcome p bound"}));
  }
  {
    journal j;
    auto prof = binding_profile(&j);
    recording_ports ports{&j};
    binder_state b{binder_config{4}, ports};
    b.on_request(with_plan(request(prof, test::make_pod("p").build())));
    b.on_done(1, error{ec::unavailable, "timed out waiting for the claims"});
    EXPECT_EQ(j, (journal{"reserve R1 p", "reserve R2 p", "permit p",
                          "volumes#1 p n1 0+1 7000ms", "unreserve R2 p",
                          "unreserve R1 p", "forget p",
                          "failed p SchedulerError: running PreBind plugin "
                          "\"Volumes\": binding volumes: timed out "
                          "waiting for the claims",
                          "outcome p failed"}));
    EXPECT_EQ(b.in_flight(), 0u);
  }
}

// At most bind_concurrency binds in flight; the rest wait in order.
// scheduler_goroutines{operation="binding"} counts both.
TEST(BinderState, LimitsBindsInFlight) {
  journal j;
  auto prof = binding_profile(&j);
  recording_ports ports{&j};
  metrics::scheduler_metrics m;
  binder_state b{binder_config{2, &m}, ports};
  auto& bindings = m.goroutines.with({"binding"});
  for (const char* name : {"a", "b", "c", "d"})
    b.on_request(request(prof, test::make_pod(name).build()));
  auto binds = [&] {
    journal out;
    for (const auto& line : j)
      if (line.rfind("bind#", 0) == 0)
        out.push_back(line);
    return out;
  };
  EXPECT_EQ(binds(), (journal{"bind#1 a n1", "bind#2 b n1"}));
  EXPECT_EQ(b.in_flight(), 2u);
  EXPECT_EQ(b.waiting(), 2u);
  EXPECT_EQ(bindings.value(), 4);
  b.on_done(2, {});
  EXPECT_EQ(bindings.value(), 3);
  EXPECT_EQ(binds(), (journal{"bind#1 a n1", "bind#2 b n1", "bind#3 c n1"}));
  b.on_done(1, error{ec::unavailable, "timeout"});
  EXPECT_EQ(binds().back(), "bind#4 d n1");
  EXPECT_EQ(b.waiting(), 0u);
  // An unknown or repeated completion is ignored.
  auto before = j.size();
  b.on_done(1, {});
  b.on_done(99, {});
  EXPECT_EQ(j.size(), before);
  b.on_done(3, {});
  b.on_done(4, {});
  EXPECT_EQ(b.in_flight(), 0u);
  EXPECT_EQ(bindings.value(), 0);
}

// scheduler_pod_scheduled_after_flush_total counts the bound pods the
// leftover timeout once moved, not the others nor a failed binding.
TEST(BinderState, CountsBoundPodsTheLeftoverTimeoutMoved) {
  journal j;
  auto prof = binding_profile(&j);
  recording_ports ports{&j};
  metrics::scheduler_metrics m;
  binder_state b{binder_config{4, &m}, ports};
  auto flushed = [&](const char* name) {
    auto r = std::make_shared<bind_request>(
      *request(prof, test::make_pod(name).build()));
    r->flushed = true;
    return r;
  };
  b.on_request(flushed("a"));
  b.on_request(request(prof, test::make_pod("b").build()));
  b.on_request(flushed("c"));
  b.on_done(1, {});
  b.on_done(2, {});
  b.on_done(3, error{ec::unavailable, "timeout"});
  EXPECT_EQ(m.scheduled_after_flush.value(), 1u);
}

// A preemption's writes leave from the binder, beside the bindings in
// flight. When every victim is gone the preemptor just waits for its next
// cycle; when a deletion fails, its nomination is cleared and the queue
// tries it again.
TEST(BinderState, DeletesVictimsAndRetriesThePreemptorWhenOneStays) {
  journal j;
  auto prof = binding_profile(&j);
  recording_ports ports{&j};
  metrics::scheduler_metrics m;
  binder_state b{binder_config{2, &m}, ports};
  b.on_request(request(prof, test::make_pod("bound-one").build()));
  auto evict = [&](const char* preemptor) {
    eviction e;
    e.preemptor = test::make_pod(preemptor).priority(100).build();
    e.node = model::symbol{"n2"};
    e.victims = {test::make_pod("low-1").node("n2").build(),
                 test::make_pod("low-2").node("n2").build()};
    e.cleared = {test::make_pod("mid").priority(50).build()};
    b.on_eviction(e);
  };
  auto writes = [&] {
    journal out;
    for (const auto& line : j)
      if (line.starts_with("clear ") || line.starts_with("delete#")
          || line.starts_with("retry ") || line.starts_with("release "))
        out.push_back(line);
    return out;
  };
  evict("high");
  EXPECT_EQ(writes(), (journal{"clear mid", "delete#1 low-1 for high on n2",
                               "delete#1 low-2 for high on n2"}));
  EXPECT_EQ(b.evictions_in_flight(), 1u);
  EXPECT_EQ(b.in_flight(), 1u) << "the binding in flight is untouched";
  b.on_victim_deleted(1, {});
  EXPECT_EQ(writes(), (journal{"clear mid", "delete#1 low-1 for high on n2",
                               "delete#1 low-2 for high on n2"}))
    << "the preemptor is held until its last deletion ends";
  b.on_victim_deleted(1, {});
  EXPECT_EQ(b.evictions_in_flight(), 0u);
  EXPECT_EQ(writes(), (journal{"clear mid", "delete#1 low-1 for high on n2",
                               "delete#1 low-2 for high on n2",
                               "release preemptor high"}));

  j.clear();
  evict("other");
  b.on_victim_deleted(2, error{ec::unavailable, "the API server is down"});
  EXPECT_EQ(b.evictions_in_flight(), 1u) << "one deletion is still running";
  b.on_victim_deleted(2, {});
  b.on_victim_deleted(2, {}); // late or repeated: ignored
  EXPECT_EQ(b.evictions_in_flight(), 0u);
  EXPECT_EQ(writes(), (journal{"clear mid", "delete#2 low-1 for other on n2",
                               "delete#2 low-2 for other on n2", "clear other",
                               "retry preemptor other"}));
  // One observation per preemption, by how it ended.
  EXPECT_EQ(m.preemption_goroutines_execution.with({"success"}).value(), 1u);
  EXPECT_EQ(m.preemption_goroutines_execution.with({"error"}).value(), 1u);
  EXPECT_EQ(m.preemption_goroutines_duration.with({"error"}).count(), 1u);
}

} // namespace
} // namespace tessera::actors
