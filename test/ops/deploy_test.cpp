// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// deploy/: the kustomize layout, the manifests' content, the Dockerfile and
// the Grafana dashboard, checked by a schema sanity check of our own and,
// when the private kubectl is installed (scripts/install-deps.sh), by
// `kubectl kustomize` and `kubectl apply --dry-run=client` against a
// stand-in discovery server (fake_discovery.py).
#include "config/scheduler_config.hpp"
#include "metrics/scheduler_metrics.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <yaml-cpp/yaml.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

namespace tessera {
namespace {

namespace fs = std::filesystem;

fs::path source_dir() {
  if (const char* d = std::getenv("TESSERA_SOURCE_DIR"); d && *d)
    return d;
  return TESSERA_SOURCE_DIR_DEFAULT;
}

fs::path deploy_dir() {
  return source_dir() / "deploy";
}

std::string read_text(const fs::path& p) {
  std::ifstream in{p};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every document of the base's resources, by "Kind/name".
std::map<std::string, YAML::Node> base_objects() {
  std::map<std::string, YAML::Node> out;
  YAML::Node k
    = YAML::LoadFile((deploy_dir() / "base/kustomization.yaml").string());
  for (const auto& r : k["resources"])
    for (const auto& doc : YAML::LoadAllFromFile(
           (deploy_dir() / "base" / r.as<std::string>()).string()))
      out[doc["kind"].as<std::string>() + "/"
          + doc["metadata"]["name"].as<std::string>()]
        = doc;
  return out;
}

TEST(deploy_manifests, every_document_has_identity_fields) {
  auto objects = base_objects();
  std::set<std::string> kinds;
  for (const auto& [key, doc] : objects) {
    SCOPED_TRACE(key);
    EXPECT_TRUE(doc["apiVersion"].IsScalar());
    EXPECT_FALSE(doc["metadata"]["name"].as<std::string>().empty());
    kinds.insert(doc["kind"].as<std::string>());
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"ClusterRoleBinding", "ConfigMap",
                                          "Deployment", "Role", "RoleBinding",
                                          "Service", "ServiceAccount"}));
}

TEST(deploy_manifests, rbac_grants_scheduler_roles_and_lease) {
  auto objects = base_objects();
  struct test_case {
    std::string binding;
    std::string role_kind, role;
  };
  for (const auto& tc : std::vector<test_case>{
         {"ClusterRoleBinding/tessera-as-kube-scheduler", "ClusterRole",
          "system:kube-scheduler"},
         {"ClusterRoleBinding/tessera-as-volume-scheduler", "ClusterRole",
          "system:volume-scheduler"},
         {"RoleBinding/tessera-leader-election", "Role",
          "tessera-leader-election"},
         {"ClusterRoleBinding/tessera-auth-delegator", "ClusterRole",
          "system:auth-delegator"},
         {"RoleBinding/tessera-authentication-reader", "Role",
          "extension-apiserver-authentication-reader"}}) {
    SCOPED_TRACE(tc.binding);
    ASSERT_TRUE(objects.count(tc.binding));
    const auto& b = objects[tc.binding];
    EXPECT_EQ(b["roleRef"]["kind"].as<std::string>(), tc.role_kind);
    EXPECT_EQ(b["roleRef"]["name"].as<std::string>(), tc.role);
    EXPECT_EQ(b["subjects"][0]["kind"].as<std::string>(), "ServiceAccount");
    EXPECT_EQ(b["subjects"][0]["name"].as<std::string>(), "tessera");
  }
  // The lease names both variants use are covered.
  std::set<std::string> names;
  for (const auto& rule : objects["Role/tessera-leader-election"]["rules"])
    if (rule["resourceNames"])
      for (const auto& n : rule["resourceNames"])
        names.insert(n.as<std::string>());
  EXPECT_TRUE(names.count("tessera"));
  EXPECT_TRUE(names.count("kube-scheduler"));
}

// The scrape job authenticates to the secure port, and the reader role
// grants what its SubjectAccessReview asks: get on the path /metrics.
TEST(deploy_manifests, prometheus_scrape_carries_credentials_the_port_allows) {
  auto job = YAML::LoadFile((deploy_dir() / "prometheus/scrape-config.yaml")
                              .string())["scrape_configs"][0];
  EXPECT_EQ(job["scheme"].as<std::string>(), "https");
  EXPECT_EQ(job["metrics_path"].as<std::string>(), "/metrics");
  EXPECT_EQ(job["authorization"]["type"].as<std::string>(), "Bearer");
  EXPECT_FALSE(
    job["authorization"]["credentials_file"].as<std::string>().empty());
  bool granted = false;
  for (const auto& doc : YAML::LoadAllFromFile(
         (deploy_dir() / "prometheus/metrics-reader.yaml").string())) {
    if (doc["kind"].as<std::string>() != "ClusterRole")
      continue;
    for (const auto& rule : doc["rules"]) {
      std::set<std::string> urls, verbs;
      for (const auto& u : rule["nonResourceURLs"])
        urls.insert(u.as<std::string>());
      for (const auto& v : rule["verbs"])
        verbs.insert(v.as<std::string>());
      granted = granted || (urls.count("/metrics") && verbs.count("get"));
    }
  }
  EXPECT_TRUE(granted);
}

// The config the ConfigMap (or an overlay's patch) carries loads with
// tessera's strict parser, with the expected scheduler name and lease.
void check_config_map(const YAML::Node& cm, const std::string& scheduler,
                      const std::string& lease) {
  std::string text = cm["data"]["config.yaml"].as<std::string>();
  auto cfg = config::load_config(text);
  ASSERT_TRUE(cfg) << cfg.err().message;
  ASSERT_EQ(cfg->profiles.size(), 1u);
  EXPECT_EQ(cfg->profiles[0].scheduler_name, scheduler);
  EXPECT_TRUE(cfg->leader_election.leader_elect);
  EXPECT_EQ(cfg->leader_election.resource_name, lease);
  EXPECT_EQ(cfg->leader_election.resource_namespace, "kube-system");
}

TEST(deploy_manifests, configurations_load_strictly) {
  auto objects = base_objects();
  {
    SCOPED_TRACE("base / second scheduler");
    check_config_map(objects["ConfigMap/tessera-config"], "tessera", "tessera");
  }
  {
    SCOPED_TRACE("default-scheduler overlay");
    auto patch = YAML::LoadFile(
      (deploy_dir() / "default-scheduler/config.yaml").string());
    check_config_map(patch, "default-scheduler", "kube-scheduler");
  }
}

TEST(deploy_manifests, deployment_probes_real_endpoints) {
  auto objects = base_objects();
  const auto& d = objects["Deployment/tessera"];
  EXPECT_EQ(d["spec"]["replicas"].as<int>(), 2);
  const auto& tpl = d["spec"]["template"];
  for (const auto& kv : d["spec"]["selector"]["matchLabels"])
    EXPECT_EQ(
      tpl["metadata"]["labels"][kv.first.as<std::string>()].as<std::string>(),
      kv.second.as<std::string>());
  const auto& spec = tpl["spec"];
  EXPECT_EQ(spec["serviceAccountName"].as<std::string>(), "tessera");
  EXPECT_TRUE(spec["securityContext"]["runAsNonRoot"].as<bool>());
  ASSERT_EQ(spec["containers"].size(), 1u);
  const auto& c = spec["containers"][0];
  std::vector<std::string> args;
  for (const auto& a : c["args"])
    args.push_back(a.as<std::string>());
  ASSERT_FALSE(args.empty());
  EXPECT_EQ(args[0], "run");
  EXPECT_NE(std::find(args.begin(), args.end(), "--secure-port=10259"),
            args.end());
  EXPECT_NE(
    std::find(args.begin(), args.end(), "--config=/etc/tessera/config.yaml"),
    args.end());
  EXPECT_EQ(c["ports"][0]["containerPort"].as<int>(), 10259);
  struct test_case {
    std::string probe, path;
  };
  for (const auto& tc : std::vector<test_case>{{"livenessProbe", "/livez"},
                                               {"readinessProbe", "/readyz"},
                                               {"startupProbe", "/livez"}}) {
    SCOPED_TRACE(tc.probe);
    const auto& get = c[tc.probe]["httpGet"];
    ASSERT_TRUE(get);
    EXPECT_EQ(get["path"].as<std::string>(), tc.path);
    EXPECT_EQ(get["port"].as<int>(), 10259);
    EXPECT_EQ(get["scheme"].as<std::string>(), "HTTPS");
  }
  EXPECT_TRUE(c["resources"]["requests"]["cpu"]);
  EXPECT_TRUE(c["resources"]["requests"]["memory"]);
  EXPECT_EQ(c["volumeMounts"][0]["mountPath"].as<std::string>(),
            "/etc/tessera");
  EXPECT_EQ(spec["volumes"][0]["configMap"]["name"].as<std::string>(),
            "tessera-config");
  // The metrics Service selects these pods.
  const auto& svc = objects["Service/tessera-metrics"];
  for (const auto& kv : svc["spec"]["selector"])
    EXPECT_EQ(
      tpl["metadata"]["labels"][kv.first.as<std::string>()].as<std::string>(),
      kv.second.as<std::string>());
  EXPECT_EQ(svc["spec"]["ports"][0]["targetPort"].as<std::string>(),
            c["ports"][0]["name"].as<std::string>());
}

// ---- Dockerfile --------------------------------------------------------

// The Dockerfile's instructions, continuation lines joined.
std::vector<std::string> dockerfile_instructions() {
  std::istringstream in{read_text(deploy_dir() / "Dockerfile")};
  std::string line, joined;
  std::vector<std::string> instructions;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    joined += line;
    if (!joined.empty() && joined.back() == '\\') {
      joined.pop_back();
      continue;
    }
    instructions.push_back(joined);
    joined.clear();
  }
  return instructions;
}

