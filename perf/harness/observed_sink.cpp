// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/observed_sink.hpp"

namespace tessera::perf {

observed_sink::observed_sink(actors::cluster_sink& inner, pod_tracker& tracker)
  : inner_(inner), tracker_(tracker) {
}

void observed_sink::bind(const model::pod_ptr& pod, model::symbol node,
                         std::function<void(error)> done) {
  inner_.bind(pod, node,
              [this, key = pod->key(), done = std::move(done)](error e) {
                if (!e)
                  tracker_.bound(key, tracker_.time().now());
                else
                  tracker_.bind_failed(key);
                done(std::move(e));
              });
}

void observed_sink::scheduled(const model::pod_ptr& pod, model::symbol node) {
  inner_.scheduled(pod, node);
}

void observed_sink::unschedulable(const model::pod_ptr& pod,
                                  const actors::failure_report& report) {
  tracker_.failed(pod->key());
  inner_.unschedulable(pod, report);
}

void observed_sink::preempt(const model::pod_ptr& victim,
                            const model::pod_ptr& preemptor, model::symbol node,
                            std::function<void(error)> done) {
  inner_.preempt(victim, preemptor, node, std::move(done));
}

void observed_sink::clear_nomination(const model::pod_ptr& pod) {
  inner_.clear_nomination(pod);
}

void observed_sink::explained(const model::pod_ptr& pod,
                              const actors::cycle_explanation& explanation) {
  inner_.explained(pod, explanation);
}

void observed_sink::attempted(const model::pod_ptr& pod,
                              const actors::attempt_report& report) {
  using result = actors::attempt_report::result;
  attempt_result r = attempt_result::error;
  switch (report.outcome) {
  case result::scheduled:
    r = attempt_result::scheduled;
    break;
  case result::unschedulable:
    r = attempt_result::unschedulable;
    break;
  case result::conflict:
    r = attempt_result::conflict;
    break;
  case result::error:
    r = attempt_result::error;
    break;
  }
  tracker_.attempted(pod->key(), r, report.elapsed);
  if (report.batched)
    tracker_.batched();
  inner_.attempted(pod, report);
}

} // namespace tessera::perf
