// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/workload.hpp"

#include "model/document_file.hpp"
#include "model/quantity.hpp"
#include "support/flags.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace tessera::perf {

namespace {

namespace fs = std::filesystem;

/// Collects problems, each `file:line: path: message`.
class problems {
public:
  explicit problems(std::string file) : file_(std::move(file)) {
  }
  void add(int line, const std::string& path, const std::string& message) {
    std::string out = file_;
    if (line > 0)
      out += ":" + std::to_string(line);
    out += ": ";
    if (!path.empty())
      out += path + ": ";
    out += message;
    lines_.push_back(std::move(out));
  }
  bool empty() const {
    return lines_.empty();
  }
  error to_error() const {
    std::string text;
    for (const auto& l : lines_)
      text += (text.empty() ? "" : "\n") + l;
    return make_error(ec::invalid_input, std::move(text));
  }

private:
  std::string file_;
  std::vector<std::string> lines_;
};

int line_of(const YAML::Node& n) {
  auto m = n.Mark();
  return m.line >= 0 ? m.line + 1 : 0;
}

std::string child(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}
std::string index(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

/// A mapping read strictly: every key must be asked for or skipped.
class fields {
public:
  fields(const YAML::Node& node, std::string path, problems& p)
    : node_(node), path_(std::move(path)), p_(p) {
    if (!node.IsMap()) {
      p_.add(line_of(node), path_, "must be a mapping");
      ok_ = false;
    }
  }
  ~fields() = default;

  bool ok() const {
    return ok_;
  }
  const std::string& path() const {
    return path_;
  }
  int line() const {
    return line_of(node_);
  }
  std::string path(const std::string& key) const {
    return child(path_, key);
  }
  /// The value of `key` (null = absent).
  YAML::Node get(const std::string& key) {
    used_.insert(key);
    if (!ok_)
      return YAML::Node{YAML::NodeType::Undefined};
    YAML::Node v = node_[key];
    if (!v || v.IsNull())
      return YAML::Node{YAML::NodeType::Undefined};
    return v;
  }
  void ignore(const std::string& key, std::vector<std::string>& notices) {
    used_.insert(key);
    if (ok_ && node_[key])
      notices.push_back(file_line(node_[key]) + path(key)
                        + ": ignored (only upstream's test framework uses it)");
  }
  /// Reports every key nobody asked for.
  void finish() {
    if (!ok_)
      return;
    for (const auto& kv : node_) {
      auto key = kv.first.as<std::string>();
      if (used_.count(key) == 0)
        p_.add(line_of(kv.first), path(key), "unknown field");
    }
  }
  std::string file_line(const YAML::Node& n) const {
    return ":" + std::to_string(line_of(n)) + ": ";
  }

private:
  YAML::Node node_;
  std::string path_;
  problems& p_;
  std::set<std::string> used_;
  bool ok_ = true;
};

std::optional<std::string> read_string(const YAML::Node& n,
                                       const std::string& path, problems& p) {
  if (!n)
    return std::nullopt;
  if (!n.IsScalar()) {
    p.add(line_of(n), path, "must be a string");
    return std::nullopt;
  }
  return n.Scalar();
}

std::optional<std::int64_t> read_int(const YAML::Node& n,
                                     const std::string& path, problems& p) {
  if (!n)
    return std::nullopt;
  if (n.IsScalar()) {
    const std::string& s = n.Scalar();
    std::size_t used = 0;
    try {
      long long v = std::stoll(s, &used, 10);
      if (used == s.size())
        return v;
    } catch (const std::exception&) {
    }
  }
  p.add(line_of(n), path, "must be an integer, got \"" + YAML::Dump(n) + "\"");
  return std::nullopt;
}

std::optional<bool> read_bool(const YAML::Node& n, const std::string& path,
                              problems& p) {
  if (!n)
    return std::nullopt;
  if (n.IsScalar()) {
    const std::string& s = n.Scalar();
    if (s == "true" || s == "True" || s == "TRUE")
      return true;
    if (s == "false" || s == "False" || s == "FALSE")
      return false;
  }
  p.add(line_of(n), path, "must be true or false");
  return std::nullopt;
}

std::vector<std::string> read_strings(const YAML::Node& n,
                                      const std::string& path, problems& p) {
  std::vector<std::string> out;
  if (!n)
    return out;
  if (!n.IsSequence()) {
    p.add(line_of(n), path, "must be a list of strings");
    return out;
  }
  for (std::size_t i = 0; i < n.size(); ++i)
    if (auto s = read_string(n[i], index(path, i), p))
      out.push_back(*s);
  return out;
}

/// A mapping of strings (labelSelector, templateParams).
std::map<std::string, std::string>
read_map(const YAML::Node& n, const std::string& path, problems& p) {
  std::map<std::string, std::string> out;
  if (!n)
    return out;
  if (!n.IsMap()) {
    p.add(line_of(n), path, "must be a mapping of strings");
    return out;
  }
  for (const auto& kv : n) {
    auto key = kv.first.as<std::string>();
    if (auto v = read_string(kv.second, child(path, key), p))
      out.emplace(key, *v);
  }
  return out;
}

bool is_param(const std::string& s) {
  return s.size() > 1 && s[0] == '$';
}

/// count / countParam.
count_field read_count(fields& f, problems& p, bool required,
                       std::int64_t fallback = 0) {
  count_field c;
  c.value = fallback;
  auto count = f.get("count");
  auto param = f.get("countParam");
  if (auto v = read_int(count, f.path("count"), p))
    c.value = *v;
  if (auto s = read_string(param, f.path("countParam"), p)) {
    if (!is_param(*s))
      p.add(line_of(param), f.path("countParam"),
            "must name a parameter as $name, got \"" + *s + "\"");
    else
      c.param = s->substr(1);
  }
  if (required && !count && !param)
    p.add(f.line(), f.path("count"), "required (count or countParam)");
  if (count && c.param.empty() && c.value < 0)
    p.add(line_of(count), f.path("count"), "must not be negative");
  return c;
}

/// Resolves a template path against the file's directory and checks that
/// it exists.
std::string read_path(fields& f, const std::string& key, problems& p,
                      const std::string& dir) {
  auto n = f.get(key);
  auto s = read_string(n, f.path(key), p);
  if (!s)
    return {};
  fs::path path{*s};
  if (path.is_relative())
    path = fs::path{dir} / path;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    p.add(line_of(n), f.path(key),
          "template file \"" + path.lexically_normal().string()
            + "\" does not exist");
    return {};
  }
  return path.lexically_normal().string();
}

/// createNodes' nodeAllocatableStrategy.
node_allocatable_strategy read_allocatable_strategy(const YAML::Node& n,
                                                    const std::string& path,
                                                    problems& p) {
  node_allocatable_strategy out;
  out.set = true;
  fields f{n, path, p};
  if (!f.ok())
    return out;
  out.node_allocatable
    = read_map(f.get("nodeAllocatable"), f.path("nodeAllocatable"), p);
  for (const auto& [name, value] : out.node_allocatable)
    if (auto q = model::quantity::parse(value); !q)
      p.add(f.line(), child(f.path("nodeAllocatable"), name), q.err().message);
  if (auto drivers = f.get("csiNodeAllocatable")) {
    std::string dpath = f.path("csiNodeAllocatable");
    if (!drivers.IsMap()) {
      p.add(line_of(drivers), dpath, "must be a mapping of CSI drivers");
    } else {
      for (const auto& kv : drivers) {
        auto driver = kv.first.as<std::string>();
        std::optional<std::int64_t> count;
        if (kv.second && !kv.second.IsNull()) {
          fields d{kv.second, child(dpath, driver), p};
          count = read_int(d.get("count"), child(d.path(), "count"), p);
          if (count && *count < 0)
            p.add(d.line(), child(d.path(), "count"), "must not be negative");
          d.finish();
        }
        out.csi_allocatable.emplace(driver, count);
      }
    }
  }
  out.migrated_plugins
    = read_strings(f.get("migratedPlugins"), f.path("migratedPlugins"), p);
  f.finish();
  return out;
}

constexpr const char* known_ops[] = {
  "createNodes",
  "createNamespaces",
  "createPods",
  "createAny",
  "barrier",
  "sleep",
  "churn",
  "createPodSets",
  "deletePods",
  "startCollectingMetrics",
  "stopCollectingMetrics",
  "updateAny",
};
/// Upstream ops tessera does not implement: a test case using one is
/// skipped with a notice naming it.
constexpr const char* upstream_only_ops[] = {
  "allocResourceClaims", "createResourceClaims", "createResourceDriver",
  "createPodGroups",     "waitForPodGroups",
};

} // namespace