// The words of the Dockerfile's instructions `op` in its last stage (all
// stages when `last_stage_only` is false), the op itself left out.
std::vector<std::string> dockerfile_words(const std::string& op,
                                          bool last_stage_only) {
  std::vector<std::string> out;
  for (const auto& ins : dockerfile_instructions()) {
    std::istringstream words{ins};
    std::string first;
    words >> first;
    if (first == "FROM" && last_stage_only)
      out.clear();
    if (first != op)
      continue;
    for (std::string w; words >> w;)
      out.push_back(w);
  }
  return out;
}

TEST(dockerfile, lints) {
  std::vector<std::string> instructions = dockerfile_instructions();
  std::vector<std::string> froms, copied_from_build;
  std::string user, entrypoint;
  for (const auto& ins : instructions) {
    std::istringstream words{ins};
    std::string op;
    words >> op;
    if (op == "FROM") {
      std::string image;
      words >> image;
      froms.push_back(image);
      user.clear(); // USER applies per stage
    } else if (op == "COPY") {
      std::string first;
      words >> first;
      if (first.starts_with("--from=")) {
        std::string src;
        words >> src;
        copied_from_build.push_back(src);
        continue;
      }
      // Every path copied from the build context exists.
      std::vector<std::string> parts{first};
      for (std::string w; words >> w;)
        parts.push_back(w);
      parts.pop_back(); // the destination
      for (const auto& p : parts)
        EXPECT_TRUE(fs::exists(source_dir() / p)) << "COPY " << p;
    } else if (op == "USER") {
      words >> user;
    } else if (op == "ENTRYPOINT") {
      entrypoint = ins.substr(op.size() + 1);
    } else if (op == "RUN") {
      // Scripts the build runs exist.
      for (std::string w; words >> w;) {
        if (w.starts_with("scripts/")) {
          EXPECT_TRUE(fs::exists(source_dir() / w)) << w;
        }
      }
    }
  }
  ASSERT_GE(froms.size(), 2u) << "multi-stage";
  for (const auto& f : froms)
    EXPECT_TRUE(f.starts_with("debian:12")) << f;
  EXPECT_FALSE(user.empty()) << "the final stage sets USER";
  EXPECT_NE(user.substr(0, user.find(':')), "0");
  EXPECT_NE(user.substr(0, user.find(':')), "root");
  ASSERT_EQ(copied_from_build.size(), 1u) << "only the binary is copied";
  EXPECT_TRUE(copied_from_build[0].ends_with("/bin/tessera"));
  EXPECT_EQ(entrypoint, "[\"/usr/local/bin/tessera\"]");
}

