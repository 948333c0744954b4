// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "cmd/scheduler_setup.hpp"

#include "plugins/framework/registry.hpp"
#include "support/log.hpp"

#include <fstream>
#include <thread>

namespace tessera::cmd {

void knob_flags::add_to(flag_set& flags) {
  flags.add("config", config_path,
            "KubeSchedulerConfiguration file (YAML or JSON), optionally with "
            "a TesseraConfiguration document");
  flags.add("write-config-to", write_config_to,
            "write the effective configuration to this file and exit");
  flags.add("shards", shards, "node shards (default: number of cores)");
  flags.add("max-inflight-cycles", max_inflight_cycles,
            "scheduling cycles in flight at once (default: 4 x cores)");
  flags.add("bind-concurrency", bind_concurrency,
            "bindings in flight at once (default 64)");
  flags.add("feature-gates", feature_gates,
            "kube-scheduler feature gates as Name=true,Other=false (the "
            "scheduler gates of 1.37; see docs/operations.md for what tessera "
            "does with each)");
}

namespace {

// A config file that enables DynamicResources loads, but the plugin only
// refuses pods with resource claims; say so once per profile, so that an
// operator who expects claims to be allocated learns it at start-up.
void warn_about_refusing_plugins(const knob_flags& flags,
                                 const config::scheduler_config& cfg) {
  if (flags.config_path.empty())
    return;
  for (const auto& prof : cfg.profiles)
    for (const auto& ref : prof.plugins.pre_filter)
      if (ref.name == "DynamicResources")
        TLOG_WARN("plugin DynamicResources refuses pods with resource claims: "
                  "tessera does not allocate dynamic resources yet",
                  "profile", prof.scheduler_name, "config", flags.config_path);
}

} // namespace

expected<scheduler_setup> load_scheduler_setup(const knob_flags& flags) {
  scheduler_setup setup;
  if (flags.config_path.empty()) {
    setup.config = config::default_config();
  } else {
    auto loaded = config::load_config_file(flags.config_path);
    if (!loaded)
      return loaded.err();
    setup.config = std::move(*loaded);
  }
  if (auto e = setup.config.gates.set(flags.feature_gates))
    return make_error(ec::invalid_input, "invalid argument \""
                                           + flags.feature_gates
                                           + "\" for \"--feature-gates\" "
                                             "flag: "
                                           + e.message);
  auto& knobs = setup.config.tessera;
  auto check = [](const char* flag, const std::optional<int>& v, int minimum,
                  int maximum) -> error {
    if (!v || (*v >= minimum && *v <= maximum))
      return {};
    return make_error(ec::invalid_input,
                      "invalid argument \"" + std::to_string(*v) + "\" for \"--"
                        + flag + "\" flag: must be "
                        + (*v < minimum
                             ? "at least " + std::to_string(minimum)
                             : "at most " + std::to_string(maximum)));
  };
  if (auto e = check("shards", flags.shards, 1, config::max_shards))
    return e;
  if (auto e = check("max-inflight-cycles", flags.max_inflight_cycles, 1,
                     config::max_inflight_cycles_limit))
    return e;
  if (auto e = check("bind-concurrency", flags.bind_concurrency, 1,
                     config::max_bind_concurrency))
    return e;
  if (flags.shards)
    knobs.shards = *flags.shards;
  if (flags.max_inflight_cycles)
    knobs.max_inflight_cycles = *flags.max_inflight_cycles;
  if (flags.bind_concurrency)
    knobs.bind_concurrency = *flags.bind_concurrency;
  std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  setup.shards
    = knobs.shards > 0 ? static_cast<std::size_t>(knobs.shards) : cores;
  setup.max_inflight_cycles
    = knobs.max_inflight_cycles > 0
        ? static_cast<std::size_t>(knobs.max_inflight_cycles)
        : 4 * cores;
  setup.bind_concurrency = knobs.bind_concurrency > 0
                             ? static_cast<std::size_t>(knobs.bind_concurrency)
                             : 64;
  warn_about_refusing_plugins(flags, setup.config);
  plugins::registry reg = plugins::make_in_tree_registry();
  std::string problems;
  for (std::size_t i = 0; i < setup.config.profiles.size(); ++i) {
    auto prof = plugins::profile::build(
      setup.config.profiles[i], reg, setup.config.percentage_of_nodes_to_score);
    if (!prof) {
      if (!problems.empty())
        problems += "\n";
      problems += "profiles[" + std::to_string(i) + "]: " + prof.err().message;
      continue;
    }
    setup.profiles.push_back(std::move(*prof));
  }
  if (!problems.empty()) {
    if (!flags.config_path.empty())
      problems = flags.config_path + ": " + problems;
    return make_error(ec::invalid_input, std::move(problems));
  }
  return setup;
}

error write_effective_config(const scheduler_setup& setup,
                             const std::string& path) {
  std::ofstream out{path};
  if (!out)
    return make_error(ec::invalid_input, "cannot write \"" + path + "\"");
  out << config::write_config(setup.config);
  if (!out)
    return make_error(ec::internal, "writing \"" + path + "\" failed");
  return {};
}

} // namespace tessera::cmd
