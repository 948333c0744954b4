// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/support/exposition.hpp"

#include <regex>
#include <sstream>
#include <stdexcept>

namespace tessera::test {

std::vector<exposition_sample> parse_exposition(const std::string& text) {
  static const std::regex line_re{
    R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$)"};
  static const std::regex label_re{R"re(([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)")re"};
  std::vector<exposition_sample> out;
  std::istringstream in{text};
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::smatch m;
    if (!std::regex_match(line, m, line_re))
      throw std::invalid_argument{"unparsable exposition line: " + line};
    exposition_sample s;
    s.name = m[1];
    std::string labels = m[3];
    for (std::sregex_iterator it{labels.begin(), labels.end(), label_re}, end;
         it != end; ++it)
      s.labels[(*it)[1]] = (*it)[2];
    s.value = std::stod(m[4]);
    out.push_back(std::move(s));
  }
  return out;
}

} // namespace tessera::test
