// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/protobuf_reply.hpp"

#include "io/apiserver/kube_wire.pb.h"
#include "io/apiserver/protobuf_body.hpp"
#include "io/apiserver/time_format.hpp"
#include "model/json_access.hpp"
#include "support/base64.hpp"

#include <boost/json.hpp>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>
#include <google/protobuf/reflection.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

namespace tessera::apiserver {

namespace json = boost::json;
namespace pb = google::protobuf;
using model::string_at;

namespace {

/// Fills messages from JSON, collecting the paths it cannot represent.
class encoder {
public:
  explicit encoder(std::vector<std::string>& dropped) : dropped_(dropped) {
  }

  void message(const json::object& from, pb::Message& to,
               const std::string& path) {
    for (const auto& kv : from) {
      if (kv.value().is_null())
        continue;
      std::string_view key = kv.key();
      std::string at
        = path.empty() ? std::string{key} : path + "." + std::string{key};
      std::vector<const pb::FieldDescriptor*> route;
      if (!locate(to.GetDescriptor(), std::string{key}, route)) {
        // Objects inline their TypeMeta in JSON; the wire carries it in the
        // envelope (top level) or not at all (nested).
        if (key != "kind" && key != "apiVersion")
          dropped_.push_back(std::move(at));
        continue;
      }
      pb::Message* into = &to;
      for (std::size_t i = 0; i + 1 < route.size(); ++i)
        into = into->GetReflection()->MutableMessage(into, route[i]);
      const auto* f = route.back();
      if (f->is_map())
        map(kv.value(), *into, f, at);
      else if (f->is_repeated())
        repeated(kv.value(), *into, f, at);
      else
        single(kv.value(), *into, f, at);
    }
  }

private:
  /// The field named `key` in `d` or in a struct `d` embeds (json_inline):
  /// `route` gets the embedded fields to go through, then the field.
  static bool locate(const pb::Descriptor* d, const std::string& key,
                     std::vector<const pb::FieldDescriptor*>& route) {
    if (const auto* f = d->FindFieldByName(key);
        f && !f->options().GetExtension(kube::json_inline)) {
      route.push_back(f);
      return true;
    }
    for (int i = 0; i < d->field_count(); ++i) {
      const auto* f = d->field(i);
      if (!f->options().GetExtension(kube::json_inline))
        continue;
      route.push_back(f);
      if (locate(f->message_type(), key, route))
        return true;
      route.pop_back();
    }
    return false;
  }

  void map(const json::value& v, pb::Message& to, const pb::FieldDescriptor* f,
           const std::string& at) {
    const auto* o = v.if_object();
    if (!o) {
      dropped_.push_back(at);
      return;
    }
    const auto* r = to.GetReflection();
    const auto* key_f = f->message_type()->map_key();
    const auto* value_f = f->message_type()->map_value();
    const bool of_messages
      = value_f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;
    for (const auto& kv : *o) {
      // Go writes a zero Time as null; on the wire it is an empty message.
      if (kv.value().is_null() && !of_messages)
        continue;
      pb::Message* entry = r->AddMessage(&to, f);
      entry->GetReflection()->SetString(entry, key_f, std::string{kv.key()});
      if (kv.value().is_null()) {
        entry->GetReflection()->MutableMessage(entry, value_f);
        continue;
      }
      if (!single(kv.value(), *entry, value_f,
                  at + "[" + std::string{kv.key()} + "]"))
        r->RemoveLast(&to, f);
    }
  }

  void repeated(const json::value& v, pb::Message& to,
                const pb::FieldDescriptor* f, const std::string& at) {
    const auto* a = v.if_array();
    if (!a) {
      dropped_.push_back(at);
      return;
    }
    const auto* r = to.GetReflection();
    for (std::size_t i = 0; i < a->size(); ++i) {
      std::string item_at = at + "[" + std::to_string(i) + "]";
      const json::value& item = (*a)[i];
      if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        pb::Message* m = r->AddMessage(&to, f);
        if (!item.is_null() && !fill(item, *m, item_at))
          r->RemoveLast(&to, f);
        continue;
      }
      put_scalar(item, to, f, item_at);
    }
  }

