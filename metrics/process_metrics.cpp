// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "metrics/process_metrics.hpp"

#include <sys/resource.h>

#include <cstdint>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace tessera::metrics {

namespace {

prometheus::MetricFamily one(const char* name, const char* help,
                             prometheus::MetricType type, double value) {
  prometheus::MetricFamily f;
  f.name = name;
  f.help = help;
  f.type = type;
  prometheus::ClientMetric m;
  if (type == prometheus::MetricType::Counter)
    m.counter.value = value;
  else
    m.gauge.value = value;
  f.metric.push_back(std::move(m));
  return f;
}

/// The fields of /proc/self/stat after the command name (field 3 on), as
/// proc(5) numbers them minus 3.
std::optional<std::vector<std::string>> stat_fields() {
  std::ifstream in{"/proc/self/stat"};
  std::string line;
  if (!std::getline(in, line))
    return std::nullopt;
  // The command name is in parentheses and may hold spaces and ')'.
  auto close = line.rfind(')');
  if (close == std::string::npos)
    return std::nullopt;
  std::istringstream rest{line.substr(close + 1)};
  std::vector<std::string> out;
  for (std::string f; rest >> f;)
    out.push_back(f);
  return out;
}

std::optional<double> boot_time_seconds() {
  std::ifstream in{"/proc/stat"};
  for (std::string key; in >> key;) {
    if (key == "btime") {
      double v = 0;
      if (in >> v)
        return v;
      return std::nullopt;
    }
    in.ignore(1 << 20, '\n');
  }
  return std::nullopt;
}

} // namespace

std::vector<prometheus::MetricFamily> process_families() {
  using prometheus::MetricType;
  std::vector<prometheus::MetricFamily> out;
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(::sysconf(_SC_PAGESIZE));
  auto f = stat_fields();
  // A number /proc does not give as one leaves its families out (a scrape
  // must never fail, nor throw on the server's thread).
  try {
    if (!f || f->size() <= 21 || ticks <= 0)
      throw std::invalid_argument{"no stat"};
    // utime, stime (14, 15), starttime (22), vsize (23), rss (24).
    double cpu = (std::stod((*f)[11]) + std::stod((*f)[12])) / ticks;
    out.push_back(one("process_cpu_seconds_total",
                      "Total user and system CPU time spent in seconds.",
                      MetricType::Counter, cpu));
    out.push_back(one("process_virtual_memory_bytes",
                      "Virtual memory size in bytes.", MetricType::Gauge,
                      std::stod((*f)[20])));
    out.push_back(one("process_resident_memory_bytes",
                      "Resident memory size in bytes.", MetricType::Gauge,
                      std::stod((*f)[21]) * page));
    if (auto boot = boot_time_seconds())
      out.push_back(
        one("process_start_time_seconds",
            "Start time of the process since unix epoch in seconds.",
            MetricType::Gauge, *boot + std::stod((*f)[19]) / ticks));
  } catch (const std::exception&) {
  }
  std::error_code ec;
  std::size_t fds = 0;
  for (auto it = std::filesystem::directory_iterator{"/proc/self/fd", ec};
       !ec && it != std::filesystem::directory_iterator{}; it.increment(ec))
    ++fds;
  if (!ec)
    out.push_back(one("process_open_fds", "Number of open file descriptors.",
                      MetricType::Gauge, static_cast<double>(fds)));
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0)
    out.push_back(one("process_max_fds",
                      "Maximum number of open file descriptors.",
                      MetricType::Gauge, static_cast<double>(lim.rlim_cur)));
  return out;
}

} // namespace tessera::metrics
