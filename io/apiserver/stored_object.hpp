// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `stored_object`: one version of one object in the embedded store,
/// immutable once built and shared as `object_ptr` by the current state, the
/// event history, every watcher and every response. It carries the object's
/// JSON serialized exactly once (`json()`, self-describing: `kind` and
/// `apiVersion` come first, so a list item is the same bytes minus that
/// prefix, `item_json()`), its identity, its resourceVersion, the labels and
/// selectable fields that selectors test, and the model object for
/// in-process consumers (decoded on use; cached except for pods).
#pragma once

#include "io/apiserver/resources.hpp"
#include "io/apiserver/selector.hpp"
#include "model/object.hpp"
#include "support/error.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace boost::json {
class value;
} // namespace boost::json

namespace tessera::apiserver {

class stored_object;
using object_ptr = std::shared_ptr<const stored_object>;

/// A JSON document together with the arena its nodes are allocated from
/// (internal to the API server). Every version of an object is built in a
/// fresh arena by bump allocation and released with it in one go, without
/// walking the tree — the store's write path is dominated by DOM copies and
/// frees otherwise.
class json_doc {
public:
  /// An empty object in a fresh arena.
  json_doc();
  json_doc(json_doc&&) noexcept;
  json_doc& operator=(json_doc&&) noexcept;
  ~json_doc();

  /// A deep copy of `v` in a fresh arena.
  static json_doc copy_of(const boost::json::value& v);
  /// Takes `v` as is (its own storage); for rarely built documents.
  static json_doc adopt(boost::json::value&& v);
  /// Parses `text` into a fresh arena; false on malformed JSON (the
  /// message in `error`), nesting deeper than `max_depth`, or a number
  /// that does not parse to a finite value.
  static bool parse(std::string_view text, json_doc& out, std::string& error,
                    std::size_t max_depth = 64);

  /// The message for the first number of `v` that is not finite (Boost.
  /// JSON reads `1e400` as infinity and `0e400` as NaN, which would be
  /// stored and then served as invalid JSON); nullopt when all are.
  static std::optional<std::string>
  non_finite_number(const boost::json::value& v);

  boost::json::value& value() noexcept {
    return *value_;
  }
  const boost::json::value& value() const noexcept {
    return *value_;
  }

private:
  /// A monotonic resource over a recycled block (see stored_object.cpp).
  struct arena;
  // Declared first: destroyed after the value that lives in it.
  std::unique_ptr<arena> arena_;
  std::unique_ptr<boost::json::value> value_;
};

/// Why the model cannot decode `doc` stored as `storage`
/// (`<path>: <problem>`), or nullopt when it can or the kind has no model
/// type. Writes from clients are checked with it, so that what the server
/// stores, `tessera run` can read.
std::optional<std::string> model_decode_problem(storage_kind storage,
                                                const boost::json::value& doc);

class stored_object {
public:
  ~stored_object();
  stored_object(const stored_object&) = delete;
  stored_object& operator=(const stored_object&) = delete;

  storage_kind storage() const noexcept {
    return storage_;
  }
  /// metadata.namespace ("" for cluster-scoped kinds).
  std::string_view ns() const noexcept {
    return std::string_view{key_}.substr(0, ns_len_);
  }
  std::string_view name() const noexcept {
    return std::string_view{key_}.substr(ns_len_ == 0 ? 0 : ns_len_ + 1);
  }
  const std::string& uid() const noexcept {
    return uid_;
  }
  /// metadata.resourceVersion as a number (0 for synthetic objects).
  std::uint64_t resource_version() const noexcept {
    return rv_;
  }
  /// "ns/name", or "name" for cluster-scoped kinds: the storage key.
  const std::string& key() const noexcept;

  /// The whole object, `{"kind":..,"apiVersion":..,"metadata":..}`.
  const std::string& json() const noexcept {
    return *json_;
  }
  /// The same bytes shared, for writers that keep them past this object.
  const std::shared_ptr<const std::string>& json_ptr() const noexcept {
    return json_;
  }
  /// The object without `kind` and `apiVersion`, as list items are sent.
  std::string json_item() const;
  /// Appends json_item() to `out` without a temporary.
  void append_item(std::string& out) const;

  /// Labels and selectable fields.
  const object_attrs& attrs() const noexcept {
    return attrs_;
  }

  /// A fresh parse of json() (internal to the API server). Versions keep
  /// only their bytes: the store holds the document of each current object,
  /// and superseded versions in the history cost no DOM.
  json_doc parse() const;

  /// The model object (pods, nodes, namespaces, priority classes, PDBs,
  /// storage kinds), decoded from json(): pods on every call (the caller
  /// keeps what it needs), the others on first call and cached; kinds
  /// without a model type are ec::unsupported. Thread-safe.
  expected<model::object> to_model() const;

  /// Builds a stored object from a JSON document (an object): reorders the
  /// document so that kind and apiVersion come first, serializes it, reads
  /// the metadata and extracts selector attributes. The document is not
  /// kept. Internal to the API server.
  static object_ptr make(storage_kind storage, boost::json::value& doc);

private:
  stored_object() = default;

  storage_kind storage_ = storage_kind::pod;
  /// The decoded model object of a kind that keeps one (see to_model).
  struct model_cache {
    std::once_flag once;
    std::optional<expected<model::object>> value;
  };

  // A million pods each keep one current version: the namespace and name
  // are views into the key, and only kinds that cache a model pay for it.
  std::string key_;
  std::uint32_t ns_len_ = 0;
  std::uint32_t prefix_len_ = 0;
  std::uint64_t rv_ = 0;
  std::string uid_;
  std::shared_ptr<const std::string> json_;
  object_attrs attrs_;
  mutable std::unique_ptr<model_cache> model_;
};

} // namespace tessera::apiserver
