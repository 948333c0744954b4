// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Test helpers shared by the volume plugin tests (header-only, included by
/// tests only): pod volumes of each source kind, a `storage_view` built by
/// hand, object by object, and the claim-added queueing hint's common cases.
#pragma once

#include "model/pod.hpp"
#include "model/storage.hpp"
#include "model/storage_view.hpp"
#include "plugins/framework/cluster_context.hpp"
#include "plugins/framework/cluster_event.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "test/support/builders.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::plugins::volume_testing {

/// A persistentVolumeClaim volume.
inline model::volume claim_volume(std::string claim, bool read_only = false) {
  model::volume v;
  v.name = "vol-" + claim;
  v.type = "persistentVolumeClaim";
  v.claim_name = std::move(claim);
  v.read_only = read_only;
  return v;
}

/// A generic ephemeral volume `name` of pod `pod` (its claim is
/// "<pod>-<name>").
inline model::volume ephemeral_volume(const std::string& pod,
                                      std::string name) {
  model::volume v;
  v.type = "ephemeral";
  v.ephemeral = true;
  v.claim_name = pod + "-" + name;
  v.name = std::move(name);
  return v;
}

/// An inline disk: `type` is "gcePersistentDisk", "awsElasticBlockStore",
/// "iscsi" or "rbd" (`id` is then "pool/image").
inline model::volume disk(std::string type, std::string id,
                          bool read_only = false,
                          std::vector<std::string> monitors = {}) {
  model::volume v;
  v.name = "disk-" + id;
  v.type = std::move(type);
  v.disk_id = std::move(id);
  v.read_only = read_only;
  v.rbd_monitors = std::move(monitors);
  return v;
}

/// An inline in-tree source that attaches as `driver` / `handle`.
inline model::volume inline_attach(std::string type, std::string driver,
                                   std::string handle) {
  model::volume v = disk(std::move(type), handle);
  v.attach = {std::move(driver), std::move(handle)};
  return v;
}

/// The pod of `b` with `volumes` added.
inline model::pod_ptr with_volumes(const test::pod_builder& b,
                                   std::vector<model::volume> volumes) {
  model::pod p = b.build_value();
  for (auto& v : volumes)
    p.volumes.push_back(std::move(v));
  return std::make_shared<model::pod>(std::move(p));
}

/// A claim object `name` of namespace `ns`, as a queueing hint receives it.
inline model::persistent_volume_claim_ptr claim_object(std::string_view ns,
                                                       std::string name) {
  auto c = std::make_shared<model::persistent_volume_claim>();
  c->ns = model::symbol{ns};
  c->name = std::move(name);
  return c;
}

/// Checks a claim-added `hint` for `waiting`, a pod of namespace "default"
/// using the claim "data": that claim queues the pod, a namesake in another
/// namespace and another claim do not; then the plugin's own `more` cases.
inline void expect_claim_added_hints(
  const hint_function& hint, const model::pod_ptr& waiting,
  std::vector<
    plugin_testing::waiting_hint_case<model::persistent_volume_claim_ptr>>
    more
  = {}) {
  more.insert(more.begin(),
              {
                {"the pod's claim", waiting, nullptr,
                 claim_object("default", "data"), queueing_hint::queue},
                {"a namesake in another namespace", waiting, nullptr,
                 claim_object("other", "data"), queueing_hint::skip},
                {"another claim", waiting, nullptr,
                 claim_object("default", "logs"), queueing_hint::skip},
              });
  plugin_testing::expect_hints(hint, more);
}

/// Builds a storage_view object by object; every claim is in namespace
/// "default" unless `ns` says otherwise.
class storage_builder {
public:
  /// A claim; `volume` is spec.volumeName, `cls` spec.storageClassName.
  storage_builder& claim(std::string name, std::string volume = "",
                         std::optional<std::string> cls = std::nullopt,
                         std::uint8_t modes = model::read_write_once,
                         std::string controller_uid = "",
                         std::string_view ns = "default") {
    auto c = std::make_shared<model::persistent_volume_claim>();
    c->ns = model::symbol{ns};
    c->name = std::move(name);
    c->volume_name = std::move(volume);
    c->storage_class = std::move(cls);
    c->access_modes = modes;
    c->controller_uid = std::move(controller_uid);
    auto key = model::claim_key(c->ns, c->name);
    view_->claims.set(key, std::move(c));
    return *this;
  }
  /// A volume attached by `attach`, with `labels`.
  storage_builder& volume(std::string name, model::attachable_volume attach,
                          const test::label_pairs& labels = {}) {
    auto v = std::make_shared<model::persistent_volume>();
    v->name = std::move(name);
    v->attach = std::move(attach);
    v->labels = test::make_labels(labels);
    auto key = v->name;
    view_->volumes.set(key, std::move(v));
    return *this;
  }
  storage_builder& storage_class(std::string name, std::string provisioner,
                                 model::binding_mode binding
                                 = model::binding_mode::immediate) {
    auto c = std::make_shared<model::storage_class>();
    c->name = std::move(name);
    c->provisioner = std::move(provisioner);
    c->binding = binding;
    view_->classes[c->name] = std::move(c);
    return *this;
  }
  /// The CSINode of `node` with (driver, allocatable count) entries.
  storage_builder& csi_node(std::string_view node,
                            std::vector<model::csi_node_driver> drivers) {
    auto c = std::make_shared<model::csi_node>();
    c->name = model::symbol{node};
    c->drivers = std::move(drivers);
    auto key = c->name;
    view_->csi_nodes.set(key, std::move(c));
    return *this;
  }
  /// A VolumeAttachment of `driver` / `handle` on `node`.
  storage_builder& attachment(std::string_view node, std::string driver,
                              std::string handle) {
    view_->attachments[model::symbol{node}].push_back(
      {std::move(driver), std::move(handle)});
    return *this;
  }
  /// `n` pods in the cluster use claim `name` of "default".
  storage_builder& users(std::string_view name, std::int32_t n) {
    view_->claim_users[model::claim_key(model::symbol{"default"}, name)] = n;
    return *this;
  }

  model::storage_view_ptr build() const {
    auto copy = std::make_shared<model::storage_view>(*view_);
    copy->index();
    return copy;
  }
  /// A cluster context holding the view.
  cluster_context context() const {
    cluster_context ctx;
    ctx.storage = build();
    return ctx;
  }

private:
  std::shared_ptr<model::storage_view> view_
    = std::make_shared<model::storage_view>();
};

} // namespace tessera::plugins::volume_testing
