// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// deploy/rbac-minimal.yaml grants every request `tessera run` makes: the
// scheduler runs against `tessera cluster --v=4`, which logs each request,
// through binding, an unschedulable pod, a preemption and its lease; each
// request it sent is then checked against the file's rules as the RBAC
// authorizer would.
#include "io/http_client.hpp"
#include "test/run/run_fixture.hpp"
#include "test/support/api_client.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <csignal>
#include <set>
#include <sstream>

namespace tessera::test {
namespace {

/// One PolicyRule of a Role ("" namespace: a ClusterRole).
struct rbac_rule {
  std::string ns;
  std::set<std::string> groups;
  std::set<std::string> resources;
  std::set<std::string> verbs;
  std::set<std::string> names;
};

/// A resource request as the authorizer sees it.
struct api_request {
  std::string verb;
  std::string group;
  std::string resource; // with "/subresource"
  std::string ns;
  std::string name;
  std::string uri;
};

std::set<std::string> strings(const YAML::Node& n) {
  std::set<std::string> out;
  if (n)
    for (const auto& v : n)
      out.insert(v.as<std::string>());
  return out;
}

/// What the file holds: rules, the roles it declares ("Kind/name") and the
/// roles it binds to the `tessera` service account.
struct rbac_file {
  std::vector<rbac_rule> rules;
  std::set<std::string> declared;
  std::set<std::string> bound;
};

rbac_file load_rbac(const std::string& path) {
  rbac_file f;
  for (const auto& doc : YAML::LoadAllFromFile(path)) {
    if (!doc || !doc["kind"])
      continue;
    auto kind = doc["kind"].as<std::string>();
    if (kind == "ClusterRoleBinding" || kind == "RoleBinding") {
      for (const auto& s : doc["subjects"])
        if (s["kind"].as<std::string>() == "ServiceAccount"
            && s["name"].as<std::string>() == "tessera")
          f.bound.insert(doc["roleRef"]["kind"].as<std::string>() + "/"
                         + doc["roleRef"]["name"].as<std::string>());
      continue;
    }
    if (kind != "ClusterRole" && kind != "Role")
      continue;
    std::string ns = kind == "Role"
                       ? doc["metadata"]["namespace"].as<std::string>()
                       : std::string{};
    for (const auto& r : doc["rules"])
      f.rules.push_back({ns, strings(r["apiGroups"]), strings(r["resources"]),
                         strings(r["verbs"]), strings(r["resourceNames"])});
    f.declared.insert(kind + "/" + doc["metadata"]["name"].as<std::string>());
  }
  return f;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in{s};
  for (std::string part; std::getline(in, part, sep);)
    if (!part.empty())
      out.push_back(part);
  return out;
}

/// nullopt for non-resource URLs (discovery: /api, /apis/g/v, /version).
std::optional<api_request> classify(const std::string& method,
                                    const std::string& uri) {
  auto q = uri.find('?');
  std::string path = uri.substr(0, q);
  std::string query = q == std::string::npos ? "" : uri.substr(q + 1);
  auto seg = split(path, '/');
  api_request r;
  r.uri = uri;
  std::size_t rest = 0;
  if (seg.size() >= 2 && seg[0] == "api") {
    rest = 2;
  } else if (seg.size() >= 3 && seg[0] == "apis") {
    r.group = seg[1];
    rest = 3;
  } else {
    return std::nullopt;
  }
  std::vector<std::string> parts(seg.begin() + static_cast<long>(rest),
                                 seg.end());
  if (parts.empty())
    return std::nullopt;
  if (parts[0] == "namespaces" && parts.size() >= 3) {
    r.ns = parts[1];
    parts.erase(parts.begin(), parts.begin() + 2);
  }
  r.resource = parts[0];
  if (parts.size() > 1)
    r.name = parts[1];
  if (parts.size() > 2)
    r.resource += "/" + parts[2];
  bool watch = false;
  for (const auto& kv : split(query, '&'))
    if (kv == "watch=true" || kv == "watch=1")
      watch = true;
  if (method == "GET")
    r.verb = !r.name.empty() ? "get" : watch ? "watch" : "list";
  else if (method == "POST")
    r.verb = "create";
  else if (method == "PUT")
    r.verb = "update";
  else if (method == "PATCH")
    r.verb = "patch";
  else if (method == "DELETE")
    r.verb = r.name.empty() ? "deletecollection" : "delete";
  else
    r.verb = method;
  return r;
}

/// The value of `name="..."` in a log line ("" when absent).
std::string quoted_field(const std::string& line, const std::string& name) {
  std::string key = " " + name + "=\"";
  auto at = line.find(key);
  if (at == std::string::npos)
    return {};
  at += key.size();
  return line.substr(at, line.find('"', at) - at);
}

bool allows(const rbac_rule& rule, const api_request& r) {
  // RBAC never restricts create (or list/watch) by name.
  bool by_name = rule.names.empty()
                 || (r.verb != "create" && rule.names.count(r.name) > 0);
  return (rule.ns.empty() || rule.ns == r.ns) && rule.groups.count(r.group)
         && rule.resources.count(r.resource) && rule.verbs.count(r.verb)
         && by_name;
}

void post(io::http_client& c, const std::string& path,
          const std::string& body) {
  auto r = c.post(path, body);
  ASSERT_TRUE(r) << r.err().message;
  ASSERT_EQ(r->status, 201) << r->body;
}

std::string pod_with_priority_json(const std::string& name,
                                   const std::string& cpu,
                                   const std::string& priority_class) {
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name
         + R"("},"spec":{"priorityClassName":")" + priority_class
         + R"(","containers":[{"name":"c","image":"busybox",)"
           R"("resources":{"requests":{"cpu":")"
         + cpu + R"("}}}]}})";
}

