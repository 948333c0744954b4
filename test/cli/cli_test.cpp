// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

struct run_result {
  int status = -1;
  std::string out;
  std::string err;
};

std::string source(const std::string& rel) {
  return std::string{TESSERA_SOURCE_DIR} + "/" + rel;
}

std::string nested_flow(std::size_t levels) {
  return std::string(levels, '[') + std::string(levels, ']');
}

std::string slurp(const std::string& path) {
  std::ifstream in{path};
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the binary with `args` (a shell-quoted string), capturing both streams.
run_result run(const std::string& args) {
  // One file per process: ctest runs this binary's tests in parallel.
  std::string err_file = testing::TempDir() + "tessera_cli_stderr_"
                         + std::to_string(getpid()) + ".txt";
  std::string cmd = std::string{TESSERA_BINARY} + " " + args + " 2>" + err_file;
  run_result r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr)
    return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    r.out.append(buf.data(), n);
  int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.err = slurp(err_file);
  return r;
}

TEST(cli, verbs_and_exit_codes) {
  struct test_case {
    std::string name;
    std::string args;
    int status;
    std::string in_stdout;
    std::string in_stderr;
  };
  std::vector<test_case> cases{
    {"help", "--help", 0, "simulate", ""},
    {"no verb", "", 2, "", "Usage: tessera <verb>"},
    {"unknown verb", "frobnicate", 2, "", "unknown verb \"frobnicate\""},
    {"version", "version", 0, "CAF:        0.17.6", ""},
    {"version names the kube-scheduler release", "version", 0,
     "follows:    kube-scheduler 1.37", ""},
    // What the binary's malloc says of itself: proof that the configured
    // one is the one running.
    {"version names the malloc in use", "version", 0,
     std::string{"malloc:     "} + TESSERA_EXPECTED_MALLOC, ""},
#ifdef TESSERA_EXPECTS_HUGE_PAGES
    // The binary's own jemalloc settings are in effect: it asks for huge
    // pages (cmd/malloc_conf.cpp). Where the kernel says nothing of them,
    // jemalloc reports them as not supported.
    {"version says the malloc asks for huge pages", "version", 0,
     std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")
       ? "(thp:always)"
       : "(thp:not supported)",
     ""},
#endif
    {"bad flag", "simulate --nope", 2, "", "unknown flag: --nope"},
    {"bad int", "simulate --shards=zero -f x", 2, "",
     "invalid argument \"zero\" for \"--shards\" flag"},
    {"zero shards", "simulate --shards=0 -f x", 2, "", "must be at least 1"},
    {"absurd shards", "run --shards=100000000", 2, "",
     "invalid argument \"100000000\" for \"--shards\" flag: must be at most "
     "1024"},
    {"absurd inflight cycles", "simulate --max-inflight-cycles=99999999 -f x",
     2, "", "must be at most 65536"},
    {"absurd bind threads", "run --bind-threads=100000000", 2, "",
     "--bind-threads: must be in 0..1024"},
    {"absurd cluster threads", "cluster --threads=100000000", 2, "",
     "--threads: must be at most 1024"},
    {"absurd cluster nodes", "cluster --nodes=2000000000", 2, "",
     "--nodes: must be at most 1000000"},
    {"no files", "simulate", 2, "", "at least one -f FILE is required"},
    {"missing file", "simulate -f /nonexistent.yaml", 2, "",
     "/nonexistent.yaml: cannot read: No such file or directory"},
    {"bad output", "simulate -o xml -f x", 2, "", "must be json or text"},
    {"simulate help", "simulate --help", 0, "--max-inflight-cycles", ""},
    {"unknown feature gate", "simulate --feature-gates Frobnicate=true -f x", 2,
     "",
     "invalid argument \"Frobnicate=true\" for \"--feature-gates\" flag: "
     "unrecognized feature gate: Frobnicate"},
    {"bad feature gate value",
     "simulate --feature-gates=OpportunisticBatching=maybe -f x", 2, "",
     "invalid value of OpportunisticBatching=maybe"},
    {"cluster certificate missing",
     "cluster --port 0 --tls-cert /nonexistent.pem --tls-key /nonexistent.pem",
     2, "", "--tls-cert: cannot load certificate \"/nonexistent.pem\""},
    {"cluster bind address not an IP",
     "cluster --port 0 --bind-address 999.1.1.1", 2, "",
     "--bind-address: \"999.1.1.1\" is not an IP address"},
    {"cluster token file missing",
     "cluster --port 0 --token-file /nonexistent.token", 2, "",
     "--token-file: cannot read token file \"/nonexistent.token\""},
    {"cluster token twice", "cluster --port 0 --token t --token-file f", 2, "",
     "--token and --token-file are mutually exclusive"},
    {"run checks feature gates too",
     "run --feature-gates DynamicResourceAllocation=false", 2, "",
     "feature is locked to true"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto r = run(tc.args);
    EXPECT_EQ(r.status, tc.status) << r.err;
    EXPECT_NE(r.out.find(tc.in_stdout), std::string::npos) << r.out;
    EXPECT_NE(r.err.find(tc.in_stderr), std::string::npos) << r.err;
  }
}

TEST(cli, simulate_examples_match_their_expected_output) {
  for (const char* name :
       {"resources", "taints", "affinity", "spread", "preemption", "storage"}) {
    SCOPED_TRACE(name);
    std::string example = source(std::string{"examples/"} + name);
    auto r = run("simulate -f " + example
                 + ".yaml --shards 1 --max-inflight-cycles 1 --seed 0");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, slurp(example + ".expected.json"));
  }
}

