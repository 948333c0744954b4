// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/scheduler_config.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::config {
namespace {

const std::string header = "apiVersion: kubescheduler.config.k8s.io/v1\n"
                           "kind: KubeSchedulerConfiguration\n";

struct test_case {
  std::string name;
  std::string text;
  std::vector<std::string> want;
};

void run(const std::vector<test_case>& cases) {
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto cfg = load_config(tc.text);
    ASSERT_FALSE(cfg.has_value());
    EXPECT_EQ(cfg.err().code, ec::invalid_input);
    std::string want;
    for (const auto& line : tc.want)
      want += (want.empty() ? "" : "\n") + line;
    EXPECT_EQ(cfg.err().message, want);
  }
}

const std::string accepted
  = "accepted: apiVersion \"kubescheduler.config.k8s.io/v1\" kind "
    "\"KubeSchedulerConfiguration\", apiVersion \"tessera.dev/v1alpha1\" kind "
    "\"TesseraConfiguration\"";

TEST(config_errors, documents) {
  run({
    {"older apiVersion",
     "apiVersion: kubescheduler.config.k8s.io/v1beta3\n"
     "kind: KubeSchedulerConfiguration\n",
     {"doc 1: unsupported document: apiVersion "
      "\"kubescheduler.config.k8s.io/v1beta3\" kind "
      "\"KubeSchedulerConfiguration\"; "
      + accepted
      + " (older versions of KubeSchedulerConfiguration must be converted "
        "to v1)"}},
    {"unknown kind",
     "apiVersion: kubescheduler.config.k8s.io/v1\nkind: SchedulerPolicy\n",
     {"doc 1: unsupported document: apiVersion "
      "\"kubescheduler.config.k8s.io/v1\" kind \"SchedulerPolicy\"; "
      + accepted}},
    {"missing apiVersion and kind",
     "parallelism: 4\n",
     {"doc 1: unsupported document: apiVersion (missing) kind (missing); "
      + accepted}},
    {"a foreign object next to a valid config",
     header + "---\napiVersion: v1\nkind: Pod\n",
     {"doc 2: unsupported document: apiVersion \"v1\" kind \"Pod\"; "
      + accepted}},
    {"empty file",
     "# nothing here\n",
     {"no KubeSchedulerConfiguration document (apiVersion "
      "\"kubescheduler.config.k8s.io/v1\") found"}},
    {"only the tessera document",
     "apiVersion: tessera.dev/v1alpha1\nkind: TesseraConfiguration\n",
     {"no KubeSchedulerConfiguration document (apiVersion "
      "\"kubescheduler.config.k8s.io/v1\") found"}},
    {"two scheduler documents",
     header + "---\n" + header,
     {"doc 2: a second KubeSchedulerConfiguration document; only one is "
      "allowed"}},
    {"two tessera documents",
     header
       + "---\napiVersion: tessera.dev/v1alpha1\nkind: TesseraConfiguration\n"
         "---\napiVersion: tessera.dev/v1alpha1\nkind: TesseraConfiguration\n",
     {"doc 3: a second TesseraConfiguration document; only one is allowed"}},
    {"a list document",
     "- a\n- b\n",
     {"doc 1: a configuration document must be a mapping, got [\"a\",\"b\"]"}},
    {"broken yaml",
     header + "profiles: [\n",
     {"yaml: line 4, column 1: end of sequence flow not found"}},
  });
}

