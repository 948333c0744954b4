// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/scale.hpp"

#include "io/apiserver/store.hpp"
#include "io/apiserver/table_kind.hpp"
#include "model/json_access.hpp"

#include <boost/json.hpp>

namespace tessera::apiserver {

namespace json = boost::json;
using model::object_at;
using model::string_at;

namespace {

json::object scale_of(const stored_object& obj) {
  auto doc = obj.parse();
  const auto& root = doc.value().as_object();
  const json::object* meta = object_at(&root, "metadata");
  const json::object* spec = object_at(&root, "spec");
  const json::object* status = object_at(&root, "status");
  json::object m;
  m["name"] = obj.name();
  m["namespace"] = obj.ns();
  m["uid"] = obj.uid();
  m["resourceVersion"] = std::to_string(obj.resource_version());
  if (auto ts = string_at(meta, "creationTimestamp"); !ts.empty())
    m["creationTimestamp"] = ts;
  std::int64_t current = 0;
  if (status)
    if (auto* r = status->if_contains("replicas"); r && r->is_int64())
      current = r->as_int64();
  std::string selector = selector_text(object_at(spec, "selector"));
  if (selector == "<none>")
    selector.clear();
  json::object st{{"replicas", current}};
  if (!selector.empty())
    st["selector"] = selector;
  return json::object{
    {"kind", "Scale"},
    {"apiVersion", "autoscaling/v1"},
    {"metadata", std::move(m)},
    {"spec", json::object{{"replicas", desired_replicas(spec)}}},
    {"status", std::move(st)}};
}

api_status bad_scale(std::string_view name, std::string_view problem) {
  return status::invalid(
    "Scale", "autoscaling", name,
    {status::invalid_value("spec.replicas", "", std::string{problem})});
}

} // namespace

bool has_scale(const resource_info& r) noexcept {
  return r.view == resource_view::stored
         && (r.storage == storage_kind::deployment
             || r.storage == storage_kind::replica_set
             || r.storage == storage_kind::stateful_set);
}

api_result<std::string> read_scale(const store& s, const resource_info& res,
                                   std::string_view ns, std::string_view name) {
  auto obj = s.get(res, ns, name);
  if (!obj)
    return obj.err();
  return json::serialize(scale_of(**obj));
}

api_result<std::string> write_scale(store& s, const resource_info& res,
                                    std::string_view ns, std::string_view name,
                                    std::optional<patch_type> patch,
                                    std::string_view body,
                                    const write_options& options) {
  auto obj = s.get(res, ns, name);
  if (!obj)
    return obj.err();
  json::value scale = scale_of(**obj);
  json::error_code ec;
  json::value given = json::parse(body, ec);
  if (ec || !given.is_object())
    return status::bad_request("couldn't decode the Scale: "
                               + (ec ? ec.message() : "not an object"));
  if (patch) {
    if (*patch == patch_type::apply)
      return status::unsupported_media_type("application/apply-patch+yaml");
    if (auto err = apply_patch(scale, given, *patch, res.storage))
      return status::invalid("Scale", "autoscaling", name,
                             {status_cause{"FieldValueInvalid", *err, ""}});
  } else {
    scale = std::move(given);
  }
  const json::object* spec = object_at(scale.if_object(), "spec");
  auto* replicas = spec ? spec->if_contains("replicas") : nullptr;
  if (!replicas || !replicas->is_int64())
    return bad_scale(name, "must be an integer");
  if (replicas->as_int64() < 0)
    return bad_scale(name, "must be greater than or equal to 0");
  std::string rv{
    string_at(object_at(scale.if_object(), "metadata"), "resourceVersion")};
  json::object wanted{{"spec", json::object{{"replicas", *replicas}}}};
  if (!rv.empty())
    wanted["metadata"] = json::object{{"resourceVersion", rv}};
  write_options wo = options;
  wo.validation.reset();
  auto r = s.patch(res, ns, name, patch_type::merge, json::serialize(wanted),
                   subresource::main, wo);
  if (!r)
    return r.err();
  return json::serialize(scale_of(**r));
}

} // namespace tessera::apiserver
