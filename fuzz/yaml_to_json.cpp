// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// YAML text to one JSON text per document, as templates, cluster files and
// perf workloads are read. Every JSON text it gives must parse as JSON.
#include "fuzz/fuzz_input.hpp"
#include "model/decode.hpp"

#include <boost/json/parse.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto docs = model::yaml_documents_to_json(fuzz::as_text(data, size));
  if (!docs)
    return 0;
  for (const auto& doc : *docs) {
    boost::json::error_code ec;
    boost::json::parse_options deep;
    deep.max_depth = 1024; // the converter allows 64 YAML levels
    auto v = boost::json::parse(doc, ec, {}, deep);
    (void)v;
    if (ec)
      fuzz::finding("yaml_documents_to_json gave text that is not JSON",
                    ec.message() + ": " + doc);
  }
  return 0;
}