TEST(config_errors, strict_decoding) {
  run({
    {"unknown fields at every level",
     header + R"(parallelizm: 3
leaderElection:
  leaderElected: true
clientConnection:
  qpm: 4
profiles:
- schedulerName: a
  plugin: {}
  plugins:
    scores: {}
    score:
      enabled:
      - name: ImageLocality
        wieght: 2
      disable: []
  pluginConfig:
  - name: NodeResourcesFit
    arg: {}
extenders:
- urlPrefix: http://x
  filterVerbs: f
)",
     {"strict decoding error: unknown field \"parallelizm\"",
      "strict decoding error: unknown field \"leaderElection.leaderElected\"",
      "strict decoding error: unknown field \"clientConnection.qpm\"",
      "strict decoding error: unknown field \"profiles[0].plugin\"",
      "strict decoding error: unknown field \"profiles[0].plugins.scores\"",
      "strict decoding error: unknown field "
      "\"profiles[0].plugins.score.enabled[0].wieght\"",
      "strict decoding error: unknown field "
      "\"profiles[0].plugins.score.disable\"",
      "strict decoding error: unknown field "
      "\"profiles[0].pluginConfig[0].arg\"",
      "strict decoding error: unknown field \"extenders[0].filterVerbs\"",
      "extenders[0]: Forbidden: extenders are not supported yet"}},
    {"duplicate fields",
     header + R"(parallelism: 4
parallelism: 8
profiles:
- schedulerName: a
  schedulerName: b
)",
     {"strict decoding error: duplicate field \"parallelism\"",
      "strict decoding error: duplicate field \"profiles[0].schedulerName\""}},
    {"wrong types",
     header + R"(parallelism: "16"
enableProfiling: sometimes
leaderElection:
  leaseDuration: 15
  renewDeadline: 10 seconds
clientConnection:
  qps: fast
  burst: 1.5
podMaxBackoffSeconds: [10]
profiles: {schedulerName: a}
)",
     {"parallelism: Invalid value: \"16\": must be an integer",
      "enableProfiling: Invalid value: \"sometimes\": must be a boolean",
      "leaderElection.leaseDuration: Invalid value: 15: must be a duration "
      "string such as \"15s\"",
      "leaderElection.renewDeadline: Invalid value: \"10 seconds\": time: "
      "invalid duration \"10 seconds\"",
      "clientConnection.qps: Invalid value: \"fast\": must be a number",
      "clientConnection.burst: Invalid value: 1.5: must be an integer",
      "podMaxBackoffSeconds: Invalid value: [10]: must be an integer",
      "profiles: Invalid value: {\"schedulerName\":\"a\"}: must be a list"}},
    {"wrong shapes inside profiles",
     header + R"(profiles:
- plugins:
    filter: [NodeName]
    score:
      enabled: NodeName
  pluginConfig: {name: x}
- 7
)",
     {"profiles[0].plugins.filter: Invalid value: [\"NodeName\"]: must be an "
      "object",
      "profiles[0].plugins.score.enabled: Invalid value: \"NodeName\": must "
      "be a list",
      "profiles[0].pluginConfig: Invalid value: {\"name\":\"x\"}: must be a "
      "list",
      "profiles[1]: Invalid value: 7: must be an object",
      "profiles[0].schedulerName: Required value",
      "profiles[1].schedulerName: Required value",
      "profiles[1].schedulerName: Duplicate value: profiles[0].schedulerName"}},
  });
}

TEST(config_errors, global_validation) {
  run({
    {"every top-level check at once",
     header + R"(parallelism: 0
percentageOfNodesToScore: 101
podInitialBackoffSeconds: 0
podMaxBackoffSeconds: -1
leaderElection:
  leaseDuration: 5s
  renewDeadline: 10s
  retryPeriod: -2s
  resourceLock: endpoints
clientConnection:
  burst: -1
)",
     {"clientConnection.burst: Invalid value: -1: must be non-negative",
      "leaderElection.retryPeriod: Invalid value: -2s: must be greater than "
      "zero",
      "leaderElection.leaseDuration: Invalid value: 10s: must be greater "
      "than `RenewDeadline`",
      "leaderElection.resourceLock: Invalid value: \"endpoints\": "
      "resourceLock value must be \"leases\"",
      "parallelism: Invalid value: 0: should be an integer value greater "
      "than zero",
      "percentageOfNodesToScore: Invalid value: 101: not in valid range "
      "[0-100]",
      "podInitialBackoffSeconds: Invalid value: 0: must be greater than 0",
      "podMaxBackoffSeconds: Invalid value: -1: must be greater than or "
      "equal to PodInitialBackoffSeconds"}},
    {"leader election checks are skipped when it is off",
     header + R"(parallelism: -3
leaderElection:
  leaderElect: false
  leaseDuration: 1s
  renewDeadline: 10s
  resourceLock: endpoints
)",
     {"parallelism: Invalid value: -3: should be an integer value greater "
      "than zero"}},
    {"extenders are parsed, checked and rejected",
     header + R"(extenders:
- urlPrefix: http://127.0.0.1:8888/scheduler
  filterVerb: filter
  prioritizeVerb: prioritize
  bindVerb: bind
  weight: 0
  httpTimeout: 5s
  enableHTTPS: true
  tlsConfig: {insecure: true, serverName: x}
  nodeCacheCapable: false
  ignorable: true
  managedResources:
  - {name: example.com/foo, ignoredByScheduler: true}
- urlPrefix: http://other
  bindVerb: bind
  weight: 2
)",
     {"extenders[0].weight: Invalid value: 0: must have a positive weight "
      "applied to it",
      "extenders: Invalid value: \"found 2 extenders implementing bind\": "
      "only one extender can implement bind",
      "extenders[0]: Forbidden: extenders are not supported yet",
      "extenders[1]: Forbidden: extenders are not supported yet"}},
  });
}

