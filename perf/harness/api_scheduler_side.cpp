// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/api_scheduler_side.hpp"

#include <utility>

namespace tessera::perf {

std::unique_ptr<io::rest_client> make_perf_client(const io::rest_config& target,
                                                  const target_options& o,
                                                  const char* agent) {
  io::rest_client_config rc;
  rc.target = target;
  rc.qps = o.qps;
  rc.burst = o.burst;
  rc.user_agent = agent;
  rc.metrics = o.metrics;
  return std::make_unique<io::rest_client>(std::move(rc));
}

void api_scheduler_side::close() {
  if (client)
    client->shutdown();
  if (sink)
    sink->stop();
  if (events)
    events->stop();
  if (event_client)
    event_client->shutdown();
  sink.reset();
  source.reset();
  events.reset();
  client.reset();
  event_client.reset();
}

} // namespace tessera::perf
