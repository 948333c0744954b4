// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/kubeconfig.hpp"

#include "io/pem_check.hpp"
#include "model/document_file.hpp"
#include "support/base64.hpp"

#include <yaml-cpp/yaml.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace tessera::io {

namespace {

namespace fs = std::filesystem;

std::optional<std::string> real_getenv(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr)
    return std::nullopt;
  return std::string{v};
}

// Kubeconfigs, certificates, keys and tokens are kilobytes; a path that
// names /dev/zero or a huge file must not exhaust memory.
constexpr std::size_t max_file_bytes = std::size_t{16} << 20;

expected<std::string> read_file(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  if (!in)
    return make_error(ec::invalid_input, "cannot read file \"" + path
                                           + "\": " + std::strerror(errno));
  std::string out;
  char chunk[65536];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    out.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (out.size() > max_file_bytes)
      return make_error(ec::invalid_input,
                        "file \"" + path + "\" is larger than 16 MiB");
  }
  if (in.bad())
    return make_error(ec::invalid_input, "cannot read file \"" + path
                                           + "\": " + std::strerror(errno));
  return out;
}

// A located problem: "<file>: <field>: <problem>".
error problem(const std::string& file, const std::string& field,
              const std::string& what) {
  std::string msg = file;
  if (!field.empty())
    msg += ": " + field;
  return make_error(ec::invalid_input, msg + ": " + what);
}

/// One named entry (cluster, user or context) with where it was defined.
struct entry {
  std::string name;
  YAML::Node body;
  /// "clusters[2].cluster"
  std::string field;
  std::string file;
};

struct parsed_file {
  std::string path;
  std::vector<entry> clusters;
  std::vector<entry> users;
  std::vector<entry> contexts;
  std::string current_context;
};

std::string scalar_text(const YAML::Node& n) {
  return n.IsScalar() ? n.Scalar() : std::string{};
}

// Reads an optional string field; a non-scalar is an error.
expected<std::string> get_string(const YAML::Node& map, const char* key,
                                 const std::string& file,
                                 const std::string& field) {
  YAML::Node v = map[key];
  if (!v.IsDefined() || v.IsNull())
    return std::string{};
  if (!v.IsScalar())
    return problem(file, field + "." + key, "must be a string");
  return v.Scalar();
}

expected<bool> get_bool(const YAML::Node& map, const char* key,
                        const std::string& file, const std::string& field) {
  YAML::Node v = map[key];
  if (!v.IsDefined() || v.IsNull())
    return false;
  std::string s = scalar_text(v);
  if (s == "true" || s == "True" || s == "TRUE")
    return true;
  if (s == "false" || s == "False" || s == "FALSE")
    return false;
  return problem(file, field + "." + key,
                 "must be true or false, not \"" + s + "\"");
}

error check_map(const YAML::Node& n, const std::string& file,
                const std::string& field) {
  if (n.IsDefined() && !n.IsNull() && !n.IsMap())
    return problem(file, field, "must be a mapping");
  return {};
}

error read_entries(const YAML::Node& root, const char* list, const char* body,
                   const std::string& file, std::vector<entry>& out) {
  YAML::Node seq = root[list];
  if (!seq.IsDefined() || seq.IsNull())
    return {};
  if (!seq.IsSequence())
    return problem(file, list, "must be a list");
  for (std::size_t i = 0; i < seq.size(); ++i) {
    std::string at = std::string{list} + "[" + std::to_string(i) + "]";
    YAML::Node item = seq[i];
    if (!item.IsMap())
      return problem(file, at, "must be a mapping");
    auto name = get_string(item, "name", file, at);
    if (!name)
      return name.err();
    if (name->empty())
      return problem(file, at + ".name", "must not be empty");
    YAML::Node b = item[body];
    std::string body_field = at + "." + body;
    if (auto e = check_map(b, file, body_field))
      return e;
    out.push_back({*name, b.IsMap() ? b : YAML::Node{YAML::NodeType::Map},
                   body_field, file});
  }
  return {};
}

