// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/measurements.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tessera::perf {

namespace {

double seconds(duration d) {
  return std::chrono::duration<double>(d).count();
}

double rank(const std::vector<double>& sorted, double p) {
  auto n = static_cast<double>(sorted.size());
  auto i = static_cast<std::size_t>(std::ceil(n * p / 100.0));
  return sorted[i == 0 ? 0 : i - 1];
}

} // namespace

summary summarize(std::vector<double> values) {
  summary s;
  s.count = values.size();
  if (values.empty())
    return s;
  std::sort(values.begin(), values.end());
  s.average = std::accumulate(values.begin(), values.end(), 0.0)
              / static_cast<double>(values.size());
  s.p50 = rank(values, 50);
  s.p90 = rank(values, 90);
  s.p95 = rank(values, 95);
  s.p99 = rank(values, 99);
  s.max = values.back();
  return s;
}

throughput_series throughput(std::vector<time_point> bound, time_point start,
                             duration interval) {
  throughput_series out;
  if (bound.empty())
    return out;
  std::sort(bound.begin(), bound.end());
  time_point first = bound.front();
  time_point last = bound.back();
  double span = seconds(last - start);
  out.overall = span > 0 ? static_cast<double>(bound.size()) / span
                         : static_cast<double>(bound.size());
  double step = seconds(interval);
  // Upstream-style samples.
  std::size_t i = 0;
  std::size_t skipped = 0;
  time_point bucket_start = first;
  while (i < bound.size()) {
    time_point bucket_end = bucket_start + interval;
    std::size_t n = 0;
    while (i < bound.size() && bound[i] < bucket_end) {
      ++n;
      ++i;
    }
    bool partial = i == bound.size() && last < bucket_end;
    if (partial) {
      double len = seconds(last - bucket_start);
      if (n == 0)
        break;
      if (out.samples.empty()) {
        out.samples.push_back(out.overall);
      } else if (len < step / 2) {
        // Merge into the previous interval(s).
        double prev = out.samples.back();
        double merged = (prev * step + static_cast<double>(n)) / (step + len);
        out.samples.back() = merged;
      } else {
        for (std::size_t k = 0; k <= skipped; ++k)
          out.samples.push_back(static_cast<double>(n)
                                / (len + step * static_cast<double>(skipped)));
      }
      break;
    }
    if (n == 0) {
      ++skipped;
    } else {
      double rate
        = static_cast<double>(n) / (step * static_cast<double>(skipped + 1));
      for (std::size_t k = 0; k <= skipped; ++k)
        out.samples.push_back(rate);
      skipped = 0;
    }
    bucket_start = bucket_end;
  }
  // A finer curve for the chart, from the window start.
  double total = seconds(last - start);
  double fine = std::clamp(total / 60.0, 0.05, step);
  auto fine_d
    = std::chrono::duration_cast<duration>(std::chrono::duration<double>(fine));
  if (fine_d.count() <= 0)
    fine_d = duration{1};
  std::size_t j = 0;
  for (time_point t = start; t <= last; t += fine_d) {
    std::size_t n = 0;
    while (j < bound.size() && bound[j] < t + fine_d) {
      ++n;
      ++j;
    }
    out.curve.emplace_back(seconds(t + fine_d - start),
                           static_cast<double>(n) / fine);
  }
  return out;
}

void measure_pods(const std::vector<pod_record>& pods, time_point window_start,
                  run_result& out) {
  out.measured_pods = pods.size();
  std::vector<time_point> bound;
  std::vector<double> attempts_ms;
  std::map<std::string, std::vector<double>> by_result;
  double attempts_total = 0;
  double attempts_max = 0;
  bool reported = false;
  time_point last = window_start;
  for (const auto& p : pods) {
    for (const auto& a : p.attempts) {
      attempts_ms.push_back(a.seconds * 1e3);
      by_result[std::string{to_string(a.result)}].push_back(a.seconds * 1e3);
    }
    reported |= !p.attempts.empty();
    double n = !p.attempts.empty()
                 ? static_cast<double>(p.attempts.size())
                 : (p.bound ? 1.0 : 0.0) + (p.failed_once ? 1.0 : 0.0);
    attempts_total += n;
    attempts_max = std::max(attempts_max, n);
    if (!p.bound)
      continue;
    bound.push_back(*p.bound);
    last = std::max(last, *p.bound);
    if (p.created)
      out.e2e_samples_ms.push_back(seconds(*p.bound - *p.created) * 1e3);
  }
  out.bound_pods = bound.size();
  out.seconds = seconds(last - window_start);
  out.series = throughput(bound, window_start);
  out.throughput = summarize(out.series.samples);
  out.e2e_ms = summarize(out.e2e_samples_ms);
  out.attempt_samples_ms = attempts_ms;
  out.attempt_ms = summarize(std::move(attempts_ms));
  for (auto& [result, values] : by_result)
    out.attempt_ms_by_result[result] = summarize(std::move(values));
  out.attempts_reported = reported;
  out.attempts_per_pod
    = pods.empty() ? 0 : attempts_total / static_cast<double>(pods.size());
  out.attempts_per_pod_max = attempts_max;
}

} // namespace tessera::perf
