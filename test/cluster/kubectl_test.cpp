// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Real-client tests against the embedded cluster: kubectl (1.35 from the
// npm registry, or Debian's 1.20; docs/apiserver-protocol.md §6.3) and the
// official Python client as Debian packages it.
#include "io/apiserver/kwok.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "io/apiserver/volume_controller.hpp"
#include "test/support/fake_binder.hpp"
#include "test/support/wait.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <unistd.h>

// Options are designated initializers naming only what a case sets.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace tessera {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace std::chrono_literals;
using namespace apiserver;

struct run_result {
  int code = -1;
  std::string output;
};

/// The embedded cluster (two kwok nodes, the volume controller) on a free
/// port, with a kubeconfig for it in a private home directory.
class EmbeddedClusterTest : public ::testing::Test {
protected:
  void start_cluster() {
    home_
      = fs::temp_directory_path()
        / ("tessera-kubectl-" + std::to_string(::getpid()) + "-"
           + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(home_);
    store_config sc;
    sc.seed = 3;
    st_ = std::make_unique<store>(sc);
    ASSERT_FALSE(create_fake_nodes(*st_, 2, {}));
    kwok_ = std::make_unique<kwok_controller>(*st_, kwok_config{});
    volumes_ = std::make_unique<volume_controller>(
      *st_, volume_controller_config{.resync = 100ms});
    server_config cfg;
    cfg.port = 0;
    auto s = api_server::start(*st_, cfg);
    ASSERT_TRUE(s) << s.err().message;
    server_ = std::move(*s);
    std::ofstream{home_ / "config"}
      << "apiVersion: v1\nkind: Config\n"
         "clusters:\n- name: tessera\n  cluster:\n    server: "
      << server_->url()
      // As the README's: the JavaScript client refuses plain http without it.
      << "\n    insecure-skip-tls-verify: true"
      << "\ncontexts:\n- name: tessera\n  context:\n"
         "    cluster: tessera\n    user: tessera\n"
         "    namespace: default\n"
         "current-context: tessera\n"
         "users:\n- name: tessera\n  user: {}\n";
  }

  void TearDown() override {
    if (server_)
      server_->stop();
    kwok_.reset();
    volumes_.reset();
    std::error_code ignored;
    if (!home_.empty())
      fs::remove_all(home_, ignored);
  }

  /// Runs `program args` with a private HOME and KUBECONFIG.
  run_result run_program(const std::string& program, const std::string& args,
                         int timeout_seconds = 30) {
    std::string cmd = "env HOME=" + home_.string()
                      + " KUBECONFIG=" + (home_ / "config").string()
                      + " timeout " + std::to_string(timeout_seconds) + " "
                      + program + " " + args + " 2>&1";
    run_result r;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p)
      return r;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
      r.output.append(buf, n);
    int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
  }

  std::string write_file(const std::string& name, const std::string& text) {
    auto path = home_ / name;
    std::ofstream{path} << text;
    return path.string();
  }