// Default spreading, scores worked out by hand from kube-scheduler's rule:
// feasible n1, n2 (zone a) and n3 (zone b), two matching pods on n1. Weights
// ln(3 nodes + 2) and ln(2 zones + 2); raw score per node = count × weight +
// (maxSkew − 1) per constraint, rounded: n1 2×1.609+2 + 2×1.386+4 = 12,
// n2 0+2 + 2.773+4 = 9, n3 0+2 + 0+4 = 6; normalized 100×(max+min−s)/max:
// n1 50, n2 75, n3 100. The same for a Service's, a ReplicaSet's and a
// StatefulSet's pods; a pod nothing selects gets no default constraint.
TEST(cli, simulate_spreads_workloads_by_default) {
  std::string file = source("test/cli/default-spread.yaml");
  auto r = run("simulate -o text --explain --shards 1 --max-inflight-cycles 1 "
               "-f "
               + file);
  ASSERT_EQ(r.status, 0) << r.err;
  // The explain block of one pod: from its line to the next pod's.
  auto block = [&](const std::string& pod) {
    auto from = r.out.find("\n" + pod + " ");
    EXPECT_NE(from, std::string::npos) << pod << "\n" << r.out;
    if (from == std::string::npos)
      return std::string{};
    auto to = r.out.find("\n", from + 1);
    while (to != std::string::npos && r.out.compare(to + 1, 4, "    ") == 0)
      to = r.out.find("\n", to + 1);
    return r.out.substr(from + 1, to == std::string::npos ? std::string::npos
                                                          : to - from - 1);
  };
  auto spread_score = [](const std::string& text, const std::string& node) {
    auto at = text.find("score  " + node + ":");
    if (at == std::string::npos)
      return std::string{"<no score>"};
    auto line = text.substr(at, text.find('\n', at) - at);
    auto pts = line.find("PodTopologySpread ");
    if (pts == std::string::npos)
      return std::string{"<none>"};
    pts += std::string{"PodTopologySpread "}.size();
    return line.substr(pts, line.find_first_of(",)", pts) - pts);
  };
  for (const char* pod : {"svc/front-2", "rs/web-2", "sts/db-2"}) {
    SCOPED_TRACE(pod);
    std::string b = block(pod);
    EXPECT_NE(b.find("Scheduled  n3"), std::string::npos) << b;
    EXPECT_EQ(spread_score(b, "n1"), "50") << b;
    EXPECT_EQ(spread_score(b, "n2"), "75") << b;
    EXPECT_EQ(spread_score(b, "n3"), "100") << b;
  }
  std::string lone = block("none/lone-2");
  for (const char* node : {"n1", "n2", "n3"})
    EXPECT_EQ(spread_score(lone, node), "<none>") << lone;
}

TEST(cli, simulate_reports_invalid_input_with_file_doc_and_path) {
  struct test_case {
    std::string file;
    std::string want_after_file;
  };
  const std::vector<test_case> cases = {
    {"test/cli/bad-quantity.yaml",
     ":doc 2: spec.containers[0].resources.requests.cpu: invalid quantity "
     "\"12x\""},
    {"test/cli/bad-volume.yaml",
     ":doc 1: spec.capacity.storage: must be greater than or equal to 0"},
    {"test/cli/contradicting-priority.yaml",
     ": pod default/confused: spec.priority: 1000 contradicts PriorityClass "
     "batch, whose value is 100"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.file);
    std::string file = source(tc.file);
    auto r = run("simulate -f " + file);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "tessera simulate: " + file + tc.want_after_file + "\n");
    EXPECT_TRUE(r.out.empty());
  }
}