std::optional<std::chrono::milliseconds>
parse_go_duration(std::string_view text) {
  auto d = parse_duration(text);
  if (!d)
    return std::nullopt;
  return *d;
}

std::string_view opcode(const op_body& body) noexcept {
  static constexpr std::string_view names[]
    = {"createNodes", "createNamespaces",
       "createPods",  "createAny",
       "barrier",     "sleep",
       "churn",       "createPodSets",
       "deletePods",  "startCollectingMetrics",
       "updateAny"};
  static_assert(std::size(names) == std::variant_size_v<op_body>);
  if (const auto* c = std::get_if<collect_metrics_op>(&body); c && !c->start)
    return "stopCollectingMetrics";
  return names[body.index()];
}

std::string to_string(const feature_gates& g) {
  std::string out;
  for (const auto& [name, on] : g)
    out += (out.empty() ? "" : ",") + name + (on ? "=true" : "=false");
  return out;
}

namespace {

std::optional<op> read_op(const YAML::Node& node, const std::string& path,
                          problems& p, const std::string& dir,
                          std::vector<std::string>& notices,
                          std::vector<std::string>& unsupported) {
  fields f{node, path, p};
  // An upstream feature tessera lacks skips the test case, naming it.
  auto lacks = [&](const std::string& what) {
    unsupported.push_back(what + " (" + path + ")");
  };
  if (!f.ok())
    return std::nullopt;
  auto code_node = f.get("opcode");
  auto code = read_string(code_node, f.path("opcode"), p);
  if (!code) {
    if (!code_node)
      p.add(f.line(), f.path("opcode"), "required");
    f.finish();
    return std::nullopt;
  }
  op out;
  out.path = path;
  out.line = f.line();
  if (*code == "createNodes") {
    create_nodes_op o;
    o.count = read_count(f, p, true);
    o.template_path = read_path(f, "nodeTemplatePath", p, dir);
    auto label = f.get("labelNodePrepareStrategy");
    auto unique = f.get("uniqueNodeLabelStrategy");
    auto allocatable = f.get("nodeAllocatableStrategy");
    if ((label ? 1 : 0) + (unique ? 1 : 0) + (allocatable ? 1 : 0) > 1)
      p.add(f.line(), path, "at most one node prepare strategy may be set");
    if (label) {
      fields s{label, f.path("labelNodePrepareStrategy"), p};
      o.labels.type = node_label_strategy::kind::values;
      o.labels.key
        = read_string(s.get("labelKey"), s.path("labelKey"), p).value_or("");
      o.labels.values
        = read_strings(s.get("labelValues"), s.path("labelValues"), p);
      if (o.labels.key.empty())
        p.add(s.line(), s.path("labelKey"), "required");
      if (o.labels.values.empty())
        p.add(s.line(), s.path("labelValues"), "must list at least one value");
      s.finish();
    } else if (unique) {
      fields s{unique, f.path("uniqueNodeLabelStrategy"), p};
      o.labels.type = node_label_strategy::kind::unique;
      o.labels.key
        = read_string(s.get("labelKey"), s.path("labelKey"), p).value_or("");
      if (o.labels.key.empty())
        p.add(s.line(), s.path("labelKey"), "required");
      s.finish();
    }
    if (allocatable)
      o.allocatable = read_allocatable_strategy(
        allocatable, f.path("nodeAllocatableStrategy"), p);
    f.ignore("templateParams", notices);
    out.body = std::move(o);
  } else if (*code == "createNamespaces") {
    create_namespaces_op o;
    o.prefix = read_string(f.get("prefix"), f.path("prefix"), p).value_or("");
    if (o.prefix.empty())
      p.add(f.line(), f.path("prefix"), "required");
    o.count = read_count(f, p, true);
    o.template_path = read_path(f, "namespaceTemplatePath", p, dir);
    out.body = std::move(o);
  } else if (*code == "createPods") {
    create_pods_op o;
    o.count = read_count(f, p, true);
    o.template_path = read_path(f, "podTemplatePath", p, dir);
    o.ns = read_string(f.get("namespace"), f.path("namespace"), p).value_or("");
    o.collect_metrics
      = read_bool(f.get("collectMetrics"), f.path("collectMetrics"), p)
          .value_or(false);
    o.skip_wait = read_bool(f.get("skipWaitToCompletion"),
                            f.path("skipWaitToCompletion"), p)
                    .value_or(false);
    if (o.collect_metrics && o.skip_wait)
      p.add(f.line(), path,
            "collectMetrics and skipWaitToCompletion cannot both be true");
    for (const char* field : {"steadyState", "steadyStateParam", "duration",
                              "durationParam", "countMultiplierParam"})
      if (f.get(field))
        lacks("field " + std::string{field});
    o.volume_template_path
      = read_path(f, "persistentVolumeTemplatePath", p, dir);
    o.claim_template_path
      = read_path(f, "persistentVolumeClaimTemplatePath", p, dir);
    bool has_volume = static_cast<bool>(f.get("persistentVolumeTemplatePath"));
    bool has_claim
      = static_cast<bool>(f.get("persistentVolumeClaimTemplatePath"));
    if (has_volume != has_claim)
      p.add(f.line(),
            f.path(has_volume ? "persistentVolumeClaimTemplatePath"
                              : "persistentVolumeTemplatePath"),
            "required with "
              + std::string{has_volume ? "persistentVolumeTemplatePath"
                                       : "persistentVolumeClaimTemplatePath"}
              + " (each pod gets a volume and a claim bound to it)");
    o.params = read_map(f.get("templateParams"), f.path("templateParams"), p);
    if (auto v = read_int(f.get("signatureBatchSize"),
                          f.path("signatureBatchSize"), p))
      o.signature_batch.value = *v;
    if (auto s = read_string(f.get("signatureBatchSizeParam"),
                             f.path("signatureBatchSizeParam"), p)) {
      if (!is_param(*s))
        p.add(f.line(), f.path("signatureBatchSizeParam"),
              "must name a parameter as $name, got \"" + *s + "\"");
      else
        o.signature_batch.param = s->substr(1);
    }
    out.body = std::move(o);
  } else if (*code == "createAny") {
    create_any_op o;
    o.count = read_count(f, p, false, 1);
    o.template_path = read_path(f, "templatePath", p, dir);
    if (o.template_path.empty() && !f.get("templatePath"))
      p.add(f.line(), f.path("templatePath"), "required");
    o.ns = read_string(f.get("namespace"), f.path("namespace"), p).value_or("");
    o.params = read_map(f.get("templateParams"), f.path("templateParams"), p);
    out.body = std::move(o);
  } else if (*code == "barrier") {
    barrier_op o;
    o.namespaces = read_strings(f.get("namespaces"), f.path("namespaces"), p);
    auto stage
      = read_string(f.get("stageRequirement"), f.path("stageRequirement"), p);
    if (stage && *stage != "Scheduled" && *stage != "Attempted")
      p.add(f.line(), f.path("stageRequirement"),
            "must be Scheduled or Attempted, got \"" + *stage + "\"");
    o.scheduled = !stage || *stage == "Scheduled";
    o.selector = read_map(f.get("labelSelector"), f.path("labelSelector"), p);
    out.body = std::move(o);
  } else if (*code == "updateAny") {
    update_any_op o;
    o.count = read_count(f, p, false, 1);
    o.template_path = read_path(f, "templatePath", p, dir);
    if (o.template_path.empty() && !f.get("templatePath"))
      p.add(f.line(), f.path("templatePath"), "required");
    o.ns = read_string(f.get("namespace"), f.path("namespace"), p).value_or("");
    auto rate
      = read_int(f.get("updatePerSecond"), f.path("updatePerSecond"), p);
    if (rate && *rate < 0)
      p.add(f.line(), f.path("updatePerSecond"), "must not be negative");
    o.per_second = static_cast<double>(rate.value_or(0));
    auto subs = read_strings(f.get("subresources"), f.path("subresources"), p);
    for (const auto& sub : subs) {
      if ((sub == "status" || sub == "resize") && o.subresource.empty())
        o.subresource = sub;
      else
        lacks("updateAny subresource " + sub
              + " (the embedded cluster serves status and resize)");
    }
    o.params = read_map(f.get("templateParams"), f.path("templateParams"), p);
    out.body = std::move(o);
  } else if (*code == "deletePods") {
    delete_pods_op o;
    o.ns = read_string(f.get("namespace"), f.path("namespace"), p).value_or("");
    if (o.ns.empty())
      p.add(f.line(), f.path("namespace"), "required");
    o.selector = read_map(f.get("labelSelector"), f.path("labelSelector"), p);
    auto rate = read_int(f.get("deletePodsPerSecond"),
                         f.path("deletePodsPerSecond"), p);
    if (rate && *rate < 0)
      p.add(f.line(), f.path("deletePodsPerSecond"), "must not be negative");
    o.per_second = static_cast<double>(rate.value_or(0));
    o.skip_wait = read_bool(f.get("skipWaitToCompletion"),
                            f.path("skipWaitToCompletion"), p)
                    .value_or(false);
    out.body = std::move(o);
  } else if (*code == "startCollectingMetrics"
             || *code == "stopCollectingMetrics") {
    collect_metrics_op o;
    o.start = *code == "startCollectingMetrics";
    if (o.start) {
      o.name = read_string(f.get("name"), f.path("name"), p).value_or("");
      o.namespaces = read_strings(f.get("namespaces"), f.path("namespaces"), p);
      o.selector = read_map(f.get("labelSelector"), f.path("labelSelector"), p);
    }
    out.body = std::move(o);
  } else if (*code == "createPodSets") {
    create_pod_sets_op o;
    o.count = read_count(f, p, true);
    o.ns_prefix
      = read_string(f.get("namespacePrefix"), f.path("namespacePrefix"), p)
          .value_or("");
    if (o.ns_prefix.empty())
      p.add(f.line(), f.path("namespacePrefix"), "required");
    auto inner_node = f.get("createPodsOp");
    if (!inner_node) {
      p.add(f.line(), f.path("createPodsOp"), "required");
    } else if (auto inner = read_op(inner_node, f.path("createPodsOp"), p, dir,
                                    notices, unsupported)) {
      if (const auto* pods = std::get_if<create_pods_op>(&inner->body))
        o.pods = *pods;
      else
        p.add(line_of(inner_node), f.path("createPodsOp.opcode"),
              "must be createPods");
    }
    out.body = std::move(o);
  } else if (*code == "sleep") {
    sleep_op o;
    auto d = f.get("duration");
    auto dp = f.get("durationParam");
    if (auto s = read_string(d, f.path("duration"), p)) {
      auto parsed = parse_go_duration(*s);
      if (!parsed)
        p.add(line_of(d), f.path("duration"),
              "invalid duration \"" + *s + "\"");
      else
        o.duration = *parsed;
    }
    if (auto s = read_string(dp, f.path("durationParam"), p)) {
      if (!is_param(*s))
        p.add(line_of(dp), f.path("durationParam"),
              "must name a parameter as $name");
      else
        o.param = s->substr(1);
    }
    if (!d && !dp)
      p.add(f.line(), f.path("duration"),
            "required (duration or "
            "durationParam)");
    out.body = std::move(o);
  } else if (*code == "churn") {
    churn_op o;
    auto mode = read_string(f.get("mode"), f.path("mode"), p);
    if (!mode || (*mode != "create" && *mode != "recreate"))
      p.add(f.line(), f.path("mode"),
            "must be create or recreate"
              + (mode ? ", got \"" + *mode + "\"" : std::string{}));
    o.recreate = !mode || *mode == "recreate";
    o.number = read_int(f.get("number"), f.path("number"), p).value_or(0);
    if (o.number < 0)
      p.add(f.line(), f.path("number"), "must not be negative");
    if (o.recreate && o.number == 0)
      p.add(f.line(), f.path("number"), "must be positive in recreate mode");
    auto interval = read_int(f.get("intervalMilliseconds"),
                             f.path("intervalMilliseconds"), p);
    if (interval && *interval <= 0)
      p.add(f.line(), f.path("intervalMilliseconds"), "must be positive");
    if (interval && *interval > 0)
      o.interval = std::chrono::milliseconds{*interval};
    o.ns = read_string(f.get("namespace"), f.path("namespace"), p).value_or("");
    auto paths = f.get("templatePaths");
    auto listed = read_strings(paths, f.path("templatePaths"), p);
    if (listed.empty())
      p.add(f.line(), f.path("templatePaths"),
            "at least one template file is required");
    for (std::size_t i = 0; i < listed.size(); ++i) {
      fs::path tp{listed[i]};
      if (tp.is_relative())
        tp = fs::path{dir} / tp;
      std::error_code ec;
      if (!fs::is_regular_file(tp, ec))
        p.add(line_of(paths[i]), index(f.path("templatePaths"), i),
              "template file \"" + tp.lexically_normal().string()
                + "\" does not exist");
      else
        o.template_paths.push_back(tp.lexically_normal().string());
    }
    out.body = std::move(o);
  } else {
    bool upstream = false;
    for (const char* u : upstream_only_ops)
      upstream |= *code == u;
    if (upstream) {
      lacks("op " + *code);
      return std::nullopt;
    }
    std::string known;
    for (const char* k : known_ops)
      known += (known.empty() ? "" : ", ") + std::string{k};
    p.add(line_of(code_node), f.path("opcode"),
          "unknown op \"" + *code + "\"; supported ops: " + known);
    return std::nullopt;
  }
  f.finish();
  return out;
}

} // namespace

