// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `recording_sink` (header-only): a cluster_sink for tests of the
/// scheduling pipeline's states. It writes every call as one line of a
/// journal, which a test may share with its other recorders so that one list
/// keeps the order of everything that happened:
///
///   bind <pod> <node>                   scheduled <pod> <node>
///   failed <pod> <reason>: <message>    preempt <victim> for <pod> on <node>
///   clear <pod>
#pragma once

#include "actors/sink.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::test {

class recording_sink final : public actors::cluster_sink {
public:
  /// Records into `journal` when given, else into a journal of its own.
  explicit recording_sink(std::vector<std::string>* journal = nullptr)
    : journal_(journal != nullptr ? journal : &own_) {
  }

  /// How `bind` completes after it is recorded: never (the default, for
  /// states that bind through their own ports), or at once with this error
  /// (an empty error: bound).
  std::optional<error> bind_result;

  void bind(const model::pod_ptr& pod, model::symbol node,
            std::function<void(error)> done) override {
    journal_->push_back("bind " + pod->name + " " + node.str());
    if (bind_result)
      done(*bind_result);
  }
  void scheduled(const model::pod_ptr& pod, model::symbol node) override {
    journal_->push_back("scheduled " + pod->name + " " + node.str());
  }
  void unschedulable(const model::pod_ptr& pod,
                     const actors::failure_report& report) override {
    journal_->push_back("failed " + pod->name + " " + report.reason + ": "
                        + report.message);
  }
  void preempt(const model::pod_ptr& victim, const model::pod_ptr& preemptor,
               model::symbol node, std::function<void(error)> done) override {
    journal_->push_back("preempt " + victim->name + " for " + preemptor->name
                        + " on " + node.str());
    done({});
  }
  void clear_nomination(const model::pod_ptr& pod) override {
    journal_->push_back("clear " + pod->name);
  }

  /// Every line, in order.
  const std::vector<std::string>& journal() const noexcept {
    return *journal_;
  }
  /// The lines of one kind ("failed", "preempt", ...) without the kind.
  std::vector<std::string> of(std::string_view kind) const {
    std::vector<std::string> out;
    for (const auto& line : *journal_)
      if (line.size() > kind.size() && line.starts_with(kind)
          && line[kind.size()] == ' ')
        out.push_back(line.substr(kind.size() + 1));
    return out;
  }

private:
  std::vector<std::string> own_;
  std::vector<std::string>* journal_;
};

} // namespace tessera::test
