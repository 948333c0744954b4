// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/yaml_stream.hpp"

#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>

#include <string>

namespace tessera::model {

namespace {

/// Forwards every event, checking where the document starts first.
class guarded_handler final : public YAML::EventHandler {
public:
  guarded_handler(YAML::EventHandler& inner, bool& started, int& line,
                  int& column)
    : inner_(inner), started_(started), line_(line), column_(column) {
  }
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (started_ && mark.line == line_ && mark.column == column_)
      throw YAML::ParserException(mark,
                                  "did not find expected <document start>");
    started_ = true;
    line_ = mark.line;
    column_ = mark.column;
    inner_.OnDocumentStart(mark);
  }
  void OnDocumentEnd() override {
    inner_.OnDocumentEnd();
  }
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    inner_.OnNull(mark, anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    inner_.OnAlias(mark, anchor);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag,
                YAML::anchor_t anchor, const std::string& value) override {
    inner_.OnScalar(mark, tag, anchor, value);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag,
                       YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override {
    inner_.OnSequenceStart(mark, tag, anchor, style);
  }
  void OnSequenceEnd() override {
    inner_.OnSequenceEnd();
  }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag,
                  YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override {
    inner_.OnMapStart(mark, tag, anchor, style);
  }
  void OnMapEnd() override {
    inner_.OnMapEnd();
  }
  void OnAnchor(const YAML::Mark& mark, const std::string& name) override {
    inner_.OnAnchor(mark, name);
  }

private:
  YAML::EventHandler& inner_;
  bool& started_;
  int& line_;
  int& column_;
};

/// Ignores every event.
class no_events final : public YAML::EventHandler {
public:
  void OnDocumentStart(const YAML::Mark&) override {
  }
  void OnDocumentEnd() override {
  }
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {
  }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {
  }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
  }
  void OnSequenceEnd() override {
  }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
  }
  void OnMapEnd() override {
  }
};

} // namespace

yaml_stream::yaml_stream(std::string_view text)
  : in_(std::string{text}), parser_(in_) {
}

bool yaml_stream::next(YAML::EventHandler& handler) {
  guarded_handler guarded{handler, started_, last_line_, last_column_};
  return parser_.HandleNextDocument(guarded);
}

void check_yaml_stream(std::string_view text) {
  yaml_stream stream{text};
  no_events ignore;
  while (stream.next(ignore)) {
  }
}

} // namespace tessera::model
