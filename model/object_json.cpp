// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// The public JSON entry points of model/decode.hpp: single objects, lists,
// watch events and the spec fragments plugin arguments embed. Manifests
// (JSON or YAML files) are in yaml_json.cpp.
#include "model/decode.hpp"
#include "model/json_reader.hpp"

#include <boost/json.hpp>

#include <array>
#include <memory>
#include <utility>

namespace tessera::model {

namespace json_detail {

namespace {

// Reads a text member at `path` below `v`; "" when any step is missing.
std::string text_below(const json_value& v,
                       std::initializer_list<std::string_view> path) {
  const json_value* at = &v;
  for (auto key : path) {
    const auto* obj = at->if_object();
    if (obj == nullptr)
      return {};
    at = obj->if_contains(key);
    if (at == nullptr)
      return {};
  }
  const auto* str = at->if_string();
  return str == nullptr ? std::string{} : std::string{str->c_str()};
}

object_peek peek_object(const json_value& v) {
  object_peek p;
  p.ns = text_below(v, {"metadata", "namespace"});
  p.name = text_below(v, {"metadata", "name"});
  p.uid = text_below(v, {"metadata", "uid"});
  p.resource_version = text_below(v, {"metadata", "resourceVersion"});
  p.node_name = text_below(v, {"spec", "nodeName"});
  p.scheduler_name = text_below(v, {"spec", "schedulerName"});
  return p;
}

std::span<const std::string_view> api_versions(object_kind kind) noexcept {
  static constexpr std::array<std::string_view, 1> core = {"v1"};
  static constexpr std::array<std::string_view, 3> scheduling
    = {"scheduling.k8s.io/v1", "scheduling.k8s.io/v1beta1",
       "scheduling.k8s.io/v1alpha1"};
  // policy/v1beta1 read an empty selector as "no pods": refuse it rather
  // than guess.
  static constexpr std::array<std::string_view, 1> policy = {"policy/v1"};
  static constexpr std::array<std::string_view, 1> apps = {"apps/v1"};
  static constexpr std::array<std::string_view, 1> storage
    = {"storage.k8s.io/v1"};
  static constexpr std::array<std::string_view, 2> capacity
    = {"storage.k8s.io/v1", "storage.k8s.io/v1beta1"};
  switch (kind) {
  case object_kind::storage_class:
  case object_kind::csi_node:
  case object_kind::csi_driver:
  case object_kind::volume_attachment:
    return storage;
  case object_kind::csi_storage_capacity:
    return capacity;
  case object_kind::priority_class:
    return scheduling;
  case object_kind::pod_disruption_budget:
    return policy;
  case object_kind::replica_set:
  case object_kind::stateful_set:
    return apps;
  default:
    return core;
  }
}

std::string_view resource_version_of(const json_object& o) {
  if (const json_value* meta = find(o, "metadata"))
    if (const auto* m = meta->if_object())
      if (const json_value* rv = find(*m, "resourceVersion"))
        if (const auto* s = rv->if_string())
          return {s->data(), s->size()};
  return {};
}

object read_item(json_reader& r, const json_value& item,
                 std::optional<object_kind> expected,
                 const decode_options& opts) {
  if (expected)
    return read_object(r, item, *expected, opts);
  const auto& o = get_object(r, item);
  const json_value* kind = find(o, "kind");
  if (kind == nullptr)
    fail_at(r, {"kind"}, "required value");
  std::optional<object_kind> k;
  {
    path_guard guard{r, "kind"};
    const auto name = get_string(r, *kind);
    k = kind_from_name(name);
    if (!k)
      fail_unsupported(r, name, supported_kind_names());
  }
  return read_object(r, item, *k, opts);
}

/// Decodes a list object member by member and its items one by one, so that
/// each item's values are parsed into the same small, cache-warm memory and
/// a list of any size needs memory for one item only. Only the punctuation
/// of the list object and of `items` is read here; every value, items
/// included, goes through the JSON parser, so a syntax error anywhere still
/// fails the whole list (with the offset the parser gives).
class list_decoder {
public:
  list_decoder(std::string_view text, std::optional<object_kind> item_kind,
               const decode_options& options)
    : t_(text), item_kind_(item_kind), expected_(item_kind), opts_(options) {
  }

