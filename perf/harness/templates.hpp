// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `object_template`: a node, pod, namespace or other object file a
/// workload creates copies of, read once (YAML or JSON, one document) and
/// rendered per copy as JSON text for the API: nodes get the labels of the
/// createNodes strategy and, on a kwok cluster, kwok's fake-node marks;
/// pods get kwok's toleration there. `metadata.generateName` is left to the
/// API server, as upstream's harness does.
#pragma once

#include "perf/harness/workload.hpp"
#include "support/error.hpp"

#include <cstddef>
#include <string>

namespace tessera::perf {

struct object_template {
  /// The file it came from ("" for built-in ones).
  std::string file;
  /// `kind` and `apiVersion` of the document.
  std::string kind;
  std::string api_version;
  std::string name;
  std::string generate_name;
  std::string ns;
  /// The document as compact JSON (empty for a Go template until it is
  /// instantiated).
  std::string json;
  /// The file's text when it holds Go template actions (`{{ .Index }}`),
  /// rendered per object by `instantiate_template`.
  std::string go_text;
};

/// Reads a template file; errors name the file. A file with Go template
/// actions keeps its text (`go_text`), its kind and apiVersion read from
/// the top-level lines, and is checked by rendering object 0.
[[nodiscard]] expected<object_template> load_template(const std::string& path);

/// Parses template text (`file` names it in messages).
[[nodiscard]] expected<object_template> parse_template(std::string_view text,
                                                       const std::string& file);

/// Object number `index` of `count` of an op from `t`: `t` itself, or for
/// a Go template its rendering with `.Index`, `.Count` and the op's
/// templateParams (integers where the text is one).
[[nodiscard]] expected<object_template>
instantiate_template(const object_template& t, std::int64_t index,
                     std::int64_t count, const template_params& params = {});

/// The node createNodes uses without a nodeTemplatePath, as upstream's
/// harness: `generateName: node-`, 4 cpu, 32Gi memory, 110 pods, Ready.
object_template default_node_template();

/// The pod createPods uses when neither the op nor the test case names a
/// template: upstream's base pod (`generateName: pod-`, one pause
/// container with port 80, 100m CPU and 500Mi memory requested and
/// limited).
object_template default_pod_template();

/// metadata.labels of a template.
label_match labels_of(const object_template& t);

/// Whether a pod template has spec.schedulingGates.
bool is_gated(const object_template& t);

/// Whether every `key: value` of `selector` is among `labels`.
bool matches(const label_match& selector, const label_match& labels);

/// What a rendered node carries beyond its template.
struct node_marks {
  /// kwok's fake-node annotation, `type: kwok` label and the
  /// `kwok.x-k8s.io/node=fake:NoSchedule` taint.
  bool kwok_fake = false;
  /// A label key/value every created object carries (for clean-up);
  /// empty = none.
  std::string run_label_key;
  std::string run_label_value;
};

/// Node number `index` of a createNodes op.
[[nodiscard]] expected<std::string> render_node(const object_template& t,
                                                const node_label_strategy& s,
                                                std::size_t index,
                                                const node_marks& marks);

/// A pod of a createPods op; `tolerate_kwok` adds kwok's toleration.
[[nodiscard]] expected<std::string> render_pod(const object_template& t,
                                               bool tolerate_kwok);

/// metadata.name of an object returned by the API (a create's answer).
[[nodiscard]] expected<std::string> object_name_of(std::string_view json);

/// Namespace `name` (from a template or built in), optionally labelled.
[[nodiscard]] expected<std::string> render_namespace(const object_template* t,
                                                     const std::string& name,
                                                     const node_marks& marks);

} // namespace tessera::perf
