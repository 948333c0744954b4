// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `cluster_spec`: a randomized cluster for the pipeline tests, described as
/// plain specs (what each node offers, what each pod asks for) and turned
/// into model objects with the test builders. The placement checker reads
/// the specs, not the model objects, so it does not share code with the
/// plugins it checks.
///
/// Constraint groups keep the hard rules checkable on the final state:
/// - an anti-affinity group `a<k>`: pods labelled `anti-group=a<k>`; some of
///   them carry a required anti-affinity term against that label (topology
///   key hostname or zone). No two such pods may share a domain of a term.
/// - a spread group `s<k>`: pods labelled `spread-group=s<k>`, all with the
///   same DoNotSchedule constraint over that label and no node affinity, so
///   every placement sees the same eligible domains and the final counts
///   must satisfy max - min <= maxSkew.
///
/// Storage (optional): three classes — `local` (WaitForFirstConsumer, no
/// provisioner: only the local volumes pinned to one hostname, few, so they
/// run out), `zonal` (WaitForFirstConsumer, CSI driver `csi_driver`, allowed
/// only in the first zones; free zonal volumes may be bound instead) and
/// `immediate` (Immediate binding: an unbound claim of it never schedules);
/// claims bound to zonal volumes; ReadWriteOncePod claims shared by several
/// pending pods; generic ephemeral volumes of the zonal class; CSINodes
/// with a small attach count for `csi_driver`.
#pragma once

#include "model/object.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::pipeline_test {

inline constexpr const char* zone_key = "topology.kubernetes.io/zone";
inline constexpr const char* hostname_key = "kubernetes.io/hostname";
inline constexpr const char* gpu_resource = "example.com/gpu";
inline constexpr const char* csi_driver = "csi.example.com";
inline constexpr const char* no_provisioner = "kubernetes.io/no-provisioner";

struct taint_spec {
  std::string key;
  std::string value;
  /// "NoSchedule", "PreferNoSchedule" or "NoExecute".
  std::string effect;
};

struct node_spec {
  std::string name;
  std::int64_t milli_cpu = 0;
  std::int64_t memory_mi = 0;
  std::int64_t pods = 110;
  std::int64_t gpus = 0;
  /// Empty: the node has no zone label.
  std::string zone;
  /// Value of the `tier` label (always set).
  std::string tier;
  /// Carries `disk=ssd`.
  bool ssd = false;
  std::vector<taint_spec> taints;
  bool unschedulable = false;
};

struct toleration_spec {
  std::string key;
  std::string value;
  /// Empty tolerates every effect.
  std::string effect;
};

struct anti_affinity_spec {
  /// The `anti-group` value the term selects.
  std::string group;
  std::string topology_key;
};

struct spread_spec {
  /// The `spread-group` value the constraint selects (and the pod carries).
  std::string group;
  std::string topology_key;
  std::int32_t max_skew = 1;
};

struct pod_spec {
  std::string name;
  std::int64_t milli_cpu = 0;
  std::int64_t memory_mi = 0;
  std::int64_t gpus = 0;
  /// TCP host port, 0 = none.
  std::int32_t host_port = 0;
  std::vector<toleration_spec> tolerations;
  /// Required node affinity `tier In (...)`; empty = none.
  std::vector<std::string> tier_in;
  /// nodeSelector disk=ssd.
  bool needs_ssd = false;
  /// Required node affinity on matchFields metadata.name In (...); a
  /// PreFilterResult node set.
  std::vector<std::string> name_in;
  /// Label `anti-group=<value>`; empty = none.
  std::string anti_label;
  std::optional<anti_affinity_spec> anti;
  std::optional<spread_spec> spread;
  std::int32_t priority = 0;
  bool preempt_never = false;
  /// A running pod in the middle of an in-place down-size: the kubelet
  /// still reports this much cpu (status resources), more than the spec
  /// asks; 0 = no resize. The node holds the larger of the two.
  std::int64_t actual_milli_cpu = 0;
  /// Pre-bound to this node (spec.nodeName); empty = pending.
  std::string node;
  std::vector<std::string> gates;
  /// persistentVolumeClaim volumes: claim names (namespace default).
  std::vector<std::string> claims;
  /// A generic ephemeral volume `scratch`: its claim `<name>-scratch`
  /// (owned by the pod) is in `claims` too.
  bool ephemeral = false;
};

