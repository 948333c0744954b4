// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/version.hpp"

#include "cmd/verbs.hpp"
#include "support/flags.hpp"

#include <boost/version.hpp>
#include <caf/config.hpp>

#include <cstdio>
#include <string>

#ifdef TESSERA_JEMALLOC
#include <jemalloc/jemalloc.h>
#else
#include <gnu/libc-version.h>
#endif

namespace tessera::cmd {

namespace {

/// The malloc serving this process, as it names itself.
std::string malloc_in_use() {
#ifdef TESSERA_JEMALLOC
  const char* v = nullptr;
  std::size_t size = sizeof(v);
  std::string out = "jemalloc ";
  out += mallctl("version", &v, &size, nullptr, 0) == 0 && v != nullptr
           ? v
           : "(version unknown)";
  // Whether it asks for huge pages (cmd/malloc_conf.cpp, or MALLOC_CONF).
  const char* thp = nullptr;
  size = sizeof(thp);
  if (mallctl("opt.thp", &thp, &size, nullptr, 0) == 0 && thp != nullptr)
    out += std::string{" (thp:"} + thp + ")";
  return out;
#else
  return std::string{"glibc "} + gnu_get_libc_version();
#endif
}

} // namespace

int version_main(const args& a) {
  flag_set flags{"tessera version"};
  if (auto done = parse_verb_flags(flags, a, "version"))
    return *done;
  std::printf("tessera %s\n", build::version);
  std::printf("follows:    kube-scheduler %s\n", build::kube_scheduler_version);
  std::printf("git commit: %s\n", build::git_commit);
  std::printf("build type: %s\n", build::build_type);
  std::printf("compiler:   %s\n", build::compiler);
  std::printf("CAF:        %d.%d.%d\n", CAF_MAJOR_VERSION, CAF_MINOR_VERSION,
              CAF_PATCH_VERSION);
  std::printf("Boost:      %d.%d.%d\n", BOOST_VERSION / 100000,
              BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100);
  std::printf("malloc:     %s\n", malloc_in_use().c_str());
  return exit_ok;
}

} // namespace tessera::cmd
