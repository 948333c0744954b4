// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Admission for the embedded API server: the defaulting, validation and
/// admission plugins of a real kube-apiserver that schedulers depend on
/// (docs/apiserver-protocol.md §1.4, §4.1), as functions over a JSON
/// document. The store calls them on every write; none of them touches store
/// state — what they need from it (priority classes) is passed in. Also the
/// two views of one event storage: core/v1 Event <-> events.k8s.io/v1 Event.
/// Internal to io/apiserver.
#pragma once

#include "io/apiserver/resources.hpp"
#include "io/apiserver/status.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace boost::json {
class value;
class object;
} // namespace boost::json

namespace tessera::apiserver::admission {

/// Defaults applied on every decode of a kind (create, update, patch,
/// status write), as upstream's SetDefaults_* functions: pod spec and
/// container defaults (requests copied from limits included), node
/// allocatable := capacity when absent, namespace phase and finalizer,
/// priority class preemption policy.
void apply_defaults(storage_kind storage, boost::json::object& obj);

/// The message of the first quantity of `obj` (resource requests and
/// limits, pod overhead, node capacity and allocatable, claim requests,
/// volume capacity) that does not parse, upstream's decode error
/// (`quantities must match the regular expression '...'`); nullopt when
/// all parse.
std::optional<std::string> unparsable_quantity(storage_kind storage,
                                               const boost::json::object& obj);

/// Validation of a whole object (names, labels, required fields); an
/// empty result means valid.
std::vector<status_cause> validate(storage_kind storage,
                                   const boost::json::object& obj);

/// Validation of the quantities `unparsable_quantity` reads: negative
/// ones, and container requests above their limits. Separate from
/// `validate` because only client writes are checked: in-process writers
/// may store what a real server might send, to test its readers.
std::vector<status_cause> validate_quantities(storage_kind storage,
                                              const boost::json::object& obj);

/// A pod's status at creation: `{phase: Pending, qosClass: ...}`, and for a
/// pod with scheduling gates the condition PodScheduled=False, reason
/// SchedulingGated, transition time `now` (RFC 3339) — kube-apiserver marks
/// gated pods itself, so clients see why they wait before any scheduler
/// has looked at them.
void reset_pod_status(boost::json::object& pod, const std::string& now);

/// A volume's or claim's status at creation, `{phase: Pending}`, and a
/// namespace's, `{phase: Active}`, whatever it was sent with (the volume
/// controller and namespace deletion move them on); none for a
/// deployment, daemon set or job (their controllers write it); other kinds
/// are left alone.
void reset_storage_status(storage_kind storage, boost::json::object& obj);

/// A Job's generated selector (`batch.kubernetes.io/controller-uid`) and
/// the labels its template gets to match it, unless it chose its own
/// (`spec.manualSelector`); needs the uid, so it runs after it is set.
void default_job_selector(boost::json::object& job, std::string_view uid);

/// True when the pod's Ready condition is True.
bool pod_ready(const boost::json::object& pod);

/// "Guaranteed", "Burstable" or "BestEffort".
std::string qos_class(const boost::json::object& pod);

/// DefaultTolerationSeconds: tolerate not-ready and unreachable NoExecute
/// taints for 300 s unless the pod already tolerates them.
void add_default_tolerations(boost::json::object& pod);

/// A priority class as the Priority admission plugin sees it.
struct priority_info {
  std::int32_t value = 0;
  std::string preemption_policy;
};

/// The Priority admission plugin: fills spec.priority and
/// spec.preemptionPolicy from spec.priorityClassName, or from the global
/// default class (`global_default`), else 0. Errors are 403 Forbidden on
/// `pods "<name>"`.
std::optional<api_status> resolve_priority(
  boost::json::object& pod,
  const std::function<std::optional<priority_info>(std::string_view)>& lookup,
  const std::optional<priority_info>& global_default);

/// Checks that a pod update changes only mutable spec fields (images,
/// activeDeadlineSeconds, added tolerations, removed scheduling gates);
/// returns the 422 cause otherwise.
std::optional<status_cause>
check_pod_spec_update(const boost::json::object& old_spec,
                      const boost::json::object& new_spec);

/// events.k8s.io/v1 view of a stored core/v1 Event, and back.
boost::json::value event_core_to_v1(const boost::json::value& core);
boost::json::value event_v1_to_core(const boost::json::value& v1);

/// DNS-1123 subdomain (`max` 253) or, with `label`, label (63, no dots).
bool is_dns_name(std::string_view name, bool label);

} // namespace tessera::apiserver::admission
