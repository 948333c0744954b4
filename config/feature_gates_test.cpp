// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/feature_gates.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace tessera::config {
namespace {

TEST(feature_gates, table_is_in_enum_order_with_unique_names) {
  auto gates = known_feature_gates();
  ASSERT_EQ(gates.size(), feature_gate_count);
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < gates.size(); ++i) {
    SCOPED_TRACE(gates[i].name);
    EXPECT_EQ(static_cast<std::size_t>(gates[i].gate), i);
    EXPECT_TRUE(names.insert(gates[i].name).second);
    EXPECT_FALSE(gates[i].tessera.empty());
    // A locked gate is GA, and every GA gate of 1.37 is on.
    if (gates[i].locked) {
      EXPECT_TRUE(gates[i].default_on);
    }
  }
}

// docs/operations.md lists every gate with its default and what tessera
// does with it, as the table says: the page cannot fall behind the code.
TEST(feature_gates, the_operations_page_lists_each_gate_as_the_table_does) {
  const char* dir = std::getenv("TESSERA_SOURCE_DIR");
  std::ifstream in{
    std::string{dir != nullptr ? dir : TESSERA_SOURCE_DIR_FALLBACK}
    + "/docs/operations.md"};
  ASSERT_TRUE(in.good());
  std::set<std::string> rows;
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("| `"))
      rows.insert(line);
  for (const auto& g : known_feature_gates()) {
    std::string row
      = "| `" + std::string{g.name} + "` | " + (g.default_on ? "true" : "false")
        + (g.locked ? " (locked)" : "") + " | " + std::string{g.tessera} + " |";
    EXPECT_EQ(rows.count(row), 1u) << "missing row: " << row;
  }
}

TEST(feature_gates, defaults_are_those_of_1_37) {
  feature_gates gates;
  EXPECT_TRUE(gates.enabled(feature_gate::opportunistic_batching));
  EXPECT_TRUE(gates.enabled(feature_gate::node_declared_features));
  EXPECT_TRUE(gates.enabled(feature_gate::dynamic_resource_allocation));
  EXPECT_TRUE(gates.enabled(feature_gate::storage_capacity_scoring));
  EXPECT_FALSE(gates.enabled(feature_gate::generic_workload));
  EXPECT_FALSE(gates.enabled(feature_gate::scheduler_async_api_calls));
  EXPECT_EQ(gates.changed(), "");
}

TEST(feature_gates, set) {
  struct test_case {
    std::string name;
    std::string text;
    std::string want_error;
    std::string want_changed;
  };
  const std::vector<test_case> cases = {
    {"empty", "", "", ""},
    {"one gate off", "OpportunisticBatching=false", "",
     "OpportunisticBatching=false"},
    {"several, blanks and Go's bool spellings",
     " GenericWorkload = T ,SchedulerAsyncPreemption=0,", "",
     "GenericWorkload=true,SchedulerAsyncPreemption=false"},
    {"the last value of a gate wins",
     "GenericWorkload=true,GenericWorkload=false", "", ""},
    {"a locked gate at its default", "NodeDeclaredFeatures=true", "", ""},
    {"unknown gate", "OpportunisticBatching=false,Frobnicate=true",
     "unrecognized feature gate: Frobnicate", ""},
    {"names are case-sensitive", "opportunisticBatching=true",
     "unrecognized feature gate: opportunisticBatching", ""},
    {"bad value", "GenericWorkload=yes",
     "invalid value of GenericWorkload=yes, err: strconv.ParseBool: parsing "
     "\"yes\": invalid syntax",
     ""},
    {"missing value", "GenericWorkload",
     "missing bool value for GenericWorkload", ""},
    {"a locked gate against its default", "DynamicResourceAllocation=false",
     "cannot set feature gate DynamicResourceAllocation to false, feature is "
     "locked to true",
     ""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    feature_gates gates;
    auto err = gates.set(tc.text);
    if (tc.want_error.empty()) {
      EXPECT_FALSE(err) << err.message;
    } else {
      EXPECT_EQ(err.code, ec::invalid_input);
      EXPECT_EQ(err.message, tc.want_error);
    }
    // On error nothing changes, not even the pairs before the bad one.
    EXPECT_EQ(gates.changed(), tc.want_changed);
  }
}

TEST(feature_gates, found_by_exact_name) {
  const auto* info = find_feature_gate("OpportunisticBatching");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->gate, feature_gate::opportunistic_batching);
  EXPECT_EQ(find_feature_gate("DynamicResources"), nullptr)
    << "the plugin's name is not the gate's";
}

} // namespace
} // namespace tessera::config
