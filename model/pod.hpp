// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `pod`: the scheduling-relevant part of a v1.Pod, plus values derived once
/// at decode time so that Filter and Score never recompute them:
/// - `requests`: the effective request kube-scheduler uses (containers summed,
///   init containers and restartable "sidecar" init containers folded in by
///   the max rule, pod-level `spec.resources.requests` for cpu, memory and
///   hugepages-* when set, plus `spec.overhead`); while the kubelet reports
///   a container's resources (an in-place resize pending or in progress),
///   per resource the largest of the desired (spec), allocated and actual
///   sums, or of the allocated and actual sums alone when the resize is
///   Infeasible;
/// - `non_zero_requests`: the same with the scoring defaults (100m cpu,
///   200Mi memory for a container that requests none), used only by scoring;
///   with pod-level requests a default applies only to a resource that no
///   container, pod-level entry or overhead names;
/// - host ports (containers and sidecars), normalized image names, affinity
///   flags, the controller flag and a fingerprint of the tolerations.
/// Call `complete()` after changing spec fields; decoders and test builders do.
/// Shared between actors as `pod_ptr` (`shared_ptr<const pod>`); the fields
/// read of pods other than the one being scheduled form the base class
/// `pod_core`, which the cache keeps for bound and assumed pods
/// (`pod_core_ptr`).
#pragma once

#include "model/affinity.hpp"
#include "model/boxed.hpp"
#include "model/labels.hpp"
#include "model/resource_list.hpp"
#include "model/storage.hpp"
#include "model/symbol.hpp"
#include "model/taint.hpp"
#include "model/topology_spread.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::model {

enum class pod_phase : std::uint8_t {
  pending,
  running,
  succeeded,
  failed,
  unknown
};
std::string_view to_string(pod_phase p) noexcept;

enum class preemption_policy : std::uint8_t { preempt_lower_priority, never };

/// Scoring defaults for containers without cpu / memory requests.
inline constexpr std::int64_t default_milli_cpu_request = 100;
inline constexpr std::int64_t default_memory_request = 200 * 1024 * 1024;

/// A host port a pod occupies on its node (container ports with hostPort > 0).
struct host_port {
  /// "0.0.0.0" when the API left hostIP empty.
  symbol ip;
  /// "TCP" when the API left protocol empty.
  symbol protocol;
  std::int32_t port = 0;
  friend bool operator==(const host_port&, const host_port&) = default;
};

/// True when two host ports conflict: same protocol and port (> 0), and equal
/// IPs or either IP is 0.0.0.0. An empty IP reads as 0.0.0.0 and an empty
/// protocol as TCP.
bool conflicts(const host_port& a, const host_port& b) noexcept;

struct container {
  std::string name;
  std::string image;
  /// Scheduling-relevant requests as written (limits already copied into
  /// missing requests by the API server or by decoding defaults).
  resource_list requests;
  /// Whether cpu / memory requests were present at all (an explicit 0 counts
  /// as present for the scoring defaults).
  bool has_cpu_request = false;
  bool has_memory_request = false;
  std::vector<host_port> host_ports;
  /// Init container with restartPolicy: Always (a sidecar).
  bool restartable = false;
  /// Some restartPolicyRules entry has action RestartAllContainers, which
  /// only nodes declaring RestartAllContainersOnContainerExits honour.
  bool restarts_all_containers = false;
  friend bool operator==(const container&, const container&) = default;
};

