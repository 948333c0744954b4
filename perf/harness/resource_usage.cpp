// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/resource_usage.hpp"

#include <sys/syscall.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace tessera::perf {

namespace {

long this_tid() {
  return static_cast<long>(::syscall(SYS_gettid));
}

/// CPU nanoseconds of one thread of this process; 0 when it is gone.
std::uint64_t thread_cpu_ns(long tid) {
  std::ifstream in{"/proc/self/task/" + std::to_string(tid) + "/schedstat"};
  std::uint64_t ns = 0;
  if (in >> ns)
    return ns;
  // Kernels without schedstat: utime + stime in clock ticks.
  std::ifstream stat{"/proc/self/task/" + std::to_string(tid) + "/stat"};
  std::string text;
  std::getline(stat, text);
  auto close = text.rfind(')');
  if (close == std::string::npos)
    return 0;
  std::string rest = text.substr(close + 2);
  std::size_t field = 3; // rest starts at field 3 (state)
  std::size_t pos = 0;
  std::uint64_t utime = 0, stime = 0;
  while (pos < rest.size() && field <= 15) {
    auto next = rest.find(' ', pos);
    std::string tok = rest.substr(pos, next - pos);
    if (field == 14)
      utime = std::stoull(tok);
    if (field == 15)
      stime = std::stoull(tok);
    ++field;
    if (next == std::string::npos)
      break;
    pos = next + 1;
  }
  long ticks = ::sysconf(_SC_CLK_TCK);
  return (utime + stime) * 1000000000ull
         / static_cast<std::uint64_t>(ticks > 0 ? ticks : 100);
}

std::uint64_t status_kb(const char* key) {
  std::ifstream in{"/proc/self/status"};
  std::string line;
  std::string prefix = std::string{key} + ":";
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0)
      return std::stoull(line.substr(prefix.size()));
  return 0;
}

} // namespace

void cpu_meter::exclude_existing() {
  std::lock_guard guard{mu_};
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::directory_iterator{"/proc/self/task", ec})
    excluded_.insert(std::stol(entry.path().filename().string()));
}

void cpu_meter::exclude_this_thread() {
  std::lock_guard guard{mu_};
  excluded_.insert(this_tid());
}

void cpu_meter::thread_exiting() {
  long tid = this_tid();
  std::uint64_t ns = thread_cpu_ns(tid);
  std::lock_guard guard{mu_};
  if (excluded_.erase(tid) > 0)
    exited_ns_ += ns;
}

double cpu_meter::scheduler_seconds() const {
  std::lock_guard guard{mu_};
  double total = process_cpu_seconds();
  std::uint64_t excluded = exited_ns_;
  for (long tid : excluded_)
    excluded += thread_cpu_ns(tid);
  double s = total - static_cast<double>(excluded) / 1e9;
  return s > 0 ? s : 0;
}

double process_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

std::uint64_t current_rss_bytes() {
  return status_kb("VmRSS") * 1024;
}

std::uint64_t peak_rss_bytes() {
  return status_kb("VmHWM") * 1024;
}

bool reset_peak_rss() {
  std::ofstream out{"/proc/self/clear_refs"};
  if (!out)
    return false;
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

} // namespace tessera::perf
