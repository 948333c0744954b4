// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/kubeconfig.hpp"
#include "support/base64.hpp"
#include "test/support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

namespace tessera::io {
namespace {

using test::temp_dir;

// A self-signed test certificate (P-256) and its key.
const std::string ca_pem
  = "-----BEGIN CERTIFICATE-----\n"
    "MIIBezCCASGgAwIBAgIUQ9H/93bQ0/zD49hapJd/ZSepBTYwCgYIKoZIzj0EAwIw\n"
    "EjEQMA4GA1UEAwwHdGVzdC1jYTAgFw0yNjExMjYyMzU3NTBaGA8yMTI2MTEwMjIz\n"
    "NTc1MFowEjEQMA4GA1UEAwwHdGVzdC1jYTBZMBMGByqGSM49AgEGCCqGSM49AwEH\n"
    "A0IABF2fLdM46BgTVvqA6xh3e5gWaNXal2WmLG7XE1VmgDLZUmhRwGrJ8/ls/5wS\n"
    "B5LOndckbk1ZEFQzt+glEPMU7lSjUzBRMB0GA1UdDgQWBBQvyIweeCoPGzhEUxsQ\n"
    "Q6cVX5GdjDAfBgNVHSMEGDAWgBQvyIweeCoPGzhEUxsQQ6cVX5GdjDAPBgNVHRMB\n"
    "Af8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQCMRUWfRdTuIZeuYGHF+dAH1CbT\n"
    "UJOCoxU71INAwGF/LAIgGUjWNzj42/81es/TaQsbTqpebOxtprmNdLTPmUwVLbI=\n"
    "-----END CERTIFICATE-----\n";
const std::string key_pem
  = "-----BEGIN PRIVATE KEY-----\n"
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQggRab4lgZZ2TFTGgw\n"
    "Om6JjKGqT6564Pom9N0guwLj2NmhRANCAARdny3TOOgYE1b6gOsYd3uYFmjV2pdl\n"
    "pixu1xNVZoAy2VJoUcBqyfP5bP+cEgeSzp3XJG5NWRBUM7foJRDzFO5U\n"
    "-----END PRIVATE KEY-----\n";

std::string basic_config(const std::string& user_body,
                         const std::string& cluster_extra = "") {
  return "apiVersion: v1\nkind: Config\nclusters:\n- name: c1\n  cluster:\n"
         "    server: https://10.0.0.1:6443\n"
         + cluster_extra + "users:\n- name: u1\n  user:\n" + user_body
         + "contexts:\n- name: ctx\n  context: {cluster: c1, user: u1, "
           "namespace: team}\ncurrent-context: ctx\n";
}

// Environment for load_rest_config: a static map per test.
std::map<std::string, std::string>& fake_env() {
  static std::map<std::string, std::string> env;
  return env;
}
std::optional<std::string> fake_getenv(const char* name) {
  auto it = fake_env().find(name);
  if (it == fake_env().end())
    return std::nullopt;
  return it->second;
}

TEST(Kubeconfig, ResolvesTheCurrentContext) {
  temp_dir dir;
  dir.write("pki/ca.crt", ca_pem);
  std::string cert_b64 = base64_encode(ca_pem);
  std::string key_b64 = base64_encode(key_pem);
  std::string text = basic_config(
    "    token: s3cret\n    client-certificate-data: " + cert_b64
      + "\n    client-key-data: " + key_b64 + "\n",
    "    certificate-authority: pki/ca.crt\n    tls-server-name: api.local\n");
  std::string path = dir.write("config", text);
  auto cfg = parse_kubeconfig(text, path);
  ASSERT_TRUE(cfg) << cfg.err().message;
  EXPECT_EQ(cfg->server, "https://10.0.0.1:6443");
  EXPECT_EQ(cfg->url.host, "10.0.0.1");
  EXPECT_EQ(cfg->url.port, 6443);
  EXPECT_TRUE(cfg->tls.enabled);
  EXPECT_EQ(cfg->tls.ca_pem, ca_pem);
  EXPECT_EQ(cfg->tls.server_name, "api.local");
  EXPECT_EQ(cfg->tls.client_cert_pem, ca_pem);
  EXPECT_EQ(cfg->tls.client_key_pem, key_pem);
  EXPECT_EQ(cfg->token, "s3cret");
  EXPECT_EQ(cfg->ns, "team");
  EXPECT_NE(cfg->origin.find("context ctx"), std::string::npos);
}

TEST(Kubeconfig, ExecAndTokenFile) {
  temp_dir dir;
  dir.write("tok", "abc\n");
  std::string text = basic_config("    tokenFile: tok\n");
  auto cfg = parse_kubeconfig(text, dir.path() + "/config");
  ASSERT_TRUE(cfg) << cfg.err().message;
  EXPECT_EQ(cfg->token_file, dir.path() + "/tok");

  text = basic_config("    exec:\n      apiVersion: "
                      "client.authentication.k8s.io/v1\n      command: "
                      "./bin/cred\n      args: [get, --x]\n      env:\n      "
                      "- {name: A, value: b}\n      interactiveMode: Never\n"
                      "      provideClusterInfo: true\n");
  cfg = parse_kubeconfig(text, dir.path() + "/config");
  ASSERT_TRUE(cfg) << cfg.err().message;
  ASSERT_TRUE(cfg->exec);
  EXPECT_EQ(cfg->exec->command, dir.path() + "/bin/cred");
  EXPECT_EQ(cfg->exec->args, (std::vector<std::string>{"get", "--x"}));
  ASSERT_EQ(cfg->exec->env.size(), 1u);
  EXPECT_EQ(cfg->exec->env[0].first, "A");
  EXPECT_EQ(cfg->exec->interactive_mode, "Never");
  EXPECT_TRUE(cfg->exec->provide_cluster_info);
}

TEST(Kubeconfig, ErrorsNameTheFileTheFieldAndTheProblem) {
  struct test_case {
    std::string name;
    std::string text;
    std::string context;
    /// Every fragment must appear in the message.
    std::vector<std::string> expected;
  };
  std::string exec_v1 = "    exec:\n      apiVersion: "
                        "client.authentication.k8s.io/v1\n      command: x\n";
  std::vector<test_case> cases = {
    {"yaml syntax",
     "clusters: [\n  - name: a\n   bad",
     "",
     {"line ", "column"}},
    {"not a mapping", "- a\n- b\n", "", {"must be a mapping"}},
    // As kubectl, which refuses a key given twice rather than pick one.
    {"a key twice",
     "clusters:\n- name: a\n  cluster: {server: http://x}\n  name: b\n",
     "",
     {"line 4", "clusters[0]", "key \"name\" already defined at line 2"}},
    {"nesting too deep",
     "clusters: " + std::string(100000, '['),
     "",
     {"line 1", "nesting deeper than"}},
    {"wrong kind", "kind: Pod\n", "", {"kind", "must be Config"}},
    {"missing cluster",
     "clusters: []\nusers: []\ncontexts:\n- name: c\n  context: {cluster: "
     "nope}\ncurrent-context: c\n",
     "",
     {"contexts[0].context.cluster", "cluster \"nope\" not found"}},
    {"missing user",
     "clusters:\n- name: a\n  cluster: {server: http://x}\ncontexts:\n- "
     "name: c\n  context: {cluster: a, user: who}\ncurrent-context: c\n",
     "",
     {"contexts[0].context.user", "user \"who\" not found"}},
    {"no current context",
     "clusters:\n- name: a\n  cluster: {server: http://x}\n",
     "",
     {"current-context", "not set"}},
    {"unknown --context",
     basic_config("    token: t\n"),
     "other",
     {"--context", "context \"other\" not found"}},
    {"bad base64",
     basic_config("    token: t\n", "    certificate-authority-data: '%%%'\n"),
     "",
     {"clusters[0].cluster.certificate-authority-data", "invalid base64"}},
    {"ca data not PEM",
     basic_config("    token: t\n", "    certificate-authority-data: "
                                      + base64_encode("not a cert") + "\n"),
     "",
     {"clusters[0].cluster.certificate-authority-data",
      "does not hold a PEM certificate"}},
    {"client certificate data not PEM",
     basic_config("    client-certificate-data: " + base64_encode("CERT")
                  + "\n    client-key-data: " + base64_encode(key_pem) + "\n"),
     "",
     {"users[0].user.client-certificate-data",
      "does not hold a PEM certificate"}},
    {"client key data not PEM",
     basic_config("    client-certificate-data: " + base64_encode(ca_pem)
                  + "\n    client-key-data: " + base64_encode(ca_pem) + "\n"),
     "",
     {"users[0].user.client-key-data", "does not hold a PEM private key"}},
    {"ca file missing",
     basic_config("    token: t\n",
                  "    certificate-authority: /no/such/ca.crt\n"),
     "",
     {"clusters[0].cluster.certificate-authority", "/no/such/ca.crt"}},
    {"ca and insecure",
     basic_config("    token: t\n",
                  "    certificate-authority-data: " + base64_encode(ca_pem)
                    + "\n    insecure-skip-tls-verify: true\n"),
     "",
     {"clusters[0].cluster", "cannot both be set"}},
    {"bad bool",
     basic_config("    token: t\n", "    insecure-skip-tls-verify: maybe\n"),
     "",
     {"clusters[0].cluster.insecure-skip-tls-verify", "must be true or false"}},
    {"bad server",
     "clusters:\n- name: a\n  cluster: {server: 'ftp://x'}\ncontexts:\n- "
     "name: c\n  context: {cluster: a}\ncurrent-context: c\n",
     "",
     {"clusters[0].cluster.server", "http://"}},
    {"key without cert",
     basic_config("    client-key-data: " + base64_encode(key_pem) + "\n"),
     "",
     {"users[0].user", "client-key is set without client-certificate"}},
    {"basic auth",
     basic_config("    username: admin\n    password: x\n"),
     "",
     {"users[0].user.username", "basic authentication"}},
    {"auth provider",
     basic_config("    auth-provider: {name: gcp}\n"),
     "",
     {"users[0].user.auth-provider", "not supported"}},
    {"exec without interactiveMode",
     basic_config(exec_v1),
     "",
     {"users[0].user.exec.interactiveMode", "required"}},
    {"exec always interactive",
     basic_config(exec_v1 + "      interactiveMode: Always\n"),
     "",
     {"users[0].user.exec.interactiveMode", "terminal"}},
    {"exec bad api version",
     basic_config("    exec:\n      apiVersion: v0\n      command: x\n"),
     "",
     {"users[0].user.exec.apiVersion", "must be"}},
    {"token and exec",
     basic_config("    token: t\n" + exec_v1
                  + "      interactiveMode: Never\n"),
     "",
     {"users[0].user", "more than one authentication method"}},
    {"missing token file",
     basic_config("    tokenFile: /no/such/token\n"),
     "",
     {"users[0].user.tokenFile", "/no/such/token"}},
    // An endless file is refused, not read until memory runs out.
    {"ca file without end",
     basic_config("    token: t\n", "    certificate-authority: /dev/zero\n"),
     "",
     {"clusters[0].cluster.certificate-authority", "/dev/zero",
      "larger than 16 MiB"}},
    {"name missing",
     "clusters:\n- cluster: {server: http://x}\n",
     "",
     {"clusters[0].name", "must not be empty"}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto cfg = parse_kubeconfig(tc.text, "/etc/kube/config", tc.context);
    ASSERT_FALSE(cfg);
    EXPECT_EQ(cfg.err().code, ec::invalid_input);
    EXPECT_EQ(cfg.err().message.rfind("/etc/kube/config", 0), 0u)
      << cfg.err().message;
    for (const auto& frag : tc.expected)
      EXPECT_NE(cfg.err().message.find(frag), std::string::npos)
        << "missing \"" << frag << "\" in: " << cfg.err().message;
  }
}

TEST(Kubeconfig, SourcesInOrder) {
  temp_dir dir;
  std::string a = dir.write(
    "a", "clusters:\n- name: shared\n  cluster: {server: http://a:1}\n"
         "- name: only-a\n  cluster: {server: http://a:2}\ncontexts:\n"
         "- name: one\n  context: {cluster: shared}\ncurrent-context: one\n");
  std::string b = dir.write(
    "b", "clusters:\n- name: shared\n  cluster: {server: http://b:1}\n"
         "contexts:\n- name: one\n  context: {cluster: only-a}\n"
         "- name: two\n  context: {cluster: shared}\n"
         "current-context: two\n");
  kubeconfig_options o;
  o.getenv = fake_getenv;
  fake_env().clear();

  // Nothing at all.
  auto cfg = load_rest_config(o);
  ASSERT_FALSE(cfg);
  EXPECT_NE(cfg.err().message.find("--master"), std::string::npos);

  // $KUBECONFIG: first definition and first current-context win; missing
  // files are skipped.
  fake_env()["KUBECONFIG"] = a + ":" + dir.path() + "/missing:" + b;
  cfg = load_rest_config(o);
  ASSERT_TRUE(cfg) << cfg.err().message;
  EXPECT_EQ(cfg->server, "http://a:1");
  o.context = "two";
  cfg = load_rest_config(o);
  ASSERT_TRUE(cfg) << cfg.err().message;
  EXPECT_EQ(cfg->server, "http://a:1"); // "shared" from a
  o.context.clear();

  // --master alone beats $KUBECONFIG (kube-scheduler's rule).
  o.master = "http://127.0.0.1:8080";
  cfg = load_rest_config(o);
  ASSERT_TRUE(cfg) << cfg.err().message;
  EXPECT_EQ(cfg->server, "http://127.0.0.1:8080");
  EXPECT_EQ(cfg->origin, "--master");

  // --kubeconfig wins, --master overrides its server.
  o.kubeconfig = b;
  cfg = load_rest_config(o);
  ASSERT_TRUE(cfg) << cfg.err().message;
  EXPECT_EQ(cfg->server, "http://127.0.0.1:8080");
  o.master.clear();
  cfg = load_rest_config(o);
  ASSERT_TRUE(cfg) << cfg.err().message;
  EXPECT_EQ(cfg->server, "http://b:1");

  // A missing explicit file names it.
  o.kubeconfig = dir.path() + "/nope";
  cfg = load_rest_config(o);
  ASSERT_FALSE(cfg);
  EXPECT_EQ(cfg.err().message.rfind(dir.path() + "/nope", 0), 0u);

  // ~/.kube/config last.
  o.kubeconfig.clear();
  fake_env().clear();
  dir.write("home/.kube/config", std::string{"clusters:\n- name: h\n  "
                                             "cluster: {server: http://h:9}\n"
                                             "contexts:\n- name: h\n  "
                                             "context: {cluster: h}\n"
                                             "current-context: h\n"});
  fake_env()["HOME"] = dir.path() + "/home";
  cfg = load_rest_config(o);
  ASSERT_TRUE(cfg) << cfg.err().message;
  EXPECT_EQ(cfg->server, "http://h:9");
}

TEST(Kubeconfig, InCluster) {
  temp_dir dir;
  kubeconfig_options o;
  o.getenv = fake_getenv;
  o.in_cluster.token = dir.write("sa/token", "tok\n");
  o.in_cluster.ca = dir.write("sa/ca.crt", ca_pem);
  o.in_cluster.ns = dir.write("sa/namespace", "kube-system\n");
  fake_env().clear();
  fake_env()["KUBERNETES_SERVICE_HOST"] = "fd00::1";
  fake_env()["KUBERNETES_SERVICE_PORT"] = "443";
  auto cfg = load_rest_config(o);
  ASSERT_TRUE(cfg) << cfg.err().message;
  EXPECT_EQ(cfg->server, "https://[fd00::1]:443");
  EXPECT_EQ(cfg->url.host, "fd00::1");
  EXPECT_EQ(cfg->tls.ca_pem, ca_pem);
  EXPECT_EQ(cfg->token_file, o.in_cluster.token);
  EXPECT_EQ(cfg->ns, "kube-system");
  EXPECT_EQ(cfg->origin, "in-cluster");

  dir.write("sa/ca.crt", "garbage");
  auto bad_ca = in_cluster_config(o);
  ASSERT_FALSE(bad_ca);
  EXPECT_NE(bad_ca.err().message.find("does not hold a PEM certificate"),
            std::string::npos);
  dir.write("sa/ca.crt", ca_pem);

  fake_env().erase("KUBERNETES_SERVICE_PORT");
  auto bad = in_cluster_config(o);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.err().message.find("KUBERNETES_SERVICE_PORT"),
            std::string::npos);
}

} // namespace
} // namespace tessera::io
