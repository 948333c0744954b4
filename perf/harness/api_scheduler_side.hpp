// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `api_scheduler_side`: what the pipeline talks to when a target is reached
/// over HTTP (the embedded API server on loopback, or a kubeconfig cluster):
/// a client for watches and bindings, a second one for events, the event
/// recorder, and the API source and sink built on them. Both HTTP targets
/// make their clients and shut these pieces down the same way.
#pragma once

#include "adapters/api_client/api_sink.hpp"
#include "adapters/api_client/api_source.hpp"
#include "io/event_recorder.hpp"
#include "io/rest_client.hpp"
#include "perf/harness/target.hpp"

#include <memory>

namespace tessera::perf {

/// A client of `target` with the run's rate limits, metrics and the user
/// agent `agent`.
std::unique_ptr<io::rest_client> make_perf_client(const io::rest_config& target,
                                                  const target_options& o,
                                                  const char* agent);

/// The scheduler's pieces of an HTTP target; each is null until opened.
struct api_scheduler_side {
  std::unique_ptr<io::rest_client> client;
  std::unique_ptr<io::rest_client> event_client;
  std::unique_ptr<io::event_recorder> events;
  std::unique_ptr<adapters::api_source> source;
  std::unique_ptr<adapters::api_sink> sink;

  /// Stops the requests in flight first, then the sink and the recorder,
  /// and releases everything; safe on a side that was never opened.
  void close();
};

} // namespace tessera::perf
