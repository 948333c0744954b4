// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `review_client`: the two API calls through which the secure port
/// delegates its checks to the API server, as kube-scheduler's does — a
/// TokenReview (authentication.k8s.io/v1) for a bearer token and a
/// SubjectAccessReview (authorization.k8s.io/v1, nonResourceAttributes) for
/// a path. Calls block; `delegated_auth` runs them off the server's I/O
/// thread. `make_rest_review_client` implements them over the scheduler's
/// REST client (rate limiting, credentials, timeouts);
/// `lookup_client_ca` reads the client CA that the API server publishes in
/// kube-system/extension-apiserver-authentication.
#pragma once

#include "io/fwd.hpp"
#include "support/error.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::serving {

/// Who made a request (Kubernetes' user.Info).
struct user_info {
  std::string name;
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;

  friend bool operator==(const user_info&, const user_info&) = default;
};

/// A TokenReview's status.
struct token_review_result {
  bool authenticated = false;
  user_info user;
  /// status.error, when the API server gave one.
  std::string error;
};

/// A SubjectAccessReview's status.
struct access_review_result {
  bool allowed = false;
  /// status.denied: an explicit no (otherwise "no opinion").
  bool denied = false;
  std::string reason;
};

class review_client {
public:
  virtual ~review_client() = default;
  /// POST a TokenReview of `token`. An error means no answer (transport,
  /// non-2xx, undecodable reply), never "not authenticated".
  [[nodiscard]] virtual expected<token_review_result>
  review_token(const std::string& token) = 0;
  /// POST a SubjectAccessReview of `user` doing `verb` on `path`.
  [[nodiscard]] virtual expected<access_review_result>
  review_access(const user_info& user, std::string_view path,
                std::string_view verb)
    = 0;
  /// Aborts calls in progress and fails later ones at once (stopping).
  virtual void shutdown() = 0;
};

/// Reviews over `client` (which must outlive the result).
std::unique_ptr<review_client> make_rest_review_client(io::rest_client& client);

/// The request bodies and the decoding of the replies (exposed for tests
/// and fakes).
std::string token_review_body(const std::string& token);
std::string access_review_body(const user_info& user, std::string_view path,
                               std::string_view verb);
[[nodiscard]] expected<token_review_result>
parse_token_review(std::string_view json);
[[nodiscard]] expected<access_review_result>
parse_access_review(std::string_view json);

/// The `client-ca-file` key of a ConfigMap's JSON (nullopt when absent).
[[nodiscard]] expected<std::optional<std::string>>
client_ca_of_configmap(std::string_view json);

/// The `client-ca-file` of the ConfigMap kube-system/
/// extension-apiserver-authentication: nullopt when the ConfigMap or the
/// key is absent; an error when it cannot be read (forbidden, unreachable).
[[nodiscard]] expected<std::optional<std::string>>
lookup_client_ca(io::rest_client& client);

} // namespace tessera::serving
