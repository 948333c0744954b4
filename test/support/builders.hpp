// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Fluent builders for model objects, shared by every test:
///
///   auto p = make_pod("web-1").ns("shop").cpu("100m").memory("200Mi")
///              .label("app", "web").node("n1").build();
///   auto n = make_node("n1").cpu("4").memory("32Gi").zone("z1").build();
///   auto info = make_node_info(n, {p});
///
/// `build()` returns shared immutable objects (`pod_ptr`, `node_ptr`) with the
/// derived fields computed (`pod::complete()`), as decoders produce them.
/// Every quantity is parsed with `model::quantity::parse`; bad input (a
/// malformed quantity, an unknown effect or operator) is a bug in the test,
/// so the builder prints what was wrong and aborts.
///
/// Pod resources, ports and the image set on the pod itself go to its main
/// container (named "main"); the main container exists when one of those
/// setters was used or when the pod has no other container.
#pragma once

#include "model/cluster_objects.hpp"
#include "model/node.hpp"
#include "model/node_info.hpp"
#include "model/node_selector.hpp"
#include "model/pod.hpp"
#include "model/quantity.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::test {

/// Label key/value pairs, e.g. `{{"app", "web"}, {"tier", "db"}}`.
using label_pairs = std::vector<std::pair<std::string, std::string>>;

/// Prints `message` as a builder error and aborts the test program.
[[noreturn]] void builder_failure(std::string_view message);

/// Parses a quantity such as "100m" or "32Gi"; aborts on bad input.
model::quantity parse_quantity(std::string_view text);

/// The amount of `resource` written as `quantity`, in the scheduler's units
/// (millicores for cpu, plain integers otherwise); aborts on bad input.
std::int64_t resource_amount(std::string_view resource,
                             std::string_view quantity);

/// Resource name / quantity pairs, e.g. `{{"cpu", "2"}, {"memory", "1Gi"}}`.
using resource_pairs = std::vector<std::pair<std::string, std::string>>;

/// A resource list from pairs (cpu in millicores); aborts on bad input.
model::resource_list make_resources(const resource_pairs& pairs);

/// A readable form of a resource list for test failure messages, e.g.
/// "cpu=1500m memory=1073741824 example.com/gpu=2"; zero fields other than
/// explicit scalar entries are left out, an empty list is "{}".
std::string describe(const model::resource_list& r);

/// A label set from pairs.
model::label_set make_labels(const label_pairs& pairs);

/// A selector with one `key In (value)` requirement per pair (matchLabels);
/// no pairs gives the empty selector, which matches everything.
model::label_selector match_labels(const label_pairs& pairs);

/// A PodDisruptionBudget named "pdb" for the PDB tests: its status
/// (`allowed`, `disrupted`), its spec and its selector.
struct budget_spec {
  std::optional<std::int32_t> allowed;
  label_pairs labels;
  std::string ns = "default";
  std::vector<std::string> disrupted = {};
  std::optional<model::int_or_percent> min_available = std::nullopt;
  std::optional<model::int_or_percent> max_unavailable = std::nullopt;
  /// Use the nil selector (selects nothing) instead of `labels`.
  bool nil_selector = false;
};
model::disruption_budget_ptr make_budget(const budget_spec& s);

/// Parses the `?labelSelector=` syntax; aborts on bad input.
model::label_selector parse_selector(std::string_view text);

/// A node selector requirement with the operator spelled as in the API
/// ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"), checked as the
/// pod decoder checks it: an invalid key or value, or a Gt / Lt value that is
/// not an integer, leaves it unusable. Aborts on an unknown operator.
model::node_selector_requirement
node_requirement(std::string_view key, std::string_view op,
                 const std::vector<std::string>& values = {});

/// A matchFields requirement on `metadata.name` ("In" or "NotIn").
model::node_selector_requirement name_field(std::string_view op,
                                            std::string_view node_name);

/// A node selector term from matchExpressions and matchFields.
model::node_selector_term
node_term(std::vector<model::node_selector_requirement> expressions,
          std::vector<model::node_selector_requirement> fields = {});

