// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/resources.hpp"

namespace tessera::apiserver {

namespace {

constexpr std::string_view full_verbs
  = "create,delete,deletecollection,get,list,patch,update,watch";

constexpr std::array<resource_info, 30> table = {{
  {"", "v1", "pods", "pod", "Pod", "PodList", true, storage_kind::pod,
   resource_view::stored, "po", full_verbs, true, false},
  {"", "v1", "nodes", "node", "Node", "NodeList", false, storage_kind::node,
   resource_view::stored, "no", full_verbs, true, false},
  {"", "v1", "namespaces", "namespace", "Namespace", "NamespaceList", false,
   storage_kind::namespace_, resource_view::stored, "ns",
   "create,delete,get,list,patch,update,watch", true, false},
  {"", "v1", "events", "event", "Event", "EventList", true, storage_kind::event,
   resource_view::stored, "ev", full_verbs, false, false},
  {"events.k8s.io", "v1", "events", "event", "Event", "EventList", true,
   storage_kind::event, resource_view::events_v1, "ev", full_verbs, false,
   false},
  {"coordination.k8s.io", "v1", "leases", "lease", "Lease", "LeaseList", true,
   storage_kind::lease, resource_view::stored, "", full_verbs, false, true},
  {"policy", "v1", "poddisruptionbudgets", "poddisruptionbudget",
   "PodDisruptionBudget", "PodDisruptionBudgetList", true,
   storage_kind::pod_disruption_budget, resource_view::stored, "pdb",
   full_verbs, true, false},
  {"scheduling.k8s.io", "v1", "priorityclasses", "priorityclass",
   "PriorityClass", "PriorityClassList", false, storage_kind::priority_class,
   resource_view::stored, "pc", full_verbs, false, false},
  // The scheduler reads their selectors for default spreading; replica
  // sets are run by `workload_controller`, the others are stored only.
  {"", "v1", "services", "service", "Service", "ServiceList", true,
   storage_kind::service, resource_view::stored, "svc", full_verbs, true,
   false},
  {"", "v1", "replicationcontrollers", "replicationcontroller",
   "ReplicationController", "ReplicationControllerList", true,
   storage_kind::replication_controller, resource_view::stored, "rc",
   full_verbs, true, false},
  {"apps", "v1", "replicasets", "replicaset", "ReplicaSet", "ReplicaSetList",
   true, storage_kind::replica_set, resource_view::stored, "rs", full_verbs,
   true, false},
  {"apps", "v1", "statefulsets", "statefulset", "StatefulSet",
   "StatefulSetList", true, storage_kind::stateful_set, resource_view::stored,
   "sts", full_verbs, true, false},
  // Workloads: `workload_controller` runs their controllers.
  {"apps", "v1", "deployments", "deployment", "Deployment", "DeploymentList",
   true, storage_kind::deployment, resource_view::stored, "deploy", full_verbs,
   true, false},
  {"apps", "v1", "daemonsets", "daemonset", "DaemonSet", "DaemonSetList", true,
   storage_kind::daemon_set, resource_view::stored, "ds", full_verbs, true,
   false},
  {"batch", "v1", "jobs", "job", "Job", "JobList", true, storage_kind::job,
   resource_view::stored, "", full_verbs, true, false},
  // Stored only: what pods refer to.
  {"", "v1", "configmaps", "configmap", "ConfigMap", "ConfigMapList", true,
   storage_kind::config_map, resource_view::stored, "cm", full_verbs, false,
   false},
  {"", "v1", "secrets", "secret", "Secret", "SecretList", true,
   storage_kind::secret, resource_view::stored, "", full_verbs, false, false},
  {"", "v1", "serviceaccounts", "serviceaccount", "ServiceAccount",
   "ServiceAccountList", true, storage_kind::service_account,
   resource_view::stored, "sa", full_verbs, false, false},
  // Storage: the volume controller binds and provisions; the scheduler
  // reads them all.
  {"", "v1", "persistentvolumes", "persistentvolume", "PersistentVolume",
   "PersistentVolumeList", false, storage_kind::persistent_volume,
   resource_view::stored, "pv", full_verbs, true, false},
  {"", "v1", "persistentvolumeclaims", "persistentvolumeclaim",
   "PersistentVolumeClaim", "PersistentVolumeClaimList", true,
   storage_kind::persistent_volume_claim, resource_view::stored, "pvc",
   full_verbs, true, false},
  {"storage.k8s.io", "v1", "storageclasses", "storageclass", "StorageClass",
   "StorageClassList", false, storage_kind::storage_class,
   resource_view::stored, "sc", full_verbs, false, false},
  {"storage.k8s.io", "v1", "csinodes", "csinode", "CSINode", "CSINodeList",
   false, storage_kind::csi_node, resource_view::stored, "", full_verbs, false,
   false},
  {"storage.k8s.io", "v1", "csidrivers", "csidriver", "CSIDriver",
   "CSIDriverList", false, storage_kind::csi_driver, resource_view::stored, "",
   full_verbs, false, false},
  {"storage.k8s.io", "v1", "csistoragecapacities", "csistoragecapacity",
   "CSIStorageCapacity", "CSIStorageCapacityList", true,
   storage_kind::csi_storage_capacity, resource_view::stored, "", full_verbs,
   false, false},
  {"storage.k8s.io", "v1", "volumeattachments", "volumeattachment",
   "VolumeAttachment", "VolumeAttachmentList", false,
   storage_kind::volume_attachment, resource_view::stored, "", full_verbs, true,
   false},
  // The legacy bindings collection (POST only, pod named by the body).
  {"", "v1", "bindings", "binding", "Binding", "BindingList", true,
   storage_kind::pod, resource_view::stored, "", "create", false, false},
  // Reviews (POST only, answered, never stored: see reviews.hpp).
  {"authentication.k8s.io", "v1", "tokenreviews", "tokenreview", "TokenReview",
   "TokenReviewList", false, storage_kind::pod, resource_view::stored, "",
   "create", false, false},
  {"authorization.k8s.io", "v1", "subjectaccessreviews", "subjectaccessreview",
   "SubjectAccessReview", "SubjectAccessReviewList", false, storage_kind::pod,
   resource_view::stored, "", "create", false, false},
  {"authorization.k8s.io", "v1", "selfsubjectaccessreviews",
   "selfsubjectaccessreview", "SelfSubjectAccessReview",
   "SelfSubjectAccessReviewList", false, storage_kind::pod,
   resource_view::stored, "", "create", false, false},
  {"authentication.k8s.io", "v1", "selfsubjectreviews", "selfsubjectreview",
   "SelfSubjectReview", "SelfSubjectReviewList", false, storage_kind::pod,
   resource_view::stored, "", "create", false, false},
}};

constexpr std::array<std::string_view, 9> groups
  = {"apps/v1",   "authentication.k8s.io/v1", "authorization.k8s.io/v1",
     "batch/v1",  "coordination.k8s.io/v1",   "events.k8s.io/v1",
     "policy/v1", "scheduling.k8s.io/v1",     "storage.k8s.io/v1"};

} // namespace

std::string resource_info::api_version() const {
  if (group.empty())
    return std::string{version};
  std::string out{group};
  out += '/';
  out += version;
  return out;
}

std::string resource_info::qualified_name() const {
  if (group.empty())
    return std::string{name};
  std::string out{name};
  out += '.';
  out += group;
  return out;
}

std::span<const resource_info> all_resources() noexcept {
  return {table.data(), table.size()};
}

const resource_info* find_resource(std::string_view group,
                                   std::string_view version,
                                   std::string_view name) noexcept {
  for (const auto& r : table)
    if (r.group == group && r.version == version && r.name == name)
      return &r;
  return nullptr;
}

const resource_info& primary_resource(storage_kind storage) noexcept {
  for (const auto& r : table)
    if (r.storage == storage && r.view == resource_view::stored
        && r.verbs != "create")
      return r;
  return table[0];
}

std::span<const std::string_view> api_groups() noexcept {
  return {groups.data(), groups.size()};
}

} // namespace tessera::apiserver