// ---- Grafana dashboard ---------------------------------------------------

TEST(grafana_dashboard, queries_only_exported_metrics) {
  // JSON is YAML: yaml-cpp reads the dashboard.
  YAML::Node dash = YAML::LoadFile(
    (deploy_dir() / "grafana/tessera-dashboard.json").string());
  std::set<std::string> exported;
  metrics::scheduler_metrics m;
  for (const auto& f : m.collect())
    exported.insert(f.name);
  std::set<std::string> used;
  static const std::regex metric_re{
    R"(\b((scheduler|tessera|rest_client)_[a-z_]+)\b)"};
  ASSERT_TRUE(dash["panels"].IsSequence());
  for (const auto& panel : dash["panels"])
    for (const auto& t : panel["targets"]) {
      std::string expr = t["expr"].as<std::string>();
      for (std::sregex_iterator it{expr.begin(), expr.end(), metric_re}, end;
           it != end; ++it) {
        std::string name = (*it)[1];
        for (const char* suffix : {"_bucket", "_count", "_sum"})
          if (name.ends_with(suffix) && !exported.count(name))
            name.resize(name.size() - std::strlen(suffix));
        used.insert(name);
        EXPECT_TRUE(exported.count(name)) << name << " in " << expr;
      }
    }
  // What an operator needs the dashboard to show: attempts, latency, the
  // pending queue, assume conflicts and the shards' filter time.
  for (const char* needed :
       {"scheduler_schedule_attempts_total",
        "scheduler_scheduling_attempt_duration_seconds",
        "scheduler_pending_pods", "tessera_assume_conflicts_total",
        "tessera_shard_filter_score_duration_seconds"})
    EXPECT_TRUE(used.count(needed)) << needed;
}

