// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Throughput of the embedded API server over loopback:
//   BM_BindingPosts/<connections>/<kwok>  POST pods/{name}/binding from N
//       keep-alive connections (one thread each, tessera's http_client);
//       kwok=1 also runs the fake kubelet, which turns every bound pod
//       Running (a second write per pod). Goal: >= 20,000 binds/s with 8.
//   BM_WatchFanout/<watchers>/<decode>  one in-process writer patches pods,
//       N HTTP watchers read the MODIFIED stream line by line (decode=1 also
//       parses every line as JSON, as a real informer would). Reports events
//       delivered per second summed over watchers. Goal: >= 200,000 with 4.
// Each run is one timed iteration (manual time) over the whole workload.
#include "io/apiserver/kwok.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "io/http_client.hpp"
#include "support/thread_body.hpp"

#include <benchmark/benchmark.h>
#include <boost/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace tessera;
using namespace tessera::apiserver;
using clock_type = std::chrono::steady_clock;

const resource_info& pods() {
  return primary_resource(storage_kind::pod);
}

std::string pod_json(int i) {
  return R"({"metadata":{"name":"p)" + std::to_string(i)
         + R"(","labels":{"app":"bench"}},"spec":{"containers":[{"name":"c","image":"registry.k8s.io/pause:3.9","resources":{"requests":{"cpu":"100m","memory":"64Mi"}}}]}})";
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

void BM_BindingPosts(benchmark::State& state) {
  const int conns = static_cast<int>(state.range(0));
  const bool kwok = state.range(1) != 0;
  const int per_conn = env_int("TESSERA_BENCH_BINDS", 80000) / conns;
  for (auto _ : state) {
    store_config sc;
    sc.history_size = 1000;
    store st{sc};
    fake_node_options nodes;
    if (create_fake_nodes(st, 100, nodes)) {
      state.SkipWithError("cannot create nodes");
      return;
    }
    for (int i = 0; i < conns * per_conn; ++i)
      if (!st.create(pods(), "default", pod_json(i))) {
        state.SkipWithError("cannot create pods");
        return;
      }
    std::unique_ptr<kwok_controller> kubelet;
    if (kwok)
      kubelet = std::make_unique<kwok_controller>(st, kwok_config{});
    server_config cfg;
    cfg.port = 0;
    cfg.threads = env_int("TESSERA_BENCH_SERVER_THREADS", 2);
    auto srv = api_server::start(st, cfg);
    if (!srv) {
      state.SkipWithError(srv.err().message.c_str());
      return;
    }
    std::vector<std::unique_ptr<io::http_client>> clients;
    for (int c = 0; c < conns; ++c) {
      io::client_config cc;
      cc.port = (*srv)->port();
      clients.push_back(std::make_unique<io::http_client>(cc));
      (void)clients.back()->get("/healthz"); // connect before timing
    }
    std::atomic<int> ok{0};
    std::atomic<int> failed{0};
    auto t0 = clock_type::now();
    std::vector<std::thread> threads;
    for (int c = 0; c < conns; ++c)
      threads.emplace_back([&, c] {
        // A thread that dies fails the rest of its binds, logged.
        if (!run_thread_body("bench:bind", [&] {
              auto& client = *clients[static_cast<std::size_t>(c)];
              for (int k = 0; k < per_conn; ++k) {
                int i = c * per_conn + k;
                std::string name = "p" + std::to_string(i);
                char node[16];
                std::snprintf(node, sizeof node, "node-%06d", i % 100);
                auto r = client.post(
                  "/api/v1/namespaces/default/pods/" + name + "/binding",
                  R"({"kind":"Binding","apiVersion":"v1","metadata":{"name":")"
                    + name + R"("},"target":{"kind":"Node","name":")" + node
                    + "\"}}");
                if (r && r->status == 201)
                  ++ok;
                else
                  ++failed;
              }
            }))
          ++failed;
      });
    for (auto& t : threads)
      t.join();
    double secs = std::chrono::duration<double>(clock_type::now() - t0).count();
    state.SetIterationTime(secs);
    state.counters["binds"] = ok.load();
    state.counters["failed"] = failed.load();
    state.counters["binds_per_s"] = ok.load() / secs;
    if (kubelet) {
      // Let the fake kubelet finish, for the record.
      auto deadline = clock_type::now() + std::chrono::seconds(30);
      while (kubelet->writes() < static_cast<std::size_t>(ok.load())
             && clock_type::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      double all
        = std::chrono::duration<double>(clock_type::now() - t0).count();
      state.counters["running_per_s"] = kubelet->writes() / all;
    }
    (*srv)->stop();
  }
}
BENCHMARK(BM_BindingPosts)
  ->Args({8, 0})
  ->Args({8, 1})
  ->Args({1, 0})
  ->Iterations(1)
  ->UseManualTime()
  ->Unit(benchmark::kMillisecond);

