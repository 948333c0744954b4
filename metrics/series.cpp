// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "metrics/series.hpp"

#include <prometheus/client_metric.h>

#include <algorithm>
#include <cassert>
#include <limits>

namespace tessera::metrics {

std::vector<double> exponential_buckets(double start, double factor,
                                        int count) {
  assert(start > 0 && factor > 1 && count > 0 && "bad bucket parameters");
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(count));
  double b = start;
  for (int i = 0; i < count; ++i) {
    out.push_back(b);
    b *= factor;
  }
  return out;
}

void counter::collect(prometheus::ClientMetric& out) const {
  out.counter.value = static_cast<double>(value());
}

void gauge::collect(prometheus::ClientMetric& out) const {
  out.gauge.value = value();
}

histogram::histogram(std::shared_ptr<const std::vector<double>> bounds)
  : bounds_(std::move(bounds)),
    counts_(new std::atomic<std::uint64_t>[bounds_->size() + 1]) {
  for (std::size_t i = 0; i <= bounds_->size(); ++i)
    counts_[i].store(0, std::memory_order_relaxed);
}

void histogram::observe(double v) noexcept {
  // First bound >= v: Prometheus buckets are `le` (inclusive).
  auto it = std::lower_bound(bounds_->begin(), bounds_->end(), v);
  counts_[static_cast<std::size_t>(it - bounds_->begin())].fetch_add(
    1, std::memory_order_relaxed);
  sum_.fetch_add(v, std::memory_order_relaxed);
}

std::uint64_t histogram::count() const noexcept {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i <= bounds_->size(); ++i)
    n += bucket(i);
  return n;
}

void histogram::collect(prometheus::ClientMetric& out) const {
  auto& h = out.histogram;
  std::uint64_t cumulative = 0;
  h.bucket.reserve(bounds_->size() + 1);
  for (std::size_t i = 0; i < bounds_->size(); ++i) {
    cumulative += bucket(i);
    h.bucket.push_back({cumulative, (*bounds_)[i]});
  }
  cumulative += bucket(bounds_->size());
  h.bucket.push_back({cumulative, std::numeric_limits<double>::infinity()});
  // The count is the +Inf bucket, so the exposition stays consistent.
  h.sample_count = cumulative;
  h.sample_sum = sum();
}

} // namespace tessera::metrics
