// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `eventually`: polls a condition that another thread makes true, for
/// tests of controllers and sinks that work in the background.
/// `finishes_within`: runs a call that must not hang.
#pragma once

#include <chrono>
#include <functional>

namespace tessera::test {

/// True as soon as `pred` holds, checked every 10 ms; false when it still
/// does not after `limit`.
bool eventually(const std::function<bool()>& pred,
                std::chrono::milliseconds limit = std::chrono::seconds(5));

/// Runs `work` on another thread and waits at most `limit` for it. A call
/// still running then cannot be stopped: the test binary prints which one
/// and exits with status 1 at once, so a hang fails quickly instead of at
/// ctest's timeout.
void finishes_within(const char* what, const std::function<void()>& work,
                     std::chrono::milliseconds limit
                     = std::chrono::seconds(10));

} // namespace tessera::test
