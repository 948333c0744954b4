// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/sweep.hpp"

#include <charconv>

namespace tessera::perf {

namespace {

expected<std::vector<std::size_t>> parse_list(const std::string& axis,
                                              std::string_view list) {
  std::vector<std::size_t> out;
  while (true) {
    auto comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    std::size_t v = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (ec != std::errc{} || end != item.data() + item.size() || v == 0)
      return make_error(ec::invalid_input, "--sweep " + axis + ": \""
                                             + std::string{item}
                                             + "\" is not a positive integer");
    out.push_back(v);
    if (comma == std::string_view::npos)
      break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

} // namespace

expected<sweep_grid> parse_sweep(const std::vector<std::string>& axes) {
  sweep_grid g;
  for (const auto& text : axes) {
    auto eq = text.find('=');
    std::string axis = text.substr(0, eq);
    if (eq == std::string::npos)
      return make_error(ec::invalid_input,
                        "--sweep: \"" + text
                          + "\" must be shards=LIST or inflight=LIST");
    std::vector<std::size_t>* slot = nullptr;
    if (axis == "shards")
      slot = &g.shards;
    else if (axis == "inflight" || axis == "max-inflight-cycles")
      slot = &g.inflight;
    else
      return make_error(ec::invalid_input, "--sweep: unknown axis \"" + axis
                                             + "\" (shards or inflight)");
    if (!slot->empty())
      return make_error(ec::invalid_input,
                        "--sweep: axis \"" + axis + "\" given twice");
    auto list = parse_list(axis, std::string_view{text}.substr(eq + 1));
    if (!list)
      return list.err();
    *slot = std::move(*list);
  }
  return g;
}

std::vector<knob_setting> plan_settings(const sweep_grid& grid,
                                        knob_setting defaults, bool baseline) {
  std::vector<knob_setting> out;
  if (baseline)
    out.push_back({1, 1, true});
  auto shards = grid.shards.empty() ? std::vector<std::size_t>{defaults.shards}
                                    : grid.shards;
  auto inflight = grid.inflight.empty()
                    ? std::vector<std::size_t>{defaults.inflight}
                    : grid.inflight;
  for (auto s : shards)
    for (auto i : inflight)
      out.push_back({s, i, false});
  return out;
}

} // namespace tessera::perf
