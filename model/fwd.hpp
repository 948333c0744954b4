// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Forward declarations of the model's main types, for headers that only
/// pass them around by pointer or reference.
#pragma once

#include <memory>

namespace tessera::model {

class symbol;
class quantity;
class resource_list;
class label_set;
class label_selector;
struct node_selector;
struct taint;
struct toleration;
struct affinity_spec;
struct topology_spread_constraint;
struct pod_core;
struct pod;
struct node;
class node_info;
struct namespace_info;
struct priority_class;
struct disruption_budget;

using pod_core_ptr = std::shared_ptr<const pod_core>;
using pod_ptr = std::shared_ptr<const pod>;
using node_ptr = std::shared_ptr<const node>;
using node_info_ptr = std::shared_ptr<const node_info>;
using namespace_ptr = std::shared_ptr<const namespace_info>;
using priority_class_ptr = std::shared_ptr<const priority_class>;
using disruption_budget_ptr = std::shared_ptr<const disruption_budget>;

} // namespace tessera::model
