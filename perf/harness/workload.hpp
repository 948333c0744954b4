// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `workload_file`: a scheduler_perf workload file (the format of
/// kube-scheduler's test/integration/scheduler_perf config files), parsed
/// strictly, and its instantiation for one workload.
///
/// A file is a list of test cases. Each test case has a `name`, a
/// `workloadTemplate` (a list of ops), `workloads` (each a `name` and
/// `params`), and optionally `defaultPodTemplatePath` and
/// `schedulerConfigPath`. Ops:
///
///   createNodes       count|countParam, nodeTemplatePath,
///                     labelNodePrepareStrategy {labelKey, labelValues},
///                     uniqueNodeLabelStrategy {labelKey},
///                     nodeAllocatableStrategy {nodeAllocatable,
///                     csiNodeAllocatable {driver: {count}},
///                     migratedPlugins} (at most one strategy)
///   createNamespaces  prefix, count|countParam, namespaceTemplatePath
///   createPods        count|countParam, podTemplatePath, namespace,
///                     collectMetrics, skipWaitToCompletion, templateParams,
///                     signatureBatchSize|signatureBatchSizeParam (read,
///                     without effect: tessera has no signature batching),
///                     persistentVolumeTemplatePath and
///                     persistentVolumeClaimTemplatePath (together)
///   createPodSets     count|countParam, namespacePrefix, createPodsOp
///   createAny         templatePath, namespace, count|countParam,
///                     templateParams
///   barrier           namespaces, labelSelector, stageRequirement
///                     (Scheduled|Attempted)
///   deletePods        namespace, labelSelector, deletePodsPerSecond,
///                     skipWaitToCompletion
///   startCollectingMetrics / stopCollectingMetrics
///                     name, namespaces, labelSelector
///   updateAny         templatePath, count|countParam, namespace,
///                     updatePerSecond, subresources (status only),
///                     templateParams
///   sleep             duration|durationParam
///   churn             mode (create|recreate), number, intervalMilliseconds,
///                     namespace, templatePaths
///
/// `countParam: $initNodes` takes the value from the workload's `params`;
/// a workload must use every param it defines. Template paths are
/// resolved relative to the workload file's directory. `featureGates` and
/// `threshold` are kept (reported beside the results),
/// `schedulerApiClientQPS`/`Burst` (test case or workload) set the
/// scheduler's API client limits; `labels` and
/// `metricsCollectorConfig` steer only upstream's test framework and are
/// ignored with a notice.
///
/// Problems are kept per test case: a test case that uses an upstream op
/// or field tessera lacks is *unsupported* (skipped with a notice naming
/// it, never an error), and a malformed test case is an error only when it
/// is selected. Errors name the file, the line and the field path
/// (`[2].workloadTemplate[1].opcode`).
#pragma once

#include "support/error.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tessera::perf {

/// Go template parameters (`templateParams`), as text.
using template_params = std::map<std::string, std::string>;

/// A label selector's `matchLabels` (empty = every pod).
using label_match = std::map<std::string, std::string>;

/// How createNodes labels the nodes it creates (upstream's node prepare
/// strategies).
struct node_label_strategy {
  enum class kind : std::uint8_t {
    none,
    /// labelNodePrepareStrategy: `key` = one of `values`, assigned
    /// round-robin (upstream picks at random).
    values,
    /// uniqueNodeLabelStrategy: `key` = the node's name (unique).
    unique,
  };
  kind type = kind::none;
  std::string key;
  std::vector<std::string> values;
};

/// createNodes' nodeAllocatableStrategy (upstream's node allocatable
/// strategy): what the harness adds to each node it creates, and the
/// CSINode it creates beside each one.
struct node_allocatable_strategy {
  /// Whether the op set the strategy (a CSINode per node follows).
  bool set = false;
  /// nodeAllocatable: resource name -> quantity, added to the node's
  /// status.allocatable.
  std::map<std::string, std::string> node_allocatable;
  /// csiNodeAllocatable: CSI driver -> its attach limit
  /// (`allocatable.count`; nullopt = the driver without one).
  std::map<std::string, std::optional<std::int64_t>> csi_allocatable;
  /// migratedPlugins: the in-tree plugins migrated to CSI (the CSINode's
  /// storage.alpha.kubernetes.io/migrated-plugins annotation).
  std::vector<std::string> migrated_plugins;
};