// Files that cannot be read exit 2 naming the file and the problem, as
// kubectl refuses them; the limits apply to configuration files too.
TEST(cli, bad_files_exit_2_naming_file_and_problem) {
  const std::string dir = testing::TempDir() + "tessera_bad_files_"
                          + std::to_string(getpid()) + "/";
  std::filesystem::create_directories(dir + "empty");
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream{dir + name, std::ios::binary} << text;
    return dir + name;
  };
  const std::string node = slurp(source("test/cli/packing-cluster.yaml"));
  std::string utf16{"\xFF\xFE"};
  for (char c : node)
    utf16 += std::string{c, '\0'};
  struct test_case {
    std::string name;
    std::string args;
    std::string want_stderr;
  };
  const std::vector<test_case> cases{
    {"24 MB of nested JSON",
     "-f " + write("deep.json", std::string(std::size_t{24} << 20, '[')),
     dir + "deep.json: line 1, column 65: nesting deeper than 64 levels"},
    {"nested flow YAML",
     "-f " + write("deep.yaml", "kind: Pod\nspec: " + std::string(200, '{')),
     dir + "deep.yaml: line 2, column 71: nesting deeper than 64 levels"},
    {"UTF-16", "-f " + write("utf16.yaml", utf16),
     dir
       + "utf16.yaml: encoding not supported: UTF-16 (byte order mark); "
         "only UTF-8 is read"},
    {"YAML key twice",
     "-f "
       + write("dup.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n"
                           "  name: n1\n  name: n2\n"),
     dir
       + "dup.yaml:doc 1: metadata: line 5: mapping key \"name\" already "
         "defined at line 4"},
    {"JSON key twice",
     "-f "
       + write("dup.json", "{\"apiVersion\": \"v1\", \"kind\": \"Node\",\n"
                           " \"kind\": \"Pod\"}"),
     dir + "dup.json: line 2: mapping key \"kind\" already defined at line 1"},
    {"a directory without manifests", "-f " + dir + "empty",
     dir + "empty: no .json, .yaml or .yml file in the directory"},
    {"configuration in UTF-16",
     "--config " + write("config.yaml", std::string{"\xFE\xFF\0a", 4})
       + " -f x",
     dir + "config.yaml: encoding not supported: UTF-16 (byte order mark)"},
    {"configuration nested too deep",
     "--config " + write("deep-config.yaml", "parallelism: " + nested_flow(80))
       + " -f x",
     dir
       + "deep-config.yaml: line 1, column 78: nesting deeper than 64 "
         "levels"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto r = run("simulate " + tc.args);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(tc.want_stderr), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  std::filesystem::remove_all(dir);
}

// `-f DIRECTORY` reads the directory's .json, .yaml and .yml files in name
// order (other files are left alone), and `-R` its subdirectories too: the
// result is that of naming the files one by one.
TEST(cli, simulate_reads_every_manifest_of_a_directory) {
  const std::string dir = testing::TempDir() + "tessera_manifest_dir_"
                          + std::to_string(getpid()) + "/";
  std::filesystem::create_directories(dir + "more");
  const std::string example = slurp(source("examples/resources.yaml"));
  const auto split = example.find("---\napiVersion: v1\nkind: Pod");
  ASSERT_NE(split, std::string::npos);
  std::ofstream{dir + "a-nodes.yaml"} << example.substr(0, split);
  std::ofstream{dir + "more/b-pods.yml"} << example.substr(split);
  std::ofstream{dir + "notes.txt"} << "not a manifest: {{{";
  std::ofstream{dir + "bom.json", std::ios::binary}
    << "\xEF\xBB\xBF{\"apiVersion\": \"v1\", \"kind\": \"List\", "
       "\"items\": []}";
  // One shard and one cycle in flight: with more, which of two equally good
  // nodes a pod gets can depend on timing.
  const std::string simulate = "simulate -o text --shards 1 "
                               "--max-inflight-cycles 1 --seed 0 ";
  auto whole = run(simulate + "-f " + source("examples/resources.yaml"));
  ASSERT_EQ(whole.status, 0) << whole.err;
  auto one_by_one = run(simulate + "-f " + dir + "a-nodes.yaml -f " + dir
                        + "more/b-pods.yml");
  auto flat = run(simulate + "-f " + dir + " -f " + dir + "more");
  auto recursive = run(simulate + "-R -f " + dir);
  for (const auto* r : {&one_by_one, &flat, &recursive}) {
    EXPECT_EQ(r->status, 0) << r->err;
    EXPECT_EQ(r->out, whole.out);
  }
  EXPECT_NE(whole.out.find("Scheduled"), std::string::npos) << whole.out;
  // Without -R the subdirectory's pods are not read.
  auto nodes_only = run("simulate -o text -f " + dir);
  EXPECT_EQ(nodes_only.status, 0) << nodes_only.err;
  EXPECT_EQ(nodes_only.out.find("Scheduled"), std::string::npos)
    << nodes_only.out;
  std::filesystem::remove_all(dir);
}

TEST(cli, simulate_takes_every_storage_kind_as_cluster_state) {
  auto r = run("simulate -o text -f " + source("test/cli/storage-objects.yaml")
               + " --shards 1 --max-inflight-cycles 1 --seed 0");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("not used by the scheduler"), std::string::npos)
    << r.err;
  EXPECT_EQ(r.err.find("ignoring object"), std::string::npos) << r.err;
  auto web = r.out.find("default/web");
  ASSERT_NE(web, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("n1", web), std::string::npos) << r.out;
}