// ---- kubectl -----------------------------------------------------------

struct command_result {
  int status = -1;
  std::string output;
};

command_result run_command(const std::string& cmd) {
  command_result r;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr)
    return r;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
    r.output.append(buf, n);
  int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// The image builds the binary alone (no tests, no benchmarks): it must copy
// every source folder the root CMakeLists.txt then adds.
TEST(dockerfile, copies_every_folder_the_binary_builds_from) {
  std::set<std::string> copied;
  for (const auto& w : dockerfile_words("COPY", false))
    copied.insert(w);
  std::regex add_subdirectory{R"(add_subdirectory\((\w+)\))"};
  std::string root = read_text(source_dir() / "CMakeLists.txt");
  std::size_t folders = 0;
  for (std::sregex_iterator it{root.begin(), root.end(), add_subdirectory}, end;
       it != end; ++it) {
    std::string folder = (*it)[1];
    if (folder == "test" || folder == "fuzz")
      continue;
    ++folders;
    EXPECT_TRUE(copied.count(folder))
      << "deploy/Dockerfile does not COPY " << folder << "/";
  }
  EXPECT_GE(folders, 8u) << "the root CMakeLists.txt was not read";
}

// The runtime stage installs the Debian package of every shared library the
// release binary links (those of Priority: required come with the base).
TEST(dockerfile, runtime_stage_installs_every_linked_library) {
  auto version = run_command(std::string{TESSERA_BINARY} + " version");
  if (version.output.find("build type: Release") == std::string::npos)
    GTEST_SKIP() << "the image holds a Release build; this one is not";
  if (run_command("command -v ldd && command -v dpkg-query").status != 0)
    GTEST_SKIP() << "needs ldd and dpkg (a Debian machine)";
  std::set<std::string> installed;
  for (const auto& w : dockerfile_words("RUN", true))
    installed.insert(w);
  auto linked = run_command("ldd " + std::string{TESSERA_BINARY}
                            + " | awk '{print $3}' | grep ^/");
  ASSERT_EQ(linked.status, 0) << linked.output;
  std::istringstream libs{linked.output};
  std::size_t checked = 0;
  for (std::string lib; std::getline(libs, lib);) {
    auto owner = run_command("dpkg -S \"$(readlink -f " + lib
                             + ")\" | cut -d: -f1 | head -1");
    std::string package = owner.output.substr(0, owner.output.find('\n'));
    if (owner.status != 0 || package.empty()
        || package.find(' ') != std::string::npos)
      continue; // not from a package: nothing the image could install
    auto priority = run_command("dpkg-query -W -f='${Priority}' " + package);
    if (priority.output == "required")
      continue;
    ++checked;
    EXPECT_TRUE(installed.count(package))
      << "deploy/Dockerfile's runtime stage does not install " << package
      << " (for " << lib << ")";
  }
  EXPECT_GE(checked, 3u) << "ldd listed no packaged library: " << linked.output;
}

