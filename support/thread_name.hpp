// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Names the calling thread, so `top -H`, `ps -L` and profilers tell the
/// scheduler's threads apart (the actors, the binding and status writers,
/// each informer's watch, the servers). Linux keeps at most 15 bytes of a
/// name: longer ones are cut.
#pragma once

#include <string>
#include <string_view>

namespace tessera {

/// The longest thread name the kernel keeps.
inline constexpr std::size_t max_thread_name_length = 15;

/// Sets the calling thread's name (cut to max_thread_name_length bytes). A
/// hint: a failure leaves the old name.
void set_thread_name(std::string_view name) noexcept;

/// The calling thread's name, or empty when it cannot be read.
std::string thread_name();

} // namespace tessera
