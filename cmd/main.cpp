// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "cmd/verbs.hpp"

#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

namespace {

constexpr const char* usage
  = R"(tessera: a Kubernetes pod scheduler built as an actor system

Usage: tessera <verb> [flags]

Verbs:
  run        schedule pods of a kube-apiserver (drop-in for kube-scheduler)
  simulate   schedule the pending pods of object files offline and explain
  cluster    run the embedded kwok-style API server with fake nodes
  perf       run scheduler_perf-style workloads and report throughput
  version    print version and build information

Run 'tessera <verb> --help' for the flags of a verb.
)";

struct verb {
  std::string_view name;
  int (*main)(const tessera::cmd::args&);
};

constexpr verb verbs[] = {
  {"run", tessera::cmd::run_main},
  {"simulate", tessera::cmd::simulate_main},
  {"cluster", tessera::cmd::cluster_main},
  {"perf", tessera::cmd::perf_main},
  {"version", tessera::cmd::version_main},
};

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(usage, stderr);
    return tessera::cmd::exit_usage;
  }
  std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    std::fputs(usage, stdout);
    return tessera::cmd::exit_ok;
  }
  if (name == "--version")
    name = "version";
  tessera::cmd::args rest(argv + 2, argv + argc);
  for (const auto& v : verbs) {
    if (v.name != name)
      continue;
    try {
      return v.main(rest);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tessera %s: internal error: %s\n", argv[1],
                   e.what());
      return tessera::cmd::exit_failure;
    } catch (...) {
      std::fprintf(stderr, "tessera %s: internal error: unknown exception\n",
                   argv[1]);
      return tessera::cmd::exit_failure;
    }
  }
  std::fprintf(stderr,
               "tessera: unknown verb \"%s\"\nRun 'tessera --help' for the "
               "list of verbs.\n",
               argv[1]);
  return tessera::cmd::exit_usage;
}
