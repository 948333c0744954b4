// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `rest_config` and its sources: where the API server is and how to
/// authenticate to it, resolved from kubeconfig files, the in-cluster
/// service account, or `--master` (docs/apiserver-protocol.md §7).
///
/// Which source, in order (documented in io/README.md):
///   1. `--kubeconfig` (or clientConnection.kubeconfig): that file; a
///      `--master` overrides its cluster's server.
///   2. `--master` alone: that URL, no credentials (as kube-scheduler).
///   3. `$KUBECONFIG`: colon-separated files merged as kubectl does (the
///      first file defining a cluster / user / context name wins, the first
///      `current-context` wins; listed files that do not exist are skipped).
///   4. In-cluster: KUBERNETES_SERVICE_HOST/PORT with the service account's
///      token and CA.
///   5. `~/.kube/config` when it exists.
/// `--context` picks a context instead of current-context.
///
/// Every problem is an `ec::invalid_input` error that names the file, the
/// field (`users[0].user.client-certificate`) and the problem, so `tessera
/// run` can exit 2 with it. Certificates and keys given as files are read
/// here (relative paths are relative to the kubeconfig's directory);
/// `tokenFile` and `exec` stay live (see credentials.hpp).
#pragma once

#include "io/http_client.hpp"
#include "support/error.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::io {

/// A kubeconfig `user.exec` credential plugin.
struct exec_config {
  /// client.authentication.k8s.io/v1 or v1beta1.
  std::string api_version;
  /// The program; a relative path containing '/' is already resolved
  /// against the kubeconfig's directory, a bare name is looked up in PATH.
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  /// Never, IfAvailable or Always (v1 requires it; v1beta1 defaults to
  /// IfAvailable). tessera never has a terminal: Always is refused.
  std::string interactive_mode = "IfAvailable";
  bool provide_cluster_info = false;
  std::string install_hint;
};

/// Everything needed to talk to one API server.
struct rest_config {
  /// `https://10.0.0.1:6443`.
  std::string server;
  server_url url;
  /// CA, skip-verify, server name and client certificate (PEM contents).
  tls_options tls;
  /// A static bearer token.
  std::string token;
  /// A bearer token file, re-read while running (takes precedence over
  /// `token`).
  std::string token_file;
  std::optional<exec_config> exec;
  /// The context's namespace ("" = unset).
  std::string ns;
  /// Where this came from, for logs: `kubeconfig /x (context c)`,
  /// `in-cluster`, `--master`.
  std::string origin;
};

/// The default service-account paths of an in-cluster pod.
struct in_cluster_paths {
  std::string token = "/var/run/secrets/kubernetes.io/serviceaccount/token";
  std::string ca = "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt";
  std::string ns = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";
};

/// Inputs of the resolution; the environment is injectable for tests.
struct kubeconfig_options {
  /// `--kubeconfig` (or clientConnection.kubeconfig).
  std::string kubeconfig;
  /// `--master`.
  std::string master;
  /// `--context`.
  std::string context;
  /// Environment lookups; default: getenv. Return nullopt when unset.
  std::optional<std::string> (*getenv)(const char*) = nullptr;
  in_cluster_paths in_cluster;
};

/// Resolves the configuration (see the file comment).
[[nodiscard]] expected<rest_config>
load_rest_config(const kubeconfig_options& options);

/// Parses one kubeconfig's text and resolves `context` (empty = its
/// current-context). `path` names the file in errors and anchors relative
/// paths.
[[nodiscard]] expected<rest_config>
parse_kubeconfig(std::string_view text, const std::string& path,
                 const std::string& context = {});

/// The in-cluster configuration (docs/apiserver-protocol.md §7.2).
[[nodiscard]] expected<rest_config>
in_cluster_config(const kubeconfig_options& options);

} // namespace tessera::io