void BM_WatchFanout(benchmark::State& state) {
  const int watchers = static_cast<int>(state.range(0));
  const bool decode = state.range(1) != 0;
  const int events = env_int("TESSERA_BENCH_EVENTS", 100000);
  const int objects = 1000;
  for (auto _ : state) {
    store_config sc;
    sc.history_size = static_cast<std::size_t>(events) + 2 * objects;
    sc.watch_queue_limit = static_cast<std::size_t>(events) + 2 * objects;
    store st{sc};
    for (int i = 0; i < objects; ++i)
      (void)st.create(pods(), "default", pod_json(i));
    server_config cfg;
    cfg.port = 0;
    cfg.threads = env_int("TESSERA_BENCH_SERVER_THREADS", 2);
    auto srv = api_server::start(st, cfg);
    if (!srv) {
      state.SkipWithError(srv.err().message.c_str());
      return;
    }
    const std::string rv = std::to_string(st.resource_version());
    std::vector<std::unique_ptr<io::line_stream>> streams;
    for (int w = 0; w < watchers; ++w) {
      io::client_config cc;
      cc.port = (*srv)->port();
      io::http_client c{cc};
      io::http_request r;
      r.target
        = "/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + rv;
      auto s = c.stream(r);
      if (!s) {
        state.SkipWithError(s.err().message.c_str());
        return;
      }
      streams.push_back(std::move(*s));
    }
    std::atomic<long> delivered{0};
    std::atomic<int> bad{0};
    std::vector<std::thread> readers;
    std::vector<clock_type::time_point> finished(
      static_cast<std::size_t>(watchers));
    for (int w = 0; w < watchers; ++w)
      readers.emplace_back([&, w] {
        // A reader that dies counts as an error, logged.
        if (!run_thread_body("bench:watch", [&] {
              auto& s = *streams[static_cast<std::size_t>(w)];
              boost::json::parser p;
              int got = 0;
              while (got < events) {
                auto line = s.next_line(std::chrono::seconds(30));
                if (!line || !*line) {
                  ++bad;
                  break;
                }
                if (decode) {
                  boost::json::error_code ec;
                  p.reset();
                  p.write(**line, ec);
                  if (ec) {
                    ++bad;
                    continue;
                  }
                  auto v = p.release();
                  benchmark::DoNotOptimize(v);
                }
                ++got;
              }
              delivered += got;
              finished[static_cast<std::size_t>(w)] = clock_type::now();
            }))
          ++bad;
      });
    auto t0 = clock_type::now();
    for (int i = 0; i < events; ++i) {
      auto r = st.patch(
        pods(), "default", "p" + std::to_string(i % objects), patch_type::merge,
        R"({"metadata":{"annotations":{"seq":")" + std::to_string(i) + "\"}}}",
        subresource::main);
      if (!r)
        ++bad;
    }
    auto t_written = clock_type::now();
    for (auto& t : readers)
      t.join();
    auto t_end = t0;
    for (auto f : finished)
      t_end = std::max(t_end, f);
    double secs = std::chrono::duration<double>(t_end - t0).count();
    state.SetIterationTime(secs);
    state.counters["delivered"] = static_cast<double>(delivered.load());
    state.counters["errors"] = bad.load();
    state.counters["events_per_s"]
      = static_cast<double>(delivered.load()) / secs;
    state.counters["writes_per_s"]
      = events / std::chrono::duration<double>(t_written - t0).count();
    state.counters["dropped"]
      = static_cast<double>(st.stats().watchers_dropped);
    (*srv)->stop();
  }
}
BENCHMARK(BM_WatchFanout)
  ->Args({4, 0})
  ->Args({4, 1})
  ->Args({1, 0})
  ->Iterations(1)
  ->UseManualTime()
  ->Unit(benchmark::kMillisecond);

/// The store alone (the in-process target): creates, merge patches and
/// bindings per second on one thread, with `watchers` in-process watchers
/// draining on their own threads.
void BM_StoreWrites(benchmark::State& state) {
  const int watchers = static_cast<int>(state.range(0));
  const int n = env_int("TESSERA_BENCH_STORE_OPS", 50000);
  for (auto _ : state) {
    store_config sc;
    sc.history_size = 10000;
    sc.watch_queue_limit = static_cast<std::size_t>(4 * n);
    store st{sc};
    std::vector<std::shared_ptr<watcher>> ws;
    std::atomic<bool> stop{false};
    std::atomic<long> seen{0};
    std::vector<std::thread> drains;
    for (int w = 0; w < watchers; ++w) {
      auto r = st.watch(pods(), "", {});
      ws.push_back(*r);
      drains.emplace_back([&, w] {
        // A drain that dies leaves its watcher to fill up: the `dropped`
        // counter shows it, and the log says why.
        (void)run_thread_body("bench:drain", [&] {
          std::vector<watch_event> batch;
          while (!stop) {
            ws[static_cast<std::size_t>(w)]->wait_for(
              std::chrono::milliseconds(10));
            batch.clear();
            seen += static_cast<long>(
              ws[static_cast<std::size_t>(w)]->poll(batch));
          }
        });
      });
    }
    auto t0 = clock_type::now();
    for (int i = 0; i < n; ++i)
      (void)st.create(pods(), "default", pod_json(i));
    auto t1 = clock_type::now();
    for (int i = 0; i < n; ++i)
      (void)st.patch(
        pods(), "default", "p" + std::to_string(i), patch_type::merge,
        R"({"metadata":{"annotations":{"seq":"1"}}})", subresource::main);
    auto t2 = clock_type::now();
    for (int i = 0; i < n; ++i)
      (void)st.bind(
        {"default", "p" + std::to_string(i), "node-000001", "", "", {}});
    auto t3 = clock_type::now();
    stop = true;
    for (auto& t : drains)
      t.join();
    auto secs = [](auto a, auto b) {
      return std::chrono::duration<double>(b - a).count();
    };
    state.SetIterationTime(secs(t0, t3));
    state.counters["creates_per_s"] = n / secs(t0, t1);
    state.counters["patches_per_s"] = n / secs(t1, t2);
    state.counters["binds_per_s"] = n / secs(t2, t3);
    state.counters["events_seen"] = static_cast<double>(seen.load());
  }
}
BENCHMARK(BM_StoreWrites)
  ->Arg(0)
  ->Arg(4)
  ->Iterations(1)
  ->UseManualTime()
  ->Unit(benchmark::kMillisecond);

} // namespace