  decoded_list run() {
    skip_space();
    if (pos_ >= t_.size() || t_[pos_] != '{') {
      // Not an object: the parser says what it is (or what is wrong).
      const json_document doc{t_};
      (void)get_object(r_, doc.root());
    }
    ++pos_;
    skip_space();
    if (peek() == '}') {
      ++pos_;
    } else {
      while (true) {
        const std::string_view key = read_key();
        skip_space();
        expect(':');
        skip_space();
        if (key == "items" && peek() == '[')
          read_items();
        else
          read_member(key);
        skip_space();
        if (peek() == ',') {
          ++pos_;
          skip_space();
          continue;
        }
        expect('}');
        break;
      }
    }
    skip_space();
    if (pos_ != t_.size())
      fail("extra data", pos_);
    if (!kind_known())
      fail_at(r_, {"kind"}, "required value");
    // Items that came before the list's kind.
    path_guard guard{r_, "items"};
    for (const auto& [begin, index] : deferred_) {
      const json_document doc{t_.substr(begin), begin,
                              json_document::first_value};
      decode_item(doc.root(), index);
    }
    return std::move(out_);
  }

private:
  bool kind_known() const noexcept {
    return item_kind_.has_value() || kind_seen_;
  }

  [[noreturn]] void fail(std::string_view problem, std::size_t at) const {
    throw decode_failure{"invalid JSON at offset " + std::to_string(at) + ": "
                         + std::string{problem}};
  }

  char peek() const {
    if (pos_ >= t_.size())
      fail("incomplete JSON", t_.size());
    return t_[pos_];
  }

  void expect(char c) {
    if (peek() != c)
      fail("syntax error", pos_);
    ++pos_;
  }

  void skip_space() noexcept {
    while (pos_ < t_.size()
           && (t_[pos_] == ' ' || t_[pos_] == '\n' || t_[pos_] == '\r'
               || t_[pos_] == '\t'))
      ++pos_;
  }

  /// A member name; names with escapes are compared as written (the list
  /// members the scheduler reads have none).
  std::string_view read_key() {
    if (peek() != '"')
      fail("syntax error", pos_);
    const std::size_t first = pos_ + 1;
    std::size_t at = first;
    while (true) {
      if (at >= t_.size())
        fail("incomplete JSON", t_.size());
      if (t_[at] == '\\') {
        at += 2;
        continue;
      }
      if (t_[at] == '"')
        break;
      ++at;
    }
    pos_ = at + 1;
    return t_.substr(first, at - first);
  }

  /// Parses the value at the current position and moves past it.
  json_document next_value() {
    json_document doc{t_.substr(pos_), pos_, json_document::first_value};
    pos_ += doc.consumed();
    return doc;
  }

  void read_member(std::string_view key) {
    const json_document doc = next_value();
    const json_value& v = doc.root();
    if (key == "kind") {
      if (!v.is_null()) // null reads as absent
        read_kind(v);
    } else if (key == "metadata") {
      if (v.is_null())
        return;
      path_guard guard{r_, "metadata"};
      const auto& meta = get_object(r_, v);
      with_member(r_, meta, "resourceVersion", [&](const json_value& x) {
        out_.resource_version = get_string(r_, x);
      });
      with_member(r_, meta, "continue", [&](const json_value& x) {
        out_.continue_token = get_string(r_, x);
      });
    } else if (key == "items") { // not an array
      clear_items();
      if (!v.is_null()) {
        path_guard guard{r_, "items"};
        (void)get_array(r_, v);
      }
    }
  }

  /// The list kind decides the kind of items that carry none.
  void read_kind(const json_value& v) {
    path_guard guard{r_, "kind"};
    const auto name = get_string(r_, v);
    kind_seen_ = true;
    if (name == "List")
      return;
    constexpr std::string_view suffix = "List";
    std::optional<object_kind> derived;
    if (name.size() > suffix.size() && name.ends_with(suffix))
      derived = kind_from_name(name.substr(0, name.size() - suffix.size()));
    if (!derived) {
      std::vector<std::string> names{"List"};
      for (auto k : supported_kind_names())
        names.push_back(std::string{k} + "List");
      std::vector<std::string_view> views(names.begin(), names.end());
      fail_unsupported(r_, name, views);
    }
    if (!item_kind_)
      expected_ = derived;
  }

