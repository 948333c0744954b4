// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// The string form of label selectors (`?labelSelector=`): the model's parser
// (symbols, for the scheduler) and the embedded API server's (plain
// strings). The model's string form must parse back to the same selector.
#include "fuzz/fuzz_input.hpp"
#include "io/apiserver/selector.hpp"
#include "model/labels.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto text = fuzz::as_text(data, size);

  if (auto s = model::label_selector::parse(text)) {
    std::string written = s->to_string();
    auto again = model::label_selector::parse(written);
    if (!again)
      fuzz::finding("label_selector::to_string does not parse",
                    std::string{text} + " -> " + written + ": "
                      + again.err().message);
    if (!(*again == *s))
      fuzz::finding("label_selector::to_string names another selector",
                    std::string{text} + " -> " + written + " -> "
                      + again->to_string());
  }

  if (auto s = apiserver::selector::parse_labels(text)) {
    const std::pair<std::string_view, std::string_view> labels[]
      = {{"app", "web"}, {"tier", ""}, {"k8s.io/name", "x"}};
    const apiserver::object_attrs attrs{{}, {}, labels};
    bool matched = s->matches(attrs);
    (void)matched;
  }
  return 0;
}
