// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// resource.Quantity's text form. Beyond never crashing, the canonical form
// must parse back to the same value and settle after one read-back, and the
// integer conversions either fit or say so.
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
  // A binary value that no binary suffix fits prints bare ("2000"), which
  // reads back as decimal SI and prints as "2k" — upstream does the same.
  // Any other canonical form is a fixed point, and the second always is.
  std::string second = again->to_string();
  if (second != canonical && q->fmt() != model::quantity::format::binary_si)
    fuzz::finding("the canonical form is not canonical",
                  std::string{text} + " -> " + canonical + " -> " + second);
  auto third = model::quantity::parse(second);
  if (!third || third->to_string() != second)
    fuzz::finding("the canonical form of the read-back value is not canonical",
                  std::string{text} + " -> " + canonical + " -> " + second);
  return 0;
}
