// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `parse_exposition`: reads the Prometheus text format that `/metrics`
/// serves back into samples, so tests can check rendered series by name and
/// labels instead of matching text. Comment lines are skipped; a line that
/// is not `name{labels} value` throws, which fails the calling test.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace tessera::test {

/// One sample line of the text format: `name{labels} value`.
struct exposition_sample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

/// Every sample of `text`, in order; throws std::invalid_argument naming
/// the first line that is not a sample.
std::vector<exposition_sample> parse_exposition(const std::string& text);

} // namespace tessera::test
