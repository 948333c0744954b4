// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Lenient accessors for members of parsed JSON objects, for code that reads
/// and edits whole Kubernetes documents (the embedded apiserver, the perf
/// templates) and treats a missing member like one of the wrong type. The
/// strict, path-tracking reader of the model's decoders is `json_reader.hpp`.
/// Boost.JSON types are named only through `<boost/json/fwd.hpp>`; the
/// implementation is in json_access_json.cpp.
#pragma once

#include <boost/json/fwd.hpp>

#include <cstdint>
#include <string_view>

namespace tessera::model {

/// The string member `key` of `o`; empty when `o` is null or the member is
/// missing or not a string. The view points into `o`.
[[nodiscard]] std::string_view string_at(const boost::json::object& o,
                                         std::string_view key) noexcept;
/// `string_at` on an object that may be absent.
[[nodiscard]] std::string_view string_at(const boost::json::object* o,
                                         std::string_view key) noexcept;

/// The object member `key` of `o`; null when `o` is null or the member is
/// missing or not an object.
[[nodiscard]] const boost::json::object*
object_at(const boost::json::object& o, std::string_view key) noexcept;
/// `object_at` on an object that may be absent.
[[nodiscard]] const boost::json::object*
object_at(const boost::json::object* o, std::string_view key) noexcept;
/// `object_at` for editing the member in place.
[[nodiscard]] boost::json::object* object_at(boost::json::object& o,
                                             std::string_view key) noexcept;

/// The array member `key` of `o`; null when `o` is null or the member is
/// missing or not an array.
[[nodiscard]] const boost::json::array* array_at(const boost::json::object* o,
                                                 std::string_view key) noexcept;

/// The integer member `key` of `o`; `absent` when `o` is null or the member
/// is missing or not an integer.
[[nodiscard]] std::int64_t int_at(const boost::json::object* o,
                                  std::string_view key,
                                  std::int64_t absent = 0) noexcept;

/// The boolean member `key` of `o`; false when `o` is null or the member is
/// missing or not a boolean.
[[nodiscard]] bool bool_at(const boost::json::object* o,
                           std::string_view key) noexcept;

/// The object member `key` of `parent`, made an empty object first when it
/// is missing or of another type.
boost::json::object& ensure_object(boost::json::object& parent,
                                   std::string_view key);
/// The array member `key` of `parent`, made an empty array first when it is
/// missing or of another type.
boost::json::array& ensure_array(boost::json::object& parent,
                                 std::string_view key);

} // namespace tessera::model
