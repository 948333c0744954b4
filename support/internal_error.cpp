// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/internal_error.hpp"

#include "support/log.hpp"

#include <cstdlib>
#include <unistd.h>

namespace tessera {

std::string exception_text(const std::exception_ptr& x) noexcept {
  try {
    try {
      std::rethrow_exception(x);
    } catch (const std::exception& e) {
      return e.what();
    } catch (...) {
      return "unknown exception";
    }
  } catch (...) {
    // Copying the text ran out of memory.
    return {};
  }
}

void exit_on_internal_error(std::string_view kind, std::string_view name,
                            std::string_view error) noexcept {
  try {
    TLOG_ERROR("internal error; exiting", kind, name, "error", error,
               "exitCode", exit_internal_error);
  } catch (...) {
    // The log line could not be built (out of memory): say it plainly.
    static constexpr std::string_view fallback
      = "internal error; exiting (the log line failed)\n";
    [[maybe_unused]] auto n = ::write(2, fallback.data(), fallback.size());
  }
  std::_Exit(exit_internal_error);
}

} // namespace tessera
