// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/text.hpp"

#include <cstdio>

namespace tessera {

namespace {

// Appends the escape of `c` if it is one of the five characters both quoting
// styles spell alike; false otherwise.
bool append_common_escape(std::string& out, unsigned char c) {
  switch (c) {
  case '"':
    out += "\\\"";
    return true;
  case '\\':
    out += "\\\\";
    return true;
  case '\n':
    out += "\\n";
    return true;
  case '\t':
    out += "\\t";
    return true;
  case '\r':
    out += "\\r";
    return true;
  default:
    return false;
  }
}

} // namespace

void append_json_escaped(std::string& out, std::string_view text) {
  for (unsigned char c : text) {
    if (append_common_escape(out, c))
      continue;
    if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
}

void append_json_quoted(std::string& out, std::string_view text) {
  out += '"';
  append_json_escaped(out, text);
  out += '"';
}

std::string json_quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  append_json_quoted(out, text);
  return out;
}

std::string go_quote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (unsigned char c : text) {
    if (append_common_escape(out, c))
      continue;
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
  return out;
}

std::string_view trim_blanks(std::string_view text) noexcept {
  constexpr std::string_view blanks = " \t\n\v\f\r";
  auto first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos)
    return {};
  auto last = text.find_last_not_of(blanks);
  return text.substr(first, last - first + 1);
}

} // namespace tessera
