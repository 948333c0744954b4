// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/protobuf_body.hpp"

#include "io/apiserver/kube_core.pb.h"
#include "io/apiserver/kube_groups.pb.h"
#include "io/apiserver/kube_wire.pb.h"
#include "io/apiserver/time_format.hpp"
#include "support/base64.hpp"

#include <boost/json.hpp>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/reflection.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessera::apiserver {

namespace json = boost::json;
namespace pb = google::protobuf;

namespace {

api_status unsupported_kind(std::string_view kind,
                            std::string_view api_version) {
  api_status s;
  s.code = 415;
  s.reason = "UnsupportedMediaType";
  s.message = "the embedded API server decodes protobuf bodies of "
              + std::string{protobuf_kinds()} + " only, not \""
              + std::string{kind} + "\" of \"" + std::string{api_version}
              + "\": send it as application/json";
  return s;
}

/// The schema of each kind, by the apiVersion and kind of its envelope.
struct kind_schema {
  std::string_view api_version;
  std::string_view kind;
  const pb::Message& prototype;
};

const kind_schema schemas[] = {
  // core/v1
  {"v1", "Binding", kube::Binding::default_instance()},
  {"v1", "ConfigMap", kube::ConfigMap::default_instance()},
  {"v1", "Event", kube::CoreEvent::default_instance()},
  {"v1", "Namespace", kube::Namespace::default_instance()},
  {"v1", "Node", kube::Node::default_instance()},
  {"v1", "PersistentVolume", kube::PersistentVolume::default_instance()},
  {"v1", "PersistentVolumeClaim",
   kube::PersistentVolumeClaim::default_instance()},
  {"v1", "Pod", kube::Pod::default_instance()},
  {"v1", "ReplicationController",
   kube::ReplicationController::default_instance()},
  {"v1", "Secret", kube::Secret::default_instance()},
  {"v1", "Service", kube::Service::default_instance()},
  {"v1", "ServiceAccount", kube::ServiceAccount::default_instance()},
  // the named groups
  {"apps/v1", "DaemonSet", kube::DaemonSet::default_instance()},
  {"apps/v1", "Deployment", kube::Deployment::default_instance()},
  {"apps/v1", "ReplicaSet", kube::ReplicaSet::default_instance()},
  {"apps/v1", "StatefulSet", kube::StatefulSet::default_instance()},
  {"authentication.k8s.io/v1", "TokenReview",
   kube::TokenReview::default_instance()},
  {"authentication.k8s.io/v1", "SelfSubjectReview",
   kube::SelfSubjectReview::default_instance()},
  {"authorization.k8s.io/v1", "SelfSubjectAccessReview",
   kube::SelfSubjectAccessReview::default_instance()},
  {"authorization.k8s.io/v1", "SubjectAccessReview",
   kube::SubjectAccessReview::default_instance()},
  {"autoscaling/v1", "Scale", kube::Scale::default_instance()},
  {"batch/v1", "Job", kube::Job::default_instance()},
  {"coordination.k8s.io/v1", "Lease", kube::Lease::default_instance()},
  {"events.k8s.io/v1", "Event", kube::Event::default_instance()},
  {"policy/v1", "Eviction", kube::Eviction::default_instance()},
  {"policy/v1", "PodDisruptionBudget",
   kube::PodDisruptionBudget::default_instance()},
  {"scheduling.k8s.io/v1", "PriorityClass",
   kube::PriorityClass::default_instance()},
  {"storage.k8s.io/v1", "CSIDriver", kube::CSIDriver::default_instance()},
  {"storage.k8s.io/v1", "CSINode", kube::CSINode::default_instance()},
  {"storage.k8s.io/v1", "CSIStorageCapacity",
   kube::CSIStorageCapacity::default_instance()},
  {"storage.k8s.io/v1", "StorageClass", kube::StorageClass::default_instance()},
  {"storage.k8s.io/v1", "VolumeAttachment",
   kube::VolumeAttachment::default_instance()},
  // meta/v1, sent under the version of the resource it acts on
  {"", "DeleteOptions", kube::DeleteOptions::default_instance()},
};

/// A field JSON cannot carry: a string that is not UTF-8 (Go would have
/// replaced its bytes) or a field set that is not JSON.
struct not_utf8 {
  std::string field;
  std::string_view problem = "is not UTF-8";
};

/// True for well-formed UTF-8: no overlong forms, surrogates or code points
/// above U+10FFFF, as a JSON parser demands.
bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int n = 0;
    std::uint32_t cp = 0;
    if ((c & 0xe0) == 0xc0) {
      n = 1;
      cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      n = 2;
      cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + static_cast<std::size_t>(n) >= s.size())
      return false;
    for (int k = 1; k <= n; ++k) {
      auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
      if ((b & 0xc0) != 0x80)
        return false;
      cp = (cp << 6) | (b & 0x3f);
    }
    static constexpr std::uint32_t least[] = {0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return false;
    i += static_cast<std::size_t>(n) + 1;
  }
  return true;
}

