// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The kubeconfig target: a real cluster (typically kwok). The harness
// creates kwok-fake nodes and its own namespaces, refuses namespaces that
// already exist, and deletes everything it created when it is done.
#include "adapters/api_client/api_sink.hpp"
#include "adapters/api_client/api_source.hpp"
#include "io/apiserver/resources.hpp"
#include "io/event_recorder.hpp"
#include "io/kubeconfig.hpp"
#include "io/rest_client.hpp"
#include "perf/harness/api_scheduler_side.hpp"
#include "perf/harness/embedded_target.hpp"
#include "perf/harness/resource_usage.hpp"
#include "support/log.hpp"
#include "support/thread_body.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::perf {

namespace {

std::string collection_path(const apiserver::resource_info& r,
                            const std::string& ns) {
  std::string path = r.group.empty() ? "/api/" + std::string{r.version}
                                     : "/apis/" + std::string{r.group} + "/"
                                         + std::string{r.version};
  if (r.namespaced)
    path += "/namespaces/" + ns;
  return path + "/" + std::string{r.name};
}

class kubeconfig_target final : public target {
public:
  kubeconfig_target(const target_options& o, io::rest_config rc)
    : options_(o), config_(std::move(rc)) {
    writer_ = make_client("tessera-perf/harness");
  }

  ~kubeconfig_target() override {
    close_scheduler_side();
    if (writer_)
      writer_->shutdown();
  }

  std::unique_ptr<io::rest_client> make_client(const char* agent) const {
    return make_perf_client(config_, options_, agent);
  }

  target_kind kind() const noexcept override {
    return target_kind::kubeconfig;
  }
  bool kwok_marks() const noexcept override {
    return true;
  }
  bool runs_scheduler() const noexcept override {
    return !options_.external_scheduler;
  }

  expected<created_object> create(const object_template& t,
                                  const std::string& ns,
                                  const std::string& json) override {
    const auto* res = find_embedded_resource(t.api_version, t.kind);
    if (res == nullptr)
      return make_error(ec::unsupported, t.file
                                           + ": tessera perf does not "
                                             "create "
                                           + t.api_version + " " + t.kind);
    if (res->namespaced && !owns_namespace(ns))
      return make_error(ec::invalid_input,
                        "refusing to create " + t.kind + " in namespace \"" + ns
                          + "\": this run did not create it");
    for (int attempt = 0;; ++attempt) {
      io::http_request req;
      req.method = "POST";
      req.target = collection_path(*res, ns);
      req.body = json;
      req.content_type = "application/json";
      auto r = writer_->request(req);
      if (!r)
        return r.err();
      if (r->status == 409 && !t.generate_name.empty()
          && attempt < max_name_retries)
        continue;
      if (r->status < 200 || r->status >= 300) {
        auto e = io::status_error(*r);
        e.message = t.file + ": creating " + t.kind + ": " + e.message;
        return e;
      }
      auto name = object_name_of(r->body);
      if (!name)
        return name.err();
      if (!res->namespaced) {
        std::lock_guard guard{mu_};
        cluster_scoped_.push_back({collection_path(*res, ""), *name});
      }
      return created_object{
        *name, std::make_shared<const std::string>(std::move(r->body))};
    }
  }

  error create_pods(const object_template& t, const std::string& ns,
                    const std::string& json, std::size_t count,
                    const std::function<void(const created_object&,
                                             time_point)>& created) override {
    std::atomic<std::size_t> next{0};
    std::mutex report;
    error first;
    std::atomic<bool> failed{false};
    auto work = [&] {
      if (options_.meter)
        options_.meter->exclude_this_thread();
      while (!failed.load()) {
        std::size_t i = next.fetch_add(1);
        if (i >= count)
          break;
        time_point at = std::chrono::steady_clock::now();
        auto made = create(t, ns, json);
        std::lock_guard guard{report};
        if (!made) {
          if (!failed.exchange(true))
            first = made.err();
          break;
        }
        created(*made, at);
      }
      if (options_.meter)
        options_.meter->thread_exiting();
    };
    std::size_t n = std::max<std::size_t>(
      1,
      std::min<std::size_t>(
        static_cast<std::size_t>(std::max(options_.create_workers, 1)), count));
    std::vector<std::thread> workers;
    for (std::size_t i = 0; i < n; ++i)
      workers.emplace_back([&] {
        // A worker that died fails the op like a refused create.
        if (run_thread_body("perf:create", work))
          return;
        std::lock_guard guard{report};
        if (!failed.exchange(true))
          first = make_error(ec::internal, "a create worker failed");
      });
    for (auto& w : workers)
      w.join();
    return first;
  }