  /// Sets the singular field `f` of `to`; false when it was dropped.
  bool single(const json::value& v, pb::Message& to,
              const pb::FieldDescriptor* f, const std::string& at) {
    const auto* r = to.GetReflection();
    if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (fill(v, *r->MutableMessage(&to, f), at))
        return true;
      r->ClearField(&to, f);
      return false;
    }
    return put_scalar(v, to, f, at);
  }

  /// Fills the message `m` from `v`, minding the types whose JSON is not an
  /// object; false when `v` does not fit.
  bool fill(const json::value& v, pb::Message& m, const std::string& at) {
    const auto* d = m.GetDescriptor();
    if (d == kube::Time::descriptor() || d == kube::MicroTime::descriptor())
      return time(v, m, at);
    if (d == kube::Quantity::descriptor()) {
      std::string text;
      if (auto* s = v.if_string())
        text = std::string{*s};
      else if (v.is_int64() || v.is_uint64() || v.is_double())
        text = json::serialize(v);
      else
        return drop(at);
      static_cast<kube::Quantity&>(m).set_string(std::move(text));
      return true;
    }
    if (d == kube::IntOrString::descriptor()) {
      auto& ios = static_cast<kube::IntOrString&>(m);
      if (auto* s = v.if_string()) {
        ios.set_type(1);
        ios.set_strval(std::string{*s});
        return true;
      }
      auto n = integer(v);
      if (!n || *n < std::numeric_limits<std::int32_t>::min()
          || *n > std::numeric_limits<std::int32_t>::max())
        return drop(at);
      ios.set_type(0);
      ios.set_intval(static_cast<std::int32_t>(*n));
      return true;
    }
    if (d == kube::FieldsV1::descriptor()) {
      static_cast<kube::FieldsV1&>(m).set_raw(json::serialize(v));
      return true;
    }
    if (d->options().GetExtension(kube::json_array)) {
      const auto* a = v.if_array();
      if (!a)
        return drop(at);
      for (std::size_t i = 0; i < a->size(); ++i)
        put_scalar((*a)[i], m, d->field(0), at + "[" + std::to_string(i) + "]");
      return true;
    }
    const auto* o = v.if_object();
    if (!o)
      return drop(at);
    message(*o, m, at);
    return true;
  }

  bool time(const json::value& v, pb::Message& m, const std::string& at) {
    const auto* s = v.if_string();
    auto t = s ? parse_time(*s) : std::nullopt;
    if (!t)
      return drop(at);
    auto since = t->time_since_epoch();
    auto secs = std::chrono::floor<std::chrono::seconds>(since);
    auto nanos
      = std::chrono::duration_cast<std::chrono::nanoseconds>(since - secs);
    const auto* d = m.GetDescriptor();
    const auto* r = m.GetReflection();
    r->SetInt64(&m, d->FindFieldByNumber(1), secs.count());
    if (nanos.count() != 0)
      r->SetInt32(&m, d->FindFieldByNumber(2),
                  static_cast<std::int32_t>(nanos.count()));
    return true;
  }

  static std::optional<std::int64_t> integer(const json::value& v) {
    if (auto* i = v.if_int64())
      return *i;
    if (auto* u = v.if_uint64())
      if (*u <= static_cast<std::uint64_t>(
            std::numeric_limits<std::int64_t>::max()))
        return static_cast<std::int64_t>(*u);
    if (auto* dbl = v.if_double())
      if (std::trunc(*dbl) == *dbl && std::abs(*dbl) < 9.0e18)
        return static_cast<std::int64_t>(*dbl);
    return std::nullopt;
  }