std::string find_kubectl() {
  for (const char* rel : {".tools/kubernetes-client/usr/bin/kubectl",
                          ".tools/kubernetes-client/bin/kubectl"})
    if (fs::exists(source_dir() / rel))
      return (source_dir() / rel).string();
  return {};
}

// fake_discovery.py as a child process; its port is its first line.
class discovery_server {
public:
  explicit discovery_server(const std::string& script) {
    int fds[2];
    if (::pipe(fds) != 0)
      return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(fds[1], STDOUT_FILENO);
      ::close(fds[0]);
      ::close(fds[1]);
      ::execlp("python3", "python3", script.c_str(), nullptr);
      ::_exit(127);
    }
    ::close(fds[1]);
    std::string line;
    char c;
    while (::read(fds[0], &c, 1) == 1 && c != '\n')
      line += c;
    ::close(fds[0]);
    port_ = std::atoi(line.c_str());
  }
  ~discovery_server() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  int port() const {
    return port_;
  }

private:
  pid_t pid_ = -1;
  int port_ = 0;
};

TEST(deploy_kubectl, overlays_build_and_apply_dry_run) {
  std::string kubectl = find_kubectl();
  if (kubectl.empty())
    GTEST_SKIP() << "kubectl not installed under .tools/kubernetes-client "
                    "(run scripts/install-deps.sh)";
  if (run_command("python3 -c pass").status != 0)
    GTEST_SKIP() << "python3 not found: it runs the stand-in discovery "
                    "server for --dry-run=client";
  discovery_server server{
    (source_dir() / "test/ops/fake_discovery.py").string()};
  ASSERT_GT(server.port(), 0) << "fake_discovery.py did not start";
  std::string cache = ::testing::TempDir() + "/kubectl-cache";
  // The base's objects: service account, leader-election Role and
  // RoleBinding, the authentication-reader RoleBinding, three
  // ClusterRoleBindings (kube-scheduler's role, the volume scheduler's,
  // auth-delegator), the configuration, the metrics Service, the Deployment.
  const std::size_t objects = 10;
  for (const char* overlay : {"second-scheduler", "default-scheduler"}) {
    SCOPED_TRACE(overlay);
    std::string dir = (deploy_dir() / overlay).string();
    auto built = run_command(kubectl + " kustomize " + dir);
    ASSERT_EQ(built.status, 0) << built.output;
    auto docs = YAML::LoadAll(built.output);
    EXPECT_EQ(docs.size(), objects);
    for (const auto& d : docs)
      EXPECT_EQ(
        d["metadata"]["labels"]["app.kubernetes.io/name"].as<std::string>(),
        "tessera")
        << d["kind"].as<std::string>();
    auto applied
      = run_command(kubectl + " apply --dry-run=client --validate=false -k "
                    + dir + " --server http://127.0.0.1:"
                    + std::to_string(server.port()) + " --cache-dir " + cache);
    EXPECT_EQ(applied.status, 0) << applied.output;
    std::size_t created = 0;
    for (std::size_t at = 0; (at = applied.output.find("created (dry run)", at))
                             != std::string::npos;
         ++at)
      ++created;
    EXPECT_EQ(created, objects) << applied.output;
  }
}

} // namespace
} // namespace tessera
