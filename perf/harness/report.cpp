// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace tessera::perf {

namespace {

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

/// Left-aligned first column, right-aligned others.
std::string render(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (width.size() <= i)
        width.push_back(0);
      width[i] = std::max(width[i], r[i].size());
    }
  std::string out;
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) {
      std::string pad(width[i] - r[i].size(), ' ');
      line += i == 0 ? r[i] + pad : "  " + pad + r[i];
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string mb(std::uint64_t bytes) {
  return fmt("%.0f", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

} // namespace

std::string render_results_table(const std::vector<run_result>& runs) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back(
    {"workload",     "target",     "shards",         "inflight",
     "pods",         "avg pods/s", "upstream floor", "p50",
     "p90",          "p99",        "attempt p50 ms", "attempt p99 ms",
     "e2e p50 ms",   "e2e p99 ms", "attempts/pod",   "conflicts",
     "binds failed", "batched",    "cpu s",          "peak rss MB",
     "status"});
  for (const auto& r : runs) {
    rows.push_back(
      {r.name + (r.baseline ? " (baseline)" : ""),
       r.target,
       std::to_string(r.shards),
       std::to_string(r.inflight),
       std::to_string(r.bound_pods) + "/" + std::to_string(r.measured_pods),
       fmt("%.0f", r.throughput.average),
       r.threshold > 0 ? fmt("%.0f", r.threshold) : "-",
       fmt("%.0f", r.throughput.p50),
       fmt("%.0f", r.throughput.p90),
       fmt("%.0f", r.throughput.p99),
       r.attempts_reported ? fmt("%.2f", r.attempt_ms.p50) : "-",
       r.attempts_reported ? fmt("%.2f", r.attempt_ms.p99) : "-",
       fmt("%.1f", r.e2e_ms.p50),
       fmt("%.1f", r.e2e_ms.p99),
       fmt("%.2f", r.attempts_per_pod),
       std::to_string(r.assume_conflicts),
       std::to_string(r.binds_failed),
       std::to_string(r.batched_pods),
       fmt("%.2f", r.scheduler_cpu_seconds),
       mb(r.peak_rss_bytes),
       r.failure.empty() ? "ok" : "FAILED"});
  }
  std::string out = render(rows);
  for (const auto& r : runs)
    if (!r.failure.empty())
      out += r.name + ": " + r.failure + "\n";
  bool floors = false;
  for (const auto& r : runs)
    floors |= r.threshold > 0;
  if (floors)
    out += "upstream floor: the workload's threshold, the average upstream "
           "requires on its CI machines (not this machine)\n";
  return out;
}

std::vector<std::string> below_thresholds(const std::vector<run_result>& runs) {
  std::vector<std::string> out;
  for (const auto& r : runs)
    if (r.threshold > 0 && r.throughput.average < r.threshold)
      out.push_back(r.name + ": average " + fmt("%.1f", r.throughput.average)
                    + " pods/s is below upstream's floor "
                    + fmt("%.0f", r.threshold));
  return out;
}

std::string render_sweep_table(const std::vector<run_result>& runs) {
  std::string out;
  std::vector<std::string> names;
  for (const auto& r : runs)
    if (!r.baseline
        && std::find(names.begin(), names.end(), r.name) == names.end())
      names.push_back(r.name);
  for (const auto& name : names) {
    std::set<std::size_t> shards, inflight;
    std::map<std::pair<std::size_t, std::size_t>, const run_result*> cell;
    const run_result* best = nullptr;
    for (const auto& r : runs) {
      if (r.name != name || r.baseline)
        continue;
      shards.insert(r.shards);
      inflight.insert(r.inflight);
      cell[{r.shards, r.inflight}] = &r;
      if (r.failure.empty()
          && (best == nullptr
              || r.throughput.average > best->throughput.average))
        best = &r;
    }
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head{"shards \\ inflight"};
    for (auto i : inflight)
      head.push_back(std::to_string(i));
    rows.push_back(head);
    for (auto s : shards) {
      std::vector<std::string> row{std::to_string(s)};
      for (auto i : inflight) {
        auto it = cell.find({s, i});
        if (it == cell.end()) {
          row.push_back("-");
          continue;
        }
        const run_result& r = *it->second;
        std::string v
          = r.failure.empty() ? fmt("%.0f", r.throughput.average) : "failed";
        row.push_back(v + (&r == best ? " *" : "  "));
      }
      rows.push_back(row);
    }
    out += name + ": average pods/s (* = best";
    if (best != nullptr)
      out += ": shards=" + std::to_string(best->shards)
             + " inflight=" + std::to_string(best->inflight);
    out += ")\n" + render(rows);
  }
  return out;
}

std::string render_baseline_lines(const std::vector<run_result>& runs) {
  std::string out;
  for (const auto& base : runs) {
    if (!base.baseline || !base.failure.empty() || base.throughput.average <= 0)
      continue;
    for (const auto& r : runs) {
      if (r.baseline || r.name != base.name || r.target != base.target
          || !r.failure.empty())
        continue;
      out += r.name + " shards=" + std::to_string(r.shards)
             + " inflight=" + std::to_string(r.inflight)
             + ": speedup over shards=1 inflight=1 = "
             + fmt("%.2fx", r.throughput.average / base.throughput.average)
             + " (" + fmt("%.0f", r.throughput.average) + " vs "
             + fmt("%.0f", base.throughput.average) + " pods/s)\n";
    }
  }
  return out;
}

std::string file_stem(const std::string& name) {
  std::string out = name;
  for (auto& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_'
        && c != '-')
      c = '_';
  return out;
}

} // namespace tessera::perf