  void clear_items() {
    out_.items.clear();
    out_.skipped.clear();
    out_.skipped_objects.clear();
    deferred_.clear();
    index_ = 0;
  }

  void read_items() {
    clear_items(); // a repeated member replaces the earlier one
    ++pos_;        // '['
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return;
    }
    path_guard guard{r_, "items"};
    while (true) {
      const std::size_t begin = pos_;
      const json_document doc = next_value();
      if (kind_known())
        decode_item(doc.root(), index_);
      else
        deferred_.emplace_back(begin, index_);
      ++index_;
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
        continue;
      }
      expect(']');
      return;
    }
  }

  void decode_item(const json_value& item, std::size_t index) {
    path_guard guard{r_, index};
    try {
      out_.items.push_back(read_item(r_, item, expected_, opts_));
    } catch (decode_failure& e) {
      out_.skipped.push_back(
        make_error(ec::invalid_input, std::move(e.message)));
      out_.skipped_objects.push_back(peek_object(item));
    }
  }

  std::string_view t_;
  std::size_t pos_ = 0;
  std::optional<object_kind> item_kind_;
  std::optional<object_kind> expected_;
  const decode_options& opts_;
  bool kind_seen_ = false;
  json_reader r_;
  decoded_list out_;
  std::size_t index_ = 0;
  /// Items before the list's kind: (offset, index), decoded at the end.
  std::vector<std::pair<std::size_t, std::size_t>> deferred_;
};

/// parse_json with the reader's path prefixed to syntax errors.
json_value parse_with_path(const json_reader& r, std::string_view json) {
  try {
    return parse_json(json, {});
  } catch (decode_failure& e) {
    r.fail(e.message);
  }
}

} // namespace

object read_object(json_reader& r, const json_value& v, object_kind kind,
                   const decode_options& opts) {
  const auto& o = get_object(r, v);
  with_member(r, o, "kind", [&](const json_value& x) {
    const std::string_view expected = to_string(kind);
    const auto name = get_string(r, x);
    if (name != expected)
      fail_unsupported(r, name,
                       std::span<const std::string_view>{&expected, 1});
  });
  with_member(r, o, "apiVersion", [&](const json_value& x) {
    (void)get_enum(r, x, api_versions(kind));
  });
  switch (kind) {
  case object_kind::pod:
    return std::make_shared<const pod>(read_pod(r, o, opts));
  case object_kind::node:
    return std::make_shared<const node>(read_node(r, o, opts));
  case object_kind::namespace_:
    return std::make_shared<const namespace_info>(read_namespace(r, o, opts));
  case object_kind::priority_class:
    return std::make_shared<const priority_class>(
      read_priority_class(r, o, opts));
  case object_kind::pod_disruption_budget:
    return std::make_shared<const disruption_budget>(
      read_disruption_budget(r, o, opts));
  case object_kind::service:
  case object_kind::replication_controller:
  case object_kind::replica_set:
  case object_kind::stateful_set:
    return std::make_shared<const workload>(
      read_workload(r, o, *workload_kind_of(kind)));
  case object_kind::persistent_volume:
    return std::make_shared<const persistent_volume>(
      read_persistent_volume(r, o));
  case object_kind::persistent_volume_claim:
    return std::make_shared<const persistent_volume_claim>(
      read_persistent_volume_claim(r, o));
  case object_kind::storage_class:
    return std::make_shared<const storage_class>(read_storage_class(r, o));
  case object_kind::csi_node:
    return std::make_shared<const csi_node>(read_csi_node(r, o));
  case object_kind::csi_driver:
    return std::make_shared<const csi_driver>(read_csi_driver(r, o));
  case object_kind::csi_storage_capacity:
    return std::make_shared<const csi_storage_capacity>(
      read_csi_storage_capacity(r, o));
  case object_kind::volume_attachment:
    return std::make_shared<const volume_attachment>(
      read_volume_attachment(r, o));
  }
  r.fail("unknown object kind");
}

} // namespace json_detail

