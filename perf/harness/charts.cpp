// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The SVG charts: hand-written SVG (a polyline, bars, axes with a few
// ticks), so the harness needs no plotting library.
#include "perf/harness/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tessera::perf {

namespace {

constexpr double width = 720;
constexpr double height = 360;
constexpr double left = 70;
constexpr double right = 20;
constexpr double top = 40;
constexpr double bottom = 50;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

/// A round step giving about `ticks` ticks over [0, max].
double nice_step(double max, int ticks) {
  if (max <= 0)
    return 1;
  double raw = max / ticks;
  double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * mag)
      return m * mag;
  return 10 * mag;
}

/// Frame, title, axis labels and ticks for x in [0, xmax], y in [0, ymax].
std::string frame(const std::string& title, const std::string& xlabel,
                  const std::string& ylabel, double xmax, double ymax) {
  double pw = width - left - right;
  double ph = height - top - bottom;
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
                  + num(width) + "\" height=\"" + num(height)
                  + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + num(width / 2)
       + "\" y=\"22\" text-anchor=\"middle\" "
         "font-size=\"14\">"
       + escape(title) + "</text>\n";
  s += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw)
       + "\" height=\"" + num(ph) + "\" fill=\"none\" stroke=\"#444\"/>\n";
  double ystep = nice_step(ymax, 5);
  for (double y = 0; y <= ymax * 1.0001; y += ystep) {
    double py = top + ph - y / ymax * ph;
    s += "<line x1=\"" + num(left) + "\" x2=\"" + num(left + pw) + "\" y1=\""
         + num(py) + "\" y2=\"" + num(py) + "\" stroke=\"#ddd\"/>\n";
    s += "<text x=\"" + num(left - 6) + "\" y=\"" + num(py + 4)
         + "\" text-anchor=\"end\">" + num(y) + "</text>\n";
  }
  double xstep = nice_step(xmax, 8);
  for (double x = 0; x <= xmax * 1.0001; x += xstep) {
    double px = left + x / xmax * pw;
    s += "<text x=\"" + num(px) + "\" y=\"" + num(top + ph + 16)
         + "\" text-anchor=\"middle\">" + num(x) + "</text>\n";
  }
  s += "<text x=\"" + num(left + pw / 2) + "\" y=\"" + num(height - 10)
       + "\" text-anchor=\"middle\">" + escape(xlabel) + "</text>\n";
  s += "<text transform=\"translate(16," + num(top + ph / 2)
       + ") rotate(-90)\" text-anchor=\"middle\">" + escape(ylabel)
       + "</text>\n";
  return s;
}

} // namespace

std::string render_throughput_svg(const run_result& run) {
  const auto& curve = run.series.curve;
  double xmax = 1;
  double ymax = 1;
  for (const auto& [x, y] : curve) {
    xmax = std::max(xmax, x);
    ymax = std::max(ymax, y);
  }
  ymax *= 1.1;
  std::string s = frame(run.name + " — throughput (" + run.target
                          + ", shards=" + std::to_string(run.shards)
                          + ", inflight=" + std::to_string(run.inflight) + ")",
                        "seconds since the measured pods' creation began",
                        "pods bound / s", xmax, ymax);
  double pw = width - left - right;
  double ph = height - top - bottom;
  std::string points;
  for (const auto& [x, y] : curve)
    points
      += num(left + x / xmax * pw) + "," + num(top + ph - y / ymax * ph) + " ";
  s += "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" "
       "points=\""
       + points + "\"/>\n";
  double avg_y = top + ph - run.throughput.average / ymax * ph;
  s += "<line x1=\"" + num(left) + "\" x2=\"" + num(left + pw) + "\" y1=\""
       + num(avg_y) + "\" y2=\"" + num(avg_y)
       + "\" stroke=\"#d62728\" stroke-dasharray=\"6,4\"/>\n";
  s += "<text x=\"" + num(left + pw - 4) + "\" y=\"" + num(avg_y - 4)
       + "\" text-anchor=\"end\" fill=\"#d62728\">average "
       + num(run.throughput.average) + " pods/s</text>\n";
  return s + "</svg>\n";
}

std::string render_latency_svg(const run_result& run) {
  bool attempts = run.attempts_reported && !run.attempt_samples_ms.empty();
  const auto& values = attempts ? run.attempt_samples_ms : run.e2e_samples_ms;
  const summary& sm = attempts ? run.attempt_ms : run.e2e_ms;
  // Bins up to p99 (the tail beyond it goes into the last bin), so a few
  // outliers do not flatten the chart.
  constexpr std::size_t bins = 40;
  double hi = std::max(sm.p99, 1e-3);
  std::vector<std::size_t> count(bins, 0);
  for (double v : values) {
    auto b = static_cast<std::size_t>(
      std::clamp(v / hi * bins, 0.0, double{bins - 1}));
    ++count[b];
  }
  double ymax = 1;
  for (auto c : count)
    ymax = std::max(ymax, static_cast<double>(c));
  ymax *= 1.1;
  std::string what
    = attempts ? "scheduling attempt latency" : "pod end-to-end latency";
  std::string s = frame(
    run.name + " — " + what + " (n=" + std::to_string(values.size()) + ")",
    what + ", ms (last bin: p99 and above)", "count", hi, ymax);
  double pw = width - left - right;
  double ph = height - top - bottom;
  double bw = pw / bins;
  for (std::size_t i = 0; i < bins; ++i) {
    double h = static_cast<double>(count[i]) / ymax * ph;
    s += "<rect x=\"" + num(left + static_cast<double>(i) * bw + 1) + "\" y=\""
         + num(top + ph - h) + "\" width=\"" + num(std::max(bw - 2, 1.0))
         + "\" height=\"" + num(h) + "\" fill=\"#2ca02c\"/>\n";
  }
  return s + "</svg>\n";
}

} // namespace tessera::perf
