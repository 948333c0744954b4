// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `observed_sink`: a `cluster_sink` that forwards every call to the real
/// sink of a target and tells the `pod_tracker` what happened — each
/// scheduling attempt with its latency, each FailedScheduling report, each
/// binding's success (timestamped when the API answered) or failure. It
/// adds no blocking and no copies of the payload.
#pragma once

#include "actors/sink.hpp"
#include "perf/harness/pod_tracker.hpp"

namespace tessera::perf {

class observed_sink final : public actors::cluster_sink {
public:
  /// Both must outlive the sink.
  observed_sink(actors::cluster_sink& inner, pod_tracker& tracker);

  void bind(const model::pod_ptr& pod, model::symbol node,
            std::function<void(error)> done) override;
  void scheduled(const model::pod_ptr& pod, model::symbol node) override;
  void unschedulable(const model::pod_ptr& pod,
                     const actors::failure_report& report) override;
  void preempt(const model::pod_ptr& victim, const model::pod_ptr& preemptor,
               model::symbol node, std::function<void(error)> done) override;
  void clear_nomination(const model::pod_ptr& pod) override;
  void explained(const model::pod_ptr& pod,
                 const actors::cycle_explanation& explanation) override;
  void attempted(const model::pod_ptr& pod,
                 const actors::attempt_report& report) override;

private:
  actors::cluster_sink& inner_;
  pod_tracker& tracker_;
};

} // namespace tessera::perf