namespace {

/// A workload's `params`: upstream's are JSON values; tessera types plain
/// scalars as integers, numbers or booleans and keeps quoted ones as text.
std::map<std::string, param_value>
read_params(const YAML::Node& params, const std::string& path, problems& p) {
  std::map<std::string, param_value> out;
  if (params && !params.IsMap()) {
    p.add(line_of(params), path, "must be a mapping");
    return out;
  }
  if (!params)
    return out;
  for (const auto& kv : params) {
    auto key = kv.first.as<std::string>();
    const YAML::Node& v = kv.second;
    std::string vpath = child(path, key);
    if (!v.IsScalar()) {
      p.add(line_of(v), vpath, "must be a number, string or boolean");
      continue;
    }
    const std::string& s = v.Scalar();
    param_value pv = s;
    if (v.Tag() != "!") { // plain scalar: type it
      try {
        std::size_t used = 0;
        long long n = std::stoll(s, &used, 10);
        if (used == s.size())
          pv = static_cast<std::int64_t>(n);
        else {
          double d = std::stod(s, &used);
          if (used == s.size())
            pv = d;
        }
      } catch (const std::exception&) {
      }
      if (s == "true" || s == "false")
        pv = s == "true";
    }
    out.emplace(key, std::move(pv));
  }
  return out;
}

/// schedulerApiClientQPS / schedulerApiClientBurst of a test case or
/// workload.
void read_api_limits(fields& f, problems& p, double& qps, std::int64_t& burst) {
  if (auto q = f.get("schedulerApiClientQPS")) {
    double v = -1;
    if (q.IsScalar())
      try {
        v = std::stod(q.Scalar());
      } catch (const std::exception&) {
      }
    if (v <= 0)
      p.add(line_of(q), f.path("schedulerApiClientQPS"),
            "must be a positive number");
    else
      qps = v;
  }
  if (auto b = read_int(f.get("schedulerApiClientBurst"),
                        f.path("schedulerApiClientBurst"), p)) {
    if (*b <= 0)
      p.add(f.line(), f.path("schedulerApiClientBurst"), "must be positive");
    else
      burst = *b;
  }
}

feature_gates read_gates(const YAML::Node& n, const std::string& path,
                         problems& p) {
  feature_gates out;
  if (!n)
    return out;
  if (!n.IsMap()) {
    p.add(line_of(n), path, "must be a mapping of gate names to booleans");
    return out;
  }
  for (const auto& kv : n) {
    auto key = kv.first.as<std::string>();
    if (auto v = read_bool(kv.second, child(path, key), p))
      out[key] = *v;
  }
  return out;
}

} // namespace

