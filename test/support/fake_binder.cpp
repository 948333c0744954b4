// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/support/fake_binder.hpp"

#include <boost/json.hpp>

#include <chrono>

namespace tessera::test {

namespace {

/// The node a pod's required node affinity names by `metadata.name` (a
/// DaemonSet's pod), or "".
std::string named_node(const apiserver::stored_object& pod) {
  if (pod.json().find("\"metadata.name\"") == std::string::npos)
    return {};
  boost::json::error_code ec;
  auto doc = boost::json::parse(pod.json(), ec);
  if (ec)
    return {};
  const auto* node = doc.find_pointer(
    "/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution"
    "/nodeSelectorTerms/0/matchFields/0/values/0",
    ec);
  return node && node->is_string() ? std::string{node->as_string()}
                                   : std::string{};
}

} // namespace

fake_binder::fake_binder(apiserver::store& st, std::vector<std::string> nodes)
  : st_(st), nodes_(std::move(nodes)), thread_([this] { run(); }) {
}

fake_binder::~fake_binder() {
  stop_ = true;
  thread_.join();
}

void fake_binder::run() {
  const auto& pods = apiserver::primary_resource(apiserver::storage_kind::pod);
  std::size_t next = 0;
  while (!stop_) {
    apiserver::list_options unbound;
    unbound.field_selector = "spec.nodeName=";
    if (auto l = st_.list(pods, "", unbound))
      for (const auto& p : l->items) {
        apiserver::binding b;
        b.ns = p->ns();
        b.name = p->name();
        b.node = named_node(*p);
        if (b.node.empty())
          b.node = nodes_[next++ % nodes_.size()];
        (void)st_.bind(b);
      }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

} // namespace tessera::test
