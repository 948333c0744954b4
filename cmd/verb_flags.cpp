// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "cmd/verbs.hpp"
#include "support/flags.hpp"

#include <cstdio>

namespace tessera::cmd {

int usage_error(std::string_view verb, std::string_view message) {
  std::fprintf(stderr, "tessera %.*s: %.*s\n", static_cast<int>(verb.size()),
               verb.data(), static_cast<int>(message.size()), message.data());
  return exit_usage;
}

std::optional<int> parse_verb_flags(flag_set& flags, const args& a,
                                    std::string_view verb, args* positionals) {
  auto parsed = flags.parse(a);
  if (!parsed)
    return usage_error(verb, parsed.err().message);
  if (flags.help_requested()) {
    std::fputs(flags.help().c_str(), stdout);
    return exit_ok;
  }
  if (positionals != nullptr)
    *positionals = std::move(*parsed);
  return std::nullopt;
}

} // namespace tessera::cmd
