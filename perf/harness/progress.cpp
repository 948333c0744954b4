// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/progress.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unistd.h>

namespace tessera::perf {

namespace {

double secs(duration d) {
  return std::chrono::duration<double>(d).count();
}

std::string format_eta(double s) {
  char buf[32];
  if (!std::isfinite(s) || s < 0)
    return "?";
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.1fs", s);
  else
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60,
                  static_cast<int>(s) % 60);
  return buf;
}

} // namespace

progress::progress(progress_mode mode, std::FILE* out, const clock& clk)
  : out_(out), clk_(clk) {
  switch (mode) {
  case progress_mode::automatic:
    bar_ = ::isatty(::fileno(out)) != 0;
    break;
  case progress_mode::bar:
    bar_ = true;
    break;
  case progress_mode::lines:
    break;
  case progress_mode::off:
    off_ = true;
    break;
  }
}

progress::~progress() {
  if (bar_ && drawn_)
    std::fputc('\n', out_);
}

void progress::begin(std::string label, std::size_t total, std::string unit) {
  label_ = std::move(label);
  unit_ = std::move(unit);
  total_ = total;
  started_ = clk_.now();
  last_draw_ = started_;
  window_.clear();
  drawn_ = false;
}

double progress::rate(std::size_t done, time_point now) {
  window_.emplace_back(now, done);
  while (window_.size() > 2
         && now - window_.front().first > std::chrono::seconds(2))
    window_.pop_front();
  const auto& [t0, d0] = window_.front();
  double dt = secs(now - t0);
  if (dt <= 0)
    return 0;
  return static_cast<double>(done - std::min(done, d0)) / dt;
}

void progress::update(std::size_t done) {
  if (off_)
    return;
  auto now = clk_.now();
  auto every
    = bar_ ? std::chrono::milliseconds(100) : std::chrono::milliseconds(5000);
  if (now - last_draw_ < every)
    return;
  last_draw_ = now;
  draw(done, false);
}

void progress::end(std::size_t done) {
  if (off_)
    return;
  draw(done, true);
  if (bar_) {
    std::fputc('\n', out_);
    drawn_ = false;
  }
  std::fflush(out_);
}

void progress::note(const std::string& line) {
  if (off_)
    return;
  if (bar_ && drawn_) {
    std::fputs("\r\033[K", out_);
    drawn_ = false;
  }
  std::fprintf(out_, "%s\n", line.c_str());
  std::fflush(out_);
}

void progress::draw(std::size_t done, bool final) {
  auto now = clk_.now();
  double elapsed = secs(now - started_);
  double r = final ? (elapsed > 0 ? static_cast<double>(done) / elapsed : 0)
                   : rate(done, now);
  double eta = r > 0 && total_ > done ? static_cast<double>(total_ - done) / r
                                      : (total_ <= done ? 0.0 : NAN);
  char line[256];
  if (bar_) {
    constexpr int width = 30;
    double frac = total_ > 0
                    ? static_cast<double>(done) / static_cast<double>(total_)
                    : 1.0;
    int filled = static_cast<int>(std::lround(std::min(frac, 1.0) * width));
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(width - filled), '.');
    std::snprintf(
      line, sizeof line, "\r\033[K%s [%s] %zu/%zu %s  %.0f/s  %s %s",
      label_.c_str(), bar.c_str(), done, total_, unit_.c_str(), r,
      final ? "in" : "ETA", format_eta(final ? elapsed : eta).c_str());
    std::fputs(line, out_);
    drawn_ = true;
  } else {
    std::snprintf(line, sizeof line, "%s: %zu/%zu %s, %.0f/s, %s %s\n",
                  label_.c_str(), done, total_, unit_.c_str(), r,
                  final ? "took" : "ETA",
                  format_eta(final ? elapsed : eta).c_str());
    std::fputs(line, out_);
  }
  std::fflush(out_);
}

} // namespace tessera::perf
