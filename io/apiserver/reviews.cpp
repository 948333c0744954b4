// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/reviews.hpp"

#include "io/apiserver/status.hpp"
#include "model/json_access.hpp"

#include <boost/json.hpp>

#include <optional>

namespace tessera::apiserver {

namespace {

namespace json = boost::json;
using model::string_at;

/// The request as an object of `kind`, or the Status refusing it.
expected<json::object> review_request(std::string_view body,
                                      std::string_view kind,
                                      std::string_view api_version) {
  json::error_code ec;
  auto doc = json::parse(body, ec);
  if (ec || !doc.is_object())
    return make_error(ec::invalid_input,
                      "the body of the request was in an unknown format");
  auto& o = doc.get_object();
  auto field = [&o](std::string_view key) -> std::string_view {
    auto* v = o.if_contains(key);
    return v != nullptr && v->is_string() ? std::string_view{v->get_string()}
                                          : std::string_view{};
  };
  if ((!field("kind").empty() && field("kind") != kind)
      || (!field("apiVersion").empty() && field("apiVersion") != api_version))
    return make_error(ec::invalid_input,
                      "the body of the request does not hold a "
                        + std::string{kind});
  auto* spec = o.if_contains("spec");
  if (spec == nullptr || !spec->is_object())
    o["spec"] = json::object{};
  o["kind"] = kind;
  o["apiVersion"] = api_version;
  o["metadata"] = json::object{{"creationTimestamp", nullptr}};
  return std::move(o);
}

http_reply created(const json::object& doc) {
  http_reply r;
  r.status = 201;
  r.body = json::serialize(doc);
  return r;
}

// Why an access review is allowed, as the server decides it.
constexpr std::string_view allows_everyone
  = "the embedded cluster authenticates no one and allows every request";
constexpr std::string_view allows_token_holder
  = "the embedded cluster allows its token's holder";

/// The user the server's token authenticates.
json::object token_holder() {
  return json::object{{"username", token_user},
                      {"groups", json::array{"system:authenticated"}}};
}

/// The 422 of an access review naming both or neither kind of attributes.
std::optional<api_status> attributes_problem(std::string_view kind,
                                             const json::object& spec) {
  if (spec.contains("resourceAttributes")
      != spec.contains("nonResourceAttributes"))
    return std::nullopt;
  return status::invalid(
    kind, "authorization.k8s.io", "",
    {status::invalid_value("spec.resourceAttributes", "null",
                           "exactly one of nonResourceAttributes or "
                           "resourceAttributes must be specified")});
}

} // namespace

http_reply token_review_reply(const handler_config& config,
                              std::string_view body) {
  auto doc = review_request(body, "TokenReview", "authentication.k8s.io/v1");
  if (!doc)
    return status_reply(status::bad_request(doc.err().message));
  const auto& spec = doc->at("spec").as_object();
  std::string token{string_at(spec, "token")};
  json::object st;
  if (!config.token.empty() && token == config.token) {
    st["authenticated"] = true;
    st["user"] = token_holder();
  } else {
    st["user"] = json::object{};
  }
  (*doc)["status"] = std::move(st);
  return created(*doc);
}

http_reply access_review_reply(const handler_config& config,
                               std::string_view body) {
  auto doc
    = review_request(body, "SubjectAccessReview", "authorization.k8s.io/v1");
  if (!doc)
    return status_reply(status::bad_request(doc.err().message));
  const auto& spec = doc->at("spec").as_object();
  std::string user{string_at(spec, "user")};
  auto* groups = spec.if_contains("groups");
  bool has_groups
    = groups != nullptr && groups->is_array() && !groups->get_array().empty();
  if (user.empty() && !has_groups)
    return status_reply(status::invalid("SubjectAccessReview",
                                        "authorization.k8s.io", "",
                                        {status::required("spec.user")}));
  if (auto bad = attributes_problem("SubjectAccessReview", spec))
    return status_reply(*bad);
  json::object st;
  if (config.token.empty()) {
    st["allowed"] = true;
    st["reason"] = allows_everyone;
  } else if (user == token_user) {
    st["allowed"] = true;
    st["reason"] = allows_token_holder;
  } else {
    st["allowed"] = false;
    st["reason"] = "the embedded cluster allows only its token's holder";
  }
  (*doc)["status"] = std::move(st);
  return created(*doc);
}

http_reply self_access_review_reply(const handler_config& config,
                                    std::string_view body) {
  auto doc = review_request(body, "SelfSubjectAccessReview",
                            "authorization.k8s.io/v1");
  if (!doc)
    return status_reply(status::bad_request(doc.err().message));
  if (auto bad = attributes_problem("SelfSubjectAccessReview",
                                    doc->at("spec").as_object()))
    return status_reply(*bad);
  json::object st;
  st["allowed"] = true;
  st["reason"] = config.token.empty() ? allows_everyone : allows_token_holder;
  (*doc)["status"] = std::move(st);
  return created(*doc);
}

http_reply self_subject_review_reply(const handler_config& config,
                                     std::string_view body) {
  auto doc
    = review_request(body, "SelfSubjectReview", "authentication.k8s.io/v1");
  if (!doc)
    return status_reply(status::bad_request(doc.err().message));
  // A SelfSubjectReview has no spec.
  doc->erase("spec");
  json::object user = token_holder();
  if (config.token.empty())
    user = json::object{{"username", "system:anonymous"},
                        {"groups", json::array{"system:unauthenticated"}}};
  (*doc)["status"] = json::object{{"userInfo", std::move(user)}};
  return created(*doc);
}

} // namespace tessera::apiserver
