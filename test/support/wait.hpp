// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `eventually`: polls a condition that another thread makes true, for
/// tests of controllers and sinks that work in the background.
#pragma once

#include <chrono>
#include <functional>

namespace tessera::test {

/// True as soon as `pred` holds, checked every 10 ms; false when it still
/// does not after `limit`.
bool eventually(const std::function<bool()>& pred,
                std::chrono::milliseconds limit = std::chrono::seconds(5));

} // namespace tessera::test
