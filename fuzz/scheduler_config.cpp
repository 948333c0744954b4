// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// A --config file as the verbs load it: the file reader's document checks,
// then strict decoding, defaulting and validation of the
// KubeSchedulerConfiguration (and TesseraConfiguration). A configuration
// that loads must survive its own --write-config-to output unchanged.
#include "config/scheduler_config.hpp"

#include "fuzz/fuzz_input.hpp"
#include "model/document_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto text = fuzz::as_text(data, size);
  if (model::check_document_text(text))
    return 0;
  auto cfg = config::load_config(text);
  if (!cfg)
    return 0;
  std::string written = config::write_config(*cfg);
  auto again = config::load_config(written);
  if (!again)
    fuzz::finding("write_config's output does not load",
                  again.err().message + "\n" + written);
  if (!(*again == *cfg))
    fuzz::finding("write_config's output loads as another configuration",
                  written);
  return 0;
}
