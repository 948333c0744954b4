// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/batch_list.hpp"

#include "plugins/framework/normalize.hpp"

#include <algorithm>
#include <string>

namespace tessera::plugins {

namespace {

status out_of_range(const plugin& p, std::int64_t score) {
  return status::make_error("plugin \"" + std::string{p.name()}
                            + "\" returns an invalid score "
                            + std::to_string(score)
                            + ", it should in the range of [0, 100] after "
                              "normalizing");
}

bool in_range(std::int64_t score) noexcept {
  return score >= score_range::min && score <= score_range::max;
}

} // namespace

batch_list batch_list::from_cycle(const score_table& table,
                                  std::span<const std::int64_t> raw,
                                  std::size_t chosen) {
  batch_list out;
  out.plugins_ = table.plugins;
  const std::size_t n = table.nodes.size();
  const std::size_t w = out.width();
  out.nodes_.reserve(n);
  out.raw_.reserve(n * w);
  out.totals_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i == chosen)
      continue;
    out.nodes_.push_back(table.nodes[i]);
    for (std::size_t k = 0; k < w; ++k)
      out.raw_.push_back(raw[k * n + i]);
    out.totals_.push_back(table.totals[i]);
  }
  out.heap_.resize(out.nodes_.size());
  for (std::size_t id = 0; id < out.heap_.size(); ++id)
    out.heap_[id] = static_cast<std::uint32_t>(id);
  auto worse = [&out](auto a, auto b) { return out.worse(a, b); };
  std::make_heap(out.heap_.begin(), out.heap_.end(), worse);
  return out;
}

bool batch_list::worse(std::uint32_t a, std::uint32_t b) const noexcept {
  return totals_[a] < totals_[b] || (totals_[a] == totals_[b] && a > b);
}

model::symbol batch_list::pop() {
  auto worse = [this](auto a, auto b) { return this->worse(a, b); };
  std::pop_heap(heap_.begin(), heap_.end(), worse);
  std::uint32_t id = heap_.back();
  heap_.pop_back();
  return nodes_[id];
}

bool batch_list::normalizes(const profile& prof) const {
  return std::any_of(plugins_.begin(), plugins_.end(), [&](auto i) {
    return prof.score()[i].plugin->has_normalize();
  });
}

status batch_list::add(const profile& prof, model::symbol node,
                       std::span<const std::int64_t> raw) {
  const std::size_t w = width();
  if (raw.size() < w)
    return status::make_error("batch rescore: " + std::to_string(raw.size())
                              + " scores for " + std::to_string(w)
                              + " plugins");
  const auto id = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back(node);
  raw_.insert(raw_.end(), raw.begin(), raw.begin() + w);
  totals_.push_back(0);
  heap_.push_back(id);
  if (normalizes(prof))
    return {}; // renormalize() computes every total
  for (std::size_t k = 0; k < w; ++k) {
    const auto& entry = prof.score()[plugins_[k]];
    if (!in_range(raw[k]))
      return out_of_range(*entry.plugin, raw[k]);
    totals_[id] += raw[k] * entry.weight;
  }
  auto worse = [this](auto a, auto b) { return this->worse(a, b); };
  std::push_heap(heap_.begin(), heap_.end(), worse);
  return {};
}

status batch_list::renormalize(const profile& prof, const cycle_state& state,
                               const model::pod& p) {
  if (!normalizes(prof))
    return {};
  // NormalizeScore ranges over the set, so every total changes with it.
  const std::size_t w = width();
  for (auto e : heap_)
    totals_[e] = 0;
  std::vector<node_score> buffer(heap_.size());
  for (std::size_t k = 0; k < w; ++k) {
    const auto& entry = prof.score()[plugins_[k]];
    for (std::size_t j = 0; j < heap_.size(); ++j)
      buffer[j] = {nodes_[heap_[j]], raw_[heap_[j] * w + k]};
    if (entry.plugin->has_normalize()) {
      status s = entry.plugin->normalize_scores(state, p, buffer);
      if (!s.ok())
        return status::make_error("running Normalize on Score plugin \""
                                  + std::string{entry.plugin->name()}
                                  + "\": " + s.message());
    }
    for (std::size_t j = 0; j < heap_.size(); ++j) {
      if (!in_range(buffer[j].score))
        return out_of_range(*entry.plugin, buffer[j].score);
      totals_[heap_[j]] += buffer[j].score * entry.weight;
    }
  }
  auto worse = [this](auto a, auto b) { return this->worse(a, b); };
  std::make_heap(heap_.begin(), heap_.end(), worse);
  return {};
}

} // namespace tessera::plugins