  template <class F> bool eventually(F cond) {
    for (int i = 0; i < 500; ++i) {
      if (cond())
        return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  const resource_info& pods() const {
    return primary_resource(storage_kind::pod);
  }

  fs::path home_;
  std::unique_ptr<store> st_;
  std::unique_ptr<kwok_controller> kwok_;
  std::unique_ptr<volume_controller> volumes_;
  std::unique_ptr<api_server> server_;
};

class KubectlTest : public EmbeddedClusterTest {
protected:
  static void SetUpTestSuite() {
    kubectl_ = TESSERA_KUBECTL;
  }

  void SetUp() override {
    if (kubectl_.empty() || !fs::exists(kubectl_))
      GTEST_SKIP() << "kubectl not found: run scripts/install-deps.sh, which "
                      "unpacks Debian's kubernetes-client into .tools/";
    start_cluster();
    auto v = run("version --client --short");
    legacy_ = v.output.find("v1.20.") != std::string::npos;
  }

  /// Runs kubectl with its own discovery cache.
  run_result run(const std::string& args, int timeout_seconds = 30) {
    return run_program(kubectl_ + " --cache-dir " + (home_ / "cache").string(),
                       args, timeout_seconds);
  }

  std::string create_flags() const {
    // Newer kubectl validates differently (docs/apiserver-protocol.md §6.5).
    return legacy_ ? "" : " --validate=false";
  }

  static inline std::string kubectl_;
  bool legacy_ = true;
};

// The official Python client, as Debian packages it (python3-kubernetes):
// test/cluster/python_client.py walks a user's steps and checks each.
class PythonClientTest : public EmbeddedClusterTest {
protected:
  void SetUp() override {
    if (::system(TESSERA_PYTHON " -c 'import kubernetes' 2>/dev/null") != 0)
      GTEST_SKIP() << "python3-kubernetes not installed: run "
                      "scripts/install-deps.sh";
    start_cluster();
  }
};

/// A client program's run printed "ok: STEP" for every step of a user's
/// walk through the cluster (`watch_step` names how it follows changes).
void expect_client_steps(const run_result& r, const char* watch_step) {
  EXPECT_EQ(r.code, 0) << r.output;
  for (const char* step :
       {"ok: version v1.37.", "ok: namespace Active", "ok: pod created Pending",
        "ok: list by label", watch_step, "ok: patch merges labels",
        "ok: bound to ", "ok: pod Running", "ok: missing pod 404 NotFound",
        "ok: pod deleted", "ok: events listed"})
    EXPECT_NE(r.output.find(step), std::string::npos)
      << "missing \"" << step << "\" in:\n"
      << r.output;
}

TEST_F(PythonClientTest, AUsersStepsWork) {
  auto r = run_program(TESSERA_PYTHON,
                       TESSERA_SOURCE_DIR "/test/cluster/python_client.py "
                         + (home_ / "config").string(),
                       60);
  expect_client_steps(r, "ok: watch resumes after the list");
}

// The official JavaScript client (@kubernetes/client-node, pinned in
// test/cluster/js/package.json; scripts/install-deps.sh installs it with
// npm into .tools/js-client): test/cluster/js/js_client.mjs walks a user's
// steps and checks each, with the README's kubeconfig.
class JsClientTest : public EmbeddedClusterTest {
protected:
  void SetUp() override {
    modules_ = fs::path{TESSERA_SOURCE_DIR} / ".tools/js-client/node_modules";
    if (::system("node --version >/dev/null 2>&1") != 0
        || !fs::exists(modules_ / "@kubernetes/client-node/package.json"))
      GTEST_SKIP() << "node or @kubernetes/client-node not installed: run "
                      "scripts/install-deps.sh";
    start_cluster();
    // Node resolves the client from the script's own directory upwards.
    fs::copy_file(fs::path{TESSERA_SOURCE_DIR}
                    / "test/cluster/js/js_client.mjs",
                  home_ / "js_client.mjs");
    fs::create_directory_symlink(modules_, home_ / "node_modules");
  }
  fs::path modules_;
};

TEST_F(JsClientTest, AUsersStepsWork) {
  auto r = run_program(
    "node",
    (home_ / "js_client.mjs").string() + " " + (home_ / "config").string(), 60);
  expect_client_steps(r, "ok: informer lists then watches");
}

constexpr const char* pod_yaml = R"(apiVersion: v1
kind: Pod
metadata:
  name: p1
  labels:
    app: demo
spec:
  containers:
  - name: c
    image: busybox:1.36
    resources:
      requests: {cpu: 100m, memory: 64Mi}
)";

TEST_F(KubectlTest, GetCreateDescribeLabelDelete) {
  auto nodes = run("get nodes");
  ASSERT_EQ(nodes.code, 0) << nodes.output;
  EXPECT_NE(nodes.output.find("node-000000   Ready"), std::string::npos)
    << nodes.output;
  EXPECT_NE(nodes.output.find("node-000001"), std::string::npos);

  auto created
    = run("create -f " + write_file("pod.yaml", pod_yaml) + create_flags());
  ASSERT_EQ(created.code, 0) << created.output;
  EXPECT_NE(created.output.find("pod/p1 created"), std::string::npos);

  auto pending = run("get pods");
  ASSERT_EQ(pending.code, 0) << pending.output;
  EXPECT_NE(pending.output.find("p1     0/1     Pending"), std::string::npos)
    << pending.output;

  // A scheduler binds it and records an event; kwok runs it.
  auto pod = st_->get(pods(), "default", "p1");
  ASSERT_TRUE(pod);
  ASSERT_TRUE(
    st_->bind({.ns = "default", .name = "p1", .node = "node-000001"}));
  ASSERT_TRUE(st_->create(
    *find_resource("events.k8s.io", "v1", "events"), "default",
    R"({"metadata":{"name":"p1.1"},"eventTime":")"
      + std::string{"2026-01-01T00:00:00.000000Z"}
      + R"(","reportingController":"default-scheduler","reportingInstance":"default-scheduler-host","action":"Binding","reason":"Scheduled","regarding":{"kind":"Pod","namespace":"default","name":"p1","apiVersion":"v1","uid":")"
      + (*pod)->uid()
      + R"("},"note":"Successfully assigned default/p1 to node-000001","type":"Normal"})"));
  ASSERT_TRUE(eventually([&] {
    auto p = st_->get(pods(), "default", "p1");
    return p && (*p)->attrs().field("status.phase")
           && *(*p)->attrs().field("status.phase") == "Running";
  }));

  auto all = run("get nodes,pods -A -o wide");
  ASSERT_EQ(all.code, 0) << all.output;
  EXPECT_NE(all.output.find("default     pod/p1   1/1     Running"),
            std::string::npos)
    << all.output;
  EXPECT_NE(all.output.find("node-000001"), std::string::npos);
  EXPECT_NE(all.output.find("10.0.1."), std::string::npos)
    << "podIP from the node's CIDR";

