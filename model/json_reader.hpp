// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `json_reader`: the path-tracking reader shared by the model's JSON
/// decoders. Private to `model/*_json.cpp`: nothing outside those files may
/// include this header. It names Boost.JSON types only through
/// `<boost/json/fwd.hpp>`, so it stays as cheap to include as any other header.
///
/// A decoder walks a parsed `boost::json::value`, pushing each field name and
/// array index it descends into. On the first problem it calls `fail`, which
/// throws `decode_failure` carrying `<path>: <problem>`
/// (`spec.containers[0].resources.requests.cpu: invalid quantity "12x"`).
/// Every public entry point runs its decoder inside `guarded`, which turns
/// that exception (and any other, e.g. bad_alloc) into an `error`, so no
/// exception leaves the model.
///
/// Problems are worded the same way everywhere:
/// - `expected <type>, got <type>` (object, array, string, integer, number,
///   boolean);
/// - `value <n> out of range`;
/// - `unsupported value "<v>": supported values: "<a>", "<b>"` (sorted);
/// - `required value`;
/// - `invalid value <v>: <rule>` for values of the right type that break a
///   validation rule (`invalid value 0: must be greater than 0`);
/// - `must ...` for rules between fields (`values: must be non-empty for
///   operator In`, `value: must be empty when operator is Exists`);
/// - `invalid timestamp "<v>"`, and the quantity parser's own text
///   (`invalid quantity "12x"`);
/// - `invalid JSON at offset <n>: <parser message>` for syntax errors.
#pragma once

#include "model/decode.hpp"
#include "model/labels.hpp"
#include "model/quantity.hpp"
#include "model/resource_list.hpp"
#include "model/symbol.hpp"
#include "support/error.hpp"

#include <boost/container/small_vector.hpp>
#include <boost/json/fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::model::json_detail {

/// Deepest nesting accepted in JSON and YAML input.
inline constexpr int max_nesting = 64;

/// The path (`spec.containers[0]`) of a stack of collection frames being
/// read, up to the first mapping whose key is not read yet. A frame has
/// `is_map`, `has_key` and `key`; `index_of(frame)` is a sequence frame's
/// current index.
template <class Frames, class IndexOf>
std::string frames_path(const Frames& frames, IndexOf index_of) {
  std::string out;
  for (const auto& f : frames) {
    if (f.is_map) {
      if (!f.has_key)
        break;
      if (!out.empty())
        out += '.';
      out += f.key;
    } else {
      out += '[' + std::to_string(index_of(f)) + ']';
    }
  }
  return out;
}

/// The exception decoders throw on the first problem. Caught by `guarded`.
struct decode_failure {
  std::string message;
};

class json_reader {
public:
  json_reader() = default;
  /// `prefix` starts every path ("profiles[0].args").
  explicit json_reader(std::string_view prefix) : prefix_(prefix) {
  }

  void push(std::string_view key) {
    segments_.push_back({key, 0, false});
  }
  void push(std::size_t index) {
    segments_.push_back({{}, index, true});
  }
  void pop() noexcept {
    segments_.pop_back();
  }

  /// The current path, e.g. `spec.containers[0].name` ("" at the root).
  std::string path() const;
  /// Throws `decode_failure` with `<path>: <problem>` (just the problem at
  /// the root).
  [[noreturn]] void fail(std::string_view problem) const;

private:
  struct segment {
    std::string_view key;
    std::size_t index = 0;
    bool is_index = false;
  };
  std::string prefix_;
  std::vector<segment> segments_;
};

/// Pushes a field name or index for the lifetime of the guard.
class path_guard {
public:
  path_guard(json_reader& r, std::string_view key) : r_(r) {
    r_.push(key);
  }
  path_guard(json_reader& r, std::size_t index) : r_(r) {
    r_.push(index);
  }
  path_guard(const path_guard&) = delete;
  path_guard& operator=(const path_guard&) = delete;
  ~path_guard() {
    r_.pop();
  }

private:
  json_reader& r_;
};

using json_value = boost::json::value;
using json_object = boost::json::object;
using json_array = boost::json::array;