bool keep_zero(const pb::FieldDescriptor* f) {
  return f->options().GetExtension(kube::keep_zero);
}

bool json_inline(const pb::FieldDescriptor* f) {
  return f->options().GetExtension(kube::json_inline);
}

json::value message_json(const pb::Message& m);
json::value scalar_json(const pb::Message& m, const pb::FieldDescriptor* f,
                        int index);

/// A Time as RFC 3339; null when empty on the wire, which is how Go
/// writes its zero time (1970 itself is written, as a zero `seconds`).
json::value time_json(const pb::Message& m) {
  const auto& t = static_cast<const kube::Time&>(m);
  if (!t.has_seconds() && !t.has_nanos())
    return nullptr;
  // Whole seconds, as metav1.Time's JSON form.
  return json::string{format_time(
    std::chrono::system_clock::time_point{std::chrono::seconds{t.seconds()}})};
}

/// A MicroTime as RFC 3339 with microseconds; null when zero.
json::value micro_time_json(const pb::Message& m) {
  const auto& t = static_cast<const kube::MicroTime&>(m);
  if (!t.has_seconds() && !t.has_nanos())
    return nullptr;
  auto at = std::chrono::system_clock::time_point{
    std::chrono::seconds{t.seconds()}
    + std::chrono::duration_cast<std::chrono::system_clock::duration>(
      std::chrono::nanoseconds{t.nanos()})};
  return json::string{format_micro_time(at)};
}

/// A nested message's JSON; nullopt when Go's JSON would omit it.
std::optional<json::value> nested_json(const pb::Message& m) {
  const auto* d = m.GetDescriptor();
  if (d == kube::Time::descriptor() || d == kube::MicroTime::descriptor()) {
    auto t = d == kube::Time::descriptor() ? time_json(m) : micro_time_json(m);
    if (t.is_null())
      return std::nullopt;
    return t;
  }
  if (d->options().GetExtension(kube::json_array)) {
    const auto* items = d->field(0);
    json::array out;
    for (int i = 0; i < m.GetReflection()->FieldSize(m, items); ++i)
      out.push_back(scalar_json(m, items, i));
    return json::value(std::move(out));
  }
  if (d == kube::FieldsV1::descriptor()) {
    json::error_code ec;
    auto v = json::parse(static_cast<const kube::FieldsV1&>(m).raw(), ec);
    if (ec)
      throw not_utf8{"FieldsV1.Raw", "is not JSON"};
    return v;
  }
  if (d == kube::Quantity::descriptor()) {
    const auto& q = static_cast<const kube::Quantity&>(m);
    if (!valid_utf8(q.string()))
      throw not_utf8{"Quantity.string"};
    return json::value(json::string{q.string()});
  }
  if (d == kube::IntOrString::descriptor()) {
    const auto& v = static_cast<const kube::IntOrString&>(m);
    if (v.type() == 1) {
      if (!valid_utf8(v.strval()))
        throw not_utf8{"IntOrString.strVal"};
      return json::value(json::string{v.strval()});
    }
    return json::value(v.intval());
  }
  return message_json(m);
}