expected<parsed_file> parse_file(std::string_view text,
                                 const std::string& path) {
  parsed_file pf;
  pf.path = path;
  // The checks every other file the command line takes goes through: a
  // deep nesting fails before yaml-cpp builds it, and a key given twice is
  // refused as kubectl refuses it instead of silently taking one value.
  for (auto check : {model::check_document_text, model::check_duplicate_keys})
    if (error e = check(text))
      return problem(path, "", e.message);
  YAML::Node root;
  try {
    root = YAML::Load(std::string{text});
  } catch (const YAML::Exception& e) {
    return problem(path,
                   "line " + std::to_string(e.mark.line + 1) + ", column "
                     + std::to_string(e.mark.column + 1),
                   e.msg);
  }
  if (!root.IsDefined() || root.IsNull())
    return pf; // an empty file defines nothing
  if (!root.IsMap())
    return problem(path, "",
                   "not a kubeconfig: the document must be a "
                   "mapping");
  try {
    auto kind = get_string(root, "kind", path, "");
    if (!kind)
      return kind.err();
    if (!kind->empty() && *kind != "Config")
      return problem(path, "kind", "must be Config, not \"" + *kind + "\"");
    if (auto e = read_entries(root, "clusters", "cluster", path, pf.clusters))
      return e;
    if (auto e = read_entries(root, "users", "user", path, pf.users))
      return e;
    if (auto e = read_entries(root, "contexts", "context", path, pf.contexts))
      return e;
    auto cur = get_string(root, "current-context", path, "");
    if (!cur)
      return cur.err();
    pf.current_context = *cur;
  } catch (const YAML::Exception& e) {
    return problem(path, "", e.what());
  }
  return pf;
}

const entry* find(const std::vector<entry>& list, const std::string& name) {
  for (const auto& e : list)
    if (e.name == name)
      return &e;
  return nullptr;
}

std::string resolve_path(const std::string& file, const std::string& p) {
  if (p.empty() || fs::path(p).is_absolute())
    return p;
  return (fs::path(file).parent_path() / p).lexically_normal().string();
}

// Reads `<key>-data` (base64) or `<key>` (a file); data wins, as client-go.
expected<std::string> pem_field(const YAML::Node& body, const std::string& key,
                                pem_kind kind, const entry& e) {
  std::string data_key = key + "-data";
  auto data = get_string(body, data_key.c_str(), e.file, e.field);
  if (!data)
    return data.err();
  if (!data->empty()) {
    auto decoded = base64_decode(*data);
    if (!decoded)
      return problem(e.file, e.field + "." + data_key, "invalid base64");
    if (auto why = check_pem(*decoded, kind); !why.empty())
      return problem(e.file, e.field + "." + data_key, why);
    return *decoded;
  }
  auto file = get_string(body, key.c_str(), e.file, e.field);
  if (!file)
    return file.err();
  if (file->empty())
    return std::string{};
  std::string path = resolve_path(e.file, *file);
  auto content = read_file(path);
  if (!content)
    return problem(e.file, e.field + "." + key, content.err().message);
  if (auto why = check_pem(*content, kind); !why.empty())
    return problem(e.file, e.field + "." + key, "\"" + path + "\" " + why);
  return *content;
}

error apply_cluster(const entry& c, rest_config& out) {
  const YAML::Node& b = c.body;
  auto server = get_string(b, "server", c.file, c.field);
  if (!server)
    return server.err();
  if (server->empty())
    return problem(c.file, c.field + ".server", "must not be empty");
  auto url = parse_server_url(*server);
  if (!url)
    return problem(c.file, c.field + ".server", url.err().message);
  out.server = *server;
  out.url = *url;
  out.tls.enabled = url->tls;
  auto insecure = get_bool(b, "insecure-skip-tls-verify", c.file, c.field);
  if (!insecure)
    return insecure.err();
  auto ca = pem_field(b, "certificate-authority", pem_kind::certificates, c);
  if (!ca)
    return ca.err();
  if (*insecure && !ca->empty())
    return problem(c.file, c.field,
                   "certificate-authority and insecure-skip-tls-verify "
                   "cannot both be set");
  out.tls.insecure_skip_verify = *insecure;
  out.tls.ca_pem = std::move(*ca);
  auto name = get_string(b, "tls-server-name", c.file, c.field);
  if (!name)
    return name.err();
  out.tls.server_name = *name;
  auto proxy = get_string(b, "proxy-url", c.file, c.field);
  if (!proxy)
    return proxy.err();
  if (!proxy->empty())
    return problem(c.file, c.field + ".proxy-url",
                   "HTTP proxies are not supported by tessera");
  return {};
}

