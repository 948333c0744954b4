// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/yaml_writer.hpp"

#include "config/yaml_reader.hpp"

#include <charconv>
#include <cstdio>

namespace tessera::config::detail {

namespace {

bool plain_safe_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
         || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'
         || c == '/';
}

// A string that reads back as the same string when written plain.
bool plain_safe(std::string_view s) {
  if (s.empty())
    return false;
  char first = s.front();
  if (first == '-' || first == '.')
    return false;
  for (char c : s)
    if (!plain_safe_char(c))
      return false;
  return resolve_plain(s) == scalar_type::string;
}

void pad(std::string& out, std::size_t n) {
  out.append(n, ' ');
}

} // namespace

yaml_value yaml_value::str(std::string_view text) {
  yaml_value v;
  v.text_ = plain_safe(text) ? std::string{text} : go_quote(text);
  return v;
}

yaml_value yaml_value::raw(std::string text) {
  yaml_value v;
  v.text_ = std::move(text);
  return v;
}

yaml_value yaml_value::integer(std::int64_t value) {
  return raw(std::to_string(value));
}

yaml_value yaml_value::boolean(bool value) {
  return raw(value ? "true" : "false");
}

yaml_value yaml_value::number(double value) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  if (ec != std::errc{})
    return raw("0");
  return raw(std::string{buf, end});
}

yaml_value yaml_value::map() {
  yaml_value v;
  v.kind_ = kind::map;
  return v;
}

yaml_value yaml_value::list() {
  yaml_value v;
  v.kind_ = kind::list;
  return v;
}

yaml_value& yaml_value::set(std::string key, yaml_value value) {
  entries_.emplace_back(std::move(key), std::move(value));
  return entries_.back().second;
}

yaml_value& yaml_value::push(yaml_value value) {
  items_.push_back(std::move(value));
  return items_.back();
}

void yaml_value::render_entry_value(std::string& out,
                                    std::size_t indent) const {
  switch (kind_) {
  case kind::scalar:
    out += ' ';
    out += text_;
    out += '\n';
    return;
  case kind::map:
    if (entries_.empty()) {
      out += " {}\n";
      return;
    }
    out += '\n';
    render_map(out, indent + 2);
    return;
  case kind::list:
    if (items_.empty()) {
      out += " []\n";
      return;
    }
    out += '\n';
    render_list(out, indent);
    return;
  }
}

void yaml_value::render_map(std::string& out, std::size_t indent) const {
  for (const auto& [key, value] : entries_) {
    pad(out, indent);
    out += plain_safe(key) ? key : go_quote(key);
    out += ':';
    value.render_entry_value(out, indent);
  }
}

void yaml_value::render_list(std::string& out, std::size_t indent) const {
  for (const auto& item : items_) {
    switch (item.kind_) {
    case kind::scalar:
      pad(out, indent);
      out += "- ";
      out += item.text_;
      out += '\n';
      break;
    case kind::map: {
      if (item.entries_.empty()) {
        pad(out, indent);
        out += "- {}\n";
        break;
      }
      // The first entry follows "- "; the rest line up under it.
      std::string body;
      item.render_map(body, indent + 2);
      body.replace(indent, 2, "- ");
      out += body;
      break;
    }
    case kind::list:
      pad(out, indent);
      if (item.items_.empty()) {
        out += "- []\n";
        break;
      }
      out += "-\n";
      item.render_list(out, indent + 2);
      break;
    }
  }
}

std::string yaml_value::render() const {
  std::string out;
  switch (kind_) {
  case kind::map:
    if (entries_.empty())
      return "{}\n";
    render_map(out, 0);
    break;
  case kind::list:
    if (items_.empty())
      return "[]\n";
    render_list(out, 0);
    break;
  case kind::scalar:
    out = text_ + "\n";
    break;
  }
  return out;
}

} // namespace tessera::config::detail