using namespace json_detail;

expected<object> decode_object_json(std::string_view json,
                                    const decode_options& options) {
  return guarded<object>([&]() -> object {
    const json_document doc{json};
    json_reader r;
    return read_item(r, doc.root(), std::nullopt, options);
  });
}

expected<object> decode_object_json(std::string_view json, object_kind kind,
                                    const decode_options& options) {
  return guarded<object>([&]() -> object {
    const json_document doc{json};
    json_reader r;
    return read_object(r, doc.root(), kind, options);
  });
}

expected<pod> decode_pod_json(std::string_view json,
                              const decode_options& options) {
  auto obj = decode_object_json(json, object_kind::pod, options);
  if (!obj)
    return std::move(obj).err();
  return *std::get<pod_ptr>(*obj);
}

expected<node> decode_node_json(std::string_view json,
                                const decode_options& options) {
  auto obj = decode_object_json(json, object_kind::node, options);
  if (!obj)
    return std::move(obj).err();
  return *std::get<node_ptr>(*obj);
}

expected<decoded_list> decode_list_json(std::string_view json,
                                        std::optional<object_kind> item_kind,
                                        const decode_options& options) {
  return guarded<decoded_list>([&]() -> decoded_list {
    return list_decoder{json, item_kind, options}.run();
  });
}

expected<watch_event> decode_watch_event_json(std::string_view line,
                                              object_kind kind,
                                              const decode_options& options) {
  static constexpr std::array<std::string_view, 5> types
    = {"ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"};
  return guarded<watch_event>([&]() -> watch_event {
    const json_document doc{line};
    json_reader r;
    const auto& o = get_object(r, doc.root());
    watch_event ev;
    const json_value* type = find(o, "type");
    if (type == nullptr)
      fail_at(r, {"type"}, "required value");
    {
      path_guard guard{r, "type"};
      ev.type = static_cast<watch_event_type>(get_enum(r, *type, types));
    }
    const json_value* obj = find(o, "object");
    if (obj == nullptr)
      fail_at(r, {"object"}, "required value");
    path_guard guard{r, "object"};
    const auto& body = get_object(r, *obj);
    switch (ev.type) {
    case watch_event_type::error:
      with_member(r, body, "code",
                  [&](const json_value& x) { ev.code = get_int32(r, x); });
      with_member(r, body, "reason",
                  [&](const json_value& x) { ev.reason = get_string(r, x); });
      with_member(r, body, "message",
                  [&](const json_value& x) { ev.message = get_string(r, x); });
      break;
    case watch_event_type::bookmark: {
      // Only metadata matters; the rest is an empty object of the kind.
      const object_metadata meta = read_metadata(r, body);
      ev.resource_version = meta.resource_version;
      if (meta.annotations != nullptr) {
        const auto& annotations = meta.annotations->get_object();
        if (const json_value* end
            = find(annotations, "k8s.io/initial-events-end")) {
          path_guard g1{r, "metadata"};
          path_guard g2{r, "annotations"};
          path_guard g3{r, "k8s.io/initial-events-end"};
          ev.initial_events_end = get_string(r, *end) == "true";
        }
      }
      break;
    }
    default:
      ev.obj = read_object(r, *obj, kind, options);
      ev.resource_version = resource_version_of(body);
      break;
    }
    return ev;
  });
}

expected<node_affinity> decode_node_affinity_json(std::string_view json,
                                                  std::string_view path) {
  return guarded<node_affinity>([&]() -> node_affinity {
    json_reader r{path};
    const json_value v = parse_with_path(r, json);
    return read_node_affinity(r, v);
  });
}

expected<topology_spread_constraint>
decode_topology_spread_constraint_json(std::string_view json,
                                       std::string_view path) {
  return guarded<topology_spread_constraint>(
    [&]() -> topology_spread_constraint {
      json_reader r{path};
      const json_value v = parse_with_path(r, json);
      return read_spread_constraint(r, v, nullptr);
    });
}

} // namespace tessera::model
