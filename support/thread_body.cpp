// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/thread_body.hpp"

#include "support/log.hpp"

namespace tessera {

void log_escaped_exception(std::string_view thread,
                           const std::exception_ptr& x) noexcept {
  try {
    TLOG_ERROR("exception escaped thread", "thread", thread, "error",
               exception_text(x));
  } catch (...) {
    // Logging itself failed (out of memory); nothing more can be said.
  }
}

} // namespace tessera
