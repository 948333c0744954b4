// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// kubectl's columns for deployments, daemon sets, jobs, config maps,
// secrets and service accounts (see table_kind.hpp).
#include "io/apiserver/table_kind.hpp"
#include "io/apiserver/time_format.hpp"
#include "model/json_access.hpp"

#include <boost/json.hpp>

namespace tessera::apiserver {

namespace json = boost::json;
using model::array_at;
using model::bool_at;
using model::int_at;
using model::object_at;
using model::string_at;

namespace {

constexpr table_column deployment_columns[] = {
  table_name_column,
  {"Ready", "string", "", "Number of the pod with ready state.", 0},
  {"Up-to-date", "string", "",
   "Total number of non-terminated pods targeted by this deployment that "
   "have the desired template spec.",
   0},
  {"Available", "string", "",
   "Total number of available pods (ready for at least minReadySeconds) "
   "targeted by this deployment.",
   0},
  table_age_column,
  template_containers_column,
  template_images_column,
  template_selector_column,
};

constexpr table_column daemon_set_columns[] = {
  table_name_column,
  {"Desired", "integer", "",
   "The total number of nodes that should be running the daemon pod.", 0},
  {"Current", "integer", "",
   "The number of nodes that are running at least one daemon pod.", 0},
  {"Ready", "integer", "",
   "The number of nodes that should be running the daemon pod and have one "
   "running and ready.",
   0},
  {"Up-to-date", "integer", "",
   "The total number of nodes that are running the updated daemon pod.", 0},
  {"Available", "integer", "",
   "The number of nodes that should be running the daemon pod and have one "
   "running and available.",
   0},
  {"Node Selector", "string", "",
   "NodeSelector is a selector which must be true for the pod to fit on a "
   "node.",
   0},
  table_age_column,
  template_containers_column,
  template_images_column,
  template_selector_column,
};

constexpr table_column job_columns[] = {
  table_name_column,
  {"Status", "string", "", "Status of the job.", 0},
  {"Completions", "string", "",
   "The desired number of successfully finished pods the job should be run "
   "with.",
   0},
  {"Duration", "string", "", "Time required to complete the job.", 0},
  table_age_column,
  template_containers_column,
  template_images_column,
  template_selector_column,
};

constexpr table_column config_map_columns[] = {
  table_name_column,
  {"Data", "string", "", "Number of entries in the data.", 0},
  table_age_column,
};

constexpr table_column secret_columns[] = {
  table_name_column,
  {"Type", "string", "", "The type of the secret.", 0},
  {"Data", "string", "", "Number of entries in the data.", 0},
  table_age_column,
};

constexpr table_column service_account_columns[] = {
  table_name_column,
  {"Secrets", "string", "", "Number of secrets of the service account.", 0},
  table_age_column,
};

std::int64_t size_of(const json::object* o, std::string_view key) {
  if (o)
    if (auto* v = o->if_contains(key)) {
      if (auto* m = v->if_object())
        return static_cast<std::int64_t>(m->size());
      if (auto* a = v->if_array())
        return static_cast<std::int64_t>(a->size());
    }
  return 0;
}

json::array deployment_cells(const json::object& d,
                             std::chrono::system_clock::time_point now) {
  const json::object* spec = object_at(&d, "spec");
  const json::object* status = object_at(&d, "status");
  auto [containers, images] = template_containers(spec);
  return named_row(
    d, now,
    {std::to_string(int_at(status, "readyReplicas")) + "/"
       + std::to_string(desired_replicas(spec)),
     int_at(status, "updatedReplicas"), int_at(status, "availableReplicas")},
    {containers, images, selector_text(object_at(spec, "selector"))});
}

json::array daemon_set_cells(const json::object& ds,
                             std::chrono::system_clock::time_point now) {
  const json::object* spec = object_at(&ds, "spec");
  const json::object* status = object_at(&ds, "status");
  auto [containers, images] = template_containers(spec);
  return named_row(
    ds, now,
    {int_at(status, "desiredNumberScheduled"),
     int_at(status, "currentNumberScheduled"), int_at(status, "numberReady"),
     int_at(status, "updatedNumberScheduled"),
     int_at(status, "numberAvailable"),
     or_none(labels_text(object_at(
       object_at(object_at(spec, "template"), "spec"), "nodeSelector")))},
    {containers, images, selector_text(object_at(spec, "selector"))});
}

/// The job's state as kubectl names it from its conditions.
std::string job_state(const json::object* spec, const json::object* status) {
  std::string state = bool_at(spec, "suspend") ? "Suspended" : "Running";
  if (auto* conds = array_at(status, "conditions"))
    for (const auto& c : *conds)
      if (auto* co = c.if_object(); co && string_at(co, "status") == "True") {
        auto type = string_at(co, "type");
        if (type == "Complete" || type == "Failed")
          return std::string{type};
        if (type == "FailureTarget" || type == "SuccessCriteriaMet")
          state = type;
      }
  return state;
}

json::array job_cells(const json::object& j,
                      std::chrono::system_clock::time_point now) {
  const json::object* spec = object_at(&j, "spec");
  const json::object* status = object_at(&j, "status");
  auto succeeded = std::to_string(int_at(status, "succeeded"));
  std::string completions;
  if (spec && spec->contains("completions"))
    completions = succeeded + "/" + std::to_string(int_at(spec, "completions"));
  else
    completions
      = succeeded + "/1 of " + std::to_string(int_at(spec, "parallelism", 1));
  std::string duration;
  auto start = parse_time(string_at(status, "startTime"));
  auto end = parse_time(string_at(status, "completionTime"));
  if (start)
    duration = format_age((end ? *end : now) - *start);
  auto [containers, images] = template_containers(spec);
  return named_row(
    j, now, {job_state(spec, status), completions, duration},
    {containers, images, selector_text(object_at(spec, "selector"))});
}

json::array config_map_cells(const json::object& cm,
                             std::chrono::system_clock::time_point now) {
  return named_row(cm, now, {size_of(&cm, "data") + size_of(&cm, "binaryData")},
                   {});
}

json::array secret_cells(const json::object& s,
                         std::chrono::system_clock::time_point now) {
  return named_row(s, now, {string_at(&s, "type"), size_of(&s, "data")}, {});
}

json::array service_account_cells(const json::object& sa,
                                  std::chrono::system_clock::time_point now) {
  return named_row(sa, now, {size_of(&sa, "secrets")}, {});
}

} // namespace

const table_kind* workload_table_of(storage_kind storage) noexcept {
  static const table_kind deployments{deployment_columns, deployment_cells};
  static const table_kind jobs{job_columns, job_cells};
  static const table_kind daemon_sets{daemon_set_columns, daemon_set_cells};
  static const table_kind config_maps{config_map_columns, config_map_cells};
  static const table_kind secrets{secret_columns, secret_cells};
  static const table_kind accounts{service_account_columns,
                                   service_account_cells};
  switch (storage) {
  case storage_kind::deployment:
    return &deployments;
  case storage_kind::job:
    return &jobs;
  case storage_kind::daemon_set:
    return &daemon_sets;
  case storage_kind::config_map:
    return &config_maps;
  case storage_kind::secret:
    return &secrets;
  case storage_kind::service_account:
    return &accounts;
  default:
    return nullptr;
  }
}

} // namespace tessera::apiserver
