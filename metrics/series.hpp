// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// One time series each: `counter`, `gauge` and `histogram`. Recording is a
/// relaxed atomic add (no lock, no allocation), so actors record on their
/// hot paths; a scrape reads the atomics and builds prometheus-cpp's
/// `ClientMetric` (cumulative buckets are summed only then). A scrape may
/// see a histogram's count and buckets a few observations apart — the same
/// tolerance Prometheus clients accept.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace prometheus {
struct ClientMetric;
}

namespace tessera::metrics {

/// Upper bounds start, start*factor, ... (`count` of them), as
/// prometheus.ExponentialBuckets.
std::vector<double> exponential_buckets(double start, double factor, int count);

/// A monotonic count.
class counter {
public:
  void inc(std::uint64_t n = 1) noexcept {
    value_.fetch_add(n, std::memory_order_relaxed);
  }
  std::uint64_t value() const noexcept {
    return value_.load(std::memory_order_relaxed);
  }
  void collect(prometheus::ClientMetric& out) const;

private:
  std::atomic<std::uint64_t> value_{0};
};

/// A value that goes up and down.
class gauge {
public:
  void set(double v) noexcept {
    value_.store(v, std::memory_order_relaxed);
  }
  void add(double d) noexcept {
    value_.fetch_add(d, std::memory_order_relaxed);
  }
  double value() const noexcept {
    return value_.load(std::memory_order_relaxed);
  }
  void collect(prometheus::ClientMetric& out) const;

private:
  std::atomic<double> value_{0};
};

/// Observations counted into fixed buckets (`le` upper bounds, plus +Inf).
class histogram {
public:
  /// `bounds` must be sorted ascending; shared by a family's series.
  explicit histogram(std::shared_ptr<const std::vector<double>> bounds);

  void observe(double v) noexcept;
  std::uint64_t count() const noexcept;
  double sum() const noexcept {
    return sum_.load(std::memory_order_relaxed);
  }
  /// Non-cumulative count of bucket `i` (i == bounds: the +Inf bucket).
  std::uint64_t bucket(std::size_t i) const noexcept {
    return counts_[i].load(std::memory_order_relaxed);
  }
  const std::vector<double>& bounds() const noexcept {
    return *bounds_;
  }
  void collect(prometheus::ClientMetric& out) const;

private:
  std::shared_ptr<const std::vector<double>> bounds_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> counts_;
  std::atomic<double> sum_{0};
};

} // namespace tessera::metrics
