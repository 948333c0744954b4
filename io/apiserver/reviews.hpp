// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The embedded API server's answers to the reviews through which
/// components delegate their own authentication and authorization to it
/// (kube-scheduler's secure port, tessera's): `POST
/// /apis/authentication.k8s.io/v1/tokenreviews` and `POST
/// /apis/authorization.k8s.io/v1/subjectaccessreviews`.
///
/// The embedded server knows one credential, its `--token`, and has no
/// RBAC. So a TokenReview authenticates exactly that token (as
/// `token_user` in system:authenticated) and no other; a
/// SubjectAccessReview allows what the server itself would serve: with a
/// token, any request of `token_user` and nothing of anyone else
/// (system:anonymous included); without a token, where the server lets
/// everyone in, every request of every user.
///
/// The self reviews (`kubectl auth can-i`, `kubectl auth whoami`) ask
/// about the requester: a request that got this far is allowed everything,
/// and is the token's holder when the server has a token, anonymous when
/// it has none.
#pragma once

#include "io/apiserver/handler.hpp"

#include <string_view>

namespace tessera::apiserver {

/// The user a TokenReview of the server's token names.
inline constexpr std::string_view token_user = "tessera:cluster-admin";

/// Answers a TokenReview `body` (201 with its status, or a Status).
http_reply token_review_reply(const handler_config& config,
                              std::string_view body);
/// Answers a SubjectAccessReview `body` (201 with its status, or a Status).
http_reply access_review_reply(const handler_config& config,
                               std::string_view body);
/// Answers a SelfSubjectAccessReview `body`.
http_reply self_access_review_reply(const handler_config& config,
                                    std::string_view body);
/// Answers a SelfSubjectReview `body`: who the requester is.
http_reply self_subject_review_reply(const handler_config& config,
                                     std::string_view body);

} // namespace tessera::apiserver
