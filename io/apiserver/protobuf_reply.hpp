// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Responses in Kubernetes' protobuf encoding, for clients whose Accept
/// header puts `application/vnd.kubernetes.protobuf` first (client-go's
/// typed clients: kubectl, controllers, kube-scheduler). The store keeps
/// JSON; these functions turn a reply's JSON into the bytes kube-apiserver
/// would send, by reflection over the schema of protobuf_body.hpp.
///
/// A JSON field the schema does not know cannot be put on the wire. It is
/// named in `dropped`, so the handler can answer in JSON instead whenever
/// the client accepts JSON (lossless); kube-apiserver itself would have
/// dropped such a field when the object was written.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::apiserver {

/// The content type of protobuf replies and of protobuf watch streams.
inline constexpr std::string_view protobuf_content_type
  = "application/vnd.kubernetes.protobuf";
inline constexpr std::string_view protobuf_watch_content_type
  = "application/vnd.kubernetes.protobuf;stream=watch";

struct protobuf_reply {
  /// `k8s\0` and a runtime.Unknown naming the kind, holding the object.
  std::string bytes;
  /// JSON paths left out because the schema lacks them.
  std::vector<std::string> dropped;
};

/// Encodes a reply's JSON: an object whose kind has a schema, a list of
/// such objects (`<Kind>List` with `items`), or a Status. nullopt when the
/// text is not such an object (discovery documents, Tables, kinds without
/// a schema). Never throws.
std::optional<protobuf_reply> encode_protobuf_reply(std::string_view json);

/// One frame of a protobuf watch stream: a 4-byte big-endian length, then
/// a WatchEvent whose object is `object_json` encoded as above. nullopt
/// when the object cannot be encoded; `dropped` collects what was left out.
std::optional<std::string>
encode_protobuf_watch_frame(std::string_view type, std::string_view object_json,
                            std::vector<std::string>* dropped = nullptr);

} // namespace tessera::apiserver
