// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `object_reader`: strict reading of one YAML mapping of a config file, the
/// way kube-scheduler's strict decoder reads it: a key given twice or a key
/// the type does not have is a strict decoding error naming the full field
/// path; `null` counts as absent. The scalar readers resolve plain scalars as
/// the YAML 1.1 resolver behind sigs.k8s.io/yaml does (`yes`/`on` are
/// booleans, integral floats fit integer fields) and report wrong types as
/// `<path>: Invalid value: <value>: must be <type>`. Quoted scalars are always
/// strings. Internal to config/.
#pragma once

#include "config/field_errors.hpp"

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::config::detail {

/// What a scalar (or null node) denotes.
enum class scalar_type : std::uint8_t {
  null,
  boolean,
  integer,
  floating,
  string
};

/// Resolves a scalar or null node; containers resolve to `string`.
scalar_type resolve(const YAML::Node& node);

/// What `text` denotes as a plain (unquoted) scalar.
scalar_type resolve_plain(std::string_view text);

/// Compact JSON text of a node (mapping keys become strings).
std::string to_json(const YAML::Node& node);

/// How an offending value is printed in an error message.
std::string show_node(const YAML::Node& node);

/// The character offset of a node in its input (-1 when unknown).
long position_of(const YAML::Node& node);

/// True for an absent or null node.
bool is_null(const YAML::Node& node);

class object_reader {
public:
  /// Reads `node` (a mapping, or null = empty) found at `path`; strict
  /// problems go to `strict`. A node of another kind is reported as "must
  /// be an object" and reads as empty.
  object_reader(const YAML::Node& node, std::string path, field_errors& strict);
  object_reader(const object_reader&) = delete;
  object_reader& operator=(const object_reader&) = delete;
  /// Reports every key that was never asked for.
  ~object_reader();

  /// The value of `key` when present and not null.
  std::optional<YAML::Node> get(std::string_view key);
  /// True when `key` is present, even as null.
  bool has(std::string_view key) const;
  /// Marks `key` as known without reading it.
  void skip(std::string_view key);
  /// Marks every key as known (the mapping is rejected as a whole).
  void skip_all();
  /// `path.key`.
  std::string path(std::string_view key) const;
  const std::string& path() const noexcept {
    return path_;
  }
  /// Where the mapping starts in the input (-1 when unknown).
  long position() const noexcept {
    return position_;
  }
  /// False when the node was not a mapping.
  bool ok() const noexcept {
    return ok_;
  }

private:
  struct entry {
    std::string key;
    YAML::Node value;
    long position = -1;
    bool used = false;
  };
  std::vector<entry> entries_;
  std::string path_;
  field_errors& strict_;
  long position_ = -1;
  bool ok_ = true;
};

/// Typed scalar readers: nullopt (and a reported problem) on a wrong type.
std::optional<std::int32_t>
read_int32(const YAML::Node& node, std::string_view path, field_errors& errors);
std::optional<std::int64_t>
read_int64(const YAML::Node& node, std::string_view path, field_errors& errors);
std::optional<double> read_number(const YAML::Node& node, std::string_view path,
                                  field_errors& errors);
std::optional<bool> read_bool(const YAML::Node& node, std::string_view path,
                              field_errors& errors);
std::optional<std::string> read_string(const YAML::Node& node,
                                       std::string_view path,
                                       field_errors& errors);
/// A Go duration string such as "15s" or "1m30s".
std::optional<std::chrono::milliseconds> read_duration(const YAML::Node& node,
                                                       std::string_view path,
                                                       field_errors& errors);
/// A list of strings; nullopt when `node` is not a list.
std::optional<std::vector<std::string>> read_string_list(const YAML::Node& node,
                                                         std::string_view path,
                                                         field_errors& errors);

/// True when `node` is a sequence; otherwise reports "must be a list".
bool expect_list(const YAML::Node& node, std::string_view path,
                 field_errors& errors);

/// Reads `key` of `r` with `read` (one of the typed readers above) into
/// `target` when the key is present and its value well typed; `target` keeps
/// its value otherwise.
template <class T, class Read>
void read_into(object_reader& r, std::string_view key, T& target, Read read,
               field_errors& errors) {
  if (auto n = r.get(key))
    if (auto v = read(*n, r.path(key), errors))
      target = std::move(*v);
}

/// The items of the list of objects `node` at `path`, each read by
/// `read(object_reader&)` from a reader at `path[i]`; empty (and "must be a
/// list" reported) when `node` is not a sequence.
template <class T, class Read>
std::vector<T> read_object_list(const YAML::Node& node, const std::string& path,
                                field_errors& errors, Read read) {
  std::vector<T> out;
  if (!expect_list(node, path, errors))
    return out;
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i) {
    object_reader r(*it, index(path, i), errors);
    out.push_back(read(r));
  }
  return out;
}

} // namespace tessera::config::detail
