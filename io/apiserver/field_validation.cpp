// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/field_validation.hpp"

#include <boost/json.hpp>
#include <boost/json/basic_parser_impl.hpp>

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <unordered_set>
#include <utility>

namespace tessera::apiserver {

namespace json = boost::json;

namespace {

/// One object level of a kind. No fields = open: anything below is
/// accepted. The same node describes each element when the value is an
/// array of objects.
struct schema_node {
  std::map<std::string, std::shared_ptr<schema_node>, std::less<>> fields;
};
using schema_ptr = std::shared_ptr<schema_node>;

// The schemas, as space-separated field paths. A path names the fields it
// passes through; `path=fragment` gives the last one a fragment's fields.
// Fragments are listed before their first use.
constexpr std::array<std::pair<std::string_view, std::string_view>, 13>
  fragments = {{
    {"meta", "name generateName namespace selfLink uid resourceVersion "
             "generation creationTimestamp deletionTimestamp "
             "deletionGracePeriodSeconds labels annotations finalizers "
             "managedFields ownerReferences.apiVersion ownerReferences.kind "
             "ownerReferences.name ownerReferences.uid "
             "ownerReferences.controller ownerReferences.blockOwnerDeletion"},
    {"selector", "matchLabels matchExpressions.key matchExpressions.operator "
                 "matchExpressions.values"},
    {"nodeterm", "matchExpressions.key matchExpressions.operator "
                 "matchExpressions.values matchFields.key "
                 "matchFields.operator matchFields.values"},
    {"podterm", "labelSelector=selector namespaceSelector=selector "
                "namespaces topologyKey matchLabelKeys mismatchLabelKeys"},
    {"podaffinity",
     "requiredDuringSchedulingIgnoredDuringExecution=podterm "
     "preferredDuringSchedulingIgnoredDuringExecution.weight "
     "preferredDuringSchedulingIgnoredDuringExecution.podAffinityTerm="
     "podterm"},
    {"affinity",
     "nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
     "nodeSelectorTerms=nodeterm "
     "nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution.weight "
     "nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution."
     "preference=nodeterm podAffinity=podaffinity "
     "podAntiAffinity=podaffinity"},
    {"resources", "limits requests claims.name claims.request"},
    {"container",
     "name image command args workingDir ports.name ports.hostPort "
     "ports.containerPort ports.protocol ports.hostIP envFrom env.name "
     "env.value env.valueFrom resources=resources resizePolicy restartPolicy "
     "restartPolicyRules volumeMounts.name volumeMounts.readOnly "
     "volumeMounts.recursiveReadOnly volumeMounts.mountPath "
     "volumeMounts.subPath volumeMounts.mountPropagation "
     "volumeMounts.subPathExpr volumeDevices livenessProbe readinessProbe "
     "startupProbe lifecycle terminationMessagePath "
     "terminationMessagePolicy imagePullPolicy securityContext stdin "
     "stdinOnce tty"},
    {"ephemeral", "=container targetContainerName"},
    {"volume", "name hostPath emptyDir gcePersistentDisk awsElasticBlockStore "
               "gitRepo secret nfs iscsi glusterfs persistentVolumeClaim rbd "
               "flexVolume cinder cephfs flocker downwardAPI fc azureFile "
               "configMap vsphereVolume quobyte azureDisk "
               "photonPersistentDisk projected portworxVolume scaleIO "
               "storageos csi ephemeral image"},
    {"spread", "maxSkew topologyKey whenUnsatisfiable labelSelector=selector "
               "minDomains nodeAffinityPolicy nodeTaintsPolicy "
               "matchLabelKeys"},
    {"podspec",
     "volumes=volume initContainers=container containers=container "
     "ephemeralContainers=ephemeral restartPolicy "
     "terminationGracePeriodSeconds activeDeadlineSeconds dnsPolicy "
     "nodeSelector serviceAccountName serviceAccount "
     "automountServiceAccountToken nodeName hostNetwork hostPID hostIPC "
     "shareProcessNamespace securityContext imagePullSecrets hostname "
     "subdomain affinity=affinity schedulerName tolerations.key "
     "tolerations.operator tolerations.value tolerations.effect "
     "tolerations.tolerationSeconds hostAliases priorityClassName priority "
     "dnsConfig readinessGates runtimeClassName enableServiceLinks "
     "preemptionPolicy overhead topologySpreadConstraints=spread "
     "setHostnameAsFQDN os hostUsers schedulingGates.name resourceClaims "
     "resources=resources hostnameOverride workloadRef"},
    {"template", "metadata=meta spec=podspec"},
  }};

/// Fields of each kind besides apiVersion, kind and metadata, by Kind (and
/// "Event/v1" for the events.k8s.io view).
constexpr std::array<std::pair<std::string_view, std::string_view>, 19> kinds
  = {{
    {"Pod", "spec=podspec status"},
    {"Node", "spec.podCIDR spec.podCIDRs spec.providerID spec.unschedulable "
             "spec.taints.key spec.taints.value spec.taints.effect "
             "spec.taints.timeAdded spec.configSource spec.externalID "
             "status"},
    {"Namespace", "spec.finalizers status"},
    {"Event", "involvedObject reason message source firstTimestamp "
              "lastTimestamp count type eventTime series action related "
              "reportingComponent reportingInstance"},
    {"Event/v1", "eventTime series reportingController reportingInstance "
                 "action reason regarding related note type deprecatedSource "
                 "deprecatedFirstTimestamp deprecatedLastTimestamp "
                 "deprecatedCount"},
    {"Lease", "spec.holderIdentity spec.leaseDurationSeconds spec.acquireTime "
              "spec.renewTime spec.leaseTransitions spec.strategy "
              "spec.preferredHolder"},
    {"PodDisruptionBudget", "spec.minAvailable spec.maxUnavailable "
                            "spec.selector=selector "
                            "spec.unhealthyPodEvictionPolicy status"},
    {"PriorityClass", "value globalDefault description preemptionPolicy"},
    {"Service", "spec status"},
    {"ReplicationController", "spec.replicas spec.minReadySeconds "
                              "spec.selector spec.template=template status"},
    {"ReplicaSet", "spec.replicas spec.minReadySeconds spec.selector=selector "
                   "spec.template=template status"},
    {"StatefulSet",
     "spec.replicas spec.selector=selector spec.template=template "
     "spec.volumeClaimTemplates spec.serviceName spec.podManagementPolicy "
     "spec.updateStrategy spec.revisionHistoryLimit spec.minReadySeconds "
     "spec.persistentVolumeClaimRetentionPolicy spec.ordinals status"},
    {"PersistentVolume", "spec status"},
    {"PersistentVolumeClaim",
     "spec.accessModes spec.selector=selector spec.resources.limits "
     "spec.resources.requests spec.volumeName spec.storageClassName "
     "spec.volumeMode spec.dataSource spec.dataSourceRef "
     "spec.volumeAttributesClassName status"},
    {"StorageClass", "provisioner parameters reclaimPolicy mountOptions "
                     "allowVolumeExpansion volumeBindingMode "
                     "allowedTopologies"},
    {"CSINode", "spec"},
    {"CSIDriver", "spec"},
    {"CSIStorageCapacity", "nodeTopology=selector storageClassName capacity "
                           "maximumVolumeSize"},
    {"VolumeAttachment", "spec status"},
  }};

using fragment_map = std::map<std::string, schema_ptr, std::less<>>;

/// Adds the paths of `spec` to `root`.
void add_paths(schema_node& root, std::string_view spec,
               const fragment_map& known) {
  while (!spec.empty()) {
    auto space = spec.find(' ');
    auto token = spec.substr(0, space);
    spec = space == std::string_view::npos ? std::string_view{}
                                           : spec.substr(space + 1);
    if (token.empty())
      continue;
    auto eq = token.find('=');
    auto path = token.substr(0, eq);
    schema_node* node = &root;
    while (!path.empty()) {
      auto dot = path.find('.');
      auto name = path.substr(0, dot);
      path = dot == std::string_view::npos ? std::string_view{}
                                           : path.substr(dot + 1);
      auto& child = node->fields[std::string{name}];
      if (!child)
        child = std::make_shared<schema_node>();
      node = child.get();
    }
    if (eq != std::string_view::npos) {
      auto it = known.find(token.substr(eq + 1));
      if (it != known.end())
        for (const auto& kv : it->second->fields)
          node->fields.insert(kv);
    }
  }
}

/// Every kind's schema, built on first use.
const std::map<std::string, schema_ptr, std::less<>>& schemas() {
  static const auto built = [] {
    fragment_map frags;
    for (const auto& [name, spec] : fragments) {
      auto node = std::make_shared<schema_node>();
      add_paths(*node, spec, frags);
      frags.emplace(std::string{name}, std::move(node));
    }
    std::map<std::string, schema_ptr, std::less<>> out;
    for (const auto& [kind, spec] : kinds) {
      auto node = std::make_shared<schema_node>();
      add_paths(*node, "apiVersion kind metadata=meta", frags);
      add_paths(*node, spec, frags);
      out.emplace(std::string{kind}, std::move(node));
    }
    return out;
  }();
  return built;
}

/// The schema of the kind `resource` presents; null when it has none.
const schema_node* schema_of(const resource_info& resource) {
  std::string key{resource.kind};
  if (resource.view == resource_view::events_v1)
    key += "/v1";
  const auto& all = schemas();
  auto it = all.find(key);
  return it == all.end() ? nullptr : it->second.get();
}

void prune(const schema_node& node, json::value& v, std::string& path,
           std::vector<std::string>& out);

void prune_object(const schema_node& node, json::object& obj, std::string& path,
                  std::vector<std::string>& out) {
  std::vector<std::string> unknown;
  for (auto& kv : obj) {
    auto len = path.size();
    if (!path.empty())
      path += '.';
    path.append(kv.key().data(), kv.key().size());
    auto f = node.fields.find(std::string_view{kv.key()});
    if (f == node.fields.end()) {
      out.push_back(path);
      unknown.emplace_back(kv.key());
    } else {
      prune(*f->second, kv.value(), path, out);
    }
    path.resize(len);
  }
  for (const auto& k : unknown)
    obj.erase(k);
}

void prune(const schema_node& node, json::value& v, std::string& path,
           std::vector<std::string>& out) {
  if (node.fields.empty())
    return;
  if (auto* obj = v.if_object()) {
    prune_object(node, *obj, path, out);
    return;
  }
  if (auto* arr = v.if_array()) {
    for (std::size_t i = 0; i < arr->size(); ++i) {
      auto len = path.size();
      path += '[';
      path += std::to_string(i);
      path += ']';
      prune(node, (*arr)[i], path, out);
      path.resize(len);
    }
  }
}

/// A SAX handler that records repeated keys with their paths.
class duplicate_finder {
public:
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  /// `root`: the schema of the document, or null to find repeated keys
  /// only.
  duplicate_finder(std::vector<std::string>* out, const schema_node* root)
    : out_(out), root_(root) {
  }

