// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/status.hpp"

#include "support/text.hpp"

#include <cstdio>

namespace tessera::apiserver {

namespace {

void add_string_field(std::string& out, std::string_view key,
                      std::string_view value, bool& first) {
  if (!first)
    out += ',';
  first = false;
  out += '"';
  out += key;
  out += "\":\"";
  append_json_escaped(out, value);
  out += '"';
}

} // namespace

std::string api_status::to_json() const {
  std::string out;
  out.reserve(160 + message.size());
  out
    += R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":")";
  append_json_escaped(out, message);
  out += "\",\"reason\":\"";
  append_json_escaped(out, reason);
  out += '"';
  if (with_details || !name.empty() || !group.empty() || !kind.empty()
      || !causes.empty() || retry_after_seconds > 0) {
    out += ",\"details\":{";
    bool first = true;
    if (!name.empty())
      add_string_field(out, "name", name, first);
    if (!group.empty())
      add_string_field(out, "group", group, first);
    if (!kind.empty())
      add_string_field(out, "kind", kind, first);
    if (!causes.empty()) {
      if (!first)
        out += ',';
      first = false;
      out += "\"causes\":[";
      for (std::size_t i = 0; i < causes.size(); ++i) {
        if (i > 0)
          out += ',';
        out += '{';
        bool f = true;
        if (!causes[i].reason.empty())
          add_string_field(out, "reason", causes[i].reason, f);
        if (!causes[i].message.empty())
          add_string_field(out, "message", causes[i].message, f);
        if (!causes[i].field.empty())
          add_string_field(out, "field", causes[i].field, f);
        out += '}';
      }
      out += ']';
    }
    if (retry_after_seconds > 0) {
      if (!first)
        out += ',';
      out += "\"retryAfterSeconds\":" + std::to_string(retry_after_seconds);
    }
    out += '}';
  }
  out += ",\"code\":" + std::to_string(code) + "}";
  return out;
}

error to_error(const api_status& s) {
  ec code = ec::internal;
  switch (s.code) {
  case 400:
  case 413:
  case 422:
    code = ec::invalid_input;
    break;
  case 401:
  case 403:
  case 405:
  case 406:
  case 415:
    code = ec::unsupported;
    break;
  case 404:
    code = ec::not_found;
    break;
  case 409:
  case 410:
    code = ec::conflict;
    break;
  case 429:
    code = ec::exhausted;
    break;
  case 503:
    code = ec::unavailable;
    break;
  case 504:
    code = ec::timeout;
    break;
  default:
    code = ec::internal;
  }
  return make_error(code, s.message);
}

