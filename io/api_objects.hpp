// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The JSON documents tessera's client writes and reads besides the watched
/// objects (those go through model/decode.hpp): Status errors, Binding, pod
/// status patches, Events (events.k8s.io/v1 and core/v1) and their series
/// patches, Leases, ExecCredential, plus a cheap look at a watch line that
/// failed to decode. Times are written and read with support/time_format.hpp.
/// The JSON implementation is in api_objects_json.cpp (Boost.JSON stays out of
/// every header).
#pragma once

#include "model/decode.hpp"
#include "support/error.hpp"
#include "support/time_format.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::io {

using wall_time = std::chrono::system_clock::time_point;

// Status

/// A failure Status (or what could be made of a non-JSON error body).
struct api_status {
  int code = 0;
  std::string reason;
  std::string message;
};

/// Decodes the body of a non-2xx response; a body that is not a Status
/// yields its text (trimmed, at most 512 bytes) as the message.
api_status decode_status(std::string_view body, int http_code);

// Writes the scheduler makes

/// `{"kind":"Binding",...}` for POST pods/{name}/binding.
std::string encode_binding(std::string_view ns, std::string_view name,
                           std::string_view uid, std::string_view node);

/// One pod condition in a status patch.
struct condition_patch {
  std::string type;
  std::string status;
  std::string reason;
  std::string message;
  /// Written when the status changes; omitted otherwise so the server keeps
  /// the old one (strategic merge by type).
  std::optional<wall_time> last_transition;
};

/// A strategic merge patch of pod status: `conditions` merged by type and,
/// when `set_nomination`, `nominatedNodeName` (empty = null = cleared).
/// A non-empty `uid` goes in as `metadata.uid`, a precondition: the API
/// refuses the patch (409) when the pod of that name is another pod now,
/// as the kubelet's status patches do.
std::string encode_pod_status_patch(const std::vector<condition_patch>& conds,
                                    bool set_nomination,
                                    std::string_view nominated_node,
                                    std::string_view uid = {});

/// A reference to an object (Event regarding / related).
struct object_ref {
  std::string kind = "Pod";
  std::string api_version = "v1";
  std::string ns;
  std::string name;
  std::string uid;
  std::string resource_version;
};

/// One Event as the recorder knows it.
struct event_record {
  /// The Event's own namespace and name (`<object>.<hex nanos>`).
  std::string ns;
  std::string name;
  object_ref regarding;
  std::optional<object_ref> related;
  /// Normal or Warning.
  std::string type;
  std::string reason;
  std::string action;
  std::string note;
  std::string reporting_controller;
  std::string reporting_instance;
  wall_time event_time;
  /// 0 = no series yet (a singleton event).
  std::int32_t series_count = 0;
  wall_time last_observed;
};

/// events.k8s.io/v1 Event for POST.
std::string encode_event_v1(const event_record& e);
/// Strategic merge patch adding/updating `series`.
std::string encode_event_series_patch_v1(const event_record& e);
/// core/v1 Event for POST (involvedObject, message, source, count, ...).
std::string encode_event_core(const event_record& e);
/// Merge patch of a core/v1 Event's count and lastTimestamp.
std::string encode_event_count_patch_core(const event_record& e);

// Leases

/// The leader-election record of a coordination.k8s.io/v1 Lease.
struct lease_record {
  std::string holder_identity;
  std::int32_t lease_duration_seconds = 0;
  std::optional<wall_time> acquire_time;
  std::optional<wall_time> renew_time;
  std::int32_t lease_transitions = 0;
  /// metadata.resourceVersion (for updates; not part of the record proper).
  std::string resource_version;

  /// Equality of the record fields (resourceVersion excluded).
  bool same_record(const lease_record& o) const;
};

std::string encode_lease(std::string_view ns, std::string_view name,
                         const lease_record& r);
[[nodiscard]] expected<lease_record> decode_lease(std::string_view json);

// ExecCredential

/// What an exec credential plugin returned.
struct exec_credential {
  std::string token;
  std::string client_cert_pem;
  std::string client_key_pem;
  std::optional<wall_time> expiry;
};

/// Cluster details handed to a plugin with provideClusterInfo.
struct exec_cluster_info {
  std::string server;
  std::string tls_server_name;
  bool insecure_skip_tls_verify = false;
  /// PEM (encoded to base64 in the document).
  std::string ca_pem;
};

/// The KUBERNETES_EXEC_INFO document.
std::string encode_exec_info(std::string_view api_version,
                             const exec_cluster_info* cluster);
/// Parses a plugin's stdout; its apiVersion must be `api_version`.
[[nodiscard]] expected<exec_credential>
decode_exec_credential(std::string_view json, std::string_view api_version);

// Watch lines

/// The envelope of a watch line whose object did not decode.
struct watch_line_peek {
  std::string type;
  model::object_peek object;
};

/// Reads type and object metadata of a watch line; nullopt when the line
/// is not a JSON watch event at all.
std::optional<watch_line_peek> peek_watch_line(std::string_view line);

} // namespace tessera::io