  bool on_document_begin(json::error_code&) {
    return true;
  }
  bool on_document_end(json::error_code&) {
    return true;
  }
  bool on_object_begin(json::error_code&) {
    value();
    auto* node = pending();
    frames_.push_back({});
    frames_.back().node = node;
    return true;
  }
  bool on_object_end(std::size_t, json::error_code&) {
    frames_.pop_back();
    return true;
  }
  bool on_array_begin(json::error_code&) {
    value();
    auto* node = pending();
    frames_.push_back({});
    frames_.back().array = true;
    frames_.back().node = node;
    return true;
  }
  bool on_array_end(std::size_t, json::error_code&) {
    frames_.pop_back();
    return true;
  }
  bool on_key_part(json::string_view s, std::size_t, json::error_code&) {
    key_.append(s.data(), s.size());
    return true;
  }
  bool on_key(json::string_view s, std::size_t, json::error_code&) {
    key_.append(s.data(), s.size());
    auto& f = frames_.back();
    if (!f.keys.insert(key_).second)
      out_->push_back("duplicate field \"" + path_of(key_) + "\"");
    f.child = nullptr;
    if (f.node && !f.node->fields.empty()) {
      auto it = f.node->fields.find(key_);
      if (it == f.node->fields.end())
        out_->push_back("unknown field \"" + path_of(key_) + "\"");
      else
        f.child = it->second.get();
    }
    f.key = std::move(key_);
    key_.clear();
    return true;
  }
  bool on_string_part(json::string_view, std::size_t, json::error_code&) {
    return true;
  }
  bool on_string(json::string_view, std::size_t, json::error_code&) {
    value();
    return true;
  }
  bool on_number_part(json::string_view, json::error_code&) {
    return true;
  }
  bool on_int64(std::int64_t, json::string_view, json::error_code&) {
    value();
    return true;
  }
  bool on_uint64(std::uint64_t, json::string_view, json::error_code&) {
    value();
    return true;
  }
  bool on_double(double, json::string_view, json::error_code&) {
    value();
    return true;
  }
  bool on_bool(bool, json::error_code&) {
    value();
    return true;
  }
  bool on_null(json::error_code&) {
    value();
    return true;
  }
  bool on_comment_part(json::string_view, json::error_code&) {
    return true;
  }
  bool on_comment(json::string_view, json::error_code&) {
    return true;
  }

private:
  struct frame {
    bool array = false;
    /// Values seen so far in an array.
    std::size_t count = 0;
    std::unordered_set<std::string> keys;
    /// The key whose value is being read, in an object.
    std::string key;
    /// The schema of this object, or of each element of this array; null
    /// when open.
    const schema_node* node = nullptr;
    /// The schema of the current key's value; null when open or unknown.
    const schema_node* child = nullptr;
  };