/// One scalar (or the element `index` of a repeated scalar).
json::value scalar_json(const pb::Message& m, const pb::FieldDescriptor* f,
                        int index) {
  const auto* r = m.GetReflection();
  const bool rep = f->is_repeated();
  switch (f->cpp_type()) {
  case pb::FieldDescriptor::CPPTYPE_INT32:
    return rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f);
  case pb::FieldDescriptor::CPPTYPE_INT64:
    return rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f);
  case pb::FieldDescriptor::CPPTYPE_UINT32:
    return rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f);
  case pb::FieldDescriptor::CPPTYPE_UINT64:
    return rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f);
  case pb::FieldDescriptor::CPPTYPE_BOOL:
    return rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f);
  case pb::FieldDescriptor::CPPTYPE_STRING: {
    auto s = rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f);
    if (f->type() == pb::FieldDescriptor::TYPE_BYTES)
      return json::string{base64_encode(s)};
    if (!valid_utf8(s))
      throw not_utf8{f->containing_type()->name() + "." + f->name()};
    return json::string{s};
  }
  default:
    // The schema has no floats or enums.
    return nullptr;
  }
}

bool is_zero(const json::value& v) {
  if (auto* s = v.if_string())
    return s->empty();
  if (auto* i = v.if_int64())
    return *i == 0;
  if (auto* u = v.if_uint64())
    return *u == 0;
  if (auto* b = v.if_bool())
    return !*b;
  return v.is_null();
}

json::value message_json(const pb::Message& m) {
  json::object out;
  const auto* d = m.GetDescriptor();
  const auto* r = m.GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const auto* f = d->field(i);
    const std::string& name = f->name();
    if (f->is_map()) {
      // A map is a repeated entry message {key = 1, value = 2}.
      int n = r->FieldSize(m, f);
      if (n == 0)
        continue;
      json::object map;
      const auto* key_f = f->message_type()->map_key();
      const auto* value_f = f->message_type()->map_value();
      for (int k = 0; k < n; ++k) {
        const auto& entry = r->GetRepeatedMessage(m, f, k);
        auto key = scalar_json(entry, key_f, -1);
        json::value value;
        if (value_f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
          const auto& vm = entry.GetReflection()->GetMessage(entry, value_f);
          value = nested_json(vm).value_or(nullptr);
        } else {
          value = scalar_json(entry, value_f, -1);
        }
        if (auto* ks = key.if_string())
          map[*ks] = std::move(value);
      }
      out[name] = std::move(map);
    } else if (f->is_repeated()) {
      int n = r->FieldSize(m, f);
      if (n == 0)
        continue;
      json::array items;
      for (int k = 0; k < n; ++k) {
        if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE)
          items.push_back(
            nested_json(r->GetRepeatedMessage(m, f, k)).value_or(nullptr));
        else
          items.push_back(scalar_json(m, f, k));
      }
      out[name] = std::move(items);
    } else if (r->HasField(m, f)) {
      if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        if (json_inline(f)) {
          // An embedded Go struct: its fields are this object's.
          auto v = message_json(r->GetMessage(m, f));
          for (auto& kv : v.as_object())
            out[kv.key()] = std::move(kv.value());
          continue;
        }
        if (auto v = nested_json(r->GetMessage(m, f)))
          out[name] = std::move(*v);
        continue;
      }
      auto v = scalar_json(m, f, -1);
      if (is_zero(v) && !keep_zero(f))
        continue;
      out[name] = std::move(v);
    }
  }
  return out;
}

} // namespace

