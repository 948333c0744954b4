// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// resource.Quantity's text form. Beyond never crashing, the canonical form
// must parse back to the same value, and the integer conversions either
// fit or say so.
#include "fuzz/fuzz_input.hpp"
#include "model/quantity.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto text = fuzz::as_text(data, size);
  auto q = model::quantity::parse(text);
  if (!q)
    return 0;
  auto v = q->value();
  auto m = q->milli_value();
  (void)v;
  (void)m;
  std::string canonical = q->to_string();
  auto again = model::quantity::parse(canonical);
  if (!again)
    fuzz::finding("the canonical form does not parse",
                  std::string{text} + " -> " + canonical + ": "
                    + again.err().message);
  if (!(*again == *q))
    fuzz::finding("the canonical form has another value",
                  std::string{text} + " -> " + canonical + " -> "
                    + again->to_string());
  if (again->to_string() != canonical)
    fuzz::finding("the canonical form is not canonical",
                  std::string{text} + " -> " + canonical + " -> "
                    + again->to_string());
  return 0;
}
