// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "cmd/simulate_output.hpp"

#include <boost/json.hpp>

namespace tessera::cmd {

namespace json = boost::json;

namespace {

// Boost.JSON serializes compactly; users read simulate's output, so indent.
void pretty(const json::value& v, std::string& out, int depth) {
  auto indent
    = [&](int d) { out.append(static_cast<std::size_t>(d) * 2, ' '); };
  switch (v.kind()) {
  case json::kind::object: {
    const auto& o = v.get_object();
    if (o.empty()) {
      out += "{}";
      return;
    }
    out += "{\n";
    bool first = true;
    for (const auto& kv : o) {
      if (!first)
        out += ",\n";
      first = false;
      indent(depth + 1);
      out += json::serialize(json::string(kv.key()));
      out += ": ";
      pretty(kv.value(), out, depth + 1);
    }
    out += "\n";
    indent(depth);
    out += "}";
    return;
  }
  case json::kind::array: {
    const auto& a = v.get_array();
    if (a.empty()) {
      out += "[]";
      return;
    }
    bool scalars = std::all_of(a.begin(), a.end(), [](const json::value& x) {
      return !x.is_object() && !x.is_array();
    });
    if (scalars) {
      out += json::serialize(v);
      return;
    }
    out += "[\n";
    bool first = true;
    for (const auto& x : a) {
      if (!first)
        out += ",\n";
      first = false;
      indent(depth + 1);
      pretty(x, out, depth + 1);
    }
    out += "\n";
    indent(depth);
    out += "]";
    return;
  }
  default:
    out += json::serialize(v);
  }
}

} // namespace

std::string render_simulation_json(const std::vector<simulated_pod>& pods,
                                   bool explain) {
  json::array items;
  for (const auto& p : pods) {
    json::object o;
    o["namespace"] = p.ns;
    o["name"] = p.name;
    o["status"] = p.status;
    if (p.node.empty())
      o["node"] = nullptr;
    else
      o["node"] = p.node;
    if (!p.message.empty())
      o["message"] = p.message;
    if (!p.nominated_node.empty())
      o["nominatedNode"] = p.nominated_node;
    if (!p.victims.empty()) {
      json::array victims;
      for (const auto& v : p.victims)
        victims.emplace_back(v);
      o["victims"] = std::move(victims);
    }
    if (explain && p.explanation != nullptr) {
      json::object filter;
      for (const auto& r : p.explanation->rejected) {
        json::array reasons;
        for (const auto& reason : r.reasons)
          reasons.emplace_back(reason);
        filter[r.node.view()]
          = json::object{{"plugin", r.plugin}, {"reasons", std::move(reasons)}};
      }
      o["filter"] = std::move(filter);
      json::object scores;
      for (const auto& s : p.explanation->scored) {
        json::object per_plugin;
        for (const auto& [plugin, score] : s.plugins)
          per_plugin[plugin] = score;
        scores[s.node.view()] = json::object{{"plugins", std::move(per_plugin)},
                                             {"total", s.total}};
      }
      o["scores"] = std::move(scores);
    }
    items.emplace_back(std::move(o));
  }
  std::string out;
  pretty(json::object{{"pods", std::move(items)}}, out, 0);
  out += "\n";
  return out;
}

std::string render_simulation_text(const std::vector<simulated_pod>& pods,
                                   bool explain) {
  std::size_t pod_width = 3;
  std::size_t status_width = 6;
  std::size_t node_width = 4;
  for (const auto& p : pods) {
    pod_width = std::max(pod_width, p.ns.size() + 1 + p.name.size());
    status_width = std::max(status_width, p.status.size());
    node_width = std::max(node_width, p.node.empty() ? 6 : p.node.size());
  }
  auto cell = [](std::string s, std::size_t width) {
    s.resize(std::max(width, s.size()), ' ');
    return s + "  ";
  };
  std::string out = cell("POD", pod_width) + cell("STATUS", status_width)
                    + cell("NODE", node_width) + "MESSAGE\n";
  for (const auto& p : pods) {
    std::string message = p.message;
    if (!p.nominated_node.empty())
      message += (message.empty() ? "" : " ") + std::string{"(nominated "}
                 + p.nominated_node + ")";
    if (!p.victims.empty()) {
      message += " (preempted";
      for (const auto& v : p.victims)
        message += " " + v;
      message += ")";
    }
    out += cell(p.ns + "/" + p.name, pod_width) + cell(p.status, status_width)
           + cell(p.node.empty() ? "<none>" : p.node, node_width) + message;
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
    out += "\n";
    if (!explain || p.explanation == nullptr)
      continue;
    for (const auto& r : p.explanation->rejected) {
      out += "    filter " + std::string{r.node.view()} + ": " + r.plugin + ":";
      for (const auto& reason : r.reasons)
        out += " " + reason + ";";
      out.pop_back();
      out += "\n";
    }
    for (const auto& s : p.explanation->scored) {
      out += "    score  " + std::string{s.node.view()} + ": total "
             + std::to_string(s.total) + " (";
      bool first = true;
      for (const auto& [plugin, score] : s.plugins) {
        if (!first)
          out += ", ";
        first = false;
        out += plugin + " " + std::to_string(score);
      }
      out += ")\n";
    }
  }
  return out;
}

} // namespace tessera::cmd