struct volume {
  std::string name;
  /// The volume source's field name, e.g. "persistentVolumeClaim",
  /// "ephemeral", "emptyDir", "gcePersistentDisk".
  std::string type;
  /// The claim a persistentVolumeClaim volume names, or the claim a generic
  /// ephemeral volume gets ("<pod>-<volume>"); empty for other sources.
  std::string claim_name;
  /// The claim comes from a generic ephemeral volume (the pod must own it).
  bool ephemeral = false;
  /// readOnly of the source (persistentVolumeClaim, gcePersistentDisk, rbd,
  /// iscsi).
  bool read_only = false;
  /// Identity of an inline disk that VolumeRestrictions compares: the
  /// gcePersistentDisk pdName, awsElasticBlockStore volumeID, iscsi iqn or
  /// rbd "pool/image"; empty for other sources.
  std::string disk_id;
  /// rbd monitors (two rbd volumes conflict only if they share one).
  std::vector<std::string> rbd_monitors;
  /// An inline in-tree source as attach limits count it (translated to its
  /// CSI driver); empty driver when nothing attaches it.
  attachable_volume attach;
  friend bool operator==(const volume&, const volume&) = default;
};

struct owner_reference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  bool controller = false;
  friend bool operator==(const owner_reference&, const owner_reference&)
    = default;
};

/// What the kubelet reports of one container's resources during an in-place
/// resize: `allocatedResources` and `resources.requests` of the container's
/// entry in status.containerStatuses or initContainerStatuses. Kept only
/// when either is present.
struct container_resources_status {
  std::string name;
  std::optional<resource_list> allocated;
  std::optional<resource_list> actual;
  friend bool operator==(const container_resources_status&,
                         const container_resources_status&)
    = default;
};

/// The PodScheduled condition as last written (to avoid redundant patches).
struct pod_scheduled_condition {
  std::string status;
  std::string reason;
  std::string message;
  friend bool operator==(const pod_scheduled_condition&,
                         const pod_scheduled_condition&)
    = default;
};

/// One entry of spec.resourceClaims: its name and the ResourceClaim, or the
/// ResourceClaimTemplate, it refers to.
struct pod_resource_claim {
  std::string name;
  std::string claim_name;
  std::string template_name;
  friend bool operator==(const pod_resource_claim&, const pod_resource_claim&)
    = default;
};

/// `pod_core`: the part of a pod that the scheduler reads of pods it is not
/// scheduling (pods already on a node, preemption victims, the old object of
/// a cache event). The cache keeps only this part of every bound or assumed
/// pod, which is most of the scheduler's memory in large clusters; `pod`
/// derives from it so that readers taking `const pod_core&` accept full pods
/// too. Copy a pod's core with `pod_core{p}` (a deliberate slice). The class
/// has no virtual destructor: never delete a `pod` through a `pod_core*`
/// (shared_ptr keeps the deleter it was made with).
struct pod_core {
  symbol ns;
  symbol node_name;
  symbol nominated_node_name;
  /// spec.priority after admission (0 when absent).
  std::int32_t priority = 0;
  /// status.startTime in seconds since the epoch, when set.
  std::optional<std::int64_t> start_unix;
  std::string name;
  std::string uid;
  label_set labels;
  /// The effective request (see the `pod` file comment).
  resource_list requests;
  /// Host ports of sidecars (restartable init containers, in order) then of
  /// regular containers; only hostPort > 0, with ip / protocol defaulted.
  std::vector<host_port> host_ports;
  std::vector<volume> volumes;
  boxed<affinity_spec> affinity;
  /// cpu and memory of `pod::non_zero_requests`; every other resource there
  /// equals `requests`, since the scoring defaults touch only these two.
  std::int64_t non_zero_milli_cpu = 0;
  std::int64_t non_zero_memory = 0;
  /// A hash of spec.tolerations, so that a change of them is seen without
  /// keeping them.
  std::uint64_t tolerations_fingerprint = 0;
  pod_phase phase = pod_phase::pending;
  /// metadata.deletionTimestamp is set.
  bool deleting = false;
  /// status.conditions has DisruptionTarget=True with reason
  /// PreemptionByScheduler: a preemption victim being terminated.
  bool disrupted_by_preemption = false;
  /// Has any pod affinity or anti-affinity term (required or preferred).
  bool has_pod_affinity_terms = false;
  bool has_required_anti_affinity = false;
  /// Some owner reference has controller: true.
  bool has_controller = false;

