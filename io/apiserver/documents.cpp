// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/documents.hpp"

#include "io/apiserver/scale.hpp"
#include "support/version.hpp"

#include <boost/json.hpp>

namespace tessera::apiserver {

namespace json = boost::json;

namespace {

json::array split_csv(std::string_view s) {
  json::array out;
  while (!s.empty()) {
    auto c = s.find(',');
    out.emplace_back(s.substr(0, c));
    s = c == std::string_view::npos ? std::string_view{} : s.substr(c + 1);
  }
  return out;
}

std::string resource_list_json(std::string_view group,
                               std::string_view version) {
  json::array resources;
  for (const auto& r : all_resources()) {
    if (r.group != group || r.version != version)
      continue;
    json::object o;
    o["name"] = r.name;
    o["singularName"] = r.name == "bindings" ? "" : r.singular;
    o["namespaced"] = r.namespaced;
    o["kind"] = r.kind;
    o["verbs"] = split_csv(r.verbs);
    if (!r.short_names.empty())
      o["shortNames"] = split_csv(r.short_names);
    // `kubectl get all`: the kinds upstream puts in the category.
    for (std::string_view in_all :
         {"pods", "services", "replicationcontrollers", "deployments",
          "replicasets", "statefulsets", "daemonsets", "jobs"})
      if (r.name == in_all && r.view == resource_view::stored)
        o["categories"] = json::array{"all"};
    resources.push_back(std::move(o));
    auto sub = [&](std::string_view name, std::string_view kind,
                   std::string_view verbs) {
      json::object s;
      s["name"] = std::string{r.name} + "/" + std::string{name};
      s["singularName"] = "";
      s["namespaced"] = r.namespaced;
      s["kind"] = kind;
      s["verbs"] = split_csv(verbs);
      resources.push_back(std::move(s));
    };
    if (r.name == "pods") {
      sub("binding", "Binding", "create");
      // kubectl drain evicts only when discovery lists this, with its
      // group and version.
      sub("eviction", "Eviction", "create");
      resources.back().as_object()["group"] = "policy";
      resources.back().as_object()["version"] = "v1";
      sub("resize", "Pod", "get,patch,update");
    }
    if (r.has_status)
      sub("status", r.kind, "get,patch,update");
    if (has_scale(r)) {
      // kubectl scale reads the group and version of the Scale from here.
      sub("scale", "Scale", "get,patch,update");
      resources.back().as_object()["group"] = "autoscaling";
      resources.back().as_object()["version"] = "v1";
    }
  }
  json::object doc;
  doc["kind"] = "APIResourceList";
  doc["apiVersion"] = "v1";
  doc["groupVersion"] = group.empty()
                          ? std::string{version}
                          : std::string{group} + "/" + std::string{version};
  doc["resources"] = std::move(resources);
  return json::serialize(doc);
}

json::object api_group_object(std::string_view group_version) {
  auto slash = group_version.find('/');
  auto group = group_version.substr(0, slash);
  auto version = group_version.substr(slash + 1);
  json::object gv;
  gv["groupVersion"] = group_version;
  gv["version"] = version;
  json::object g;
  g["name"] = group;
  g["versions"] = json::array{gv};
  g["preferredVersion"] = gv;
  return g;
}

} // namespace

std::string version_document(std::string_view git_version) {
  json::object v;
  std::string minor = "37";
  auto first = git_version.find('.');
  if (first != std::string_view::npos) {
    auto second = git_version.find('.', first + 1);
    minor = std::string{git_version.substr(first + 1, second - first - 1)};
  }
  v["major"] = "1";
  v["minor"] = minor;
  v["gitVersion"] = git_version;
  v["gitCommit"] = build::git_commit;
  v["gitTreeState"] = "clean";
  v["buildDate"] = "1970-01-01T00:00:00Z";
  v["goVersion"] = "n/a (tessera " + std::string{build::version} + ")";
  v["compiler"] = "gcc";
  v["platform"] = "linux/amd64";
  return json::serialize(v);
}

std::string api_versions_document(std::string_view server_address) {
  json::object doc;
  doc["kind"] = "APIVersions";
  doc["versions"] = json::array{"v1"};
  doc["serverAddressByClientCIDRs"] = json::array{json::object{
    {"clientCIDR", "0.0.0.0/0"}, {"serverAddress", server_address}}};
  return json::serialize(doc);
}

std::string api_group_list_document() {
  json::array groups;
  for (auto gv : api_groups())
    groups.push_back(api_group_object(gv));
  json::object doc;
  doc["kind"] = "APIGroupList";
  doc["apiVersion"] = "v1";
  doc["groups"] = std::move(groups);
  return json::serialize(doc);
}

std::optional<std::string> api_group_document(std::string_view group) {
  for (auto gv : api_groups())
    if (gv.substr(0, gv.find('/')) == group) {
      auto g = api_group_object(gv);
      g["kind"] = "APIGroup";
      g["apiVersion"] = "v1";
      return json::serialize(g);
    }
  return std::nullopt;
}

std::string api_resource_list_document(std::string_view group,
                                       std::string_view version) {
  return resource_list_json(group, version);
}

std::string metrics_text(const store_stats& store, std::uint64_t rv,
                         const request_counters& requests) {
  std::string out;
  auto line
    = [&](std::string_view name, std::string_view help, std::uint64_t v) {
        out += "# HELP ";
        out += name;
        out += ' ';
        out += help;
        out += "\n# TYPE ";
        out += name;
        out += name.ends_with("_total") ? " counter\n" : " gauge\n";
        out += name;
        out += ' ';
        out += std::to_string(v);
        out += '\n';
      };
  line("tessera_apiserver_requests_total", "HTTP requests served.",
       requests.requests);
  line("tessera_apiserver_request_errors_total",
       "HTTP requests answered with a 4xx or 5xx code.", requests.errors);
  line("tessera_apiserver_watches_total", "Watch streams opened.",
       requests.watches);
  line("tessera_apiserver_writes_total", "Store writes.", store.writes);
  line("tessera_apiserver_binds_total", "Successful bindings.", store.binds);
  line("tessera_apiserver_bind_conflicts_total", "Refused bindings.",
       store.bind_conflicts);
  line("tessera_apiserver_watch_events_total",
       "Watch events handed to watchers.", store.events_delivered);
  line("tessera_apiserver_watchers_dropped_total",
       "Watchers dropped for falling behind.", store.watchers_dropped);
  line("tessera_apiserver_watchers", "Open watchers.", store.watchers_open);
  line("tessera_apiserver_resource_version", "Current resourceVersion.", rv);
  return out;
}

} // namespace tessera::apiserver
