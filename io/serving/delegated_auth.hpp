// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `delegated_auth`: who may read the secure port, decided as
/// kube-scheduler's delegated authentication and authorization decide it.
///
///   request ──▶ authenticate ─────────────────────────▶ authorize ──▶ serve
///               1. a client certificate verified         1. a group in
///                  against the client CA: user = CN, always_allow_groups
///                  groups = O (a certificate that does    2. a path in
///                  not verify: 401)                         always_allow_paths
///               2. `Authorization: Bearer T`: a           3. a SubjectAccess-
///                  TokenReview (no answer or not           Review of
///                  authenticated: 401)                     {path, verb}:
///               3. nothing: system:anonymous in            allowed, else 403
///                  system:unauthenticated                  (no answer: 500)
///
/// Authenticated users get the group system:authenticated. TokenReview
/// answers are cached by the token's SHA-256 for `token_ttl`
/// (authenticated or not, unless the refusal carries an error);
/// SubjectAccessReview answers by their whole request for `authorized_ttl`
/// or `unauthorized_ttl`. Failed calls are not cached. Concurrent requests
/// needing the same review share one call. Without a token
/// reviewer a bearer token counts as anonymous; without an access reviewer
/// every path that is not always allowed is forbidden (as upstream without
/// --authentication-kubeconfig / --authorization-kubeconfig).
///
/// Thread-safe. `check` blocks while a review is out; `try_check` never
/// does and answers only what needs no review.
#pragma once

#include "io/http_server.hpp"
#include "io/serving/review_client.hpp"
#include "support/clock.hpp"
#include "support/error.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::serving {

struct delegated_auth_config {
  /// Paths served without authorization; a trailing `*` matches a prefix
  /// (kube-scheduler's --authorization-always-allow-paths default).
  std::vector<std::string> always_allow_paths
    = {"/healthz", "/readyz", "/livez"};
  /// Groups whose members skip the SubjectAccessReview (upstream's
  /// default: the API server's own superuser group).
  std::vector<std::string> always_allow_groups = {"system:masters"};
  std::chrono::milliseconds token_ttl{std::chrono::seconds(10)};
  std::chrono::milliseconds authorized_ttl{std::chrono::seconds(10)};
  std::chrono::milliseconds unauthorized_ttl{std::chrono::seconds(10)};
  /// Requests without credentials are system:anonymous (else 401).
  bool anonymous = true;
  /// PEM bundle that signs accepted client certificates; empty = client
  /// certificates are not asked for.
  std::string client_ca_pem;
  /// Not owned; null = tokens are not checked (treated as anonymous).
  review_client* tokens = nullptr;
  /// Not owned; null = nothing beyond the always-allowed is authorized.
  review_client* access = nullptr;
  /// Not owned; null = the system clock.
  const clock* time = nullptr;
  /// Entries kept per cache; a full cache drops its expired entries, then
  /// everything.
  std::size_t cache_size = 4096;
};

/// What the TLS layer found about the client's certificate.
using peer_certificate = io::peer_certificate;

/// The parts of a request the decision reads.
struct auth_request {
  std::string_view method;
  /// The path without the query.
  std::string_view path;
  /// The Authorization header ("" when absent).
  std::string_view authorization;
  peer_certificate peer;
};

/// The outcome: allowed, or the reply to send instead.
struct auth_decision {
  bool allowed = false;
  int status = 0;
  std::string content_type;
  std::string body;
  /// Who asked (for logs).
  std::string user;
};

/// Counters (monotonic).
struct delegated_auth_stats {
  std::uint64_t token_reviews = 0;
  std::uint64_t access_reviews = 0;
  std::uint64_t cache_hits = 0;
};

class delegated_auth {
public:
  /// Checks the always-allow paths (only a trailing `*`; errors name
  /// --authorization-always-allow-paths) and the TTLs.
  [[nodiscard]] static expected<std::unique_ptr<delegated_auth>>
  make(delegated_auth_config config);

  /// The decision, calling the reviewers when needed (blocks).
  auth_decision check(const auth_request& r);
  /// The decision when it needs no review (cached or not needed); nullopt
  /// when `check` must call a reviewer.
  std::optional<auth_decision> try_check(const auth_request& r);

  /// Aborts reviews in progress (the reviewers' shutdown); later checks
  /// that need one answer as if the API server were unreachable.
  void shutdown();

  const delegated_auth_config& config() const noexcept {
    return config_;
  }
  delegated_auth_stats stats() const;

private:
  explicit delegated_auth(delegated_auth_config config);
  auth_decision decide(const auth_request& r, bool may_review, bool& needs);

  /// Answers by key until they expire; a full cache drops its expired
  /// entries, then everything. `asking` holds the reviews in flight, so
  /// that concurrent requests with the same key wait for one answer.
  template <class V> struct cache {
    struct entry {
      V value;
      time_point expires;
    };
    struct flight {
      bool done = false;
      std::optional<expected<V>> answer;
    };
    std::map<std::string, entry> entries;
    std::map<std::string, std::shared_ptr<flight>> asking;
    std::optional<V> get(const std::string& key, time_point now);
    void put(const std::string& key, V value, time_point expires,
             time_point now, std::size_t limit);
  };

  /// The answer for `key`: cached, else `review()`'s, cached for
  /// `ttl(answer)` (0: not cached) and counted in `counter`; nullopt when a
  /// review is due and `may_review` is false.
  template <class V, class Review, class Ttl>
  std::optional<expected<V>>
  reviewed(cache<V>& c, const std::string& key, bool may_review,
           std::uint64_t delegated_auth_stats::*counter, Review review,
           Ttl ttl);

  delegated_auth_config config_;
  std::vector<std::string> exact_paths_;
  std::vector<std::string> prefix_paths_;
  mutable std::mutex mutex_;
  /// Signalled when a review in flight lands.
  std::condition_variable landed_;
  cache<token_review_result> tokens_;
  cache<access_review_result> access_;
  delegated_auth_stats stats_;
};

/// The 401 and 403 replies, as kube-scheduler's secure port writes them
/// (a v1 Status).
auth_decision unauthorized_reply();
auth_decision forbidden_reply(std::string_view user, std::string_view verb,
                              std::string_view path, std::string_view reason);

} // namespace tessera::serving
