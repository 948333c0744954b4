// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/yaml_reader.hpp"
#include "config/yaml_writer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::config::detail {
namespace {

TEST(yaml_reader, resolves_scalars_like_sigs_k8s_io_yaml) {
  struct test_case {
    std::string name;
    std::string yaml;
    scalar_type want;
    std::string json;
  };
  const std::vector<test_case> cases = {
    {"plain integer", "v: 42", scalar_type::integer, "42"},
    {"signed integer", "v: +7", scalar_type::integer, "7"},
    {"hex integer", "v: 0x1F", scalar_type::integer, "31"},
    {"float", "v: 1.5", scalar_type::floating, "1.5"},
    {"exponent", "v: 1e3", scalar_type::floating, "1000"},
    {"leading dot", "v: .5", scalar_type::floating, "0.5"},
    {"true", "v: true", scalar_type::boolean, "true"},
    {"yaml 1.1 yes", "v: yes", scalar_type::boolean, "true"},
    {"yaml 1.1 off", "v: Off", scalar_type::boolean, "false"},
    {"tilde", "v: ~", scalar_type::null, "null"},
    {"null word", "v: null", scalar_type::null, "null"},
    {"empty", "v:", scalar_type::null, "null"},
    {"plain string", "v: 15s", scalar_type::string, "\"15s\""},
    {"quoted number", "v: \"42\"", scalar_type::string, "\"42\""},
    {"single-quoted bool", "v: 'true'", scalar_type::string, "\"true\""},
    {"explicit str tag", "v: !!str 5", scalar_type::string, "\"5\""},
    {"escapes", "v: \"a\\\"b\\tc\"", scalar_type::string, "\"a\\\"b\\tc\""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto doc = YAML::Load(tc.yaml);
    auto v = doc["v"];
    EXPECT_EQ(resolve(v), tc.want);
    EXPECT_EQ(to_json(v), tc.json);
  }
}

TEST(yaml_reader, containers_become_compact_json) {
  auto doc = YAML::Load("a: {x: [1, \"2\", true, ~], y: {}}\n");
  EXPECT_EQ(to_json(doc), R"({"a":{"x":[1,"2",true,null],"y":{}}})");
}

TEST(yaml_reader, typed_readers_report_wrong_types) {
  struct test_case {
    std::string name;
    std::string yaml;
    std::string want_error;
  };
  const std::vector<test_case> cases = {
    {"int32 from string", "v: abc",
     "v: Invalid value: \"abc\": must be an integer"},
    {"int32 from quoted number", "v: \"5\"",
     "v: Invalid value: \"5\": must be an integer"},
    {"int32 overflow", "v: 3000000000",
     "v: Invalid value: 3000000000: must be a 32-bit integer"},
    {"int32 from fraction", "v: 1.5",
     "v: Invalid value: 1.5: must be an integer"},
    {"int32 from list", "v: [1]", "v: Invalid value: [1]: must be an integer"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    field_errors errors;
    auto v = read_int32(YAML::Load(tc.yaml)["v"], "v", errors);
    EXPECT_FALSE(v.has_value());
    ASSERT_EQ(errors.lines().size(), 1u);
    EXPECT_EQ(errors.lines()[0], tc.want_error);
  }

  field_errors errors;
  EXPECT_EQ(read_int32(YAML::Load("v: 5.0")["v"], "v", errors), 5);
  EXPECT_EQ(read_bool(YAML::Load("v: 1")["v"], "v", errors), std::nullopt);
  EXPECT_EQ(read_string(YAML::Load("v: 12")["v"], "v", errors), std::nullopt);
  EXPECT_EQ(read_duration(YAML::Load("v: 10x")["v"], "v", errors),
            std::nullopt);
  EXPECT_EQ(read_duration(YAML::Load("v: 10")["v"], "v", errors), std::nullopt);
  EXPECT_EQ(read_number(YAML::Load("v: x")["v"], "v", errors), std::nullopt);
  const std::vector<std::string> want = {
    "v: Invalid value: 1: must be a boolean",
    "v: Invalid value: 12: must be a string",
    "v: Invalid value: \"10x\": time: invalid duration \"10x\"",
    "v: Invalid value: 10: must be a duration string such as \"15s\"",
    "v: Invalid value: \"x\": must be a number",
  };
  EXPECT_EQ(errors.lines(), want);
}

TEST(yaml_reader, object_reader_reports_unknown_and_duplicate_fields) {
  field_errors strict;
  {
    object_reader r(YAML::Load("a: 1\nb: 2\na: 3\nc: null\n"), "root.x",
                    strict);
    auto a = r.get("a");
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->Scalar(), "1");
    EXPECT_FALSE(r.get("c").has_value());
    EXPECT_TRUE(r.has("c"));
  }
  const std::vector<std::string> want = {
    "strict decoding error: duplicate field \"root.x.a\"",
    "strict decoding error: unknown field \"root.x.b\"",
  };
  EXPECT_EQ(strict.lines(), want);
}

TEST(yaml_writer, quotes_only_what_would_read_back_differently) {
  auto m = yaml_value::map();
  m.set("plain", yaml_value::str("application/vnd.kubernetes.protobuf"));
  m.set("empty", yaml_value::str(""));
  m.set("star", yaml_value::str("*"));
  m.set("number", yaml_value::str("10"));
  m.set("bool", yaml_value::str("yes"));
  m.set("duration", yaml_value::str("15s"));
  m.set("space", yaml_value::str("a b"));
  m.set("list", yaml_value::list());
  auto& objects = m.set("objects", yaml_value::list());
  auto& first = objects.push(yaml_value::map());
  first.set("name", yaml_value::str("cpu"));
  first.set("weight", yaml_value::integer(1));
  auto& nested = first.set("nested", yaml_value::map());
  nested.set("k", yaml_value::boolean(true));
  objects.push(yaml_value::map());
  EXPECT_EQ(m.render(), R"(plain: application/vnd.kubernetes.protobuf
empty: ""
star: "*"
number: "10"
bool: "yes"
duration: 15s
space: "a b"
list: []
objects:
- name: cpu
  weight: 1
  nested:
    k: true
- {}
)");
}

} // namespace
} // namespace tessera::config::detail
