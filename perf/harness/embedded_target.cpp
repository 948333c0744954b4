// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The embedded targets: an apiserver::store with the fake kubelet, which
// the scheduler reaches directly (inprocess) or over loopback HTTP
// (embedded-http).
#include "perf/harness/embedded_target.hpp"

#include "adapters/api_client/api_sink.hpp"
#include "adapters/api_client/api_source.hpp"
#include "adapters/embedded_store/store_bridge.hpp"
#include "io/apiserver/kwok.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "io/event_recorder.hpp"
#include "io/kubeconfig.hpp"
#include "io/rest_client.hpp"
#include "perf/harness/api_scheduler_side.hpp"

namespace tessera::perf {

namespace {

class embedded_target final : public target {
public:
  explicit embedded_target(const target_options& o) : options_(o) {
    apiserver::store_config sc;
    sc.seed = o.seed;
    // The harness creates thousands of objects at once and every consumer
    // reads them: buffer generously rather than drop watchers. The history
    // (for watches resumed from an older version) keeps its default: every
    // record holds an object version alive, which at a million pods would
    // be gigabytes that no watcher reads.
    sc.watch_queue_limit = std::size_t{1} << 22;
    // Upstream's scheduler_perf API server runs without the Priority
    // admission plugin: its templates set spec.priority without a class.
    sc.priority_admission = false;
    sc.default_toleration_seconds = false;
    st_ = std::make_unique<apiserver::store>(sc);
    // Without the fake kubelet, bound pods stay Pending and a graceful
    // deletion of a bound pod waits for its grace period, as on upstream's
    // scheduler_perf cluster (an API server and no kubelet).
    if (o.fake_kubelet) {
      apiserver::kwok_config kc;
      kc.manage_all_nodes = true;
      kwok_ = std::make_unique<apiserver::kwok_controller>(*st_, kc);
    }
  }

  error start_server() {
    apiserver::server_config cfg;
    cfg.port = 0;
    cfg.threads = options_.server_threads;
    auto srv = apiserver::api_server::start(*st_, cfg);
    if (!srv)
      return srv.err();
    server_ = std::move(*srv);
    return {};
  }

  ~embedded_target() override {
    close_scheduler_side();
    if (server_)
      server_->stop();
    kwok_.reset();
  }

  target_kind kind() const noexcept override {
    return options_.kind;
  }

  expected<created_object> create(const object_template& t,
                                  const std::string& ns,
                                  const std::string& json) override {
    const auto* res = find_embedded_resource(t.api_version, t.kind);
    if (res == nullptr)
      return make_error(ec::unsupported,
                        t.file + ": the embedded cluster does not serve "
                          + t.api_version + " " + t.kind);
    std::string in_ns = res->namespaced ? ns : std::string{};
    for (int attempt = 0;; ++attempt) {
      auto r = st_->create(*res, in_ns, json);
      if (r)
        return created_object{std::string{(*r)->name()}, (*r)->json_ptr()};
      if (r.err().code == 409 && r.err().reason == "AlreadyExists"
          && !t.generate_name.empty() && attempt < max_name_retries)
        continue;
      auto e = apiserver::to_error(r.err());
      e.message = t.file + ": creating " + t.kind + ": " + r.err().message;
      return e;
    }
  }

  error update_object(const apiserver::resource_info& res,
                      const object_template& t, const std::string& ns,
                      const std::string& name, const std::string& json,
                      const std::string& subresource) override {
    auto sub = subresource == "status"   ? apiserver::subresource::status
               : subresource == "resize" ? apiserver::subresource::resize
                                         : apiserver::subresource::main;
    auto r
      = st_->update(res, res.namespaced ? ns : std::string{}, name, json, sub);
    if (!r) {
      auto e = apiserver::to_error(r.err());
      e.message
        = t.file + ": updating " + t.kind + " " + name + ": " + r.err().message;
      return e;
    }
    return {};
  }

  error remove_object(const apiserver::resource_info& res,
                      const object_template&, const std::string& ns,
                      const std::string& name) override {
    auto r = st_->remove(res, res.namespaced ? ns : std::string{}, name);
    if (!r && r.err().code != 404)
      return apiserver::to_error(r.err());
    return {};
  }

  error create_namespace(const std::string& name,
                         const std::string& json) override {
    const auto& res
      = apiserver::primary_resource(apiserver::storage_kind::namespace_);
    auto r = st_->create(res, "", json);
    if (!r && r.err().code != 409)
      return make_error(ec::invalid_input,
                        "creating namespace " + name + ": " + r.err().message);
    return {};
  }

  error open_scheduler_side() override {
    if (options_.kind == target_kind::inprocess) {
      adapters::store_bridge_config bc;
      bc.record_events = options_.record_events;
      bridge_ = std::make_unique<adapters::store_bridge>(*st_, bc);
      return {};
    }
    io::rest_config target;
    target.server = server_->url();
    auto url = io::parse_server_url(target.server);
    if (!url)
      return url.err();
    target.url = *url;
    target.origin = "embedded-http";
    http_.client = make_perf_client(target, options_, "tessera-perf");
    http_.event_client
      = make_perf_client(target, options_, "tessera-perf/events");
    io::event_recorder_config ec;
    ec.use_events_v1 = true;
    http_.events
      = std::make_unique<io::event_recorder>(*http_.event_client, ec);
    // Without writers the recorder's bounded queue drops what it cannot
    // hold: events off.
    if (options_.record_events)
      http_.events->start();
    adapters::api_source_config source_cfg;
    source_cfg.metrics = options_.metrics;
    http_.source
      = std::make_unique<adapters::api_source>(*http_.client, source_cfg);
    adapters::api_sink_config sc;
    http_.sink
      = std::make_unique<adapters::api_sink>(*http_.client, *http_.events, sc);
    return {};
  }

  actors::cluster_source& source() override {
    if (bridge_)
      return *bridge_;
    return *http_.source;
  }
  actors::cluster_sink& sink() override {
    if (bridge_)
      return *bridge_;
    return *http_.sink;
  }

  void close_scheduler_side() override {
    if (bridge_) {
      bridge_->stop();
      bridge_.reset();
    }
    http_.close();
  }

private:
  target_options options_;
  std::unique_ptr<apiserver::store> st_;
  std::unique_ptr<apiserver::kwok_controller> kwok_;
  std::unique_ptr<apiserver::api_server> server_;
  // inprocess
  std::unique_ptr<adapters::store_bridge> bridge_;
  // embedded-http
  api_scheduler_side http_;
};

} // namespace

const apiserver::resource_info*
find_embedded_resource(std::string_view api_version, std::string_view kind) {
  for (const auto& r : apiserver::all_resources())
    if (r.kind == kind && r.api_version() == api_version
        && r.view == apiserver::resource_view::stored)
      return &r;
  return nullptr;
}

expected<const apiserver::resource_info*> resource_of(const object_template& t,
                                                      std::string_view verb) {
  const auto* res = find_embedded_resource(t.api_version, t.kind);
  if (res == nullptr)
    return make_error(ec::unsupported,
                      "cannot " + std::string{verb} + " " + t.kind);
  return res;
}

expected<std::unique_ptr<target>>
make_embedded_target(const target_options& options) {
  auto t = std::make_unique<embedded_target>(options);
  if (options.kind == target_kind::embedded_http)
    if (auto e = t->start_server())
      return e;
  return std::unique_ptr<target>{std::move(t)};
}

} // namespace tessera::perf
