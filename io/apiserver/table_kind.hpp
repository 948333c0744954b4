// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `table_kind`: the columns kubectl shows for one kind and how a row's
/// cells are made from an object, shared by the table renderer
/// (table.cpp: pods, nodes, volumes, claims, classes) and the tables of the
/// other kinds (table_cluster.cpp). Internal to io/apiserver.
#pragma once

#include "io/apiserver/resources.hpp"

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace boost::json {
class array;
class object;
} // namespace boost::json

namespace tessera::apiserver {

/// One column definition of a Table (`priority` 1 = only with `-o wide`).
struct table_column {
  const char* name;
  const char* type;
  const char* format;
  const char* description;
  int priority;
};

/// The columns of a kind with a table, and how a row's cells are made (one
/// cell per column, in order).
struct table_kind {
  std::span<const table_column> columns;
  boost::json::array (*cells)(const boost::json::object&,
                              std::chrono::system_clock::time_point);
};

/// The description of every Age column.
inline constexpr const char* table_age_description
  = "CreationTimestamp is a timestamp representing the server time when "
    "this object was created.";

/// The description of every Name column.
inline constexpr const char* table_name_description
  = "Name must be unique within a namespace.";

/// The Name column most tables start with.
inline constexpr table_column table_name_column{"Name", "string", "name",
                                                table_name_description, 0};

/// The Age column of every table.
inline constexpr table_column table_age_column{"Age", "string", "",
                                               table_age_description, 0};

/// The wide columns of the kinds with a pod template.
inline constexpr table_column template_containers_column{
  "Containers", "string", "", "Names of each container in the template.", 1};
inline constexpr table_column template_images_column{
  "Images", "string", "",
  "Images referenced by each container in the template.", 1};
inline constexpr table_column template_selector_column{
  "Selector", "string", "", "The label selector of the pods.", 1};

/// `s`, or "<none>" when empty.
std::string or_none(std::string_view s);

/// kubectl's age of the object whose metadata is `meta` ("<unknown>"
/// without creationTimestamp).
std::string age_of(const boost::json::object* meta,
                   std::chrono::system_clock::time_point now);

/// A row as kubectl prints most kinds: the name from `obj`'s metadata,
/// `columns`, the age, then `trailing`.
boost::json::array named_row(const boost::json::object& obj,
                             std::chrono::system_clock::time_point now,
                             boost::json::array columns,
                             boost::json::array trailing);

/// "k=v,..." of a label map, keys sorted.
std::string labels_text(const boost::json::object* labels);

/// A label selector as kubectl prints one: "app=web,tier in (a,b),!x";
/// "<none>" when it selects everything.
std::string selector_text(const boost::json::object* selector);

/// spec.replicas of a workload, 1 when unset (the API default).
std::int64_t desired_replicas(const boost::json::object* spec);

/// Container names and images of a workload's pod template, comma-joined.
std::pair<std::string, std::string>
template_containers(const boost::json::object* spec);

/// The table of events, namespaces, disruption budgets, priority classes,
/// leases, services, replica sets, replication controllers, stateful sets,
/// CSI nodes, drivers and storage capacities, and volume attachments;
/// nullptr for other kinds.
const table_kind* cluster_table_of(storage_kind storage) noexcept;

/// The table of deployments, daemon sets, jobs, config maps, secrets and
/// service accounts; nullptr for other kinds.
const table_kind* workload_table_of(storage_kind storage) noexcept;

} // namespace tessera::apiserver
