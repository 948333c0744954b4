// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "cmd/verbs.hpp"
#include "support/flags.hpp"

#include <cstdio>

namespace tessera::cmd {

std::optional<int> parse_verb_flags(flag_set& flags, const args& a,
                                    std::string_view verb, args* positionals) {
  auto parsed = flags.parse(a);
  if (!parsed) {
    std::fprintf(stderr, "tessera %.*s: %s\n", static_cast<int>(verb.size()),
                 verb.data(), parsed.err().message.c_str());
    return exit_usage;
  }
  if (flags.help_requested()) {
    std::fputs(flags.help().c_str(), stdout);
    return exit_ok;
  }
  if (positionals != nullptr)
    *positionals = std::move(*parsed);
  return std::nullopt;
}

} // namespace tessera::cmd
