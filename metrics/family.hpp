// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `family<Series>`: one metric name with its help, type and label names,
/// and a series per combination of label values, created on first use.
/// `with(values...)` takes a lock and looks the combination up, so callers
/// on hot paths resolve their series once (or per cycle, not per node) and
/// keep the reference: series never move or disappear.
#pragma once

#include "metrics/series.hpp"

#include <prometheus/metric_family.h>

#include <cassert>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::metrics {

template <class Series> class family {
public:
  /// Counters and gauges.
  family(std::string name, std::string help, prometheus::MetricType type,
         std::vector<std::string> labels)
    : name_(std::move(name)), help_(std::move(help)), type_(type),
      labels_(std::move(labels)) {
  }
  /// Histograms: `bounds` are the bucket upper bounds.
  family(std::string name, std::string help, std::vector<std::string> labels,
         std::vector<double> bounds)
    : name_(std::move(name)), help_(std::move(help)),
      type_(prometheus::MetricType::Histogram), labels_(std::move(labels)),
      bounds_(std::make_shared<const std::vector<double>>(std::move(bounds))) {
  }
  family(const family&) = delete;
  family& operator=(const family&) = delete;

  /// The series for these label values (one per label name, in order).
  Series& with(std::initializer_list<std::string_view> values) {
    assert(values.size() == labels_.size() && "wrong number of label values");
    thread_local std::string key;
    key.clear();
    for (auto v : values) {
      key.append(v);
      key.push_back('\x1f');
    }
    std::lock_guard guard{mutex_};
    auto it = series_.find(std::string_view{key});
    if (it != series_.end())
      return *it->second.series;
    entry e;
    e.values.assign(values.begin(), values.end());
    e.series = make();
    Series& s = *e.series;
    series_.emplace(key, std::move(e));
    return s;
  }
  /// The only series of a family without labels.
  Series& only() {
    return with({});
  }

  const std::string& name() const noexcept {
    return name_;
  }
  const std::vector<std::string>& label_names() const noexcept {
    return labels_;
  }
  /// Bucket bounds (empty for counters and gauges).
  const std::vector<double>& bounds() const noexcept {
    static const std::vector<double> none;
    return bounds_ ? *bounds_ : none;
  }

  /// Calls `f(values, series)` for every series.
  template <class F> void for_each(F&& f) const {
    std::lock_guard guard{mutex_};
    for (const auto& [key, e] : series_)
      f(e.values, *e.series);
  }

  /// The family in prometheus-cpp's form, for the serializer.
  prometheus::MetricFamily collect() const {
    prometheus::MetricFamily out;
    out.name = name_;
    out.help = help_;
    out.type = type_;
    for_each([&](const std::vector<std::string>& values, const Series& s) {
      prometheus::ClientMetric m;
      for (std::size_t i = 0; i < labels_.size(); ++i)
        m.label.push_back({labels_[i], values[i]});
      s.collect(m);
      out.metric.push_back(std::move(m));
    });
    return out;
  }

private:
  struct entry {
    std::vector<std::string> values;
    std::unique_ptr<Series> series;
  };

  std::unique_ptr<Series> make() const {
    if constexpr (std::is_same_v<Series, histogram>)
      return std::make_unique<histogram>(bounds_);
    else
      return std::make_unique<Series>();
  }

  std::string name_;
  std::string help_;
  prometheus::MetricType type_;
  std::vector<std::string> labels_;
  std::shared_ptr<const std::vector<double>> bounds_;
  mutable std::mutex mutex_;
  std::map<std::string, entry, std::less<>> series_;
};

} // namespace tessera::metrics