namespace status {

namespace {

api_status make(int code, std::string reason, std::string message) {
  api_status s;
  s.code = code;
  s.reason = std::move(reason);
  s.message = std::move(message);
  return s;
}

/// A Status whose `details` upstream always sends.
api_status make_detailed(int code, std::string reason, std::string message) {
  auto s = make(code, std::move(reason), std::move(message));
  s.with_details = true;
  return s;
}

/// Splits "leases.coordination.k8s.io" into resource and group for details.
void set_resource_details(api_status& s, std::string_view resource,
                          std::string_view name) {
  auto dot = resource.find('.');
  if (dot == std::string_view::npos) {
    s.kind = std::string{resource};
  } else {
    s.kind = std::string{resource.substr(0, dot)};
    s.group = std::string{resource.substr(dot + 1)};
  }
  s.name = std::string{name};
}

std::string quoted(std::string_view resource, std::string_view name) {
  std::string out{resource};
  out += " \"";
  out += name;
  out += '"';
  return out;
}

} // namespace

api_status not_found(std::string_view resource, std::string_view name) {
  auto s
    = make_detailed(404, "NotFound", quoted(resource, name) + " not found");
  set_resource_details(s, resource, name);
  return s;
}

api_status path_not_found() {
  return make_detailed(404, "NotFound",
                       "the server could not find the requested resource");
}

api_status already_exists(std::string_view resource, std::string_view name) {
  auto s = make_detailed(409, "AlreadyExists",
                         quoted(resource, name) + " already exists");
  set_resource_details(s, resource, name);
  return s;
}

api_status conflict(std::string_view resource, std::string_view name,
                    std::string_view why) {
  std::string msg = "Operation cannot be fulfilled on ";
  msg += quoted(resource, name);
  msg += ": ";
  msg += why;
  auto s = make_detailed(409, "Conflict", std::move(msg));
  set_resource_details(s, resource, name);
  return s;
}

api_status modified_conflict(std::string_view resource, std::string_view name) {
  return conflict(resource, name,
                  "the object has been modified; please apply your changes "
                  "to the latest version and try again");
}

api_status invalid(std::string_view kind, std::string_view group,
                   std::string_view name, std::vector<status_cause> causes) {
  std::string qualified{kind};
  if (!group.empty()) {
    qualified += '.';
    qualified += group;
  }
  std::string msg = quoted(qualified, name) + " is invalid: ";
  auto render = [](const status_cause& c) {
    return c.field.empty() ? c.message : c.field + ": " + c.message;
  };
  if (causes.size() == 1) {
    msg += render(causes[0]);
  } else {
    msg += '[';
    for (std::size_t i = 0; i < causes.size(); ++i) {
      if (i > 0)
        msg += ", ";
      msg += render(causes[i]);
    }
    msg += ']';
  }
  auto s = make_detailed(422, "Invalid", std::move(msg));
  s.kind = std::string{kind};
  s.group = std::string{group};
  s.name = std::string{name};
  s.causes = std::move(causes);
  return s;
}

api_status bad_request(std::string message) {
  return make(400, "BadRequest", std::move(message));
}

api_status forbidden(std::string_view resource, std::string_view name,
                     std::string_view why) {
  auto s = make_detailed(403, "Forbidden",
                         quoted(resource, name)
                           + " is forbidden: " + std::string{why});
  set_resource_details(s, resource, name);
  return s;
}

api_status too_many_requests(std::string message, int retry_after_seconds,
                             std::vector<status_cause> causes) {
  auto s = make_detailed(429, "TooManyRequests", std::move(message));
  s.retry_after_seconds = retry_after_seconds;
  s.causes = std::move(causes);
  return s;
}

api_status expired(std::string message) {
  return make(410, "Expired", std::move(message));
}

api_status internal(std::string_view message) {
  auto s = make_detailed(500, "InternalError",
                         "Internal error occurred: " + std::string{message});
  s.causes.push_back({"", std::string{message}, ""});
  return s;
}

api_status method_not_allowed(std::string_view method,
                              std::string_view resource) {
  auto s
    = make_detailed(405, "MethodNotAllowed",
                    "the server does not allow this method on the requested "
                    "resource");
  (void)method;
  s.kind = std::string{resource};
  return s;
}

api_status unsupported_media_type(std::string_view type) {
  return make(415, "UnsupportedMediaType",
              "the body of the request was in an unknown format - accepted "
              "media types include: application/json, "
              "application/json-patch+json, application/merge-patch+json, "
              "application/strategic-merge-patch+json (got \""
                + std::string{type} + "\")");
}

api_status not_acceptable(std::string_view accept) {
  return make(406, "NotAcceptable",
              "the server was unable to respond with a content type that the "
              "client supports (got \""
                + std::string{accept} + "\")");
}

api_status too_large_resource_version(std::uint64_t rv, std::uint64_t current) {
  auto s
    = make_detailed(504, "Timeout",
                    "Timeout: Too large resource version: " + std::to_string(rv)
                      + ", current: " + std::to_string(current));
  s.causes.push_back(
    {"ResourceVersionTooLarge", "Too large resource version", ""});
  s.retry_after_seconds = 1;
  return s;
}

api_status unauthorized() {
  return make(401, "Unauthorized", "Unauthorized");
}

api_status too_large(std::string_view what) {
  return make(413, "RequestEntityTooLarge",
              "Request entity too large: " + std::string{what});
}

api_status too_large(std::size_t limit) {
  return too_large("limit is " + std::to_string(limit));
}

status_cause required(std::string field) {
  return {"FieldValueRequired", "Required value", std::move(field)};
}

status_cause invalid_value(std::string field, std::string_view value,
                           std::string_view detail) {
  std::string msg = "Invalid value: \"";
  msg += value;
  msg += "\"";
  if (!detail.empty()) {
    msg += ": ";
    msg += detail;
  }
  return {"FieldValueInvalid", std::move(msg), std::move(field)};
}

status_cause forbidden_field(std::string field, std::string_view detail) {
  return {"FieldValueForbidden", "Forbidden: " + std::string{detail},
          std::move(field)};
}

status_cause unsupported_value(std::string field, std::string_view value,
                               std::string_view supported) {
  std::string msg = "Unsupported value: \"";
  msg += value;
  msg += "\": supported values: ";
  msg += supported;
  return {"FieldValueNotSupported", std::move(msg), std::move(field)};
}

} // namespace status
} // namespace tessera::apiserver