// DeleteOptions comes under any version; an envelope without one takes the
// first kind of its name, as the server defaults it from the resource the
// body was sent to.
const pb::Message* protobuf_prototype(std::string_view kind,
                                      std::string_view api_version) {
  for (const auto& s : schemas)
    if (s.kind == kind
        && (s.api_version == api_version || s.api_version.empty()
            || api_version.empty()))
      return &s.prototype;
  return nullptr;
}

std::vector<protobuf_kind> protobuf_schema_kinds() {
  std::vector<protobuf_kind> out;
  for (const auto& s : schemas)
    out.push_back({s.api_version, s.kind});
  return out;
}

bool is_protobuf_media_type(std::string_view content_type) noexcept {
  auto semi = content_type.find(';');
  auto type = content_type.substr(0, semi);
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t'))
    type.remove_suffix(1);
  while (!type.empty() && (type.front() == ' ' || type.front() == '\t'))
    type.remove_prefix(1);
  return type == "application/vnd.kubernetes.protobuf";
}

std::string_view protobuf_kinds() noexcept {
  // Every kind of the table once, sorted, with the groups of a name that
  // two groups share.
  static const std::string text = [] {
    std::map<std::string, std::vector<std::string>> by_kind;
    for (const auto& s : schemas)
      by_kind[std::string{s.kind}].push_back(
        s.api_version.empty() ? "" : std::string{s.api_version});
    std::string out;
    for (const auto& [kind, versions] : by_kind) {
      if (!out.empty())
        out += ", ";
      out += kind;
      if (versions.size() > 1) {
        out += " (";
        for (std::size_t i = 0; i < versions.size(); ++i)
          out += (i ? " and " : "") + versions[i];
        out += ")";
      }
    }
    return out;
  }();
  return text;
}

api_result<std::string> protobuf_body_to_json(std::string_view body) {
  if (body.size() < protobuf_magic.size()
      || body.substr(0, protobuf_magic.size()) != protobuf_magic)
    return status::bad_request(
      "couldn't decode the protobuf body: it does not start with the "
      "Kubernetes protobuf prefix \"k8s\\x00\"");
  body.remove_prefix(protobuf_magic.size());
  kube::Unknown envelope;
  if (!envelope.ParseFromArray(body.data(), static_cast<int>(body.size())))
    return status::bad_request(
      "couldn't decode the protobuf body: not a runtime.Unknown envelope");
  if (!envelope.contentencoding().empty())
    return status::bad_request(
      "couldn't decode the protobuf body: unsupported contentEncoding \""
      + envelope.contentencoding() + "\"");
  const std::string& kind = envelope.typemeta().kind();
  if (kind.empty())
    return status::bad_request(
      "couldn't decode the protobuf body: the envelope names no kind");
  const std::string& api_version = envelope.typemeta().apiversion();
  const pb::Message* proto = protobuf_prototype(kind, api_version);
  if (!proto)
    return unsupported_kind(kind, api_version);
  std::unique_ptr<pb::Message> msg{proto->New()};
  if (!msg->ParseFromString(envelope.raw()))
    return status::bad_request("couldn't decode the protobuf body: not a "
                               "valid "
                               + kind + " message");
  if (!valid_utf8(envelope.typemeta().apiversion()))
    return status::bad_request(
      "couldn't decode the protobuf body: apiVersion is not UTF-8");
  json::object out;
  out["kind"] = kind;
  if (!envelope.typemeta().apiversion().empty())
    out["apiVersion"] = envelope.typemeta().apiversion();
  json::value fields;
  try {
    fields = message_json(*msg);
  } catch (const not_utf8& e) {
    return status::bad_request("couldn't decode the protobuf body: " + e.field
                               + " " + std::string{e.problem});
  }
  for (auto& kv : fields.as_object())
    out[kv.key()] = std::move(kv.value());
  return json::serialize(out);
}

} // namespace tessera::apiserver