TEST(config_errors, profiles_and_plugins) {
  run({
    {"profile names and percentages",
     header + R"(profiles:
- schedulerName: ""
  percentageOfNodesToScore: -1
- schedulerName: batch
- schedulerName: batch
  percentageOfNodesToScore: 200
)",
     {"profiles[0].schedulerName: Required value",
      "profiles[0].percentageOfNodesToScore: Invalid value: -1: not in "
      "valid range [0-100]",
      "profiles[2].percentageOfNodesToScore: Invalid value: 200: not in "
      "valid range [0-100]",
      "profiles[2].schedulerName: Duplicate value: profiles[1].schedulerName"}},
    {"a second unnamed profile",
     header + "profiles:\n- schedulerName: a\n- {}\n",
     {"profiles[1].schedulerName: Required value"}},
    {"plugins the framework rejects",
     header + R"(profiles:
- schedulerName: default-scheduler
  plugins:
    filter:
      enabled:
      - name: NodeNme
      - name: NodeName
      - name: NodeName
    score:
      enabled:
      - name: NodeResourcesFit
        weight: 5
      - name: NodePorts
        weight: 0
    multiPoint:
      enabled:
      - name: SelectorSpread
      - name: ImageLocality
      - name: ImageLocality
)",
     {"profiles[0].plugins.filter.enabled[0]: Invalid value: \"NodeNme\": "
      "FilterPlugin \"NodeNme\" does not exist",
      "profiles[0].plugins.filter.enabled[2]: Invalid value: \"NodeName\": "
      "plugin \"NodeName\" already registered as \"FilterPlugin\"",
      "profiles[0].plugins.score.enabled[1]: Invalid value: \"NodePorts\": "
      "plugin \"NodePorts\" does not extend ScorePlugin plugin",
      "profiles[0].plugins.multiPoint.enabled[0]: Invalid value: "
      "\"SelectorSpread\": plugin \"SelectorSpread\" does not exist",
      "profiles[0].plugins.multiPoint.enabled[2]: Invalid value: "
      "\"ImageLocality\": plugin \"ImageLocality\" already registered as "
      "\"ScorePlugin\""}},
    {"plugins removed from v1 and negative weights",
     header + R"(profiles:
- schedulerName: default-scheduler
  plugins:
    filter:
      enabled: [{name: EBSLimits}]
    score:
      enabled: [{name: ImageLocality, weight: -1}]
    multiPoint:
      enabled: [{name: AzureDiskLimits}, {name: NodeAffinity, weight: -2}]
  pluginConfig:
  - name: GCEPDLimits
)",
     {"profiles[0].plugins.filter.enabled[0]: Invalid value: \"EBSLimits\": "
      "was invalid in version \"kubescheduler.config.k8s.io/v1\" "
      "(KubeSchedulerConfiguration is version "
      "\"kubescheduler.config.k8s.io/v1\")",
      "profiles[0].plugins.multiPoint.enabled[0]: Invalid value: "
      "\"AzureDiskLimits\": was invalid in version "
      "\"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is "
      "version \"kubescheduler.config.k8s.io/v1\")",
      "profiles[0].plugins.score.enabled[0].weight: Invalid value: -1: must "
      "not be negative",
      "profiles[0].plugins.multiPoint.enabled[1].weight: Invalid value: -2: "
      "must not be negative",
      "profiles[0].pluginConfig[0]: Invalid value: \"GCEPDLimits\": was "
      "invalid in version \"kubescheduler.config.k8s.io/v1\" "
      "(KubeSchedulerConfiguration is version "
      "\"kubescheduler.config.k8s.io/v1\")"}},
    {"no queue sort and no binder",
     header + R"(profiles:
- schedulerName: default-scheduler
  plugins:
    queueSort:
      disabled: [{name: "*"}]
    multiPoint:
      disabled: [{name: DefaultBinder}]
)",
     {"profiles[0].plugins.queueSort: Required value: only one queue sort "
      "plugin required for profile with scheduler name "
      "\"default-scheduler\", but got 0",
      "profiles[0].plugins.bind: Required value: at least one bind plugin "
      "is needed for profile with scheduler name \"default-scheduler\""}},
    {"queue sort must be the same in all profiles",
     header + R"(profiles:
- schedulerName: a
- schedulerName: b
  plugins:
    queueSort:
      disabled: [{name: "*"}]
      enabled: [{name: PrioritySort}]
)",
     {"profiles[1].plugins.queueSort: Invalid value: "
      "{\"enabled\":[{\"name\":\"PrioritySort\"}],\"disabled\":[{\"name\":"
      "\"*\"}]}: must be the same for all profiles"}},
    {"plugin config names",
     header + R"(profiles:
- schedulerName: a
  pluginConfig:
  - name: NodeResourcesFit
  - name: InterPodAffinity
    args: {hardPodAffinityWeight: 101}
  - name: NodeResourcesFit
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: InterPodAffinityArgs
  - name: VolumeBinding
    args:
      apiVersion: kubescheduler.config.k8s.io/v1beta3
      kind: VolumeBindingArgs
)",
     {"profiles[0].pluginConfig[2].args: args for plugin NodeResourcesFit "
      "were not of type NodeResourcesFitArgs.kubescheduler.config.k8s.io, "
      "got InterPodAffinityArgs.kubescheduler.config.k8s.io",
      "profiles[0].pluginConfig[3].args.apiVersion: Unsupported value: "
      "\"kubescheduler.config.k8s.io/v1beta3\": supported values: "
      "\"kubescheduler.config.k8s.io/v1\"",
      "profiles[0].pluginConfig[1].args.hardPodAffinityWeight: Invalid "
      "value: 101: not in valid range [0, 100]",
      "profiles[0].pluginConfig[2]: Duplicate value: \"NodeResourcesFit\""}},
  });
}