/// A count given directly or as `$param`.
struct count_field {
  std::int64_t value = 0;
  std::string param;
};

struct create_nodes_op {
  count_field count;
  /// Absolute path; empty = the built-in default node.
  std::string template_path;
  node_label_strategy labels;
  node_allocatable_strategy allocatable;
};

struct create_namespaces_op {
  std::string prefix;
  count_field count;
  std::string template_path;
};

struct create_pods_op {
  count_field count;
  /// Absolute path; empty = the test case's default.
  std::string template_path;
  /// Empty = `namespace-<op index>`.
  std::string ns;
  bool collect_metrics = false;
  bool skip_wait = false;
  template_params params;
  /// signatureBatchSizeParam (read and reported, not applied).
  count_field signature_batch;
  /// persistentVolumeTemplatePath / persistentVolumeClaimTemplatePath
  /// (absolute; both or neither): pod i gets volume `<ns>-vol-<i>` and
  /// claim `pvc-<i>`, created bound to each other, as its only volume.
  std::string volume_template_path;
  std::string claim_template_path;
};

struct create_any_op {
  count_field count{1, {}};
  std::string template_path;
  std::string ns;
  template_params params;
};

struct barrier_op {
  /// Empty = every namespace.
  std::vector<std::string> namespaces;
  label_match selector;
  /// Wait until pods are bound (true) or only attempted once (false).
  bool scheduled = true;
};

/// createPodSets: one createPods op per namespace `<prefix>-<i>`.
struct create_pod_sets_op {
  count_field count;
  std::string ns_prefix;
  create_pods_op pods;
};

struct delete_pods_op {
  std::string ns;
  label_match selector;
  /// 0 = as fast as the API allows.
  double per_second = 0;
  bool skip_wait = false;
};

/// updateAny: object i of `count` (the template rendered with `.Index`)
/// replaces the object of its name (or its `subresource`) and then its
/// status, as upstream's op does, `per_second` a second.
struct update_any_op {
  count_field count{1, {}};
  std::string template_path;
  std::string ns;
  double per_second = 0;
  /// "" (the object) or "status".
  std::string subresource;
  template_params params;
};

/// startCollectingMetrics / stopCollectingMetrics: one measurement over
/// every createPods op in between (pods filtered by namespace and labels).
struct collect_metrics_op {
  bool start = true;
  std::string name;
  std::vector<std::string> namespaces;
  label_match selector;
};

struct sleep_op {
  std::chrono::milliseconds duration{0};
  std::string param;
};

struct churn_op {
  bool recreate = true;
  std::int64_t number = 0;
  std::chrono::milliseconds interval{500};
  std::string ns;
  std::vector<std::string> template_paths;
};

using op_body = std::variant<create_nodes_op, create_namespaces_op,
                             create_pods_op, create_any_op, barrier_op,
                             sleep_op, churn_op, create_pod_sets_op,
                             delete_pods_op, collect_metrics_op, update_any_op>;

struct op {
  op_body body;
  /// Field path in the file, for messages ("[0].workloadTemplate[2]").
  std::string path;
  /// Line in the file (1-based; 0 unknown).
  int line = 0;
};

/// Parses a Go duration ("1s", "1m30s", "500ms", "1.5h"); nullopt when
/// malformed.
std::optional<std::chrono::milliseconds>
parse_go_duration(std::string_view text);

/// The opcode of an op ("createPods").
std::string_view opcode(const op_body& body) noexcept;

