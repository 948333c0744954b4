// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Runs a thread's body so that no exception leaves it: one that reached
/// std::thread would call std::terminate and take the whole scheduler down
/// with no line saying why. Every thread tessera starts runs its body
/// through one of these two; which one says what the thread's failure
/// means. A body that should outlive a failed item (a pool's loop) still
/// catches around each item itself.
#pragma once

#include "support/internal_error.hpp"

#include <exception>
#include <string_view>
#include <utility>

namespace tessera {

/// Logs `exception escaped thread` with the thread's name and the
/// exception's text. Never throws.
void log_escaped_exception(std::string_view thread,
                           const std::exception_ptr& x) noexcept;

/// Runs `body`; an exception that escapes it is logged with `thread` and
/// ends the body, not the process. Returns false then, so that the caller
/// can tell those waiting on the thread that it is gone.
template <class Body>
[[nodiscard]] bool run_thread_body(std::string_view thread,
                                   Body&& body) noexcept {
  try {
    std::forward<Body>(body)();
    return true;
  } catch (...) {
    log_escaped_exception(thread, std::current_exception());
    return false;
  }
}

/// Runs the body of a thread the process cannot do without (the signal
/// handler, the stop watchdog): an exception that escapes it ends the
/// process through exit_on_internal_error, since carrying on would leave
/// a scheduler that no signal or stop request can end.
template <class Body>
void run_vital_thread_body(std::string_view thread, Body&& body) noexcept {
  try {
    std::forward<Body>(body)();
  } catch (...) {
    exit_on_internal_error("thread", thread,
                           exception_text(std::current_exception()));
  }
}

} // namespace tessera
