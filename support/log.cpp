// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/log.hpp"

#include "support/text.hpp"

#include <sys/syscall.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <unistd.h>

namespace tessera::log {

namespace {

std::atomic<format> current_format{format::text};
std::mutex sink_mutex;
std::function<void(std::string_view)> current_sink;

const char* base_name(const char* path) {
  const char* base = path;
  for (const char* p = path; *p != '\0'; ++p)
    if (*p == '/')
      base = p + 1;
  return base;
}

void emit(std::string_view line) {
  std::lock_guard<std::mutex> guard{sink_mutex};
  if (current_sink) {
    current_sink(line);
    return;
  }
  // One write(2) per line keeps lines whole when threads log at once.
  const char* p = line.data();
  size_t left = line.size();
  while (left > 0) {
    ssize_t n = ::write(2, p, left);
    if (n <= 0)
      return;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

} // namespace

void set_format(format f) {
  current_format.store(f, std::memory_order_relaxed);
}

void set_sink(std::function<void(std::string_view)> sink) {
  std::lock_guard<std::mutex> guard{sink_mutex};
  current_sink = std::move(sink);
}

line_builder::line_builder(severity s, int v, const char* file, int line,
                           std::string_view message)
  : format_(current_format.load(std::memory_order_relaxed)) {
  auto now = std::chrono::system_clock::now();
  auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                  now.time_since_epoch())
                  .count();
  std::time_t secs = static_cast<std::time_t>(micros / 1000000);
  char buf[64];
  if (format_ == format::json) {
    std::snprintf(buf, sizeof buf, "{\"ts\":%lld.%03lld,",
                  static_cast<long long>(secs),
                  static_cast<long long>((micros % 1000000) / 1000));
    text_ += buf;
    text_ += "\"caller\":";
    std::string caller = base_name(file);
    caller += ':';
    caller += std::to_string(line);
    append_json_quoted(text_, caller);
    text_ += ",\"msg\":";
    append_json_quoted(text_, message);
    if (s == severity::info) {
      text_ += ",\"v\":";
      text_ += std::to_string(v);
    }
    return;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char sev = s == severity::info ? 'I' : s == severity::warning ? 'W' : 'E';
  std::snprintf(buf, sizeof buf, "%c%02d%02d %02d:%02d:%02d.%06lld %7ld ", sev,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<long long>(micros % 1000000),
                static_cast<long>(::syscall(SYS_gettid)));
  text_ += buf;
  text_ += base_name(file);
  text_ += ':';
  text_ += std::to_string(line);
  text_ += "] ";
  append_json_quoted(text_, message);
}

line_builder::~line_builder() {
  text_ += format_ == format::json ? "}\n" : "\n";
  emit(text_);
}

void line_builder::begin_value(std::string_view key) {
  if (format_ == format::json) {
    text_.push_back(',');
    append_json_quoted(text_, key);
    text_.push_back(':');
  } else {
    text_.push_back(' ');
    text_ += key;
    text_.push_back('=');
  }
}

void line_builder::add(std::string_view key, std::string_view value) {
  begin_value(key);
  append_json_quoted(text_, value);
}

void line_builder::add(std::string_view key, bool value) {
  begin_value(key);
  text_ += value ? "true" : "false";
}

void line_builder::add(std::string_view key, long long value) {
  begin_value(key);
  text_ += std::to_string(value);
}

void line_builder::add(std::string_view key, unsigned long long value) {
  begin_value(key);
  text_ += std::to_string(value);
}

void line_builder::add(std::string_view key, double value) {
  begin_value(key);
  if (!std::isfinite(value)) {
    append_json_quoted(text_, std::isnan(value) ? "NaN" : "Inf");
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  text_ += buf;
}

} // namespace tessera::log
