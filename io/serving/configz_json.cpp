// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/serving/configz.hpp"

#include <boost/json.hpp>
#include <yaml-cpp/yaml.h>

#include <charconv>

namespace tessera::serving {

namespace {

namespace json = boost::json;

// A plain scalar as YAML 1.2's core schema reads it.
json::value scalar(const YAML::Node& n) {
  const std::string& s = n.Scalar();
  if (n.Tag() == "!") // quoted: always a string
    return json::string{s};
  if (s == "true" || s == "True" || s == "TRUE")
    return true;
  if (s == "false" || s == "False" || s == "FALSE")
    return false;
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL")
    return nullptr;
  std::int64_t i = 0;
  auto [ip, iec] = std::from_chars(s.data(), s.data() + s.size(), i);
  if (iec == std::errc{} && ip == s.data() + s.size())
    return i;
  double d = 0;
  auto [dp, dec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (dec == std::errc{} && dp == s.data() + s.size())
    return d;
  return json::string{s};
}

json::value convert(const YAML::Node& n) {
  switch (n.Type()) {
  case YAML::NodeType::Map: {
    json::object o;
    for (const auto& kv : n)
      o[kv.first.as<std::string>()] = convert(kv.second);
    return o;
  }
  case YAML::NodeType::Sequence: {
    json::array a;
    for (const auto& item : n)
      a.push_back(convert(item));
    return a;
  }
  case YAML::NodeType::Scalar:
    return scalar(n);
  case YAML::NodeType::Null:
  case YAML::NodeType::Undefined:
    break;
  }
  return nullptr;
}

} // namespace

expected<std::string> configz_json(std::string_view yaml) {
  try {
    YAML::Node doc = YAML::Load(std::string{yaml});
    json::object out;
    out["componentconfig"] = convert(doc);
    return json::serialize(out);
  } catch (const YAML::Exception& e) {
    return make_error(ec::invalid_input,
                      std::string{"configz: the effective configuration is "
                                  "not valid YAML: "}
                        + e.what());
  }
}

} // namespace tessera::serving
