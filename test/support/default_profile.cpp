// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/support/default_profile.hpp"

#include "config/scheduler_config.hpp"
#include "plugins/framework/registry.hpp"
#include "test/support/builders.hpp"

namespace tessera::test {

plugins::profile_ptr default_profile() {
  static const plugins::profile_ptr prof = [] {
    auto cfg = config::default_config();
    auto built = plugins::profile::build(cfg.profiles.front(),
                                         plugins::make_in_tree_registry(),
                                         cfg.percentage_of_nodes_to_score);
    if (!built)
      builder_failure("default profile: " + built.err().message);
    return *built;
  }();
  return prof;
}

} // namespace tessera::test
