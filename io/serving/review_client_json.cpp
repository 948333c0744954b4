// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/rest_client.hpp"
#include "io/serving/review_client.hpp"

#include <boost/json.hpp>

namespace tessera::serving {

namespace {

namespace json = boost::json;

const json::object* object_at(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v != nullptr ? v->if_object() : nullptr;
}

std::string string_at(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  if (v == nullptr || !v->is_string())
    return {};
  return std::string{v->get_string()};
}

bool bool_at(const json::object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  return v != nullptr && v->is_bool() && v->get_bool();
}

std::vector<std::string> strings_at(const json::object& o,
                                    std::string_view key) {
  std::vector<std::string> out;
  auto* v = o.if_contains(key);
  if (v == nullptr || !v->is_array())
    return out;
  for (const auto& s : v->get_array())
    if (s.is_string())
      out.emplace_back(s.get_string());
  return out;
}

/// The reply's `status` object.
expected<json::object> review_status(std::string_view body,
                                     std::string_view kind) {
  json::error_code ec;
  auto doc = json::parse(body, ec);
  if (ec || !doc.is_object())
    return make_error(ec::invalid_input,
                      std::string{kind} + " reply is not a JSON object");
  auto* status = object_at(doc.get_object(), "status");
  if (status == nullptr)
    return json::object{};
  return *status;
}

class rest_review_client final : public review_client {
public:
  explicit rest_review_client(io::rest_client& c) : client_(c) {
  }

  expected<token_review_result>
  review_token(const std::string& token) override {
    auto r = post("/apis/authentication.k8s.io/v1/tokenreviews",
                  token_review_body(token));
    if (!r)
      return r.err();
    return parse_token_review(r->body);
  }

  expected<access_review_result> review_access(const user_info& user,
                                               std::string_view path,
                                               std::string_view verb) override {
    auto r = post("/apis/authorization.k8s.io/v1/subjectaccessreviews",
                  access_review_body(user, path, verb));
    if (!r)
      return r.err();
    return parse_access_review(r->body);
  }

  void shutdown() override {
    client_.shutdown();
  }

private:
  expected<io::http_response> post(std::string target, std::string body) {
    io::http_request req;
    req.method = "POST";
    req.target = std::move(target);
    req.body = std::move(body);
    req.content_type = "application/json";
    return client_.call(req);
  }

  io::rest_client& client_;
};

} // namespace

std::unique_ptr<review_client> make_rest_review_client(io::rest_client& c) {
  return std::make_unique<rest_review_client>(c);
}

std::string token_review_body(const std::string& token) {
  json::object doc;
  doc["apiVersion"] = "authentication.k8s.io/v1";
  doc["kind"] = "TokenReview";
  doc["spec"] = json::object{{"token", token}};
  return json::serialize(doc);
}

std::string access_review_body(const user_info& user, std::string_view path,
                               std::string_view verb) {
  json::object spec;
  spec["nonResourceAttributes"] = json::object{{"path", path}, {"verb", verb}};
  spec["user"] = user.name;
  if (!user.groups.empty()) {
    json::array groups;
    for (const auto& g : user.groups)
      groups.emplace_back(g);
    spec["groups"] = std::move(groups);
  }
  if (!user.uid.empty())
    spec["uid"] = user.uid;
  if (!user.extra.empty()) {
    json::object extra;
    for (const auto& [key, values] : user.extra) {
      json::array vs;
      for (const auto& v : values)
        vs.emplace_back(v);
      extra[key] = std::move(vs);
    }
    spec["extra"] = std::move(extra);
  }
  json::object doc;
  doc["apiVersion"] = "authorization.k8s.io/v1";
  doc["kind"] = "SubjectAccessReview";
  doc["spec"] = std::move(spec);
  return json::serialize(doc);
}

expected<token_review_result> parse_token_review(std::string_view body) {
  auto status = review_status(body, "TokenReview");
  if (!status)
    return status.err();
  token_review_result out;
  out.authenticated = bool_at(*status, "authenticated");
  out.error = string_at(*status, "error");
  if (auto* user = object_at(*status, "user")) {
    out.user.name = string_at(*user, "username");
    out.user.uid = string_at(*user, "uid");
    out.user.groups = strings_at(*user, "groups");
    if (auto* extra = object_at(*user, "extra"))
      for (const auto& kv : *extra)
        out.user.extra[std::string{kv.key()}] = strings_at(*extra, kv.key());
  }
  return out;
}

expected<access_review_result> parse_access_review(std::string_view body) {
  auto status = review_status(body, "SubjectAccessReview");
  if (!status)
    return status.err();
  access_review_result out;
  out.allowed = bool_at(*status, "allowed");
  out.denied = bool_at(*status, "denied");
  out.reason = string_at(*status, "reason");
  return out;
}

expected<std::optional<std::string>> lookup_client_ca(io::rest_client& c) {
  io::http_request req;
  req.target = "/api/v1/namespaces/kube-system/configmaps/"
               "extension-apiserver-authentication";
  auto r = c.request(req);
  if (!r)
    return r.err();
  if (r->status == 404)
    return std::optional<std::string>{};
  if (r->status < 200 || r->status > 299)
    return io::status_error(*r);
  return client_ca_of_configmap(r->body);
}

expected<std::optional<std::string>>
client_ca_of_configmap(std::string_view body) {
  json::error_code ec;
  auto doc = json::parse(body, ec);
  if (ec || !doc.is_object())
    return make_error(ec::invalid_input,
                      "configmap kube-system/extension-apiserver-"
                      "authentication: not a JSON object");
  auto* data = object_at(doc.get_object(), "data");
  if (data == nullptr)
    return std::optional<std::string>{};
  std::string ca = string_at(*data, "client-ca-file");
  if (ca.empty())
    return std::optional<std::string>{};
  return std::optional<std::string>{std::move(ca)};
}

} // namespace tessera::serving
