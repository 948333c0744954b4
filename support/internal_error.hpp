// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// What the process does on an internal error: an exception that escaped
/// work that cannot go on without it (an actor's handler, the signal or the
/// stop watchdog thread). Such a process must not linger: a scheduler whose
/// pipeline lost an actor would keep its leader lease while scheduling
/// nothing. It logs one line and exits with `exit_internal_error`, so that
/// its supervisor restarts it and the lease passes on once it expires.
#pragma once

#include <exception>
#include <string>
#include <string_view>

namespace tessera {

/// The exit code of a process ended by an internal error: sysexits'
/// EX_SOFTWARE, apart from 1 (a runtime failure such as a lost lease) and 2
/// (bad flags or input), so supervisors and alerts tell a bug from the rest.
inline constexpr int exit_internal_error = 70;

/// The text of `x`: its what(), or "unknown exception" for a type not
/// derived from std::exception.
std::string exception_text(const std::exception_ptr& x) noexcept;

/// Logs `internal error; exiting` with `kind`=`name` (for example "actor",
/// "shard-0"), the error text and the exit code, then ends the process with
/// exit_internal_error. It uses std::_Exit, not std::exit: the other
/// threads keep running, and static destructors would pull their objects
/// from under them.
[[noreturn]] void exit_on_internal_error(std::string_view kind,
                                         std::string_view name,
                                         std::string_view error) noexcept;

} // namespace tessera
