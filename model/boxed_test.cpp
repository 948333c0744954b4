// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/boxed.hpp"
#include "model/pod.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tessera::model {
namespace {

TEST(Boxed, EmptyReadsAsDefaultAndCopiesAreDeep) {
  boxed<std::string> a;
  EXPECT_EQ(*a, "");
  EXPECT_EQ(a->size(), 0u);
  a.edit() = "spec";
  boxed<std::string> b = a;
  b.edit() += "-changed";
  EXPECT_EQ(*a, "spec");
  EXPECT_EQ(*b, "spec-changed");
  b = a;
  EXPECT_EQ(a, b);
  // An empty box equals one holding a default value: equality is by value.
  boxed<std::string> empty;
  boxed<std::string> holds_default{std::string{}};
  EXPECT_EQ(empty, holds_default);
  EXPECT_FALSE(empty == a);
}

TEST(OptionalBox, BehavesLikeOptional) {
  optional_box<std::string> a;
  EXPECT_FALSE(a);
  EXPECT_FALSE(a.has_value());
  a = std::string{"x"};
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, "x");
  optional_box<std::string> b = a;
  b->append("y");
  EXPECT_EQ(*a, "x");
  EXPECT_EQ(*b, "xy");
  EXPECT_FALSE(a == b);
  b.emplace("x");
  EXPECT_EQ(a, b);
  b = std::nullopt;
  EXPECT_FALSE(b);
  EXPECT_FALSE(a == b);
  a.reset();
  EXPECT_EQ(a, b);
}

TEST(BoxedPodParts, PodsCompareAndCopyByValue) {
  pod p;
  p.name = "p";
  p.affinity.edit().pod_anti.emplace();
  p.overhead.edit().milli_cpu = 250;
  p.pod_level_requests.emplace().memory = 1 << 20;
  pod copy = p;
  EXPECT_EQ(copy, p);
  copy.overhead.edit().milli_cpu = 500;
  EXPECT_EQ(p.overhead->milli_cpu, 250);
  EXPECT_FALSE(copy == p);
  // A pod that never touched its affinity equals one whose affinity was
  // made but left empty: both read the same.
  pod plain;
  pod touched;
  touched.affinity.edit();
  EXPECT_EQ(plain, touched);
}

} // namespace
} // namespace tessera::model