  error update_object(const apiserver::resource_info& res,
                      const object_template& t, const std::string& ns,
                      const std::string& name, const std::string& json,
                      const std::string& subresource) override {
    if (res.namespaced && !owns_namespace(ns))
      return make_error(ec::invalid_input,
                        "refusing to update in namespace \"" + ns + "\"");
    io::http_request req;
    req.method = "PUT";
    req.target = collection_path(res, ns) + "/" + name
                 + (subresource.empty() ? "" : "/" + subresource);
    req.body = json;
    req.content_type = "application/json";
    auto r = writer_->request(req);
    if (!r)
      return r.err();
    if (r->status >= 200 && r->status < 300)
      return {};
    auto e = io::status_error(*r);
    e.message = t.file + ": updating " + t.kind + " " + name + ": " + e.message;
    return e;
  }

  error remove_object(const apiserver::resource_info& res,
                      const object_template&, const std::string& ns,
                      const std::string& name) override {
    if (res.namespaced && !owns_namespace(ns))
      return make_error(ec::invalid_input,
                        "refusing to delete in namespace \"" + ns + "\"");
    io::http_request req;
    req.method = "DELETE";
    req.target = collection_path(res, ns) + "/" + name;
    auto r = writer_->request(req);
    if (!r)
      return r.err();
    if (r->status == 404 || (r->status >= 200 && r->status < 300))
      return {};
    return io::status_error(*r);
  }

  error create_namespace(const std::string& name,
                         const std::string& json) override {
    if (owns_namespace(name))
      return {};
    io::http_request req;
    req.method = "POST";
    req.target = "/api/v1/namespaces";
    req.body = json;
    req.content_type = "application/json";
    auto r = writer_->request(req);
    if (!r)
      return r.err();
    if (r->status == 409)
      return make_error(ec::invalid_input,
                        "namespace \"" + name
                          + "\" already exists and was not created by this "
                            "run; refusing to use it (delete it or rename the "
                            "workload's namespaces)");
    if (r->status < 200 || r->status >= 300)
      return io::status_error(*r);
    std::lock_guard guard{mu_};
    namespaces_.push_back(name);
    return {};
  }

  error open_scheduler_side() override {
    side_.client = make_client("tessera-perf");
    adapters::api_source_config source_cfg;
    source_cfg.metrics = options_.metrics;
    side_.source
      = std::make_unique<adapters::api_source>(*side_.client, source_cfg);
    if (options_.external_scheduler)
      return {};
    side_.event_client = make_client("tessera-perf/events");
    io::event_recorder_config ec;
    ec.use_events_v1 = side_.client->has_events_v1();
    side_.events
      = std::make_unique<io::event_recorder>(*side_.event_client, ec);
    if (options_.record_events)
      side_.events->start();
    side_.sink = std::make_unique<adapters::api_sink>(
      *side_.client, *side_.events, adapters::api_sink_config{});
    return {};
  }

  actors::cluster_source& source() override {
    return *side_.source;
  }
  actors::cluster_sink& sink() override {
    return *side_.sink;
  }

  void close_scheduler_side() override {
    side_.close();
  }

  void cleanup() override {
    std::vector<std::string> paths;
    {
      std::lock_guard guard{mu_};
      for (const auto& ns : namespaces_)
        paths.push_back("/api/v1/namespaces/" + ns);
      for (const auto& [collection, name] : cluster_scoped_)
        paths.push_back(collection + "/" + name);
      namespaces_.clear();
      cluster_scoped_.clear();
    }
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> failures{0};
    auto work = [&] {
      for (std::size_t i = next.fetch_add(1); i < paths.size();
           i = next.fetch_add(1)) {
        io::http_request req;
        req.method = "DELETE";
        req.target = paths[i];
        auto r = writer_->request(req);
        if (!r || (r->status != 404 && (r->status < 200 || r->status >= 300)))
          ++failures;
      }
    };
    std::vector<std::thread> workers;
    for (int i = 0; i < std::max(options_.create_workers, 1); ++i)
      workers.emplace_back([&] {
        if (!run_thread_body("perf:cleanup", work))
          ++failures;
      });
    for (auto& w : workers)
      w.join();
    if (failures > 0)
      TLOG_WARN("perf: clean-up left objects behind", "failed", failures.load(),
                "label", run_label);
  }

private:
  bool owns_namespace(const std::string& ns) const {
    std::lock_guard guard{mu_};
    return std::find(namespaces_.begin(), namespaces_.end(), ns)
           != namespaces_.end();
  }

  target_options options_;
  io::rest_config config_;
  std::unique_ptr<io::rest_client> writer_;
  api_scheduler_side side_;
  mutable std::mutex mu_;
  std::vector<std::string> namespaces_;
  std::vector<std::pair<std::string, std::string>> cluster_scoped_;
};

} // namespace

expected<std::unique_ptr<target>>
make_kubeconfig_target(const target_options& options) {
  io::kubeconfig_options ko;
  ko.kubeconfig = options.kubeconfig;
  ko.context = options.context;
  auto rc = io::load_rest_config(ko);
  if (!rc)
    return rc.err();
  auto t = std::make_unique<kubeconfig_target>(options, std::move(*rc));
  return std::unique_ptr<target>{std::move(t)};
}

} // namespace tessera::perf