  /// "namespace/name".
  std::string key() const;
  /// True when the pod is bound to a node.
  bool is_bound() const noexcept {
    return !node_name.empty();
  }
  /// True for Succeeded and Failed.
  bool is_terminal() const noexcept {
    return phase == pod_phase::succeeded || phase == pod_phase::failed;
  }
  /// Same identity: equal UIDs when both have one, else equal keys.
  bool same_identity(const pod_core& other) const noexcept;

  friend bool operator==(const pod_core&, const pod_core&) = default;
};

// The cache allocates one pod_core per bound pod with make_shared, which adds
// a 16-byte control block: up to 368 bytes the pair fits jemalloc's 384-byte
// size class, and the next class is 448.
static_assert(sizeof(pod_core) <= 368,
              "pod_core outgrew jemalloc's 384-byte size class");

/// A pod as decoded: `pod_core` plus the fields only the pod being scheduled
/// needs.
struct pod : pod_core {
  // metadata
  std::string resource_version;
  /// Seconds since the epoch (creationTimestamp); 0 when absent.
  std::int64_t creation_unix = 0;
  std::int64_t generation = 0;
  std::vector<owner_reference> owners;

  // spec
  symbol scheduler_name;
  std::string priority_class_name;
  /// spec.priority was present in the decoded object (always so for pods
  /// an API server admitted); `resolve_priority` keeps such a value.
  bool priority_given = false;
  preemption_policy preemption = preemption_policy::preempt_lower_priority;
  /// spec.hostNetwork.
  bool host_network = false;
  /// spec.hostUsers (true when absent: the pod shares the host's user
  /// namespace).
  bool host_users = true;
  std::vector<std::string> scheduling_gates;
  /// spec.resourceClaims (dynamic resource allocation); tessera allocates
  /// none, so DynamicResources refuses pods that have any.
  std::vector<pod_resource_claim> resource_claims;
  /// spec.nodeSelector as a label set (every pair must match node labels).
  label_set node_selector;
  std::vector<toleration> tolerations;
  std::vector<topology_spread_constraint> topology_spread_constraints;
  std::vector<container> containers;
  std::vector<container> init_containers;
  boxed<resource_list> overhead;
  /// spec.resources.requests (pod-level resources), when set. Only cpu,
  /// memory and hugepages-* are used; a zero cpu or memory counts as absent.
  optional_box<resource_list> pod_level_requests;

  // status
  optional_box<pod_scheduled_condition> scheduled_condition;
  /// Containers' reported resources (see container_resources_status).
  std::vector<container_resources_status> container_resources;
  /// status.conditions has PodResizePending with reason Infeasible: the
  /// kubelet will not apply the desired requests.
  bool resize_infeasible = false;

  // derived by complete() (with the derived fields of pod_core)
  resource_list non_zero_requests;
  /// Normalized images (":latest" added to untagged names) of the regular
  /// containers, then of the init containers, duplicates kept.
  std::vector<symbol> images;

  /// Recomputes the derived fields from the spec.
  void complete();

  friend bool operator==(const pod&, const pod&) = default;
};

using pod_ptr = std::shared_ptr<const pod>;
using pod_core_ptr = std::shared_ptr<const pod_core>;

/// A pod with `core`'s fields and every other field empty, for the readers
/// that take a full pod (API sinks, queueing hints) of a pod the cache keeps
/// only as a core. Not completed: `non_zero_requests` and `images` stay
/// empty, and complete() would recompute `requests` from no containers.
pod_ptr make_pod_stub(const pod_core& core);

/// The effective request of a set of containers, as kube-scheduler computes
/// it (see the file comment); `non_zero` applies the scoring defaults per
/// container first. Exposed for tests and for the API server's defaulting.
resource_list compute_pod_requests(const pod& p, bool non_zero);

/// Appends ":latest" when the image reference carries no tag.
std::string normalize_image_name(std::string_view image);

} // namespace tessera::model
