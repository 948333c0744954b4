// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// A manifest file as `simulate -f` reads it: the document checks of the
// file reader and decode_manifest (JSON or multi-document YAML, lists,
// defaulting). Each promises an error, never a crash, whatever the other
// said, so both always run.
#include "fuzz/fuzz_input.hpp"
#include "model/decode.hpp"
#include "model/document_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto text = fuzz::as_text(data, size);
  auto text_problem = model::check_document_text(text);
  auto key_problem = model::check_duplicate_keys(text);
  auto m = model::decode_manifest(text);
  (void)text_problem;
  (void)key_problem;
  (void)m;
  return 0;
}
