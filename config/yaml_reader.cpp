// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/yaml_reader.hpp"

#include "support/flags.hpp"
#include "support/yaml_words.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tessera::config::detail {

namespace {

constexpr std::string_view tag_prefix = "tag:yaml.org,2002:";

bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}

// Decimal ([-+]?[0-9]+) or hexadecimal (0x...) integer text.
std::optional<std::int64_t> plain_int(std::string_view t) noexcept {
  bool negative = false;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    negative = t[0] == '-';
    t.remove_prefix(1);
  }
  if (t.empty())
    return std::nullopt;
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  for (char c : t)
    if (!(is_digit(c)
          || (base == 16
              && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))))
      return std::nullopt;
  std::uint64_t magnitude = 0;
  auto [end, ec]
    = std::from_chars(t.data(), t.data() + t.size(), magnitude, base);
  if (ec != std::errc{} || end != t.data() + t.size())
    return std::nullopt;
  constexpr auto max
    = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (negative) {
    if (magnitude > max + 1)
      return std::nullopt;
    return magnitude == max + 1 ? std::numeric_limits<std::int64_t>::min()
                                : -static_cast<std::int64_t>(magnitude);
  }
  if (magnitude > max)
    return std::nullopt;
  return static_cast<std::int64_t>(magnitude);
}

// True for text that looks like an integer but overflows int64.
bool huge_int(std::string_view t) noexcept {
  if (!t.empty() && (t[0] == '-' || t[0] == '+'))
    t.remove_prefix(1);
  if (t.empty())
    return false;
  for (char c : t)
    if (!is_digit(c))
      return false;
  return true;
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? and the infinities.
std::optional<double> plain_float(std::string_view t) noexcept {
  if (auto special = yaml_special_float(t))
    return special;
  std::string_view s = t;
  if (!s.empty() && (s[0] == '-' || s[0] == '+'))
    s.remove_prefix(1);
  std::size_t i = 0;
  std::size_t int_digits = 0;
  while (i < s.size() && is_digit(s[i])) {
    ++i;
    ++int_digits;
  }
  std::size_t frac_digits = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) {
      ++i;
      ++frac_digits;
    }
  }
  if (int_digits == 0 && frac_digits == 0)
    return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+'))
      ++i;
    std::size_t exp_digits = 0;
    while (i < s.size() && is_digit(s[i])) {
      ++i;
      ++exp_digits;
    }
    if (exp_digits == 0)
      return std::nullopt;
  }
  if (i != s.size())
    return std::nullopt;
  std::string text{t[0] == '+' ? t.substr(1) : t};
  if (text.starts_with('.'))
    text.insert(text.begin(), '0');
  if (text.starts_with("-."))
    text.insert(text.begin() + 1, '0');
  double value = 0;
  auto [end, ec]
    = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

std::string format_double(double v) {
  if (std::isnan(v) || std::isinf(v))
    return v > 0 ? "+Inf" : (v < 0 ? "-Inf" : "NaN");
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc{})
    return "0";
  return std::string{buf, end};
}

// The JSON text of a scalar node that resolves to `type`.
std::string scalar_json(const YAML::Node& node, scalar_type type) {
  const std::string& t = node.Scalar();
  switch (type) {
  case scalar_type::null:
    return "null";
  case scalar_type::boolean:
    return *yaml_bool(t) ? "true" : "false";
  case scalar_type::integer:
    if (auto v = plain_int(t))
      return std::to_string(*v);
    return t[0] == '+' ? t.substr(1) : t;
  case scalar_type::floating: {
    auto v = plain_float(t);
    if (!v || std::isnan(*v) || std::isinf(*v)) {
      std::string out;
      append_json_quoted(out, t);
      return out;
    }
    return format_double(*v);
  }
  case scalar_type::string:
    break;
  }
  std::string out;
  append_json_quoted(out, t);
  return out;
}

// Nesting deeper than this is cut short: anchors and aliases can make a
// document refer to itself, and no configuration value nests this deep.
constexpr int max_json_depth = 64;

// Appends `open`, each element of `node` through `each` (given the
// iterator), comma-separated, then `close`.
template <class Each>
void append_elements(std::string& out, const YAML::Node& node, char open,
                     char close, Each each) {
  out += open;
  bool first = true;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!first)
      out += ',';
    first = false;
    each(it);
  }
  out += close;
}