/// A workload parameter: upstream's params are JSON values; tessera uses
/// numbers (counts) and strings (durations).
using param_value = std::variant<std::int64_t, double, std::string, bool>;

/// Feature gates as the file names them (the perf verb sets the ones tessera
/// knows on the scheduler's gates and reports the others).
using feature_gates = std::map<std::string, bool>;

/// "A=true,B=false".
std::string to_string(const feature_gates& g);

struct workload {
  std::string name;
  std::map<std::string, param_value> params;
  feature_gates gates;
  /// Upstream's floor for the average throughput (pods/s); 0 = none.
  double threshold = 0;
  /// schedulerApiClientQPS / schedulerApiClientBurst (0 = the test
  /// case's).
  double api_qps = 0;
  std::int64_t api_burst = 0;
  /// Ignored fields, one line each ("FILE:12: [0].workloads[1].labels:
  /// ignored ...").
  std::vector<std::string> notices;
  std::string path;
  int line = 0;
};

struct test_case {
  std::string name;
  std::vector<op> ops;
  std::vector<workload> workloads;
  /// Absolute; empty = none.
  std::string default_pod_template;
  std::string scheduler_config_path;
  feature_gates gates;
  /// The scheduler's API client limits (0 = tessera's defaults).
  double api_qps = 0;
  std::int64_t api_burst = 0;
  /// Upstream ops or fields tessera lacks, each named ("op deletePods at
  /// [1].workloadTemplate[3]"); non-empty = the test case is skipped.
  std::vector<std::string> unsupported;
  /// Problems of a malformed test case (one per line); an error only when
  /// the test case is selected.
  std::string problems;
  /// Ignored fields of the test case and its ops, as workload::notices.
  std::vector<std::string> notices;
  std::string path;
  int line = 0;
};

struct workload_file {
  /// As given on the command line.
  std::string file;
  std::vector<test_case> test_cases;
};

/// Reads and validates a workload file. Errors are ec::invalid_input with
/// `FILE:LINE: PATH: problem` (every problem found, one per line).
[[nodiscard]] expected<workload_file>
load_workload_file(const std::string& path);
/// The same from text; `file` names it in messages and `dir` resolves
/// relative template paths.
[[nodiscard]] expected<workload_file>
parse_workload_file(std::string_view text, const std::string& file,
                    const std::string& dir);

/// One op with every parameter resolved.
struct planned_op {
  op_body body;
  /// Index in the workload template.
  std::size_t index = 0;
  std::string path;
};

/// A test case's ops for one workload.
struct plan {
  std::string test_case;
  std::string workload;
  std::vector<planned_op> ops;
  std::string default_pod_template;
  std::string scheduler_config_path;
  /// The test case's gates overridden by the workload's.
  feature_gates gates;
  double threshold = 0;
  /// The scheduler's API client limits, the workload's over the test
  /// case's (0 = tessera's defaults).
  double api_qps = 0;
  std::int64_t api_burst = 0;
  /// Why the plan is skipped (empty = it runs).
  std::string skip_reason;
  /// Ignored fields of the test case and of the workload: reported for
  /// what runs only, so a whole file's labels do not drown one run.
  std::vector<std::string> notices;

  /// "<TestCase>/<Workload>", upstream's data item name.
  std::string name() const {
    return test_case + "/" + workload;
  }
};

/// Substitutes the workload's params into the test case's ops. Errors (an
/// undefined or mistyped param, a param no op uses, a negative count, both
/// collectMetrics and skipWaitToCompletion) name the file and the path.
[[nodiscard]] expected<plan>
instantiate(const workload_file& f, const test_case& tc, const workload& w);

/// The plans selected by `--test-case` / `--workload` (empty = all), in
/// file order; an unmatched selection is an error listing what exists, as
/// is a selected test case with problems. Unsupported test cases yield
/// plans with `skip_reason` set.
[[nodiscard]] expected<std::vector<plan>>
select_plans(const workload_file& f, const std::string& test_case,
             const std::string& workload);

} // namespace tessera::perf