// Typed access to the value at the reader's current path; each fails with
// `expected <type>, got <type>` (or a range / format problem).
const json_object& get_object(const json_reader& r, const json_value& v);
const json_array& get_array(const json_reader& r, const json_value& v);
std::string_view get_string(const json_reader& r, const json_value& v);
bool get_bool(const json_reader& r, const json_value& v);
std::int32_t get_int32(const json_reader& r, const json_value& v);
std::int64_t get_int64(const json_reader& r, const json_value& v);
/// Interns a string value (only for bounded vocabularies).
symbol get_symbol(const json_reader& r, const json_value& v);
/// symbol{text} through a small per-thread cache: decoding interns the same
/// few hundred strings (label keys and values, resource names, node names)
/// over and over, and the cache avoids the intern table's lock for them.
symbol intern(std::string_view text);
/// An RFC 3339 timestamp as seconds since the epoch.
std::int64_t get_timestamp(const json_reader& r, const json_value& v);
/// A quantity given as a string or as a JSON number.
quantity get_quantity(const json_reader& r, const json_value& v);
/// One of `supported` (listed in any order); returns its index.
std::size_t get_enum(const json_reader& r, const json_value& v,
                     std::span<const std::string_view> supported);

/// `unsupported value "<v>": supported values: ...` for a value read earlier.
[[noreturn]] void fail_unsupported(const json_reader& r, std::string_view value,
                                   std::span<const std::string_view> supported);

/// The member `key` of `o`, or nullptr when absent or JSON null (Kubernetes
/// clients treat null like an absent field).
const json_value* find(const json_object& o, std::string_view key) noexcept;

/// Calls `f(value)` with `key` on the path when the member is present.
template <class F>
void with_member(json_reader& r, const json_object& o, std::string_view key,
                 F&& f) {
  if (const json_value* v = find(o, key)) {
    path_guard guard{r, key};
    f(*v);
  }
}

/// Calls `f(index, element)` for each element of an array, with the index on
/// the path. `Array` is always json_array; it is a template parameter only
/// so that this header needs no complete Boost.JSON type.
template <class Array, class F>
void for_each_element(json_reader& r, const Array& a, F&& f) {
  std::size_t i = 0;
  for (const auto& element : a) {
    path_guard guard{r, i};
    f(i, element);
    ++i;
  }
}

/// Calls `f(key, value)` for each member of an object, with the key on the
/// path. `Object` is always json_object (see for_each_element).
template <class Object, class F>
void for_each_member(json_reader& r, const Object& o, F&& f) {
  for (const auto& member : o) {
    const auto key = member.key();
    const std::string_view k{key.data(), key.size()};
    path_guard guard{r, k};
    f(k, member.value());
  }
}

/// Fails with `problem` at the path extended by `keys` (for problems found
/// after the fact, e.g. a required field that was absent).
[[noreturn]] void fail_at(const json_reader& r,
                          std::initializer_list<std::string_view> keys,
                          std::string_view problem);

/// Calls `f(key, value)` for each member that is not JSON null, with the
/// key on the path. Decoders of objects with many members dispatch on the
/// key in `f`: one pass over the members instead of one search per field.
template <class Object, class F>
void for_each_field(json_reader& r, const Object& o, F&& f) {
  for (const auto& member : o) {
    if (member.value().is_null())
      continue;
    const auto key = member.key();
    const std::string_view k{key.data(), key.size()};
    path_guard guard{r, k};
    f(k, member.value());
  }
}

/// A map of strings as a label set (labels, nodeSelector). Keys and values
/// are interned.
label_set read_label_map(json_reader& r, const json_value& v);

/// The ObjectMeta fields every kind reads. Views point into the JSON value.
struct object_metadata {
  std::string_view name;
  std::string_view generate_name;
  std::string_view namespace_;
  std::string_view uid;
  std::string_view resource_version;
  std::int64_t creation_unix = 0;
  std::int64_t generation = 0;
  label_set labels;
  /// metadata.deletionTimestamp is set.
  bool deleting = false;
  /// metadata.ownerReferences, when present.
  const json_value* owner_references = nullptr;
  /// metadata.annotations, when present.
  const json_value* annotations = nullptr;
};
/// Reads `metadata` of `o` (absent metadata reads as empty).
object_metadata read_metadata(json_reader& r, const json_object& o);
/// Fails with `metadata.name: required value` when the name is empty.
void require_name(const json_reader& r, const object_metadata& meta);
/// metav1.LabelSelector; the caller maps an absent field to nothing().
label_selector read_label_selector(json_reader& r, const json_value& v);

/// One entry of a v1.ResourceList, converted to the scheduler's units (cpu
/// in millicores, everything else rounded up to integers). Entries with
/// names the scheduler ignores are validated and then dropped.
struct resource_entry {
  std::string_view name;
  resource_kind kind = resource_kind::ignored;
  std::int64_t value = 0;
};
using resource_entries = boost::container::small_vector<resource_entry, 6>;
/// Reads a v1.ResourceList (negative quantities are rejected).
void read_resource_map(json_reader& r, const json_value& v,
                       resource_entries& out);