/// A pod affinity term selecting pods labelled with `labels` in
/// `namespaces` (none = the owning pod's namespace).
model::pod_affinity_term
affinity_term(const label_pairs& labels, std::string_view topology_key,
              const std::vector<std::string>& namespaces = {});

/// Builds one container.
class container_builder {
public:
  /// A container called `name` with no requests, ports or image.
  explicit container_builder(std::string name);

  /// Sets the image reference as written in the spec.
  container_builder& image(std::string_view ref);
  /// Sets the cpu request ("250m", "2").
  container_builder& cpu(std::string_view quantity);
  /// Sets the memory request ("128Mi").
  container_builder& memory(std::string_view quantity);
  /// Sets the ephemeral-storage request.
  container_builder& ephemeral_storage(std::string_view quantity);
  /// Sets the request of any scheduling-relevant resource, e.g.
  /// `request("example.com/gpu", "1")`.
  container_builder& request(std::string_view resource,
                             std::string_view quantity);
  /// Adds a host port (protocol and IP as the API would default them).
  container_builder& host_port(std::int32_t port,
                               std::string_view protocol = "TCP",
                               std::string_view ip = "0.0.0.0");
  /// Marks an init container as a sidecar (restartPolicy: Always).
  container_builder& restartable(bool value = true);
  /// Gives the container a restart rule with action RestartAllContainers.
  container_builder& restart_all_containers(bool value = true);

  /// The container.
  model::container build() const;

private:
  model::container c_;
};

/// Starts a container builder.
container_builder make_container(std::string name);

/// Builds a pod. Defaults: namespace "default", schedulerName
/// "default-scheduler", uid "uid-<namespace>-<name>", phase Pending.
class pod_builder {
public:
  /// A pod called `name` in namespace "default".
  explicit pod_builder(std::string name);

  // --- metadata

  /// Sets the namespace.
  pod_builder& ns(std::string_view name);
  /// Sets the UID (an empty UID makes identity fall back to the key).
  pod_builder& uid(std::string value);
  /// Adds or replaces a label.
  pod_builder& label(std::string_view key, std::string_view value);
  /// Sets metadata.resourceVersion.
  pod_builder& resource_version(std::string value);
  /// Sets the creation time in seconds since the epoch.
  pod_builder& created(std::int64_t unix_seconds);
  /// Adds a controller owner reference (apiVersion from the kind's group).
  pod_builder& owner(std::string kind, std::string name);
  /// Marks the pod as being deleted (deletionTimestamp set).
  pod_builder& deleting();

  // --- main container

  /// Sets the main container's cpu request.
  pod_builder& cpu(std::string_view quantity);
  /// Sets the main container's memory request.
  pod_builder& memory(std::string_view quantity);
  /// Sets the main container's ephemeral-storage request.
  pod_builder& ephemeral_storage(std::string_view quantity);
  /// Sets the main container's request of any scheduling-relevant resource.
  pod_builder& request(std::string_view resource, std::string_view quantity);
  /// Adds a host port to the main container.
  pod_builder& host_port(std::int32_t port, std::string_view protocol = "TCP",
                         std::string_view ip = "0.0.0.0");
  /// Sets the main container's image.
  pod_builder& image(std::string_view ref);

  // --- more containers and pod-level resources

  /// Adds a regular container after the main one.
  pod_builder& container(const container_builder& c);
  /// Adds an init container (a sidecar when the builder is restartable).
  pod_builder& init_container(const container_builder& c);
  /// Adds a sidecar: an init container with restartPolicy: Always.
  pod_builder& sidecar(const container_builder& c);
  /// Adds to spec.overhead, e.g. `overhead("cpu", "250m")`.
  pod_builder& overhead(std::string_view resource, std::string_view quantity);
  /// Sets one pod-level request (spec.resources.requests).
  pod_builder& pod_request(std::string_view resource,
                           std::string_view quantity);
  /// Adds a persistentVolumeClaim volume.
  pod_builder& claim(std::string claim_name);
  /// Sets spec.hostNetwork.
  pod_builder& host_network(bool value = true);
  /// Sets spec.hostUsers.
  pod_builder& host_users(bool value);

