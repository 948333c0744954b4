// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/exit_on_exception.hpp"

#include "support/internal_error.hpp"

#include <caf/all.hpp>

namespace tessera::actors {

void exit_on_exception(caf::scheduled_actor* self) {
  self->set_exception_handler(
    [](caf::scheduled_actor* a, std::exception_ptr& x) -> caf::error {
      exit_on_internal_error("actor", a->name(), exception_text(x));
    });
}

} // namespace tessera::actors
