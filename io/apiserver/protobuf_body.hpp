// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Request bodies in Kubernetes' protobuf encoding
/// (`Content-Type: application/vnd.kubernetes.protobuf`), which kubectl's
/// typed client sends for `create namespace|priorityclass|pdb|service|
/// deployment|job|configmap|secret|serviceaccount`, for
/// the DeleteOptions of `drain` and for its Evictions, and kube-scheduler's
/// default client for Bindings, Leases and events.k8s.io Events (decoded,
/// but not run against a kube-scheduler here), and any typed Go client
/// for Pods, Nodes, PersistentVolumes, PersistentVolumeClaims,
/// ReplicationControllers and core/v1 Events (kubelet's and the
/// controllers' default). The body is the 4-byte
/// magic `k8s\0` followed by a runtime.Unknown message whose typeMeta names
/// the kind and whose `raw` holds the object (kube_wire.proto). It is turned
/// into the JSON a client would have sent for the same object, so the store
/// and everything after it see no difference. Replies go the other way in
/// protobuf_reply.hpp.
#pragma once

#include "io/apiserver/status.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace google::protobuf {
class Message;
}

namespace tessera::apiserver {

/// The 4 bytes before every protobuf object outside a watch frame.
inline constexpr std::string_view protobuf_magic{"k8s\0", 4};

/// True for `application/vnd.kubernetes.protobuf`, parameters ignored.
bool is_protobuf_media_type(std::string_view content_type) noexcept;

/// The schema of a kind (kube_*.proto), or null when there is none. An
/// empty `api_version` takes the first kind of that name.
const google::protobuf::Message*
protobuf_prototype(std::string_view kind, std::string_view api_version);

/// A kind with a schema; DeleteOptions has an empty apiVersion, as it comes
/// under the version of the resource it deletes.
struct protobuf_kind {
  std::string_view api_version;
  std::string_view kind;
};
/// Every kind with a schema.
std::vector<protobuf_kind> protobuf_schema_kinds();

/// The kinds `protobuf_body_to_json` decodes, for messages and docs.
std::string_view protobuf_kinds() noexcept;

/// Decodes a protobuf request body into JSON text carrying the envelope's
/// kind and apiVersion. Fields Go leaves at their zero value are omitted as
/// its JSON does; fields the schema does not know are dropped. A body that
/// is not the envelope or does not parse as its kind: 400 BadRequest naming
/// the problem; a well-formed body of a kind without a schema here: 415
/// UnsupportedMediaType naming the kind. Never throws.
api_result<std::string> protobuf_body_to_json(std::string_view body);

} // namespace tessera::apiserver