expected<exec_config> read_exec(const YAML::Node& x, const entry& u) {
  std::string at = u.field + ".exec";
  exec_config ex;
  if (!x.IsMap())
    return problem(u.file, at, "must be a mapping");
  auto api = get_string(x, "apiVersion", u.file, at);
  if (!api)
    return api.err();
  if (*api != "client.authentication.k8s.io/v1"
      && *api != "client.authentication.k8s.io/v1beta1")
    return problem(u.file, at + ".apiVersion",
                   "must be client.authentication.k8s.io/v1 or v1beta1, not \""
                     + *api + "\"");
  ex.api_version = *api;
  auto cmd = get_string(x, "command", u.file, at);
  if (!cmd)
    return cmd.err();
  if (cmd->empty())
    return problem(u.file, at + ".command", "must not be empty");
  ex.command
    = cmd->find('/') != std::string::npos ? resolve_path(u.file, *cmd) : *cmd;
  YAML::Node args = x["args"];
  if (args.IsDefined() && !args.IsNull()) {
    if (!args.IsSequence())
      return problem(u.file, at + ".args", "must be a list of strings");
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (!args[i].IsScalar())
        return problem(u.file, at + ".args[" + std::to_string(i) + "]",
                       "must be a string");
      ex.args.push_back(args[i].Scalar());
    }
  }
  YAML::Node env = x["env"];
  if (env.IsDefined() && !env.IsNull()) {
    if (!env.IsSequence())
      return problem(u.file, at + ".env", "must be a list");
    for (std::size_t i = 0; i < env.size(); ++i) {
      std::string ef = at + ".env[" + std::to_string(i) + "]";
      if (!env[i].IsMap())
        return problem(u.file, ef, "must be a mapping");
      auto n = get_string(env[i], "name", u.file, ef);
      if (!n)
        return n.err();
      auto v = get_string(env[i], "value", u.file, ef);
      if (!v)
        return v.err();
      if (n->empty())
        return problem(u.file, ef + ".name", "must not be empty");
      ex.env.emplace_back(*n, *v);
    }
  }
  auto mode = get_string(x, "interactiveMode", u.file, at);
  if (!mode)
    return mode.err();
  if (mode->empty()) {
    if (ex.api_version == "client.authentication.k8s.io/v1")
      return problem(u.file, at + ".interactiveMode",
                     "is required for client.authentication.k8s.io/v1");
  } else if (*mode != "Never" && *mode != "IfAvailable" && *mode != "Always") {
    return problem(u.file, at + ".interactiveMode",
                   "must be Never, IfAvailable or Always, not \"" + *mode
                     + "\"");
  } else {
    ex.interactive_mode = *mode;
  }
  if (ex.interactive_mode == "Always")
    return problem(u.file, at + ".interactiveMode",
                   "Always needs a terminal, which tessera never has");
  auto info = get_bool(x, "provideClusterInfo", u.file, at);
  if (!info)
    return info.err();
  ex.provide_cluster_info = *info;
  auto hint = get_string(x, "installHint", u.file, at);
  if (!hint)
    return hint.err();
  ex.install_hint = *hint;
  return ex;
}