  auto describe = run("describe pod p1");
  ASSERT_EQ(describe.code, 0) << describe.output;
  EXPECT_NE(describe.output.find("Node:         node-000001"),
            std::string::npos)
    << describe.output;
  EXPECT_NE(describe.output.find("Scheduled"), std::string::npos);
  EXPECT_NE(
    describe.output.find("Successfully assigned default/p1 to node-000001"),
    std::string::npos)
    << describe.output;

  auto describe_node = run("describe node node-000001");
  ASSERT_EQ(describe_node.code, 0) << describe_node.output;
  EXPECT_NE(describe_node.output.find("default                     p1"),
            std::string::npos)
    << describe_node.output;

  auto label = run("label pod p1 tier=web");
  ASSERT_EQ(label.code, 0) << label.output;
  EXPECT_EQ(*(*st_->get(pods(), "default", "p1"))->attrs().label("tier"),
            "web");
  auto cordon = run("cordon node-000000");
  ASSERT_EQ(cordon.code, 0) << cordon.output;
  EXPECT_EQ(
    *(*st_->get(primary_resource(storage_kind::node), "", "node-000000"))
       ->attrs()
       .field("spec.unschedulable"),
    "true");
  auto cordoned = run("get node node-000000");
  EXPECT_NE(cordoned.output.find("Ready,SchedulingDisabled"), std::string::npos)
    << cordoned.output;

