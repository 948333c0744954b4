// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// What an exception escaping a pipeline actor's handler does. CAF 0.17's
/// default prints a line to stdout (not the log) and ends only that actor;
/// nothing in the pipeline watches the others, so the rest would wait on
/// it for ever while the scheduler kept its lease and looked healthy. Every
/// pipeline actor instead ends the whole process on such an exception,
/// loudly: see support/internal_error.hpp.
#pragma once

#include <caf/fwd.hpp>

namespace tessera::actors {

/// Makes an exception that escapes one of `self`'s handlers (or the rest
/// of its behavior function) log `internal error; exiting` with the actor's
/// name and the exception's text, and end the process with
/// exit_internal_error. Call it first in the behavior function.
void exit_on_exception(caf::scheduled_actor* self);

} // namespace tessera::actors
