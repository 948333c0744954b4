// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/serving/configz.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace tessera::serving {
namespace {

namespace json = boost::json;

TEST(configz, yaml_becomes_typed_json_under_componentconfig) {
  auto body = configz_json(R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 16
percentageOfNodesToScore: 0
leaderElection:
  leaderElect: true
  leaseDuration: 15s
podMaxBackoffSeconds: 10
weird: "42"
ratio: 0.5
nothing: null
profiles:
- schedulerName: tessera
  plugins:
    score:
      enabled:
      - name: NodeResourcesFit
        weight: 1
)");
  ASSERT_TRUE(body) << body.err().message;
  json::value v = json::parse(*body);
  const auto& cc = v.at("componentconfig");
  struct test_case {
    std::string name;
    json::value got, expected;
  };
  std::vector<test_case> cases = {
    {"kind", cc.at("kind"), json::string{"KubeSchedulerConfiguration"}},
    {"integer", cc.at("parallelism"), 16},
    {"zero", cc.at("percentageOfNodesToScore"), 0},
    {"bool", cc.at("leaderElection").at("leaderElect"), true},
    {"duration stays text", cc.at("leaderElection").at("leaseDuration"),
     json::string{"15s"}},
    {"quoted number stays text", cc.at("weird"), json::string{"42"}},
    {"double", cc.at("ratio"), 0.5},
    {"null", cc.at("nothing"), nullptr},
    {"nested list", cc.at("profiles").at(0).at("schedulerName"),
     json::string{"tessera"}},
    {"deep",
     cc.at("profiles")
       .at(0)
       .at("plugins")
       .at("score")
       .at("enabled")
       .at(0)
       .at("weight"),
     1},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.got, tc.expected) << json::serialize(tc.got);
  }
}

TEST(configz, malformed_yaml_is_an_error) {
  auto body = configz_json("a: [1, 2\nb: {");
  ASSERT_FALSE(body);
  EXPECT_NE(body.err().message.find("not valid YAML"), std::string::npos);
}

} // namespace
} // namespace tessera::serving
