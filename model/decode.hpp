// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Decoding Kubernetes objects from JSON (API responses, watch events, files)
/// and YAML (files, multi-document, `kind: List`) into model types.
///
/// Rules, shared by every entry point:
/// - Unknown fields are ignored, as API clients do.
/// - A wrong type or a bad value is an error naming the JSON path and the
///   problem: `spec.containers[0].resources.requests.cpu: invalid quantity
///   "12x"`. Paths use `.field` and `[index]`; map keys containing dots are
///   written as `.key` too (`metadata.labels.app.kubernetes.io/name`).
/// - No input crashes or aborts: malformed JSON/YAML, deep nesting, huge
///   numbers and wrong types all come back as errors.
/// - With `decode_options::apply_defaults` (on for files, off for objects from
///   an API server, which already defaulted them) the API server's defaulting
///   is applied: node allocatable := capacity when absent, pod schedulerName :=
///   "default-scheduler", container requests copied from limits when absent,
///   pod-level requests from pod-level limits, host ports from container
///   ports under hostNetwork, a volume without source is an emptyDir, a pod
///   with only generateName gets a name, a namespace gets its
///   `kubernetes.io/metadata.name` label. Priority from priorityClassName is
///   not resolved here (it needs the PriorityClass objects); see
///   `resolve_priority`.
/// - Always: a namespaced object without namespace is in "default"; the
///   matchLabelKeys / mismatchLabelKeys of pod affinity terms and spread
///   constraints are merged into their selectors with the pod's own label
///   values (a requirement the selector already has is not added twice).
/// - Values the API server rejects and that would change what the scheduler
///   does are errors, e.g. an In requirement without values, a toleration
///   with an empty key and operator Equal, a negative quantity.
#pragma once

#include "model/cluster_objects.hpp"
#include "model/object.hpp"
#include "support/error.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::model {

struct decode_options {
  bool apply_defaults = true;
};

/// Decodes one object; the kind comes from the `kind` field.
[[nodiscard]] expected<object>
decode_object_json(std::string_view json, const decode_options& options = {});
/// Decodes one object of a known kind (list items and watch objects from a
/// real API server carry no `kind`).
[[nodiscard]] expected<object>
decode_object_json(std::string_view json, object_kind kind,
                   const decode_options& options = {});

[[nodiscard]] expected<pod> decode_pod_json(std::string_view json,
                                            const decode_options& options = {});
[[nodiscard]] expected<node>
decode_node_json(std::string_view json, const decode_options& options = {});

/// What can still be read of an object that does not decode: enough to
/// name it to its owner (empty strings where not even that reads).
struct object_peek {
  std::string ns;
  std::string name;
  std::string uid;
  std::string resource_version;
  /// spec.nodeName and spec.schedulerName (pods).
  std::string node_name;
  std::string scheduler_name;
};

/// A decoded `<Kind>List` (or `kind: List`).
struct decoded_list {
  std::vector<object> items;
  /// metadata.resourceVersion and metadata.continue of the list.
  std::string resource_version;
  std::string continue_token;
  /// Items that failed to decode ("items[3].spec...: problem"); the other
  /// items are still returned, so one bad object never hides the rest.
  std::vector<error> skipped;
  /// For each of `skipped`, in the same order, what its metadata says.
  std::vector<object_peek> skipped_objects;
};

/// Decodes a list. `item_kind` is used for items without a `kind` field; when
/// absent it is derived from the list kind ("PodList" -> Pod).
[[nodiscard]] expected<decoded_list>
decode_list_json(std::string_view json,
                 std::optional<object_kind> item_kind = {},
                 const decode_options& options = {});

enum class watch_event_type : std::uint8_t {
  added,
  modified,
  deleted,
  bookmark,
  error
};

/// One line of a watch stream.
struct watch_event {
  watch_event_type type = watch_event_type::added;
  /// The object for added / modified / deleted.
  std::optional<object> obj;
  /// metadata.resourceVersion of the object (bookmarks included).
  std::string resource_version;
  /// A BOOKMARK annotated `k8s.io/initial-events-end: "true"`.
  bool initial_events_end = false;
  /// For ERROR events: the Status code, reason and message.
  int code = 0;
  std::string reason;
  std::string message;
};

/// Decodes one watch event line for a watch on `kind`.
[[nodiscard]] expected<watch_event>
decode_watch_event_json(std::string_view line, object_kind kind,
                        const decode_options& options = {});

/// The objects of a manifest file.
struct manifest {
  std::vector<object> objects;
  /// Non-fatal notices, e.g.
  /// "doc 3: kind Service is not used by the scheduler; skipped".
  std::vector<std::string> warnings;
};

/// Decodes a file's text: JSON (one object or a list) or YAML (one or more
/// documents separated by `---`, each an object or a `kind: List`). Errors
/// read `doc N: <path>: <problem>` with N counted from 1; callers prefix the
/// file name.
[[nodiscard]] expected<manifest>
decode_manifest(std::string_view text, const decode_options& options = {});

/// Converts YAML text to one JSON text per non-empty document. Plain scalars
/// are typed as Kubernetes' YAML library (sigs.k8s.io/yaml, go-yaml v2,
/// YAML 1.1 rules) types them, so that a file means what it means to
/// kubectl: null is `~`/`null`/`Null`/`NULL`/empty; booleans are
/// `true`/`True`/`TRUE`, `yes`/`Yes`/`YES`, `y`/`Y`, `on`/`On`/`ON` and their
/// false counterparts; integers may carry a sign, `0x`/`0o`/`0b`, a leading
/// `0` (octal) and `_`; floats look like `1.5`, `.5`, `1e3`. Quoted and block
/// scalars stay strings; aliases and merge keys are resolved; non-string map
/// keys become their text. Nesting is limited to 64 levels and alias
/// expansion to a size proportional to the input. Used for templates and
/// config files.
[[nodiscard]] expected<std::vector<std::string>>
yaml_documents_to_json(std::string_view text);

/// Decodes a v1.NodeAffinity / v1.TopologySpreadConstraint given as JSON text
/// (used by config/ for plugin args). `path` prefixes every error path, e.g.
/// "profiles[0].pluginConfig[1].args.addedAffinity". Selectors' matchLabelKeys
/// cannot be merged here (there is no pod), so they are kept as given.
[[nodiscard]] expected<node_affinity>
decode_node_affinity_json(std::string_view json, std::string_view path);
[[nodiscard]] expected<topology_spread_constraint>
decode_topology_spread_constraint_json(std::string_view json,
                                       std::string_view path);

/// Fills `p.priority` and `p.preemption` from its priorityClassName (or the
/// global default class) as the Priority admission plugin does, for pods
/// read from files. A priority the pod gives (`priority_given`) is kept: with
/// no class named it is taken as is (the global default is not applied);
/// with a class it must equal the class's value. Errors start with the
/// field: `spec.priorityClassName: no PriorityClass with name x was found`
/// (ec::not_found), `spec.priority: 1000 contradicts PriorityClass x, whose
/// value is 10` (ec::invalid_input).
[[nodiscard]] error
resolve_priority(pod& p, const std::vector<priority_class_ptr>& classes);

} // namespace tessera::model