struct class_spec {
  std::string name;
  std::string provisioner;
  bool wait_for_first_consumer = false;
  /// allowedTopologies: zone In (...); empty = every node.
  std::vector<std::string> zones;
};

/// Access modes as in model::access_modes.
inline constexpr std::uint8_t rwo_mode = 1u << 0;
inline constexpr std::uint8_t rwop_mode = 1u << 3;

struct volume_spec {
  std::string name;
  std::string storage_class;
  std::int64_t capacity_gi = 1;
  std::uint8_t modes = rwo_mode;
  /// Node affinity kubernetes.io/hostname In [host]; empty = none.
  std::string host;
  /// Zone label and node affinity zone In [zone]; empty = none.
  std::string zone;
  /// The CSI driver that attaches it (handle = name); empty = local.
  std::string driver;
  /// The claim it is bound to; empty = free.
  std::string claim;
};

struct claim_spec {
  std::string name;
  std::string storage_class;
  std::int64_t request_gi = 1;
  std::uint8_t modes = rwo_mode;
  /// Bound (volumeName, bind-completed); empty = unbound.
  std::string volume;
  /// The pod whose generic ephemeral volume made the claim (its
  /// controller); empty = none.
  std::string owner;
};

struct csi_node_spec {
  std::string node;
  /// Allocatable count of `csi_driver`.
  std::int32_t count = 0;
};

struct storage_spec {
  std::vector<class_spec> classes;
  std::vector<volume_spec> volumes;
  std::vector<claim_spec> claims;
  std::vector<csi_node_spec> csi_nodes;

  const class_spec* find_class(const std::string& name) const;
  const volume_spec* find_volume(const std::string& name) const;
  const claim_spec* find_claim(const std::string& name) const;
};

struct cluster_spec {
  std::vector<node_spec> nodes;
  /// Running pods, bound before the scheduler starts.
  std::vector<pod_spec> bound;
  /// Pending pods, in input order.
  std::vector<pod_spec> pending;
  storage_spec storage;

  /// Nodes, storage objects, then bound pods, then pending pods, as the
  /// source delivers them.
  std::vector<model::object> objects() const;
  const node_spec* find_node(const std::string& name) const;
};

/// What the generator may put into a cluster. Fractions are per object.
struct gen_options {
  std::size_t nodes = 50;
  std::size_t pending = 200;
  std::size_t zones = 3;
  /// Fraction of nodes without a zone label.
  double zoneless = 0.0;
  double tainted = 0.0;
  double unschedulable_nodes = 0.0;
  double gpu_nodes = 0.0;
  /// Node pod capacity range.
  std::int64_t min_pods = 110;
  std::int64_t max_pods = 110;
  /// Running pods per node, at most.
  std::size_t max_bound_per_node = 0;
  /// Fraction of running pods in an in-place down-size (actual_milli_cpu).
  double resizing = 0.0;
  double host_ports = 0.0;
  double tolerations = 0.0;
  double node_affinity = 0.0;
  double node_selector = 0.0;
  double name_fields = 0.0;
  double gpu_pods = 0.0;
  /// Fraction of pods in an anti-affinity group, and of those, the share
  /// that carries the term (the rest only the label).
  double anti_affinity = 0.0;
  std::size_t anti_groups = 4;
  double spread = 0.0;
  std::size_t spread_groups = 3;
  /// Pending pods get a priority from {0, 100, 1000} and bound pods from
  /// {0, 10}, so preemption can find victims.
  bool priorities = false;
  double preempt_never = 0.0;
  double gated = 0.0;
  /// Pod size range (cpu millicores).
  std::int64_t min_cpu = 100;
  std::int64_t max_cpu = 2000;
  /// Storage (see the file comment): fraction of pending pods that use
  /// claims; 0 generates no storage object at all.
  double storage_pods = 0.0;
  /// Pending pods come in runs of 1 to `max_replicas` copies of one spec
  /// (a workload's replicas: same spec, own names), so that batching sees
  /// pods with equal signatures. Pods with generic ephemeral volumes are
  /// never copied (their claim is their own).
  std::size_t max_replicas = 1;
};

cluster_spec generate_cluster(const gen_options& opts, std::uint64_t seed);

/// A pod's identity key as memory_cluster results report it.
std::string pod_key_of(const pod_spec& p);

} // namespace tessera::pipeline_test