  // --- scheduling

  /// Sets spec.nodeName (the pod is bound).
  pod_builder& node(std::string_view name);
  /// Sets status.nominatedNodeName.
  pod_builder& nominated_node(std::string_view name);
  /// Sets spec.schedulerName.
  pod_builder& scheduler_name(std::string_view name);
  /// Sets the resolved priority.
  pod_builder& priority(std::int32_t value);
  /// Sets spec.priorityClassName (not resolved; see resolve_priority).
  pod_builder& priority_class(std::string name);
  /// Sets preemptionPolicy: Never.
  pod_builder& preemption_never();
  /// Adds a scheduling gate.
  pod_builder& gate(std::string name);
  /// Adds a spec.resourceClaims entry naming a ResourceClaim, or, with
  /// `from_template`, a ResourceClaimTemplate.
  pod_builder& resource_claim(std::string name, std::string source,
                              bool from_template = false);
  /// Sets status.phase.
  pod_builder& phase(model::pod_phase value);
  /// Sets status.startTime in seconds since the epoch.
  pod_builder& started(std::int64_t unix_seconds);
  /// Adds one spec.nodeSelector pair.
  pod_builder& node_selector(std::string_view key, std::string_view value);

  // --- tolerations

  /// Adds an Equal toleration; an empty effect matches every effect.
  pod_builder& toleration(std::string_view key, std::string_view value,
                          std::string_view effect);
  /// Adds an Exists toleration; an empty key tolerates every taint.
  pod_builder& toleration_exists(std::string_view key,
                                 std::string_view effect = "");
  /// Adds a toleration as given.
  pod_builder& toleration(const model::toleration& t);

  // --- node affinity

  /// Adds a required term with one expression (terms are ORed).
  pod_builder& required_node_affinity(std::string_view key, std::string_view op,
                                      const std::vector<std::string>& values);
  /// Adds a required node selector term (terms are ORed).
  pod_builder& required_node_term(model::node_selector_term term);
  /// Adds a preferred term with one expression.
  pod_builder& preferred_node_affinity(std::int32_t weight,
                                       std::string_view key,
                                       std::string_view op,
                                       const std::vector<std::string>& values);
  /// Adds a preferred node selector term.
  pod_builder& preferred_node_term(std::int32_t weight,
                                   model::node_selector_term term);

  // --- pod affinity and anti-affinity

  /// Adds a required affinity term to pods labelled key=value.
  pod_builder& required_affinity(std::string_view key, std::string_view value,
                                 std::string_view topology_key);
  /// Adds a required anti-affinity term to pods labelled key=value.
  pod_builder& required_anti_affinity(std::string_view key,
                                      std::string_view value,
                                      std::string_view topology_key);
  /// Adds a preferred affinity term to pods labelled key=value.
  pod_builder& preferred_affinity(std::int32_t weight, std::string_view key,
                                  std::string_view value,
                                  std::string_view topology_key);
  /// Adds a preferred anti-affinity term to pods labelled key=value.
  pod_builder& preferred_anti_affinity(std::int32_t weight,
                                       std::string_view key,
                                       std::string_view value,
                                       std::string_view topology_key);
  /// Adds a required affinity term as given.
  pod_builder& required_affinity_term(model::pod_affinity_term term);
  /// Adds a required anti-affinity term as given.
  pod_builder& required_anti_affinity_term(model::pod_affinity_term term);
  /// Adds a preferred affinity term as given.
  pod_builder& preferred_affinity_term(std::int32_t weight,
                                       model::pod_affinity_term term);
  /// Adds a preferred anti-affinity term as given.
  pod_builder& preferred_anti_affinity_term(std::int32_t weight,
                                            model::pod_affinity_term term);

  // --- topology spread