expected<workload_file> parse_workload_file(std::string_view text,
                                            const std::string& file,
                                            const std::string& dir) {
  problems p{file};
  workload_file out;
  out.file = file;
  YAML::Node root;
  try {
    root = YAML::Load(std::string{text});
  } catch (const YAML::Exception& e) {
    p.add(e.mark.line >= 0 ? e.mark.line + 1 : 0, "", "invalid YAML: " + e.msg);
    return p.to_error();
  }
  if (!root.IsSequence()) {
    p.add(line_of(root), "", "must be a list of test cases");
    return p.to_error();
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < root.size(); ++i) {
    std::string path = index("", i);
    // Each test case keeps its own problems: a malformed one fails only
    // when it is selected.
    problems tp{file};
    fields f{root[i], path, tp};
    if (!f.ok()) {
      p.add(line_of(root[i]), path, "must be a mapping");
      continue;
    }
    test_case tc;
    tc.path = path;
    tc.line = f.line();
    tc.name = read_string(f.get("name"), f.path("name"), p).value_or("");
    if (tc.name.empty())
      p.add(f.line(), f.path("name"), "required");
    else if (!names.insert(tc.name).second)
      p.add(f.line(), f.path("name"),
            "duplicate test case name \"" + tc.name + "\"");
    tc.default_pod_template = read_path(f, "defaultPodTemplatePath", tp, dir);
    tc.scheduler_config_path = read_path(f, "schedulerConfigPath", tp, dir);
    tc.gates = read_gates(f.get("featureGates"), f.path("featureGates"), tp);
    read_api_limits(f, tp, tc.api_qps, tc.api_burst);
    for (const char* ignored :
         {"labels", "metricsCollectorConfig", "defaultThresholdMetricSelector"})
      f.ignore(ignored, tc.notices);
    auto ops = f.get("workloadTemplate");
    if (!ops || !ops.IsSequence() || ops.size() == 0) {
      tp.add(f.line(), f.path("workloadTemplate"),
             "must be a non-empty list of ops");
    } else {
      for (std::size_t j = 0; j < ops.size(); ++j) {
        auto o = read_op(ops[j], index(f.path("workloadTemplate"), j), tp, dir,
                         tc.notices, tc.unsupported);
        if (o)
          tc.ops.push_back(std::move(*o));
      }
    }
    auto wls = f.get("workloads");
    if (!wls || !wls.IsSequence() || wls.size() == 0) {
      tp.add(f.line(), f.path("workloads"), "must be a non-empty list");
    } else {
      std::set<std::string> wnames;
      for (std::size_t j = 0; j < wls.size(); ++j) {
        fields wf{wls[j], index(f.path("workloads"), j), tp};
        if (!wf.ok())
          continue;
        workload w;
        w.path = wf.path();
        w.line = wf.line();
        w.name = read_string(wf.get("name"), wf.path("name"), tp).value_or("");
        if (w.name.empty())
          tp.add(wf.line(), wf.path("name"), "required");
        else if (!wnames.insert(w.name).second)
          tp.add(wf.line(), wf.path("name"),
                 "duplicate workload name \"" + w.name + "\"");
        w.params = read_params(wf.get("params"), wf.path("params"), tp);
        w.gates
          = read_gates(wf.get("featureGates"), wf.path("featureGates"), tp);
        read_api_limits(wf, tp, w.api_qps, w.api_burst);
        if (auto t = wf.get("threshold")) {
          double v = -1;
          if (t.IsScalar())
            try {
              v = std::stod(t.Scalar());
            } catch (const std::exception&) {
            }
          if (v < 0)
            tp.add(line_of(t), wf.path("threshold"),
                   "must be a non-negative number");
          else
            w.threshold = v;
        }
        for (const char* ignored : {"labels", "thresholdMetricSelector"})
          wf.ignore(ignored, w.notices);
        for (auto& n : w.notices)
          n = file + n;
        wf.finish();
        tc.workloads.push_back(std::move(w));
      }
    }
    f.finish();
    for (auto& n : tc.notices)
      n = file + n;
    if (!tp.empty())
      tc.problems = tp.to_error().message;
    out.test_cases.push_back(std::move(tc));
  }
  if (!p.empty())
    return p.to_error();
  return out;
}