TEST(cli, simulate_keeps_a_given_priority) {
  // Without a class, spec.priority 1000 is kept, so the pod preempts the
  // priority-0 pod that fills the only node.
  auto json = run("simulate -f " + source("test/cli/given-priority.yaml")
                  + " --shards 1 --max-inflight-cycles 1 --seed 0");
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_NE(json.out.find(R"("victims": ["default/filler"])"),
            std::string::npos)
    << json.out;
}

TEST(cli, simulate_refuses_pods_with_resource_claims) {
  auto r = run("simulate -o text -f " + source("test/cli/resource-claim.yaml")
               + " --shards 1 --max-inflight-cycles 1 --seed 0");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("0/1 nodes are available: pod has resource claim "
                       "\"gpu\" (ResourceClaimTemplate \"one-gpu\"): "
                       "tessera does not allocate dynamic resources yet."),
            std::string::npos)
    << r.out;
  auto web = r.out.find("default/web");
  ASSERT_NE(web, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("n1", web), std::string::npos)
    << "a pod without claims is placed as usual: " << r.out;
}

TEST(cli, simulate_places_pods_only_where_their_features_are_declared) {
  auto r
    = run("simulate -o text -f " + source("test/cli/declared-features.yaml")
          + " --shards 1 --max-inflight-cycles 1 --seed 0");
  ASSERT_EQ(r.status, 0) << r.err;
  auto line_of = [&](const std::string& pod) {
    auto at = r.out.find("default/" + pod);
    if (at == std::string::npos)
      return std::string{};
    return r.out.substr(at, r.out.find('\n', at) - at);
  };
  EXPECT_NE(line_of("restarter").find("new"), std::string::npos) << r.out;
  EXPECT_NE(line_of("plain").find("old"), std::string::npos) << r.out;
  EXPECT_EQ(line_of("userns-host-net").find("new"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0/2 nodes are available: 2 node(s) didn't match "
                       "Pod's required features."),
            std::string::npos)
    << r.out;
}

TEST(cli, same_seed_same_output_and_seeds_break_ties) {
  // Four equal nodes: the first pod's node is a pure tie-break.
  std::string file = source("test/cli/packing-cluster.yaml");
  auto once = run("simulate -f " + file
                  + " --shards 1 --max-inflight-cycles 1 --seed 11");
  auto again = run("simulate -f " + file
                   + " --shards 1 --max-inflight-cycles 1 --seed 11");
  ASSERT_EQ(once.status, 0) << once.err;
  EXPECT_EQ(once.out, again.out);
  std::set<std::string> first_nodes;
  for (int seed = 0; seed < 12; ++seed) {
    auto r = run("simulate -o text -f " + file
                 + " --shards 1 --max-inflight-cycles 1 --seed "
                 + std::to_string(seed));
    ASSERT_EQ(r.status, 0) << r.err;
    auto line = r.out.substr(r.out.find("default/svc-1"));
    first_nodes.insert(line.substr(0, line.find('\n')));
  }
  EXPECT_GT(first_nodes.size(), 1u) << "ties must not always pick one node";
}