  /// The scalar `v` as `f` holds it; nullopt when it does not fit.
  struct scalar {
    std::int64_t i = 0;
    bool b = false;
    std::string s;
  };
  std::optional<scalar> convert(const json::value& v,
                                const pb::FieldDescriptor* f) {
    scalar out;
    switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
    case pb::FieldDescriptor::CPPTYPE_INT64:
    case pb::FieldDescriptor::CPPTYPE_UINT32:
    case pb::FieldDescriptor::CPPTYPE_UINT64: {
      auto n = integer(v);
      if (!n)
        return std::nullopt;
      bool narrow = f->cpp_type() == pb::FieldDescriptor::CPPTYPE_INT32
                    || f->cpp_type() == pb::FieldDescriptor::CPPTYPE_UINT32;
      bool is_unsigned
        = f->cpp_type() == pb::FieldDescriptor::CPPTYPE_UINT32
          || f->cpp_type() == pb::FieldDescriptor::CPPTYPE_UINT64;
      if (narrow
          && (*n > std::numeric_limits<std::int32_t>::max()
              || *n < std::numeric_limits<std::int32_t>::min()))
        return std::nullopt;
      if (is_unsigned && *n < 0)
        return std::nullopt;
      out.i = *n;
      return out;
    }
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      if (!v.is_bool())
        return std::nullopt;
      out.b = v.get_bool();
      return out;
    case pb::FieldDescriptor::CPPTYPE_STRING: {
      const auto* s = v.if_string();
      if (!s)
        return std::nullopt;
      if (f->type() == pb::FieldDescriptor::TYPE_BYTES) {
        auto raw = base64_decode(*s);
        if (!raw)
          return std::nullopt;
        out.s = std::move(*raw);
      } else {
        out.s = std::string{*s};
      }
      return out;
    }
    default:
      // The schema has no floats or enums.
      return std::nullopt;
    }
  }

  /// Sets (or, for a repeated field, appends) the scalar `v`; false when
  /// it was dropped.
  bool put_scalar(const json::value& v, pb::Message& to,
                  const pb::FieldDescriptor* f, const std::string& at) {
    auto c = convert(v, f);
    if (!c)
      return drop(at);
    const auto* r = to.GetReflection();
    const bool add = f->is_repeated();
    switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32: {
      auto n = static_cast<std::int32_t>(c->i);
      add ? r->AddInt32(&to, f, n) : r->SetInt32(&to, f, n);
      break;
    }
    case pb::FieldDescriptor::CPPTYPE_INT64:
      add ? r->AddInt64(&to, f, c->i) : r->SetInt64(&to, f, c->i);
      break;
    case pb::FieldDescriptor::CPPTYPE_UINT32: {
      auto n = static_cast<std::uint32_t>(c->i);
      add ? r->AddUInt32(&to, f, n) : r->SetUInt32(&to, f, n);
      break;
    }
    case pb::FieldDescriptor::CPPTYPE_UINT64: {
      auto n = static_cast<std::uint64_t>(c->i);
      add ? r->AddUInt64(&to, f, n) : r->SetUInt64(&to, f, n);
      break;
    }
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      add ? r->AddBool(&to, f, c->b) : r->SetBool(&to, f, c->b);
      break;
    default:
      add ? r->AddString(&to, f, std::move(c->s))
          : r->SetString(&to, f, std::move(c->s));
      break;
    }
    return true;
  }

  bool drop(const std::string& at) {
    dropped_.push_back(at);
    return false;
  }

  std::vector<std::string>& dropped_;
};

/// Go's serialization is deterministic (sorted map keys); so is this.
std::string serialize(const pb::Message& m) {
  std::string out;
  {
    pb::io::StringOutputStream stream{&out};
    pb::io::CodedOutputStream coded{&stream};
    coded.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&coded);
  }
  return out;
}

