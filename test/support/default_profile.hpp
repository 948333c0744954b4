// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `default_profile()`: kube-scheduler's default profile (every default
/// plugin, DefaultPreemption included) built from `config::default_config()`
/// and the in-tree registry, for tests and benchmarks that schedule with the
/// real plugins. It is built once per program and shared read-only; a build
/// failure is a bug in the tree, so it prints the error and aborts.
#pragma once

#include "plugins/framework/profile.hpp"

namespace tessera::test {

/// The default profile, built on first use.
plugins::profile_ptr default_profile();

} // namespace tessera::test