void append_json(std::string& out, const YAML::Node& node, int depth) {
  if (depth > max_json_depth) {
    out += "\"...\"";
    return;
  }
  switch (node.Type()) {
  case YAML::NodeType::Map:
    append_elements(out, node, '{', '}', [&](const auto& it) {
      append_json_quoted(out, it->first.Scalar());
      out += ':';
      append_json(out, it->second, depth + 1);
    });
    return;
  case YAML::NodeType::Sequence:
    append_elements(out, node, '[', ']',
                    [&](const auto& it) { append_json(out, *it, depth + 1); });
    return;
  case YAML::NodeType::Scalar:
    out += scalar_json(node, resolve(node));
    return;
  default:
    out += "null";
  }
}

void wrong_type(const YAML::Node& node, std::string_view path,
                field_errors& errors, std::string_view what) {
  errors.invalid(path, show_node(node), what);
  errors.set_position(position_of(node));
}

} // namespace

long position_of(const YAML::Node& node) {
  if (!node.IsDefined())
    return -1;
  auto mark = node.Mark();
  return mark.is_null() ? -1 : static_cast<long>(mark.pos);
}

scalar_type resolve_plain(std::string_view t) {
  if (is_yaml_null(t))
    return scalar_type::null;
  if (yaml_bool(t))
    return scalar_type::boolean;
  if (plain_int(t) || huge_int(t))
    return scalar_type::integer;
  if (plain_float(t))
    return scalar_type::floating;
  return scalar_type::string;
}

bool is_null(const YAML::Node& node) {
  return !node.IsDefined() || resolve(node) == scalar_type::null;
}

scalar_type resolve(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull())
    return scalar_type::null;
  if (!node.IsScalar())
    return scalar_type::string;
  const std::string& tag = node.Tag();
  if (tag == "!")
    return scalar_type::string;
  if (tag.starts_with(tag_prefix)) {
    std::string_view kind = std::string_view{tag}.substr(tag_prefix.size());
    if (kind == "str")
      return scalar_type::string;
    if (kind == "null")
      return scalar_type::null;
    if (kind == "bool" && yaml_bool(node.Scalar()))
      return scalar_type::boolean;
    if (kind == "int" && plain_int(node.Scalar()))
      return scalar_type::integer;
    if (kind == "float" && plain_float(node.Scalar()))
      return scalar_type::floating;
    return scalar_type::string;
  }
  return resolve_plain(node.Scalar());
}

std::string to_json(const YAML::Node& node) {
  std::string out;
  append_json(out, node, 0);
  return out;
}

std::string show_node(const YAML::Node& node) {
  if (node.IsDefined() && node.IsScalar()) {
    auto type = resolve(node);
    if (type == scalar_type::string)
      return go_quote(node.Scalar());
    return scalar_json(node, type);
  }
  // Error messages show at most this much of a list or object.
  constexpr std::size_t max_shown = 200;
  auto text = to_json(node);
  if (text.size() > max_shown) {
    text.resize(max_shown);
    text += "...";
  }
  return text;
}

object_reader::object_reader(const YAML::Node& node, std::string path,
                             field_errors& strict)
  : path_(std::move(path)), strict_(strict), position_(position_of(node)) {
  if (is_null(node))
    return;
  if (!node.IsMap()) {
    strict_.invalid(path_.empty() ? std::string_view{"<root>"} : path_,
                    show_node(node), "must be an object");
    strict_.set_position(position_);
    ok_ = false;
    return;
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    std::string key
      = it->first.IsScalar() ? it->first.Scalar() : to_json(it->first);
    bool seen = false;
    for (const auto& e : entries_)
      if (e.key == key)
        seen = true;
    if (seen) {
      strict_.duplicate_field(child(path_, key));
      strict_.set_position(position_of(it->first));
      continue;
    }
    entries_.push_back(
      entry{std::move(key), it->second, position_of(it->first), false});
  }
}

object_reader::~object_reader() {
  for (const auto& e : entries_)
    if (!e.used) {
      strict_.unknown_field(child(path_, e.key));
      strict_.set_position(e.position);
    }
}

std::optional<YAML::Node> object_reader::get(std::string_view key) {
  for (auto& e : entries_)
    if (e.key == key) {
      e.used = true;
      if (is_null(e.value))
        return std::nullopt;
      return e.value;
    }
  return std::nullopt;
}