/// A length-delimited field header: tag (number, wire type 2) and length.
void append_length_delimited(std::string& out, int number, std::size_t size) {
  auto varint = [&](std::uint64_t v) {
    while (v >= 0x80) {
      out += static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    out += static_cast<char>(v);
  };
  varint((static_cast<std::uint64_t>(number) << 3) | 2);
  varint(size);
}

std::string envelope(std::string_view api_version, std::string_view kind,
                     std::string raw) {
  kube::Unknown u;
  u.mutable_typemeta()->set_apiversion(std::string{api_version});
  u.mutable_typemeta()->set_kind(std::string{kind});
  u.set_raw(std::move(raw));
  return std::string{protobuf_magic} + serialize(u);
}

/// The message of one object (kind from `kind`), or nullopt without a
/// schema.
std::optional<std::string> object_raw(const json::object& o,
                                      std::string_view kind,
                                      std::string_view api_version,
                                      std::vector<std::string>& dropped,
                                      const std::string& path) {
  const pb::Message* proto = kind == "Status"
                               ? &kube::Status::default_instance()
                               : protobuf_prototype(kind, api_version);
  if (!proto)
    return std::nullopt;
  std::unique_ptr<pb::Message> m{proto->New()};
  encoder{dropped}.message(o, *m, path);
  return serialize(*m);
}

std::optional<protobuf_reply> encode(const json::object& o) {
  std::string_view kind = string_at(o, "kind");
  std::string_view api_version = string_at(o, "apiVersion");
  if (kind.empty())
    return std::nullopt;
  protobuf_reply out;
  auto items = o.find("items");
  if (kind.size() > 4 && kind.ends_with("List") && items != o.end()
      && items->value().is_array()) {
    std::string_view item_kind = kind.substr(0, kind.size() - 4);
    if (!protobuf_prototype(item_kind, api_version))
      return std::nullopt;
    std::string raw;
    if (auto meta = o.find("metadata");
        meta != o.end() && meta->value().is_object()) {
      kube::ListMeta lm;
      encoder{out.dropped}.message(meta->value().get_object(), lm, "metadata");
      std::string bytes = serialize(lm);
      append_length_delimited(raw, 1, bytes.size());
      raw += bytes;
    }
    for (auto& kv : o)
      if (kv.key() != "kind" && kv.key() != "apiVersion"
          && kv.key() != "metadata" && kv.key() != "items")
        out.dropped.push_back(std::string{kv.key()});
    const auto& a = items->value().get_array();
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::string at = "items[" + std::to_string(i) + "]";
      const auto* item = a[i].if_object();
      if (!item) {
        out.dropped.push_back(std::move(at));
        continue;
      }
      auto bytes = object_raw(*item, item_kind, api_version, out.dropped, at);
      append_length_delimited(raw, 2, bytes->size());
      raw += *bytes;
    }
    out.bytes = envelope(api_version, kind, std::move(raw));
    return out;
  }
  auto raw = object_raw(o, kind, api_version, out.dropped, "");
  if (!raw)
    return std::nullopt;
  out.bytes = envelope(api_version, kind, std::move(*raw));
  return out;
}

std::optional<json::object> parse_object(std::string_view text) {
  json::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_object())
    return std::nullopt;
  return std::move(v.get_object());
}

} // namespace

std::optional<protobuf_reply> encode_protobuf_reply(std::string_view text) {
  try {
    auto o = parse_object(text);
    if (!o)
      return std::nullopt;
    return encode(*o);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::string>
encode_protobuf_watch_frame(std::string_view type, std::string_view object_json,
                            std::vector<std::string>* dropped) {
  try {
    auto o = parse_object(object_json);
    if (!o)
      return std::nullopt;
    auto reply = encode(*o);
    if (!reply)
      return std::nullopt;
    if (dropped)
      dropped->insert(dropped->end(), reply->dropped.begin(),
                      reply->dropped.end());
    kube::WatchEvent ev;
    ev.set_type(std::string{type});
    ev.mutable_object()->set_raw(std::move(reply->bytes));
    std::string body = serialize(ev);
    std::string frame;
    frame.reserve(4 + body.size());
    auto n = static_cast<std::uint32_t>(body.size());
    frame += static_cast<char>((n >> 24) & 0xff);
    frame += static_cast<char>((n >> 16) & 0xff);
    frame += static_cast<char>((n >> 8) & 0xff);
    frame += static_cast<char>(n & 0xff);
    frame += body;
    return frame;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

} // namespace tessera::apiserver