  /// The schema of a value starting now.
  const schema_node* pending() const {
    if (frames_.empty())
      return root_;
    const frame& f = frames_.back();
    return f.array ? f.node : f.child;
  }

  /// Counts a value starting in an array.
  void value() {
    if (!frames_.empty() && frames_.back().array)
      ++frames_.back().count;
  }

  /// The path of key `last` of the innermost object.
  std::string path_of(const std::string& last) const {
    std::string p;
    for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
      const frame& f = frames_[i];
      if (f.array) {
        p += '[';
        p += std::to_string(f.count - 1);
        p += ']';
      } else {
        if (!p.empty())
          p += '.';
        p += f.key;
      }
    }
    if (!p.empty())
      p += '.';
    p += last;
    return p;
  }

  std::vector<std::string>* out_;
  const schema_node* root_;
  std::vector<frame> frames_;
  std::string key_;
};

} // namespace

std::optional<field_validation> parse_field_validation(std::string_view text) {
  if (text == "Strict")
    return field_validation::strict;
  if (text == "Warn")
    return field_validation::warn;
  if (text == "Ignore")
    return field_validation::ignore;
  return std::nullopt;
}

std::vector<std::string> prune_unknown_fields(const resource_info& resource,
                                              json::object& obj) {
  std::vector<std::string> out;
  if (const schema_node* schema = schema_of(resource)) {
    std::string path;
    prune_object(*schema, obj, path, out);
  }
  return out;
}

std::vector<std::string> field_problems(const resource_info* resource,
                                        std::string_view text) {
  std::vector<std::string> out;
  json::parse_options opts;
  opts.max_depth = 64;
  json::basic_parser<duplicate_finder> p(
    opts, &out, resource ? schema_of(*resource) : nullptr);
  json::error_code ec;
  p.write_some(false, text.data(), text.size(), ec);
  if (ec)
    out.clear();
  return out;
}

} // namespace tessera::apiserver