error apply_user(const entry& u, rest_config& out) {
  const YAML::Node& b = u.body;
  auto cert = pem_field(b, "client-certificate", pem_kind::certificates, u);
  if (!cert)
    return cert.err();
  auto key = pem_field(b, "client-key", pem_kind::private_key, u);
  if (!key)
    return key.err();
  if (cert->empty() != key->empty())
    return problem(u.file, u.field,
                   cert->empty() ? "client-key is set without "
                                   "client-certificate"
                                 : "client-certificate is set without "
                                   "client-key");
  out.tls.client_cert_pem = std::move(*cert);
  out.tls.client_key_pem = std::move(*key);
  auto token = get_string(b, "token", u.file, u.field);
  if (!token)
    return token.err();
  out.token = *token;
  auto token_file = get_string(b, "tokenFile", u.file, u.field);
  if (!token_file)
    return token_file.err();
  if (!token_file->empty()) {
    out.token_file = resolve_path(u.file, *token_file);
    std::ifstream probe{out.token_file};
    if (!probe)
      return problem(u.file, u.field + ".tokenFile",
                     "cannot read file \"" + out.token_file
                       + "\": " + std::strerror(errno));
  }
  auto user = get_string(b, "username", u.file, u.field);
  if (!user)
    return user.err();
  auto pass = get_string(b, "password", u.file, u.field);
  if (!pass)
    return pass.err();
  if (!user->empty() || !pass->empty())
    return problem(u.file,
                   u.field + (user->empty() ? ".password" : ".username"),
                   "basic authentication is not supported (API servers "
                   "removed it in 1.19)");
  if (b["auth-provider"].IsDefined() && !b["auth-provider"].IsNull())
    return problem(u.file, u.field + ".auth-provider",
                   "auth-provider plugins are not supported; use an exec "
                   "credential plugin");
  YAML::Node x = b["exec"];
  if (x.IsDefined() && !x.IsNull()) {
    if (!out.token.empty() || !out.token_file.empty())
      return problem(u.file, u.field,
                     "more than one authentication method: token and exec");
    auto ex = read_exec(x, u);
    if (!ex)
      return ex.err();
    out.exec = std::move(*ex);
  }
  return {};
}

expected<rest_config> resolve(const std::vector<parsed_file>& files,
                              const std::string& context,
                              const std::string& describe) {
  std::vector<entry> clusters, users, contexts;
  std::string current;
  // The first file that defines a name wins.
  for (const auto& f : files) {
    for (const auto& c : f.clusters)
      if (!find(clusters, c.name))
        clusters.push_back(c);
    for (const auto& u : f.users)
      if (!find(users, u.name))
        users.push_back(u);
    for (const auto& c : f.contexts)
      if (!find(contexts, c.name))
        contexts.push_back(c);
    if (current.empty())
      current = f.current_context;
  }
  std::string name = context.empty() ? current : context;
  if (name.empty())
    return problem(describe, "current-context",
                   "not set (and no --context given)");
  const entry* ctx = find(contexts, name);
  if (ctx == nullptr)
    return problem(describe, context.empty() ? "current-context" : "--context",
                   "context \"" + name + "\" not found");
  auto cluster_name = get_string(ctx->body, "cluster", ctx->file, ctx->field);
  if (!cluster_name)
    return cluster_name.err();
  auto user_name = get_string(ctx->body, "user", ctx->file, ctx->field);
  if (!user_name)
    return user_name.err();
  auto ns = get_string(ctx->body, "namespace", ctx->file, ctx->field);
  if (!ns)
    return ns.err();
  if (cluster_name->empty())
    return problem(ctx->file, ctx->field + ".cluster", "must not be empty");
  const entry* cl = find(clusters, *cluster_name);
  if (cl == nullptr)
    return problem(ctx->file, ctx->field + ".cluster",
                   "cluster \"" + *cluster_name + "\" not found");
  rest_config out;
  out.ns = *ns;
  out.origin = "kubeconfig " + describe + " (context " + name + ")";
  if (auto e = apply_cluster(*cl, out))
    return e;
  if (!user_name->empty()) {
    const entry* us = find(users, *user_name);
    if (us == nullptr)
      return problem(ctx->file, ctx->field + ".user",
                     "user \"" + *user_name + "\" not found");
    if (auto e = apply_user(*us, out))
      return e;
  }
  return out;
}

expected<rest_config> master_only(const std::string& master) {
  auto url = parse_server_url(master);
  if (!url)
    return make_error(ec::invalid_input, "--master: " + url.err().message);
  rest_config out;
  out.server = master;
  out.url = *url;
  out.tls.enabled = url->tls;
  out.origin = "--master";
  return out;
}

error override_master(rest_config& cfg, const std::string& master) {
  auto url = parse_server_url(master);
  if (!url)
    return make_error(ec::invalid_input, "--master: " + url.err().message);
  cfg.server = master;
  cfg.url = *url;
  cfg.tls.enabled = url->tls;
  cfg.origin += ", server from --master";
  return {};
}

} // namespace

// resolution

expected<rest_config> parse_kubeconfig(std::string_view text,
                                       const std::string& path,
                                       const std::string& context) {
  auto pf = parse_file(text, path);
  if (!pf)
    return pf.err();
  std::vector<parsed_file> files;
  files.push_back(std::move(*pf));
  return resolve(files, context, path);
}

