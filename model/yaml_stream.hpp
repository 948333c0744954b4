// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `yaml_stream`: the documents of a YAML stream, one at a time, through
/// yaml-cpp's event parser, with a guard against yaml-cpp 0.7 (Debian 12)
/// looping forever. That version never consumes a ',' standing where a
/// document's root node would start (`"",`, `[1],`, `!!str ,`): each
/// `Parser::HandleNextDocument` reports one more empty document at the same
/// place, so a loop over the documents never ends and `YAML::LoadAll`
/// collects them until memory runs out. A document that starts where the
/// previous one started is refused here with a `YAML::ParserException`
/// ("did not find expected <document start>", as Kubernetes' YAML library
/// puts it), which callers already handle as bad YAML.
#pragma once

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <cstddef>
#include <sstream>
#include <string_view>

namespace tessera::model {

class yaml_stream {
public:
  explicit yaml_stream(std::string_view text);

  /// Sends the next document's events to `handler`; false at the end of the
  /// stream. Throws YAML::Exception on bad YAML.
  bool next(YAML::EventHandler& handler);

private:
  std::istringstream in_;
  YAML::Parser parser_;
  bool started_ = false;
  int last_line_ = 0;
  int last_column_ = 0;
};

/// Walks every document of `text` as `yaml_stream` does and throws what it
/// throws: run before `YAML::LoadAll`, which has no such guard.
void check_yaml_stream(std::string_view text);

} // namespace tessera::model