expected<workload_file> load_workload_file(const std::string& path) {
  // yaml-cpp's nodes keep a key given twice: refuse it before they see it.
  auto text = model::read_document_file(path, {.keys = true});
  if (!text)
    return make_error(ec::invalid_input, text.err().message);
  fs::path dir = fs::absolute(fs::path{path}).parent_path();
  return parse_workload_file(*text, path, dir.string());
}

expected<plan> instantiate(const workload_file& f, const test_case& tc,
                           const workload& w) {
  problems p{f.file};
  std::set<std::string> used;
  auto resolve_count
    = [&](count_field& c, const op& o, const std::string& field) {
        if (c.param.empty())
          return;
        used.insert(c.param);
        auto it = w.params.find(c.param);
        if (it == w.params.end()) {
          p.add(o.line, o.path + "." + field,
                "parameter \"" + c.param + "\" is not defined by workload \""
                  + w.name + "\" (" + w.path + ")");
          return;
        }
        if (const auto* n = std::get_if<std::int64_t>(&it->second)) {
          c.value = *n;
        } else if (const auto* d = std::get_if<double>(&it->second);
                   d && *d == std::floor(*d)) {
          c.value = static_cast<std::int64_t>(*d);
        } else {
          p.add(w.line, w.path + ".params." + c.param,
                "must be an integer (used by " + o.path + "." + field + ")");
          return;
        }
        if (c.value < 0)
          p.add(w.line, w.path + ".params." + c.param, "must not be negative");
      };
  // templateParams values may name a workload param as `$name`.
  auto resolve_template_params = [&](template_params& params, const op& o) {
    for (auto& [key, value] : params) {
      if (!is_param(value))
        continue;
      std::string name = value.substr(1);
      used.insert(name);
      auto it = w.params.find(name);
      if (it == w.params.end()) {
        p.add(o.line, o.path + ".templateParams." + key,
              "parameter \"" + name + "\" is not defined by workload \""
                + w.name + "\"");
        continue;
      }
      value = std::visit(
        [](const auto& v) -> std::string {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, std::string>)
            return v;
          else if constexpr (std::is_same_v<V, bool>)
            return v ? "true" : "false";
          else
            return std::to_string(v);
        },
        it->second);
    }
  };
  auto resolve_pods = [&](create_pods_op& body, const op& o, std::size_t i) {
    resolve_count(body.signature_batch, o, "signatureBatchSizeParam");
    resolve_template_params(body.params, o);
    // No template at all: upstream's built-in base pod (empty path).
    if (body.template_path.empty())
      body.template_path = tc.default_pod_template;
    if (body.ns.empty())
      body.ns = "namespace-" + std::to_string(i);
  };
  plan out;
  out.test_case = tc.name;
  out.workload = w.name;
  out.default_pod_template = tc.default_pod_template;
  out.scheduler_config_path = tc.scheduler_config_path;
  out.gates = tc.gates;
  for (const auto& [gate, on] : w.gates)
    out.gates[gate] = on;
  out.threshold = w.threshold;
  out.api_qps = w.api_qps > 0 ? w.api_qps : tc.api_qps;
  out.api_burst = w.api_burst > 0 ? w.api_burst : tc.api_burst;
  out.notices = tc.notices;
  out.notices.insert(out.notices.end(), w.notices.begin(), w.notices.end());
  for (std::size_t i = 0; i < tc.ops.size(); ++i) {
    const op& o = tc.ops[i];
    planned_op po{o.body, i, o.path};
    std::visit(
      [&](auto& body) {
        using T = std::decay_t<decltype(body)>;
        if constexpr (requires { body.count; }) {
          resolve_count(body.count, o, "countParam");
        }
        if constexpr (std::is_same_v<
                        T, create_any_op> || std::is_same_v<T, update_any_op>) {
          resolve_template_params(body.params, o);
        }
        if constexpr (std::is_same_v<T, create_pod_sets_op>) {
          resolve_count(body.pods.count, o, "createPodsOp.countParam");
          resolve_pods(body.pods, o, i);
        }
        if constexpr (std::is_same_v<T, sleep_op>) {
          if (!body.param.empty()) {
            used.insert(body.param);
            auto it = w.params.find(body.param);
            const std::string* s = it == w.params.end()
                                     ? nullptr
                                     : std::get_if<std::string>(&it->second);
            auto d = s ? parse_go_duration(*s) : std::nullopt;
            if (it == w.params.end())
              p.add(o.line, o.path + ".durationParam",
                    "parameter \"" + body.param
                      + "\" is not defined by workload \"" + w.name + "\"");
            else if (!d)
              p.add(w.line, w.path + ".params." + body.param,
                    "must be a duration such as \"1s\"");
            else
              body.duration = *d;
          }
        }
        if constexpr (std::is_same_v<T, create_pods_op>) {
          resolve_pods(body, o, i);
        }
        if constexpr (std::is_same_v<T, churn_op>) {
          if (body.ns.empty())
            body.ns = "namespace-" + std::to_string(i);
        }
      },
      po.body);
    out.ops.push_back(std::move(po));
  }
  for (const auto& [name, value] : w.params)
    if (used.count(name) == 0)
      p.add(w.line, w.path + ".params." + name,
            "parameter is defined but no op of test case \"" + tc.name
              + "\" uses it");
  if (!p.empty())
    return p.to_error();
  return out;
}

