// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/json_access.hpp"

#include <boost/json.hpp>

namespace tessera::model {

namespace json = boost::json;

std::string_view string_at(const json::object& o,
                           std::string_view key) noexcept {
  if (const auto* v = o.if_contains(key))
    if (const auto* s = v->if_string())
      return {s->data(), s->size()};
  return {};
}

std::string_view string_at(const json::object* o,
                           std::string_view key) noexcept {
  return o ? string_at(*o, key) : std::string_view{};
}

const json::object* object_at(const json::object& o,
                              std::string_view key) noexcept {
  if (const auto* v = o.if_contains(key))
    return v->if_object();
  return nullptr;
}

const json::object* object_at(const json::object* o,
                              std::string_view key) noexcept {
  return o ? object_at(*o, key) : nullptr;
}

json::object* object_at(json::object& o, std::string_view key) noexcept {
  if (auto* v = o.if_contains(key))
    return v->if_object();
  return nullptr;
}

const json::array* array_at(const json::object* o,
                            std::string_view key) noexcept {
  if (o)
    if (const auto* v = o->if_contains(key))
      return v->if_array();
  return nullptr;
}

std::int64_t int_at(const json::object* o, std::string_view key,
                    std::int64_t absent) noexcept {
  if (o)
    if (const auto* v = o->if_contains(key)) {
      if (const auto* i = v->if_int64())
        return *i;
      if (const auto* u = v->if_uint64())
        return static_cast<std::int64_t>(*u);
    }
  return absent;
}

bool bool_at(const json::object* o, std::string_view key) noexcept {
  if (o)
    if (const auto* v = o->if_contains(key))
      if (const auto* b = v->if_bool())
        return *b;
  return false;
}

json::object& ensure_object(json::object& parent, std::string_view key) {
  auto& v = parent[key];
  if (!v.is_object())
    v = json::object{};
  return v.as_object();
}

json::array& ensure_array(json::object& parent, std::string_view key) {
  auto& v = parent[key];
  if (!v.is_array())
    v = json::array{};
  return v.as_array();
}

} // namespace tessera::model