TEST(cli, stats_reports_throughput_on_stderr_only) {
  std::string file = source("examples/preemption.yaml");
  auto plain = run("simulate -f " + file);
  auto with_stats = run("simulate --stats -f " + file + " --shards 2");
  ASSERT_EQ(with_stats.status, 0) << with_stats.err;
  EXPECT_EQ(with_stats.out, plain.out) << "--stats must not change stdout";
  auto at = with_stats.err.find("stats: shards=2 ");
  ASSERT_NE(at, std::string::npos) << with_stats.err;
  // preemption.yaml has two pending pods; one is placed (by preemption).
  EXPECT_NE(with_stats.err.find(" pods=2 scheduled=1 "), std::string::npos)
    << with_stats.err;
  EXPECT_NE(with_stats.err.find(" conflicts="), std::string::npos);
  EXPECT_NE(with_stats.err.find(" pods_per_s="), std::string::npos);
  EXPECT_NE(with_stats.err.find(" cpu_seconds="), std::string::npos);
  EXPECT_NE(with_stats.err.find(" cores="), std::string::npos);
}

// Counts the distinct nodes of the Scheduled pods whose name starts with
// `prefix` in simulate's text output.
std::size_t nodes_used(const std::string& text, const std::string& prefix) {
  std::set<std::string> nodes;
  std::istringstream lines{text};
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream cells{line};
    std::string pod, status, node;
    cells >> pod >> status >> node;
    if (pod.rfind("default/" + prefix, 0) == 0 && status == "Scheduled")
      nodes.insert(node);
  }
  return nodes.size();
}

TEST(cli, configuration_files_change_placements) {
  std::string cluster = source("test/cli/packing-cluster.yaml");
  std::string flags
    = " -o text --shards 1 --max-inflight-cycles 1 -f " + cluster;
  auto defaults = run("simulate" + flags);
  ASSERT_EQ(defaults.status, 0) << defaults.err;
  // LeastAllocated spreads the two services over empty nodes.
  EXPECT_EQ(nodes_used(defaults.out, "svc-"), 2u) << defaults.out;
  // No profile handles batch-scheduler by default.
  EXPECT_NE(
    defaults.out.find("no profile for schedulerName \"batch-scheduler\""),
    std::string::npos);

  auto packing = run("simulate --config "
                     + source("examples/config/bin-packing.yaml") + flags);
  ASSERT_EQ(packing.status, 0) << packing.err;
  EXPECT_EQ(nodes_used(packing.out, "svc-"), 1u) << packing.out;

  auto batch = run("simulate --config "
                   + source("examples/config/batch-profile.yaml") + flags);
  ASSERT_EQ(batch.status, 0) << batch.err;
  EXPECT_EQ(nodes_used(batch.out, "svc-"), 2u) << batch.out;
  EXPECT_EQ(nodes_used(batch.out, "job-"), 1u) << batch.out;
}

TEST(cli, write_config_to_writes_both_documents) {
  std::string out = testing::TempDir() + "tessera_effective.yaml";
  auto r = run("simulate --write-config-to " + out + " --shards 3");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string written = slurp(out);
  EXPECT_NE(written.find("kind: KubeSchedulerConfiguration"),
            std::string::npos);
  EXPECT_NE(written.find("kind: TesseraConfiguration"), std::string::npos);
  EXPECT_NE(written.find("shards: 3"), std::string::npos) << written;
  // The written file loads back and schedules.
  auto back = run("simulate --config " + out + " -f "
                  + source("examples/resources.yaml"));
  EXPECT_EQ(back.status, 0) << back.err;
}

TEST(cli, bad_config_is_rejected_with_field_paths) {
  std::string file = testing::TempDir() + "tessera_bad_config.yaml";
  std::ofstream{file} << "apiVersion: kubescheduler.config.k8s.io/v1\n"
                         "kind: KubeSchedulerConfiguration\n"
                         "parallelism: 0\n"
                         "percentageOfNodesToScore: 101\n";
  auto r = run("simulate --config " + file + " -f x");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("parallelism: Invalid value: 0"), std::string::npos)
    << r.err;
  EXPECT_NE(r.err.find("percentageOfNodesToScore: Invalid value: 101"),
            std::string::npos)
    << r.err;
}

} // namespace