bool object_reader::has(std::string_view key) const {
  for (const auto& e : entries_)
    if (e.key == key)
      return true;
  return false;
}

void object_reader::skip(std::string_view key) {
  for (auto& e : entries_)
    if (e.key == key)
      e.used = true;
}

void object_reader::skip_all() {
  for (auto& e : entries_)
    e.used = true;
}

std::string object_reader::path(std::string_view key) const {
  return child(path_, key);
}

std::optional<std::int64_t> read_int64(const YAML::Node& node,
                                       std::string_view path,
                                       field_errors& errors) {
  auto type = resolve(node);
  if (type == scalar_type::integer) {
    if (auto v = plain_int(node.Scalar()))
      return v;
    wrong_type(node, path, errors, "must be a 64-bit integer");
    return std::nullopt;
  }
  if (type == scalar_type::floating) {
    // sigs.k8s.io/yaml turns an integral float such as 5.0 into the JSON
    // number 5, which then fits an integer field.
    auto v = plain_float(node.Scalar());
    if (v && std::isfinite(*v) && std::trunc(*v) == *v
        && std::fabs(*v) < 9.2e18)
      return static_cast<std::int64_t>(*v);
  }
  wrong_type(node, path, errors, "must be an integer");
  return std::nullopt;
}

std::optional<std::int32_t> read_int32(const YAML::Node& node,
                                       std::string_view path,
                                       field_errors& errors) {
  field_errors local;
  auto v = read_int64(node, path, local);
  if (!v) {
    if (!local.empty() && local.lines().front().ends_with("64-bit integer"))
      wrong_type(node, path, errors, "must be a 32-bit integer");
    else
      errors.append(local);
    return std::nullopt;
  }
  if (*v < std::numeric_limits<std::int32_t>::min()
      || *v > std::numeric_limits<std::int32_t>::max()) {
    wrong_type(node, path, errors, "must be a 32-bit integer");
    return std::nullopt;
  }
  return static_cast<std::int32_t>(*v);
}

std::optional<double> read_number(const YAML::Node& node, std::string_view path,
                                  field_errors& errors) {
  auto type = resolve(node);
  if (type == scalar_type::integer) {
    if (auto v = plain_int(node.Scalar()))
      return static_cast<double>(*v);
  }
  if (type == scalar_type::floating) {
    auto v = plain_float(node.Scalar());
    if (v && std::isfinite(*v))
      return v;
  }
  wrong_type(node, path, errors, "must be a number");
  return std::nullopt;
}

std::optional<bool> read_bool(const YAML::Node& node, std::string_view path,
                              field_errors& errors) {
  if (resolve(node) == scalar_type::boolean)
    return yaml_bool(node.Scalar());
  wrong_type(node, path, errors, "must be a boolean");
  return std::nullopt;
}

std::optional<std::string> read_string(const YAML::Node& node,
                                       std::string_view path,
                                       field_errors& errors) {
  if (node.IsScalar() && resolve(node) == scalar_type::string)
    return node.Scalar();
  wrong_type(node, path, errors, "must be a string");
  return std::nullopt;
}

std::optional<std::chrono::milliseconds> read_duration(const YAML::Node& node,
                                                       std::string_view path,
                                                       field_errors& errors) {
  if (!node.IsScalar() || resolve(node) != scalar_type::string) {
    wrong_type(node, path, errors, "must be a duration string such as \"15s\"");
    return std::nullopt;
  }
  auto d = parse_duration(node.Scalar());
  if (!d) {
    errors.invalid(path, go_quote(node.Scalar()), d.err().message);
    errors.set_position(position_of(node));
    return std::nullopt;
  }
  return *d;
}

bool expect_list(const YAML::Node& node, std::string_view path,
                 field_errors& errors) {
  if (node.IsSequence())
    return true;
  wrong_type(node, path, errors, "must be a list");
  return false;
}

std::optional<std::vector<std::string>> read_string_list(const YAML::Node& node,
                                                         std::string_view path,
                                                         field_errors& errors) {
  if (!expect_list(node, path, errors))
    return std::nullopt;
  std::vector<std::string> out;
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i) {
    if (is_null(*it)) {
      // Go decodes a null list item into the zero value.
      out.emplace_back();
      continue;
    }
    if (auto s = read_string(*it, index(path, i), errors))
      out.push_back(std::move(*s));
  }
  return out;
}

} // namespace tessera::config::detail