  auto t0 = std::chrono::steady_clock::now();
  auto deleted = run("delete pod p1");
  ASSERT_EQ(deleted.code, 0) << deleted.output;
  EXPECT_NE(deleted.output.find("pod \"p1\" deleted"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
  EXPECT_FALSE(st_->get(pods(), "default", "p1")) << "returns when gone";

  auto version = run("version");
  ASSERT_EQ(version.code, 0) << version.output;
  EXPECT_NE(version.output.find("v1.37.0"), std::string::npos);

  ASSERT_TRUE(st_->create(
    primary_resource(storage_kind::pod_disruption_budget), "default",
    R"({"metadata":{"name":"web"},"spec":{"minAvailable":1}})"));
  ASSERT_TRUE(
    st_->create(primary_resource(storage_kind::lease), "default",
                R"({"metadata":{"name":"l"},"spec":{"holderIdentity":"me"}})"));
  // Server-side tables: kubectl's usual columns, not just NAME and AGE.
  for (const auto& [kind, headers] :
       std::vector<std::pair<std::string, std::vector<std::string>>>{
         {"namespaces", {"STATUS", "Active"}},
         {"events -A",
          {"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE", "pod/p1"}},
         {"leases -A", {"HOLDER", "me"}},
         {"pdb -A",
          {"MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS"}},
         {"priorityclasses", {"VALUE", "GLOBAL-DEFAULT", "2000001000"}}}) {
    SCOPED_TRACE(kind);
    auto r = run("get " + kind);
    EXPECT_EQ(r.code, 0) << r.output;
    for (const auto& h : headers)
      EXPECT_NE(r.output.find(h), std::string::npos) << h << "\n" << r.output;
  }
  auto pcs = run("get priorityclasses");
  EXPECT_NE(pcs.output.find("system-node-critical"), std::string::npos);
}

constexpr const char* storage_yaml = R"(apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: wffc
provisioner: example.com/disk
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: static-1
spec:
  capacity: {storage: 2Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: wffc
  hostPath: {path: /tmp/static-1}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  storageClassName: wffc
  accessModes: [ReadWriteOnce]
  resources:
    requests: {storage: 1Gi}
)";

TEST_F(KubectlTest, ClaimOfAWaitForFirstConsumerClassBindsOnceANodeIsSelected) {
  auto file = write_file("storage.yaml", storage_yaml);
  auto created = run("create -f " + file + create_flags());
  ASSERT_EQ(created.code, 0) << created.output;
  auto phase = [&](const std::string& what) {
    return run("get " + what + " -o jsonpath={.status.phase}").output;
  };
  EXPECT_TRUE(eventually([&] { return phase("pv static-1") == "Available"; }))
    << phase("pv static-1");
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(phase("pvc data"), "Pending");
  auto table = run("get pvc");
  ASSERT_EQ(table.code, 0) << table.output;
  EXPECT_NE(table.output.find("STATUS"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("Pending"), std::string::npos) << table.output;
  auto classes = run("get sc");
  ASSERT_EQ(classes.code, 0) << classes.output;
  EXPECT_NE(classes.output.find("WaitForFirstConsumer"), std::string::npos)
    << classes.output;

  // What the scheduler's PreBind writes for a claim to provision.
  auto annotated
    = run("annotate pvc data volume.kubernetes.io/selected-node=node-000000");
  ASSERT_EQ(annotated.code, 0) << annotated.output;
  ASSERT_TRUE(eventually([&] { return phase("pvc data") == "Bound"; }))
    << run("get pvc data -o yaml").output;
  auto volume = run("get pvc data -o jsonpath={.spec.volumeName}").output;
  EXPECT_EQ(volume.rfind("pvc-", 0), 0u) << volume;
  EXPECT_EQ(run("get pv " + volume
                + " -o jsonpath={.spec.nodeAffinity.required"
                  ".nodeSelectorTerms[0].matchExpressions[0].values[0]}")
              .output,
            "node-000000");
  table = run("get pvc");
  EXPECT_NE(table.output.find("Bound"), std::string::npos) << table.output;
  auto volumes = run("get pv");
  ASSERT_EQ(volumes.code, 0) << volumes.output;
  EXPECT_NE(volumes.output.find("default/data"), std::string::npos)
    << volumes.output;
  EXPECT_EQ(phase("pv static-1"), "Available")
    << "the provisioner made a volume of its own";
}

TEST_F(KubectlTest, WatchShowsChanges) {
  ASSERT_TRUE(st_->create(
    pods(), "default",
    R"({"metadata":{"name":"w1"},"spec":{"containers":[{"name":"c","image":"i"}]}})"));
  auto before = st_->stats().watchers_open;
  // kubectl is stopped after 12 s. On a loaded host its start and discovery
  // alone can take several seconds, so the watch gets up to 9 s to open
  // and the changes below leave it at least 3 s to print them.
  auto watching
    = std::async(std::launch::async, [&] { return run("get pods -w", 12); });
  ASSERT_TRUE(
    test::eventually([&] { return st_->stats().watchers_open > before; }, 9s))
    << "kubectl's watch never opened";
  ASSERT_TRUE(
    st_->bind({.ns = "default", .name = "w1", .node = "node-000000"}));
  ASSERT_TRUE(eventually([&] {
    auto p = st_->get(pods(), "default", "w1");
    return p && *(*p)->attrs().field("status.phase") == "Running";
  }));
  ASSERT_TRUE(st_->remove(pods(), "default", "w1"));
  auto out = watching.get().output;
  EXPECT_NE(out.find("w1     0/1     Pending"), std::string::npos) << out;
  EXPECT_NE(out.find("w1     1/1     Running"), std::string::npos) << out;
  EXPECT_NE(out.find("Terminating"), std::string::npos) << out;
}

TEST_F(KubectlTest, UnknownFieldsAndInvalidValuesAreRefusedAsUpstream) {
  auto typo = write_file("typo.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: typo}
spec:
  nodeSelectr: {disk: ssd}
  containers: [{name: c, image: nginx}]
)");
  if (!legacy_) {
    // kubectl's default: fieldValidation=Strict.
    auto strict = run("create -f " + typo);
    EXPECT_EQ(strict.code, 1) << strict.output;
    EXPECT_NE(strict.output.find(
                R"(Pod in version "v1" cannot be handled as a Pod: strict )"
                R"(decoding error: unknown field "spec.nodeSelectr")"),
              std::string::npos)
      << strict.output;
    EXPECT_FALSE(st_->get(pods(), "default", "typo"));
  }
  // Warn (kubectl 1.20 sends no fieldValidation: the server's default).
  auto warned = run("create -f " + typo + (legacy_ ? "" : " --validate=warn"));
  EXPECT_EQ(warned.code, 0) << warned.output;
  EXPECT_NE(warned.output.find(R"(Warning: unknown field "spec.nodeSelectr")"),
            std::string::npos)
    << warned.output;
  auto stored = st_->get(pods(), "default", "typo");
  ASSERT_TRUE(stored);
  EXPECT_EQ((*stored)->json().find("nodeSelectr"), std::string::npos);

  for (const auto& [cpu, said] :
       std::vector<std::pair<std::string, std::string>>{
         {"lots", "Pod in version \"v1\" cannot be handled as a Pod: "
                  "quantities must match the regular expression"},
         {"\"-1\"", "spec.containers[0].resources.requests[cpu]: Invalid "
                    "value: \"-1\": must be greater than or equal to 0"}}) {
    SCOPED_TRACE(cpu);
    auto file = write_file("cpu.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: greedy}
spec:
  containers:
  - {name: c, image: nginx, resources: {requests: {cpu: )"
                                         + cpu + "}}}\n");
    auto r = run("create -f " + file + create_flags());
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find(said), std::string::npos) << r.output;
    EXPECT_FALSE(st_->get(pods(), "default", "greedy"));
  }
}

TEST_F(KubectlTest, DebugReadsTheNotFoundDetailsInsteadOfCrashing) {
  if (legacy_)
    GTEST_SKIP() << "kubectl 1.20 has no debug command";
  ASSERT_TRUE(st_->create(
    pods(), "default",
    R"({"metadata":{"name":"d1"},"spec":{"containers":[{"name":"c","image":"i"}]}})"));
  // No ephemeralcontainers subresource: kubectl reads the 404's details
  // and reports the feature missing.
  auto r = run("debug d1 --image=busybox");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_EQ(r.output.find("panic"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ephemeral containers are disabled"),
            std::string::npos)
    << r.output;
}

TEST_F(KubectlTest, DeleteOfANamespaceWithItsPodsFromOneFile) {
  auto file = write_file("shop.yaml", R"(apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: shop
spec:
  containers: [{name: c, image: nginx}]
)");
  auto created = run("create -f " + file + create_flags());
  ASSERT_EQ(created.code, 0) << created.output;
  // A running pod on a fake node goes through graceful deletion.
  ASSERT_TRUE(st_->bind({.ns = "shop", .name = "web", .node = "node-000000"}));
  ASSERT_TRUE(eventually([&] {
    auto p = st_->get(pods(), "shop", "web");
    return p && *(*p)->attrs().field("status.phase") == "Running";
  }));
  // The namespace goes first: Terminating, so the pod's DELETE still finds
  // it; kubectl then waits until both are gone.
  auto deleted = run("delete -f " + file);
  ASSERT_EQ(deleted.code, 0) << deleted.output;
  EXPECT_NE(deleted.output.find("namespace \"shop\" deleted"),
            std::string::npos)
    << deleted.output;
  EXPECT_NE(deleted.output.find("pod \"web\" deleted"), std::string::npos)
    << deleted.output;
  const auto& namespaces = primary_resource(storage_kind::namespace_);
  EXPECT_TRUE(eventually([&] { return !st_->get(namespaces, "", "shop"); }));
  auto gone = run("get ns shop");
  EXPECT_NE(gone.code, 0);
  EXPECT_NE(gone.output.find("NotFound"), std::string::npos) << gone.output;
}

// kubectl's typed client writes these as protobuf (1.20 as JSON); the
// server stores what the JSON of the same object would give.
TEST_F(KubectlTest, TypedCreatesOfNamespacePriorityClassBudgetAndService) {
  if (legacy_)
    GTEST_SKIP() << "kubectl 1.20 creates budgets in policy/v1beta1, which "
                    "the server does not serve";
  for (const char* cmd :
       {"create namespace team", "create priorityclass high --value=1000",
        "create priorityclass zero --value=0 --description=none",
        "create poddisruptionbudget web --selector=app=web --min-available=1",
        "create pdb half --selector=app=web --max-unavailable=50%",
        "create service nodeport web --tcp=80:http --node-port=30080"}) {
    auto r = run(cmd);
    EXPECT_EQ(r.code, 0) << cmd << "\n" << r.output;
  }
  const auto& classes = primary_resource(storage_kind::priority_class);
  const auto& budgets = primary_resource(storage_kind::pod_disruption_budget);
  EXPECT_TRUE(st_->get(primary_resource(storage_kind::namespace_), "", "team"));
  auto read = [&](const resource_info& res, std::string_view ns,
                  std::string_view name) {
    auto o = st_->get(res, ns, name);
    EXPECT_TRUE(o) << name;
    return o ? json::parse((*o)->json()) : json::value{};
  };
  EXPECT_EQ(read(classes, "", "high").at("value"), 1000);
  auto zero = read(classes, "", "zero");
  EXPECT_EQ(zero.at("value"), 0) << "a zero value is kept";
  EXPECT_EQ(zero.at("description"), "none");
  auto web = read(budgets, "default", "web");
  EXPECT_EQ(web.at("spec"), json::parse(R"({"minAvailable":1,
              "selector":{"matchLabels":{"app":"web"}}})"));
  EXPECT_EQ(read(budgets, "default", "half").at("spec").at("maxUnavailable"),
            "50%");
  auto svc = read(primary_resource(storage_kind::service), "default", "web");
  EXPECT_EQ(svc.at("spec").at("type"), "NodePort");
  EXPECT_EQ(svc.at("spec").at("ports").at(0),
            json::parse(R"({"name":"80-http","protocol":"TCP","port":80,
              "targetPort":"http","nodePort":30080})"));
  auto table = run("get pdb,pc");
  EXPECT_NE(table.output.find("half   N/A             50%"), std::string::npos)
    << table.output;
  EXPECT_NE(table.output.find("zero"), std::string::npos) << table.output;
}

// A Deployment's life as on kind with kwok nodes: created as protobuf,
// rolled out once a scheduler (here a stand-in) binds its pods, scaled,
// rolled to a new image, and deleted with its replica sets and pods.
TEST_F(KubectlTest, DeploymentCreateScaleRolloutAndDelete) {
  if (legacy_)
    GTEST_SKIP() << "kubectl 1.20's rollout and scale are not covered";
  test::fake_binder binder{*st_, {"node-000000", "node-000001"}};
  auto created = run("create deployment web --image=nginx --replicas=200");
  ASSERT_EQ(created.code, 0) << created.output;
  auto rolled = run("rollout status deployment/web --timeout=60s", 70);
  ASSERT_EQ(rolled.code, 0) << rolled.output;
  EXPECT_NE(rolled.output.find("deployment \"web\" successfully rolled out"),
            std::string::npos)
    << rolled.output;
  // Exactly `n` pods run, all with `image` (any image when empty).
  auto running = [&](std::size_t n, const std::string& image = "") {
    auto l = st_->list(pods(), "default",
                       {.field_selector = "status.phase=Running"});
    return l && l->items.size() == n
           && std::all_of(l->items.begin(), l->items.end(),
                          [&](const object_ptr& p) {
                            return p->json().find("\"image\":\"" + image
                                                  + (image.empty() ? "" : "\""))
                                   != std::string::npos;
                          });
  };
  EXPECT_TRUE(running(200));
  auto table = run("get deployments");
  EXPECT_NE(table.output.find("web    200/200   200          200"),
            std::string::npos)
    << table.output;

  auto scaled = run("scale deployment web --replicas=5");
  ASSERT_EQ(scaled.code, 0) << scaled.output;
  EXPECT_NE(scaled.output.find("deployment.apps/web scaled"),
            std::string::npos);
  ASSERT_EQ(run("rollout status deployment/web --timeout=30s", 40).code, 0);
  EXPECT_TRUE(eventually([&] { return running(5); }));

  auto updated = run("set image deployment/web nginx=nginx:1.27");
  ASSERT_EQ(updated.code, 0) << updated.output;
  auto again = run("rollout status deployment/web --timeout=30s", 40);
  ASSERT_EQ(again.code, 0) << again.output;
  auto sets = run("get replicasets -o "
                  "custom-columns=NAME:.metadata.name,DESIRED:.spec.replicas,"
                  "IMAGE:.spec.template.spec.containers[0].image");
  ASSERT_EQ(sets.code, 0) << sets.output;
  EXPECT_NE(sets.output.find("nginx:1.27"), std::string::npos) << sets.output;
  EXPECT_NE(sets.output.find(" 0 "), std::string::npos)
    << "the old set is scaled to zero\n"
    << sets.output;
  EXPECT_TRUE(eventually([&] { return running(5, "nginx:1.27"); }));
  auto history = run("rollout history deployment/web");
  EXPECT_NE(history.output.find("2 "), std::string::npos) << history.output;
  auto all = run("get all");
  EXPECT_NE(all.output.find("deployment.apps/web"), std::string::npos)
    << all.output;
  EXPECT_NE(all.output.find("service/kubernetes"), std::string::npos)
    << all.output;

  // Back to the first template: its set takes over again.
  auto undone = run("rollout undo deployment/web");
  ASSERT_EQ(undone.code, 0) << undone.output;
  ASSERT_EQ(run("rollout status deployment/web --timeout=30s", 40).code, 0);
  EXPECT_TRUE(eventually([&] { return running(5, "nginx"); }));

  auto deleted = run("delete deployment web");
  ASSERT_EQ(deleted.code, 0) << deleted.output;
  EXPECT_TRUE(eventually([&] {
    auto p = st_->list(pods(), "default");
    auto r = st_->list(primary_resource(storage_kind::replica_set), "default");
    return p && p->items.empty() && r && r->items.empty();
  }))
    << "replica sets and pods are collected";
}

// Deleting a namespace deletes its workloads, and their controllers do not
// bring pods back while it is Terminating.
TEST_F(KubectlTest, NamespaceDeletionTakesItsDeploymentAlong) {
  if (legacy_)
    GTEST_SKIP() << "kubectl 1.20's typed creates are not covered";
  test::fake_binder binder{*st_, {"node-000000", "node-000001"}};
  ASSERT_EQ(run("create namespace team").code, 0);
  ASSERT_EQ(
    run("-n team create deployment web --image=nginx --replicas=4").code, 0);
  ASSERT_EQ(run("-n team rollout status deployment/web --timeout=30s", 40).code,
            0);
  auto deleted = run("delete namespace team --timeout=30s", 40);
  EXPECT_EQ(deleted.code, 0) << deleted.output;
  EXPECT_TRUE(eventually([&] {
    auto p = st_->list(pods(), "team");
    return !st_->get(primary_resource(storage_kind::namespace_), "", "team")
           && p && p->items.empty();
  }));
}

TEST_F(KubectlTest, JobCompletesAndConfigurationKindsAreStored) {
  if (legacy_)
    GTEST_SKIP() << "kubectl 1.20's typed creates are not covered";
  test::fake_binder binder{*st_, {"node-000000", "node-000001"}};
  for (const char* cmd :
       {"create job pi --image=busybox -- sleep 1",
        "create configmap settings --from-literal=a=1 --from-literal=b=2",
        "create secret generic token --from-literal=key=s3cret",
        "create serviceaccount robot"}) {
    auto r = run(cmd);
    EXPECT_EQ(r.code, 0) << cmd << "\n" << r.output;
  }
  auto waited = run("wait --for=condition=complete job/pi --timeout=30s", 40);
  EXPECT_EQ(waited.code, 0) << waited.output;
  EXPECT_NE(waited.output.find("job.batch/pi condition met"), std::string::npos)
    << waited.output;
  auto jobs = run("get jobs");
  EXPECT_NE(jobs.output.find("pi     Complete   1/1"), std::string::npos)
    << jobs.output;
  auto config = run("get configmap,secret,serviceaccount");
  EXPECT_NE(config.output.find("configmap/settings   2"), std::string::npos)
    << config.output;
  EXPECT_NE(config.output.find("secret/token   Opaque   1"), std::string::npos)
    << config.output;
  EXPECT_NE(config.output.find("serviceaccount/robot     0"), std::string::npos)
    << config.output;
  EXPECT_NE(config.output.find("serviceaccount/default   0"), std::string::npos)
    << "each namespace has its default service account\n"
    << config.output;
  auto value = run("get secret token -o jsonpath={.data.key}");
  EXPECT_EQ(value.output, "czNjcmV0") << "base64 of s3cret";
  auto data = run("get configmap settings -o jsonpath={.data.b}");
  EXPECT_EQ(data.output, "2");
}

// A DaemonSet (one pod per node, placed by its node affinity) and a
// StatefulSet (ordinal pods, a claim per pod from its template) from
// files, rolled out and scaled with kubectl.
TEST_F(KubectlTest, DaemonSetAndStatefulSetRollOut) {
  if (legacy_)
    GTEST_SKIP() << "kubectl 1.20's rollout is not covered";
  test::fake_binder binder{*st_, {"node-000000", "node-000001"}};
  auto ds = write_file("ds.yaml", R"(apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: "agent:1"}]}
)");
  auto sts = write_file("sts.yaml", R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: "db:1"}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
)");
  for (const auto& f : {ds, sts}) {
    auto r = run("create -f " + f + create_flags());
    ASSERT_EQ(r.code, 0) << r.output;
  }
  auto ds_rolled = run("rollout status daemonset/agent --timeout=30s", 40);
  EXPECT_EQ(ds_rolled.code, 0) << ds_rolled.output;
  EXPECT_NE(
    ds_rolled.output.find("daemon set \"agent\" successfully rolled out"),
    std::string::npos)
    << ds_rolled.output;
  auto ds_table = run("get daemonsets");
  EXPECT_NE(ds_table.output.find("agent   2         2         2       2  "),
            std::string::npos)
    << ds_table.output;
  auto sts_rolled = run("rollout status statefulset/db --timeout=30s", 40);
  EXPECT_EQ(sts_rolled.code, 0) << sts_rolled.output;
  auto claims = run("get pvc -o name");
  EXPECT_EQ(claims.output,
            "persistentvolumeclaim/data-db-0\npersistentvolumeclaim/data-db-1\n"
            "persistentvolumeclaim/data-db-2\n");
  auto scaled = run("scale statefulset db --replicas=1");
  EXPECT_EQ(scaled.code, 0) << scaled.output;
  EXPECT_TRUE(eventually([&] {
    auto l = st_->list(pods(), "default", {.label_selector = "app=db"});
    return l && l->items.size() == 1 && l->items[0]->name() == "db-0";
  }));
  auto deleted = run("delete daemonset agent");
  EXPECT_EQ(deleted.code, 0) << deleted.output;
  EXPECT_TRUE(eventually([&] {
    auto l = st_->list(pods(), "default", {.label_selector = "app=agent"});
    return l && l->items.empty();
  }));
}

// `kubectl auth can-i` and `whoami` ask the server about the requester
// (both in protobuf).
TEST_F(KubectlTest, AuthCanIAndWhoami) {
  if (legacy_)
    GTEST_SKIP() << "kubectl 1.20 has no auth whoami";
  auto can = run("auth can-i create pods");
  EXPECT_EQ(can.code, 0) << can.output;
  EXPECT_EQ(can.output, "yes\n");
  auto who = run("auth whoami");
  EXPECT_EQ(who.code, 0) << who.output;
  EXPECT_NE(who.output.find("system:anonymous"), std::string::npos)
    << who.output;
}

// kubectl's typed client reads in protobuf (its Accept header puts it
// first), and what it decides must survive the encoding: drain refuses a
// pod with an emptyDir volume unless told to delete local data, and learns
// of the volume only from the protobuf pod list.
TEST_F(KubectlTest, TypedReadsAreProtobufAndKeepWhatDrainChecks) {
  if (legacy_)
    GTEST_SKIP() << "kubectl 1.20's log layout is not read here";
  ASSERT_TRUE(st_->create(
    pods(), "default",
    R"({"metadata":{"name":"scratch","ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"u-web","controller":true}]},"spec":{"nodeName":"node-000000","containers":[{"name":"c","image":"nginx"}],"volumes":[{"name":"tmp","emptyDir":{"sizeLimit":"1Gi"}}]}})"));
  auto r = run("drain node-000000 --ignore-daemonsets --timeout=5s -v=8", 40);
  EXPECT_NE(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("cannot delete Pods with local storage"),
            std::string::npos)
    << r.output;
  // The pod list came as protobuf: its response headers name the type and
  // the body starts with the envelope's magic and "PodList".
  // (The GET carries no Content-Type of its own, so the one logged before
  // its body is the response's, in every kubectl's log layout.)
  auto list = r.output.find("/api/v1/pods?fieldSelector=spec.nodeName");
  ASSERT_NE(list, std::string::npos) << r.output;
  auto body = r.output.find("\"Response Body\"", list);
  ASSERT_NE(body, std::string::npos) << r.output;
  EXPECT_NE(r.output.substr(list, body - list)
              .find("Content-Type: application/vnd.kubernetes.protobuf"),
            std::string::npos)
    << r.output.substr(list, body - list);
  EXPECT_NE(r.output.find("|k8s.....v1..PodL|", body), std::string::npos)
    << r.output.substr(body, 400);
  EXPECT_TRUE(st_->get(pods(), "default", "scratch"));
}

// `kubectl drain`: cordon, then an eviction per pod, honouring the pods'
// disruption budget (retried while it forbids), and waiting for each pod
// to be gone.
TEST_F(KubectlTest, DrainEvictsWithinTheDisruptionBudget) {
  // Two replicas of a ReplicaSet (drain refuses unmanaged pods without
  // --force) with scratch space on the node, and a pod on the other node.
  for (const auto& [name, node] :
       std::vector<std::pair<std::string, std::string>>{
         {"web-1", "node-000000"},
         {"web-2", "node-000000"},
         {"web-3", "node-000001"}})
    ASSERT_TRUE(st_->create(
      pods(), "default",
      R"({"metadata":{"name":")" + name
        + R"(","labels":{"app":"web"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"u-web","controller":true}]},"spec":{"nodeName":")"
        + node
        + R"(","containers":[{"name":"c","image":"nginx"}],"volumes":[{"name":"scratch","emptyDir":{}}]}})"));
  ASSERT_TRUE(eventually([&] {
    auto l = st_->list(pods(), "default",
                       {.field_selector = "status.phase=Running"});
    return l && l->items.size() == 3;
  }));
  // Two of the three must stay up: one eviction is allowed, not two.
  ASSERT_TRUE(st_->create(
    primary_resource(storage_kind::pod_disruption_budget), "default",
    R"({"metadata":{"name":"web"},"spec":{"minAvailable":2,"selector":{"matchLabels":{"app":"web"}}}})"));

  const std::string drain = "drain node-000000 --ignore-daemonsets "
                            "--delete-emptydir-data --timeout=";
  auto refused = run(drain + "8s", 40);
  EXPECT_NE(refused.code, 0) << refused.output;
  EXPECT_NE(refused.output.find("node/node-000000 cordoned"), std::string::npos)
    << refused.output;
  EXPECT_NE(refused.output.find("Cannot evict pod as it would violate the "
                                "pod's disruption budget."),
            std::string::npos)
    << refused.output;
  EXPECT_NE(refused.output.find("will retry after"), std::string::npos)
    << refused.output;
  auto left = st_->list(pods(), "default",
                        {.field_selector = "spec.nodeName=node-000000"});
  ASSERT_TRUE(left);
  EXPECT_EQ(left->items.size(), 1u) << "one replica evicted, one kept";
  EXPECT_TRUE(st_->get(pods(), "default", "web-3"));

  // Without the budget the last replica goes too.
  ASSERT_EQ(run("delete pdb web").code, 0);
  auto drained = run(drain + "20s", 40);
  EXPECT_EQ(drained.code, 0) << drained.output;
  // kubectl 1.20 ends its drain with "evicted" where current ones say
  // "drained".
  EXPECT_NE(drained.output.find(legacy_ ? "node/node-000000 evicted"
                                        : "node/node-000000 drained"),
            std::string::npos)
    << drained.output;
  left = st_->list(pods(), "default",
                   {.field_selector = "spec.nodeName=node-000000"});
  ASSERT_TRUE(left);
  EXPECT_TRUE(left->items.empty());
  EXPECT_EQ(
    *(*st_->get(primary_resource(storage_kind::node), "", "node-000000"))
       ->attrs()
       .field("spec.unschedulable"),
    "true");
}

} // namespace
} // namespace tessera