/// Adds entries to a resource_list.
void apply_resources(const resource_entries& entries, resource_list& out);
/// Reads a v1.ResourceList straight into a resource_list.
resource_list read_resource_list(json_reader& r, const json_value& v);

/// Parses JSON text into a value allocated from `sp` (nesting limited to
/// max_nesting). Fails with `invalid JSON at offset N: <problem>`, N counted
/// from `base_offset` (for texts cut out of a larger one). With `consumed`,
/// only the first value of `text` is parsed and `*consumed` is set to the
/// characters it took (trailing whitespace included).
json_value parse_json(std::string_view text, const boost::json::storage_ptr& sp,
                      std::size_t base_offset = 0,
                      std::size_t* consumed = nullptr);

/// A parsed JSON text (see parse_json) whose values live in per-thread
/// scratch memory: a block kept between calls and grown to the largest
/// document seen (up to a bound), so that decoding a big list does not
/// fault in fresh pages every time. The root is valid while the document
/// lives; at most one document per thread uses the block at a time (others
/// fall back to the heap).
class json_document {
public:
  explicit json_document(std::string_view text, std::size_t base_offset = 0);
  /// Parses only the first value of `text`; see consumed().
  struct first_value_t {};
  static constexpr first_value_t first_value{};
  json_document(std::string_view text, std::size_t base_offset, first_value_t);
  ~json_document();
  json_document(json_document&&) noexcept;
  json_document(const json_document&) = delete;
  json_document& operator=(const json_document&) = delete;

  const json_value& root() const noexcept;
  /// Characters of the text the value took (first_value documents).
  std::size_t consumed() const noexcept;

private:
  json_document(std::string_view text, std::size_t base_offset,
                bool first_value);
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// "Pod" -> pod, ...; nullopt for kinds the scheduler does not use.
std::optional<object_kind> kind_from_name(std::string_view name) noexcept;
/// The sorted list of supported kind names.
std::span<const std::string_view> supported_kind_names() noexcept;

// Object decoders; `o` is the object's JSON (kind and apiVersion are checked
// by read_object, not here).
pod read_pod(json_reader& r, const json_object& o, const decode_options& opts);
node read_node(json_reader& r, const json_object& o,
               const decode_options& opts);
namespace_info read_namespace(json_reader& r, const json_object& o,
                              const decode_options& opts);
priority_class read_priority_class(json_reader& r, const json_object& o,
                                   const decode_options& opts);
/// A Service, ReplicationController, ReplicaSet or StatefulSet: metadata
/// and spec.selector only.
workload read_workload(json_reader& r, const json_object& o,
                       workload_kind kind);
disruption_budget read_disruption_budget(json_reader& r, const json_object& o,
                                         const decode_options& opts);
node_affinity read_node_affinity(json_reader& r, const json_value& v);
node_selector_term read_node_selector_term(json_reader& r, const json_value& v);
persistent_volume read_persistent_volume(json_reader& r, const json_object& o);
persistent_volume_claim read_persistent_volume_claim(json_reader& r,
                                                     const json_object& o);
storage_class read_storage_class(json_reader& r, const json_object& o);
csi_node read_csi_node(json_reader& r, const json_object& o);
csi_driver read_csi_driver(json_reader& r, const json_object& o);
csi_storage_capacity read_csi_storage_capacity(json_reader& r,
                                               const json_object& o);
volume_attachment read_volume_attachment(json_reader& r, const json_object& o);
/// An inline pod volume source of `type` as attach limits count it.
attachable_volume read_inline_attach_source(json_reader& r,
                                            std::string_view type,
                                            const json_value& v);
/// `pod_labels` (may be null) are merged for matchLabelKeys.
topology_spread_constraint read_spread_constraint(json_reader& r,
                                                  const json_value& v,
                                                  const label_set* pod_labels);

/// Decodes `v` as an object of `kind`: checks its `kind` (when present) and
/// `apiVersion` (when present) fields, then runs the kind's decoder.
object read_object(json_reader& r, const json_value& v, object_kind kind,
                   const decode_options& opts);

/// Runs `f` and converts any exception into an error: decode_failure and
/// other exceptions to ec::invalid_input, bad_alloc to ec::exhausted.
template <class T, class F> expected<T> guarded(F&& f) {
  try {
    return f();
  } catch (decode_failure& e) {
    return make_error(ec::invalid_input, std::move(e.message));
  } catch (const std::bad_alloc&) {
    return make_error(ec::exhausted, "out of memory");
  } catch (const std::exception& e) {
    return make_error(ec::invalid_input, e.what());
  } catch (...) {
    return make_error(ec::internal, "unknown exception while decoding");
  }
}

} // namespace tessera::model::json_detail