  /// Adds a spread constraint over pods matching `labels`; `when` is
  /// "DoNotSchedule" or "ScheduleAnyway".
  pod_builder& spread(std::string_view topology_key, std::int32_t max_skew,
                      std::string_view when, const label_pairs& labels);
  /// Adds a spread constraint as given.
  pod_builder& spread(model::topology_spread_constraint c);

  // --- results

  /// The completed pod as a value.
  model::pod build_value() const;
  /// The completed pod, shared.
  model::pod_ptr build() const;

private:
  model::pod pod_;
  model::container main_;
  bool main_used_ = false;
  bool uid_set_ = false;
  std::vector<model::container> extra_containers_;
};

/// Starts a pod builder.
pod_builder make_pod(std::string name);

/// Builds a node. It carries the label kubernetes.io/hostname=<name>, as a
/// kubelet-registered node does; allocatable equals capacity unless set
/// per resource with `allocatable()`.
class node_builder {
public:
  /// A node called `name`.
  explicit node_builder(std::string_view name);

  /// Sets the cpu capacity ("4", "3500m").
  node_builder& cpu(std::string_view quantity);
  /// Sets the memory capacity ("32Gi").
  node_builder& memory(std::string_view quantity);
  /// Sets the ephemeral-storage capacity.
  node_builder& ephemeral_storage(std::string_view quantity);
  /// Sets the pod capacity.
  node_builder& pods(std::int64_t count);
  /// Sets the capacity of any scheduling-relevant resource.
  node_builder& capacity(std::string_view resource, std::string_view quantity);
  /// Overrides the allocatable amount of one resource.
  node_builder& allocatable(std::string_view resource,
                            std::string_view quantity);
  /// Adds or replaces a label.
  node_builder& label(std::string_view key, std::string_view value);
  /// Sets topology.kubernetes.io/zone.
  node_builder& zone(std::string_view value);
  /// Sets topology.kubernetes.io/region.
  node_builder& region(std::string_view value);
  /// Adds a taint; effect is "NoSchedule", "PreferNoSchedule" or "NoExecute".
  node_builder& taint(std::string_view key, std::string_view value,
                      std::string_view effect);
  /// Sets spec.unschedulable.
  node_builder& unschedulable(bool value = true);
  /// Adds an image known by `names` (normalized as the decoder does).
  node_builder& image(const std::vector<std::string>& names,
                      std::int64_t size_bytes);
  /// Adds a condition such as ("Ready", "True").
  node_builder& condition(std::string_view type, std::string_view status);
  /// Adds to status.declaredFeatures (kept sorted, as decoding keeps it).
  node_builder& declared_feature(std::string_view name);
  /// Sets the UID.
  node_builder& uid(std::string value);
  /// Sets the creation time in seconds since the epoch.
  node_builder& created(std::int64_t unix_seconds);

  /// The node as a value.
  model::node build_value() const;
  /// The node, shared.
  model::node_ptr build() const;

private:
  model::node node_;
  std::vector<std::pair<model::symbol, std::int64_t>> allocatable_overrides_;
};

/// Starts a node builder.
node_builder make_node(std::string_view name);

/// A node_info holding `node` (may be null: a placeholder) and `pods`.
model::node_info make_node_info(model::node_ptr node,
                                const std::vector<model::pod_ptr>& pods = {});

/// The same, shared.
model::node_info_ptr make_node_info_ptr(model::node_ptr node,
                                        const std::vector<model::pod_ptr>& pods
                                        = {});

/// The names of `nodes`, in their order.
std::vector<std::string>
node_names(const std::vector<model::node_info_ptr>& nodes);

/// A namespace with labels.
model::namespace_ptr make_namespace(std::string_view name,
                                    const label_pairs& labels = {});

/// A PriorityClass.
model::priority_class_ptr
make_priority_class(std::string name, std::int32_t value,
                    bool global_default = false,
                    model::preemption_policy preemption
                    = model::preemption_policy::preempt_lower_priority);

} // namespace tessera::test
