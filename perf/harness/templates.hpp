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

/// Node number `index` of a createNodes op; `allocatable`'s
/// nodeAllocatable entries are added to status.allocatable (which starts
/// as a copy of status.capacity when the template has none, as the API
/// server would default it).
[[nodiscard]] expected<std::string>
render_node(const object_template& t, const node_label_strategy& s,
            std::size_t index, const node_marks& marks,
            const node_allocatable_strategy& allocatable = {});

/// The CSINode upstream's node allocatable strategy creates for node
/// `node`: named after it, annotated
/// `storage.alpha.kubernetes.io/migrated-plugins` with the migrated
/// plugins joined by commas, and one driver per csiNodeAllocatable entry
/// (nodeID = the node's name, `allocatable.count` when given).
[[nodiscard]] std::string render_csi_node(const std::string& node,
                                          const node_allocatable_strategy& s);

/// What createPods creates beside pod number `index` when the op names
/// volume and claim templates, as upstream's harness: claim `pvc-<index>`
/// in `ns`, bound to volume `<ns>-vol-<index>` (spec.volumeName, status
/// Bound), and the volume pre-bound to the claim (spec.claimRef, status
/// Bound; a CSI volume's handle is its name, an AWS EBS volume's ID is
/// `vol-<index>`). The statuses take effect only through a status write:
/// a create resets them.
struct bound_claim {
  std::string claim_name;
  std::string claim_json;
  std::string volume_name;
  std::string volume_json;
};
[[nodiscard]] expected<bound_claim>
render_bound_claim(const object_template& volume, const object_template& claim,
                   const std::string& ns, std::int64_t index);

/// A pod whose only volume is `vol`, a persistentVolumeClaim volume naming
/// `claim` (what upstream's harness does to a pod that gets a claim: the
/// template's own volumes are replaced).
[[nodiscard]] expected<std::string> with_claim_volume(std::string_view pod_json,
                                                      const std::string& claim);

/// A pod of a createPods op; `tolerate_kwok` adds kwok's toleration.
[[nodiscard]] expected<std::string> render_pod(const object_template& t,
                                               bool tolerate_kwok);

/// metadata.name of an object returned by the API (a create's answer).
[[nodiscard]] expected<std::string> object_name_of(std::string_view json);

/// Whether a pod returned by the API carries PodScheduled=False (the API
/// server marks gated pods so at creation).
[[nodiscard]] bool marked_not_scheduled(std::string_view pod_json);

/// Namespace `name` (from a template or built in), optionally labelled.
[[nodiscard]] expected<std::string> render_namespace(const object_template* t,
                                                     const std::string& name,
                                                     const node_marks& marks);

} // namespace tessera::perf