TEST(config_errors, self_referential_alias_is_an_error_not_a_crash) {
  std::string shown;
  while (shown.size() < 200)
    shown += "[{\"schedulerName\":";
  shown.resize(200);
  run({
    {"alias inside its own anchor",
     header + "profiles: &p\n- schedulerName: *p\n",
     {"profiles[0].schedulerName: Invalid value: " + shown
      + "...: must be a string"}},
  });
}

TEST(config_errors, tessera_document) {
  run({
    {"tessera knobs",
     header + R"(---
apiVersion: tessera.dev/v1alpha1
kind: TesseraConfiguration
shards: -1
maxInflightCycles: -2
bindConcurrency: 0
bindConcurency: 4
)",
     {"TesseraConfiguration: strict decoding error: unknown field "
      "\"bindConcurency\"",
      "TesseraConfiguration: shards: Invalid value: -1: must be greater than "
      "or equal to 0",
      "TesseraConfiguration: maxInflightCycles: Invalid value: -2: must be "
      "greater than or equal to 0",
      "TesseraConfiguration: bindConcurrency: Invalid value: 0: must be "
      "greater than or equal to 1"}},
    {"tessera knobs too large",
     header + R"(---
apiVersion: tessera.dev/v1alpha1
kind: TesseraConfiguration
shards: 100000000
maxInflightCycles: 70000
bindConcurrency: 2000000
)",
     {"TesseraConfiguration: shards: Invalid value: 100000000: must be less "
      "than or equal to 1024",
      "TesseraConfiguration: maxInflightCycles: Invalid value: 70000: must "
      "be less than or equal to 65536",
      "TesseraConfiguration: bindConcurrency: Invalid value: 2000000: must "
      "be less than or equal to 65536"}},
    {"problems in both documents",
     header
       + "parallelism: 0\n---\napiVersion: tessera.dev/v1alpha1\n"
         "kind: TesseraConfiguration\nshards: many\n",
     {"parallelism: Invalid value: 0: should be an integer value greater "
      "than zero",
      "TesseraConfiguration: shards: Invalid value: \"many\": must be an "
      "integer"}},
  });
}

} // namespace
} // namespace tessera::config