expected<rest_config> in_cluster_config(const kubeconfig_options& options) {
  auto env = options.getenv ? options.getenv : real_getenv;
  auto host = env("KUBERNETES_SERVICE_HOST");
  auto port = env("KUBERNETES_SERVICE_PORT");
  if (!host || !port || host->empty() || port->empty())
    return make_error(ec::invalid_input,
                      "in-cluster: KUBERNETES_SERVICE_HOST and "
                      "KUBERNETES_SERVICE_PORT must both be set");
  std::string h = *host;
  if (h.find(':') != std::string::npos)
    h = "[" + h + "]";
  rest_config out;
  out.server = "https://" + h + ":" + *port;
  auto url = parse_server_url(out.server);
  if (!url)
    return make_error(ec::invalid_input, "in-cluster: " + url.err().message);
  out.url = *url;
  out.tls.enabled = true;
  auto ca = read_file(options.in_cluster.ca);
  if (!ca)
    return make_error(ec::invalid_input, "in-cluster: " + ca.err().message);
  if (auto why = check_pem(*ca, pem_kind::certificates); !why.empty())
    return make_error(ec::invalid_input,
                      "in-cluster: \"" + options.in_cluster.ca + "\" " + why);
  out.tls.ca_pem = std::move(*ca);
  std::ifstream probe{options.in_cluster.token};
  if (!probe)
    return make_error(ec::invalid_input,
                      "in-cluster: cannot read the service account token \""
                        + options.in_cluster.token + "\"");
  out.token_file = options.in_cluster.token;
  if (auto ns = read_file(options.in_cluster.ns)) {
    out.ns = *ns;
    while (!out.ns.empty() && (out.ns.back() == '\n' || out.ns.back() == ' '))
      out.ns.pop_back();
  }
  out.origin = "in-cluster";
  return out;
}

expected<rest_config> load_rest_config(const kubeconfig_options& options) {
  auto env = options.getenv ? options.getenv : real_getenv;
  // 1. An explicit file.
  if (!options.kubeconfig.empty()) {
    auto text = read_file(options.kubeconfig);
    if (!text)
      return problem(options.kubeconfig, "", text.err().message);
    auto cfg = parse_kubeconfig(*text, options.kubeconfig, options.context);
    if (!cfg)
      return cfg.err();
    if (!options.master.empty())
      if (auto e = override_master(*cfg, options.master))
        return e;
    return cfg;
  }
  // 2. --master alone.
  if (!options.master.empty())
    return master_only(options.master);
  // 3. $KUBECONFIG.
  if (auto list = env("KUBECONFIG"); list && !list->empty()) {
    std::vector<parsed_file> files;
    std::string describe;
    std::size_t start = 0;
    while (start <= list->size()) {
      auto colon = list->find(':', start);
      std::string path = list->substr(
        start, colon == std::string::npos ? std::string::npos : colon - start);
      start = colon == std::string::npos ? list->size() + 1 : colon + 1;
      if (path.empty())
        continue;
      std::error_code exists_ec;
      if (!fs::exists(path, exists_ec))
        continue;
      auto text = read_file(path);
      if (!text)
        return problem(path, "", text.err().message);
      auto pf = parse_file(*text, path);
      if (!pf)
        return pf.err();
      describe += (describe.empty() ? "" : ":") + path;
      files.push_back(std::move(*pf));
    }
    if (files.empty())
      return make_error(ec::invalid_input,
                        "KUBECONFIG=" + *list + ": none of the files exists");
    return resolve(files, options.context, describe);
  }
  // 4. In-cluster.
  if (auto host = env("KUBERNETES_SERVICE_HOST"); host && !host->empty())
    return in_cluster_config(options);
  // 5. ~/.kube/config.
  if (auto home = env("HOME"); home && !home->empty()) {
    std::string path = *home + "/.kube/config";
    std::error_code exists_ec;
    if (fs::exists(path, exists_ec)) {
      auto text = read_file(path);
      if (!text)
        return problem(path, "", text.err().message);
      return parse_kubeconfig(*text, path, options.context);
    }
  }
  return make_error(ec::invalid_input,
                    "no API server configured: give --master or "
                    "--kubeconfig, set KUBECONFIG, run inside a cluster, or "
                    "create ~/.kube/config");
}

} // namespace tessera::io
