// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/json_access.hpp"
#include "model/volume_writes.hpp"

#include <boost/json.hpp>

namespace tessera::model {

namespace json = boost::json;

namespace {

expected<json::value> parse_document(std::string_view text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_object())
    return make_error(ec::invalid_input, "not a JSON object");
  return v;
}

/// Sets metadata.resourceVersion (the update's precondition) when known.
void set_resource_version(json::object& root, const std::string& rv) {
  if (!rv.empty())
    ensure_object(root, "metadata")["resourceVersion"] = rv;
}

} // namespace

expected<std::string> bind_volume_json(std::string_view pv_json,
                                       const persistent_volume& chosen,
                                       const persistent_volume_claim& claim) {
  auto doc = parse_document(pv_json);
  if (!doc)
    return doc.err();
  auto& root = doc->as_object();
  json::object& spec = ensure_object(root, "spec");
  // A volume the user pre-bound to this claim keeps its annotations; the
  // volume controller reads bound-by-controller to know it may undo a
  // binding the scheduler made.
  bool pre_bound = false;
  if (const json::object* ref = object_at(spec, "claimRef")) {
    auto uid = string_at(*ref, "uid");
    auto ns = string_at(*ref, "namespace");
    pre_bound
      = string_at(*ref, "name") == claim.name
        && (ns.empty() ? std::string_view{"default"} : ns) == claim.ns.view()
        && (uid.empty() || uid == claim.uid);
  }
  json::object ref;
  ref["kind"] = "PersistentVolumeClaim";
  ref["apiVersion"] = "v1";
  ref["namespace"] = claim.ns.view();
  ref["name"] = claim.name;
  ref["uid"] = claim.uid;
  ref["resourceVersion"] = claim.resource_version;
  spec["claimRef"] = std::move(ref);
  if (!pre_bound) {
    json::object& annotations
      = ensure_object(ensure_object(root, "metadata"), "annotations");
    if (!annotations.contains(bound_by_controller_annotation))
      annotations[bound_by_controller_annotation] = "yes";
  }
  set_resource_version(root, chosen.resource_version);
  return json::serialize(*doc);
}

expected<std::string> select_node_json(std::string_view pvc_json,
                                       const persistent_volume_claim& claim,
                                       symbol node) {
  auto doc = parse_document(pvc_json);
  if (!doc)
    return doc.err();
  auto& root = doc->as_object();
  json::object& annotations
    = ensure_object(ensure_object(root, "metadata"), "annotations");
  annotations[selected_node_annotation] = node.view();
  set_resource_version(root, claim.resource_version);
  return json::serialize(*doc);
}

} // namespace tessera::model