expected<std::vector<plan>> select_plans(const workload_file& f,
                                         const std::string& test_case,
                                         const std::string& workload) {
  std::vector<plan> out;
  bool tc_found = test_case.empty();
  bool w_found = workload.empty();
  std::string available;
  for (const auto& tc : f.test_cases) {
    for (const auto& w : tc.workloads)
      available += "\n  " + tc.name + "/" + w.name;
    if (!test_case.empty() && tc.name != test_case)
      continue;
    tc_found = true;
    if (!tc.problems.empty())
      return make_error(ec::invalid_input, tc.problems);
    for (const auto& w : tc.workloads) {
      if (!workload.empty() && w.name != workload)
        continue;
      w_found = true;
      if (!tc.unsupported.empty()) {
        plan skipped;
        skipped.test_case = tc.name;
        skipped.workload = w.name;
        skipped.threshold = w.threshold;
        skipped.gates = tc.gates;
        for (const auto& [gate, on] : w.gates)
          skipped.gates[gate] = on;
        for (const auto& u : tc.unsupported)
          skipped.skip_reason += (skipped.skip_reason.empty() ? "" : "; ") + u;
        skipped.skip_reason = "uses " + skipped.skip_reason
                              + ", which tessera perf does not implement";
        out.push_back(std::move(skipped));
        continue;
      }
      auto p = instantiate(f, tc, w);
      if (!p)
        return p.err();
      out.push_back(std::move(*p));
    }
  }
  if (!tc_found || !w_found || out.empty())
    return make_error(ec::invalid_input,
                      f.file + ": no workload matches"
                        + (test_case.empty() ? "" : " --test-case " + test_case)
                        + (workload.empty() ? "" : " --workload " + workload)
                        + "; the file has:" + available);
  return out;
}

} // namespace tessera::perf
