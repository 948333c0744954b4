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
  if (!normalizes(prof) || heap_.empty())
    return {};
  const std::size_t w = width();
  std::vector<std::pair<std::int64_t, std::int64_t>> range(w);
  for (std::size_t k = 0; k < w; ++k) {
    if (!prof.score()[plugins_[k]].plugin->has_normalize())
      continue; // its totals never depend on the others
    auto& [lo, hi] = range[k];
    lo = hi = raw_[heap_.front() * w + k];
    for (auto e : heap_) {
      lo = std::min(lo, raw_[e * w + k]);
      hi = std::max(hi, raw_[e * w + k]);
    }
  }
  auto normalize = [&](std::size_t k, std::span<node_score> scores) {
    const auto& entry = prof.score()[plugins_[k]];
    if (!entry.plugin->has_normalize())
      return status{};
    status s = entry.plugin->normalize_scores(state, p, scores);
    if (!s.ok())
      return status::make_error("running Normalize on Score plugin \""
                                + std::string{entry.plugin->name()}
                                + "\": " + s.message());
    return s;
  };
  auto worse = [this](auto a, auto b) { return this->worse(a, b); };
  // The entry add() put last: normalized against the list's lowest and
  // highest when those did not move.
  if (range == normalized_range_) {
    const std::uint32_t added = heap_.back();
    std::int64_t total = 0;
    for (std::size_t k = 0; k < w; ++k) {
      const auto& entry = prof.score()[plugins_[k]];
      if (!entry.plugin->has_normalize()) {
        total += raw_[added * w + k] * entry.weight;
        continue;
      }
      scratch_.assign({{nodes_[added], range[k].first},
                       {nodes_[added], range[k].second},
                       {nodes_[added], raw_[added * w + k]}});
      if (status s = normalize(k, scratch_); !s.ok())
        return s;
      if (!in_range(scratch_[2].score))
        return out_of_range(*entry.plugin, scratch_[2].score);
      total += scratch_[2].score * entry.weight;
    }
    totals_[added] = total;
    std::push_heap(heap_.begin(), heap_.end(), worse);
    return {};
  }
  for (auto e : heap_)
    totals_[e] = 0;
  scratch_.resize(heap_.size());
  for (std::size_t k = 0; k < w; ++k) {
    const auto& entry = prof.score()[plugins_[k]];
    for (std::size_t j = 0; j < heap_.size(); ++j)
      scratch_[j] = {nodes_[heap_[j]], raw_[heap_[j] * w + k]};
    if (status s = normalize(k, scratch_); !s.ok())
      return s;
    for (std::size_t j = 0; j < heap_.size(); ++j) {
      if (!in_range(scratch_[j].score))
        return out_of_range(*entry.plugin, scratch_[j].score);
      totals_[heap_[j]] += scratch_[j].score * entry.weight;
    }
  }
  normalized_range_ = std::move(range);
  std::make_heap(heap_.begin(), heap_.end(), worse);
  return {};
}

} // namespace tessera::plugins