std::string get_body(io::http_client& c, const std::string& path) {
  auto r = c.get(path);
  return r && r->status == 200 ? r->body : std::string{};
}

TEST(RunRbac, MinimalRbacGrantsEveryRequestTheSchedulerMakes) {
  auto rbac
    = load_rbac(std::string{TESSERA_SOURCE_DIR} + "/deploy/rbac-minimal.yaml");
  ASSERT_FALSE(rbac.rules.empty());
  EXPECT_EQ(rbac.declared, rbac.bound)
    << "every role is bound to the tessera service account";

  child_process cluster{
    {tessera_binary(), "cluster", "--port", "0", "--nodes", "1", "--v=4"}};
  std::string line = cluster.wait_for_line("listening on ");
  ASSERT_FALSE(line.empty()) << cluster.stderr_text();
  std::string url = line.substr(std::string{"listening on "}.size());
  auto client = http_client_for(url);
  // The cluster logs every request: keep reading its stderr so the pipe
  // never fills.
  std::string log;
  auto poll = [&](const std::function<bool()>& pred) {
    return wait_until([&] {
      log = cluster.stderr_text();
      return pred();
    });
  };
  post(client, "/apis/scheduling.k8s.io/v1/priorityclasses",
       R"({"kind":"PriorityClass","apiVersion":"scheduling.k8s.io/v1",)"
       R"("metadata":{"name":"low"},"value":10})");
  post(client, "/apis/scheduling.k8s.io/v1/priorityclasses",
       R"({"kind":"PriorityClass","apiVersion":"scheduling.k8s.io/v1",)"
       R"("metadata":{"name":"high"},"value":1000})");
  const std::string pods = "/api/v1/namespaces/default/pods";
  post(client, pods, pod_with_priority_json("low", "3", "low"));

  // With its secure port, so that the client CA lookup and the reviews of
  // a scrape are among the requests checked.
  int secure_port = free_port();
  child_process sched{{tessera_binary(), "run", "--master", url,
                       "--leader-elect-retry-period=500ms",
                       "--bind-address=127.0.0.1",
                       "--secure-port=" + std::to_string(secure_port)}};
  ASSERT_TRUE(poll([&] {
    return get_body(client, pods + "/low").find("\"nodeName\"")
           != std::string::npos;
  }))
    << sched.stderr_text();
  // Preemption (status patch, delete, nomination) and a pod no node fits.
  post(client, pods, pod_with_priority_json("high", "3", "high"));
  post(client, pods, pod_with_priority_json("huge", "64", "low"));
  ASSERT_TRUE(poll([&] {
    return get_body(client, pods + "/high").find("\"nodeName\"")
             != std::string::npos
           && get_body(client, pods + "/huge").find("\"Unschedulable\"")
                != std::string::npos;
  }))
    << sched.stderr_text();
  // A scrape without credentials (a SubjectAccessReview of
  // system:anonymous, which the token-less cluster allows) and one with a
  // token the cluster does not know (a TokenReview, then 401).
  io::client_config scrape;
  scrape.port = static_cast<std::uint16_t>(secure_port);
  scrape.tls.enabled = true;
  scrape.tls.insecure_skip_verify = true;
  scrape.request_timeout = 10s;
  auto metrics = io::http_client{scrape}.get("/metrics");
  ASSERT_TRUE(metrics) << metrics.err().message;
  EXPECT_EQ(metrics->status, 200) << metrics->body;
  io::http_request with_token;
  with_token.target = "/metrics";
  with_token.headers.push_back({"Authorization", "Bearer unknown"});
  auto refused = io::http_client{scrape}.request(with_token);
  ASSERT_TRUE(refused) << refused.err().message;
  EXPECT_EQ(refused->status, 401) << refused->body;
  sched.signal(SIGTERM);
  ASSERT_EQ(sched.wait(10s).value_or(-1), 0) << sched.stderr_text();
  log = cluster.stderr_text();
  cluster.signal(SIGTERM);
  cluster.wait(10s);

  // The scheduler's requests: its user agent is "tessera/<version>...".
  std::set<std::string> seen;
  std::size_t checked = 0;
  for (const auto& l : split(log, '\n')) {
    if (l.find("\"HTTP\" verb=") == std::string::npos
        || l.find("userAgent=\"tessera/") == std::string::npos)
      continue;
    auto r = classify(quoted_field(l, "verb"), quoted_field(l, "URI"));
    if (!r)
      continue; // discovery: granted by system:discovery
    ++checked;
    seen.insert(r->verb + " " + r->group + "/" + r->resource);
    bool ok = false;
    for (const auto& rule : rbac.rules)
      ok = ok || allows(rule, *r);
    EXPECT_TRUE(ok) << "not granted: " << r->verb << " " << r->group << "/"
                    << r->resource << " (" << r->uri << ")";
  }
  // The run exercised what the file is for.
  for (const char* want :
       {"list /pods", "watch /pods", "list /nodes", "watch /nodes",
        "list /namespaces", "list policy/poddisruptionbudgets",
        "list scheduling.k8s.io/priorityclasses", "create /pods/binding",
        "patch /pods/status", "delete /pods", "create events.k8s.io/events",
        "get coordination.k8s.io/leases", "update coordination.k8s.io/leases",
        "get /configmaps", "create authentication.k8s.io/tokenreviews",
        "create authorization.k8s.io/subjectaccessreviews"})
    EXPECT_EQ(seen.count(want), 1u) << "the run never made: " << want;
  EXPECT_GT(checked, 10u);
}

} // namespace
} // namespace tessera::test
