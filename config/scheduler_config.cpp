// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/scheduler_config.hpp"

#include "config/config_document.hpp"
#include "config/yaml_reader.hpp"
#include "model/document_file.hpp"
#include "model/yaml_stream.hpp"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace tessera::config {

namespace {

using detail::field_errors;

template <class Sets, class List> List& select(Sets& s, extension_point p) {
  switch (p) {
  case extension_point::pre_enqueue:
    return s.pre_enqueue;
  case extension_point::queue_sort:
    return s.queue_sort;
  case extension_point::pre_filter:
    return s.pre_filter;
  case extension_point::filter:
    return s.filter;
  case extension_point::post_filter:
    return s.post_filter;
  case extension_point::pre_score:
    return s.pre_score;
  case extension_point::score:
    return s.score;
  case extension_point::reserve:
    return s.reserve;
  case extension_point::permit:
    return s.permit;
  case extension_point::pre_bind:
    return s.pre_bind;
  case extension_point::bind:
    return s.bind;
  case extension_point::post_bind:
    return s.post_bind;
  }
  return s.post_bind;
}

std::string shown_or_missing(const std::optional<std::string>& text) {
  return text ? go_quote(*text) : "(missing)";
}

std::string accepted_kinds() {
  return "accepted: apiVersion " + go_quote(detail::scheduler_api_version)
         + " kind " + go_quote(detail::scheduler_kind) + ", apiVersion "
         + go_quote(detail::tessera_api_version) + " kind "
         + go_quote(detail::tessera_kind);
}

// A document's apiVersion or kind as text, when it is a string.
std::optional<std::string> type_field(const YAML::Node& doc,
                                      std::string_view key) {
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == key
        && it->second.IsScalar())
      return it->second.Scalar();
  return std::nullopt;
}

std::string join_unique(const std::vector<std::string>& lines) {
  std::string out;
  std::set<std::string_view> seen;
  for (const auto& line : lines) {
    if (!seen.insert(line).second)
      continue;
    if (!out.empty())
      out += '\n';
    out += line;
  }
  return out;
}

expected<scheduler_config> load(std::string_view text) {
  std::vector<YAML::Node> docs;
  try {
    model::check_yaml_stream(text); // LoadAll itself may never return
    docs = YAML::LoadAll(std::string{text});
  } catch (const YAML::Exception& e) {
    return make_error(ec::invalid_input,
                      "yaml: line " + std::to_string(e.mark.line + 1)
                        + ", column " + std::to_string(e.mark.column + 1) + ": "
                        + e.msg);
  }

  field_errors documents;
  std::optional<YAML::Node> scheduler_doc;
  std::optional<YAML::Node> tessera_doc;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const auto& doc = docs[i];
    if (detail::is_null(doc))
      continue;
    std::string where = "doc " + std::to_string(i + 1) + ": ";
    if (!doc.IsMap()) {
      documents.add(where + "a configuration document must be a mapping, got "
                    + detail::to_json(doc));
      continue;
    }
    auto api_version = type_field(doc, "apiVersion");
    auto kind = type_field(doc, "kind");
    // Each kind may come once: the first document of it is kept.
    auto keep = [&](std::optional<YAML::Node>& slot, std::string_view name) {
      if (slot)
        documents.add(where + "a second " + std::string{name}
                      + " document; only one is allowed");
      else
        slot = doc;
    };
    if (api_version == detail::scheduler_api_version
        && kind == detail::scheduler_kind)
      keep(scheduler_doc, detail::scheduler_kind);
    else if (api_version == detail::tessera_api_version
             && kind == detail::tessera_kind)
      keep(tessera_doc, detail::tessera_kind);
    else {
      std::string line = where + "unsupported document: apiVersion "
                         + shown_or_missing(api_version) + " kind "
                         + shown_or_missing(kind) + "; " + accepted_kinds();
      if (api_version
          && api_version->starts_with("kubescheduler.config.k8s.io/")
          && kind == detail::scheduler_kind)
        line += " (older versions of KubeSchedulerConfiguration must be "
                "converted to v1)";
      documents.add(std::move(line));
    }
  }
  if (!scheduler_doc && documents.empty())
    documents.add("no " + std::string{detail::scheduler_kind}
                  + " document (apiVersion "
                  + go_quote(detail::scheduler_api_version) + ") found");

  std::vector<std::string> lines = documents.lines();
  scheduler_config cfg;
  if (scheduler_doc) {
    field_errors strict;
    auto raw = detail::decode_scheduler_document(*scheduler_doc, strict);
    strict.sort_by_position();
    auto built = detail::build_config(raw);
    cfg = std::move(built.config);
    for (const auto* list : {&strict, &built.invalid, &built.startup})
      lines.insert(lines.end(), list->lines().begin(), list->lines().end());
  }
  if (tessera_doc) {
    field_errors strict;
    field_errors invalid;
    cfg.tessera
      = detail::decode_tessera_document(*tessera_doc, strict, invalid);
    strict.sort_by_position();
    for (const auto* list : {&strict, &invalid})
      for (const auto& line : list->lines())
        lines.push_back(std::string{detail::tessera_kind} + ": " + line);
  }
  if (!lines.empty())
    return make_error(ec::invalid_input, join_unique(lines));
  return cfg;
}

} // namespace

std::vector<plugin_ref>& plugin_sets::at(extension_point p) {
  return select<plugin_sets, std::vector<plugin_ref>>(*this, p);
}

const std::vector<plugin_ref>& plugin_sets::at(extension_point p) const {
  return select<const plugin_sets, const std::vector<plugin_ref>>(*this, p);
}

plugin_set_spec& plugins_spec::at(extension_point p) {
  return select<plugins_spec, plugin_set_spec>(*this, p);
}

const plugin_set_spec& plugins_spec::at(extension_point p) const {
  return select<const plugins_spec, const plugin_set_spec>(*this, p);
}

scheduler_config default_config() {
  return detail::build_config(detail::raw_config{}).config;
}

expected<scheduler_config> load_config(std::string_view text) {
  try {
    return load(text);
  } catch (const std::exception& e) {
    return make_error(ec::invalid_input,
                      std::string{"cannot load configuration: "} + e.what());
  } catch (...) {
    return make_error(ec::internal, "cannot load configuration");
  }
}

expected<scheduler_config> load_config_file(const std::string& path) {
  auto text = model::read_document_file(path);
  if (!text)
    return text.err();
  auto cfg = load_config(*text);
  if (cfg)
    return cfg;
  std::string message;
  std::string_view rest = cfg.err().message;
  while (true) {
    auto nl = rest.find('\n');
    if (!message.empty())
      message += '\n';
    message += path + ": ";
    message += rest.substr(0, nl);
    if (nl == std::string_view::npos)
      break;
    rest.remove_prefix(nl + 1);
  }
  return make_error(cfg.err().code, std::move(message));
}

} // namespace tessera::config
