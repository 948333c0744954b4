// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/stored_object.hpp"

#include "model/decode.hpp"
#include "model/json_access.hpp"

#include <boost/json.hpp>

#include <charconv>
#include <cmath>
#include <mutex>
#include <vector>

namespace tessera::apiserver {

namespace json = boost::json;
using model::object_at;
using model::string_at;

namespace {

std::string_view bool_field(const json::object* o, std::string_view key) {
  if (o)
    if (auto* v = o->if_contains(key))
      if (auto* b = v->if_bool())
        return *b ? "true" : "false";
  return "false";
}

std::string_view string_field(const json::object* o, std::string_view key) {
  return o ? string_at(*o, key) : std::string_view{};
}

object_attrs extract_attrs(storage_kind storage, const json::object& root,
                           std::string_view ns, std::string_view name) {
  std::vector<std::pair<std::string_view, std::string_view>> labels;
  if (auto* meta = object_at(root, "metadata"))
    if (auto* l = object_at(*meta, "labels")) {
      labels.reserve(l->size());
      for (const auto& kv : *l)
        if (auto* s = kv.value().if_string())
          labels.emplace_back(kv.key(), std::string_view{*s});
    }
  const json::object* spec = object_at(root, "spec");
  const json::object* status = object_at(root, "status");
  switch (storage) {
  case storage_kind::pod: {
    const std::string_view values[]
      = {name,
         ns,
         string_field(spec, "nodeName"),
         string_field(spec, "restartPolicy"),
         string_field(spec, "schedulerName"),
         string_field(spec, "serviceAccountName"),
         bool_field(spec, "hostNetwork"),
         string_field(status, "phase"),
         string_field(status, "podIP"),
         string_field(status, "nominatedNodeName")};
    return {selectable_fields(storage_kind::pod), values, labels};
  }
  case storage_kind::node: {
    const std::string_view values[]
      = {name, ns, bool_field(spec, "unschedulable")};
    return {selectable_fields(storage_kind::node), values, labels};
  }
  case storage_kind::namespace_: {
    const std::string_view values[] = {name, ns, string_field(status, "phase")};
    return {selectable_fields(storage_kind::namespace_), values, labels};
  }
  case storage_kind::event: {
    const json::object* inv = object_at(root, "involvedObject");
    const std::string_view values[]
      = {name,
         ns,
         string_field(inv, "kind"),
         string_field(inv, "namespace"),
         string_field(inv, "name"),
         string_field(inv, "uid"),
         string_field(inv, "apiVersion"),
         string_field(inv, "resourceVersion"),
         string_field(inv, "fieldPath"),
         string_field(&root, "reason"),
         string_field(&root, "reportingComponent"),
         string_field(object_at(root, "source"), "component"),
         string_field(&root, "type")};
    return {selectable_fields(storage_kind::event), values, labels};
  }
  default: {
    const std::string_view values[] = {name, ns};
    return {selectable_fields(storage), values, labels};
  }
  }
}

std::optional<model::object_kind> model_kind(storage_kind s) {
  switch (s) {
  case storage_kind::pod:
    return model::object_kind::pod;
  case storage_kind::node:
    return model::object_kind::node;
  case storage_kind::namespace_:
    return model::object_kind::namespace_;
  case storage_kind::priority_class:
    return model::object_kind::priority_class;
  case storage_kind::pod_disruption_budget:
    return model::object_kind::pod_disruption_budget;
  case storage_kind::service:
    return model::object_kind::service;
  case storage_kind::replication_controller:
    return model::object_kind::replication_controller;
  case storage_kind::replica_set:
    return model::object_kind::replica_set;
  case storage_kind::stateful_set:
    return model::object_kind::stateful_set;
  case storage_kind::persistent_volume:
    return model::object_kind::persistent_volume;
  case storage_kind::persistent_volume_claim:
    return model::object_kind::persistent_volume_claim;
  case storage_kind::storage_class:
    return model::object_kind::storage_class;
  case storage_kind::csi_node:
    return model::object_kind::csi_node;
  case storage_kind::csi_driver:
    return model::object_kind::csi_driver;
  case storage_kind::csi_storage_capacity:
    return model::object_kind::csi_storage_capacity;
  case storage_kind::volume_attachment:
    return model::object_kind::volume_attachment;
  default:
    return std::nullopt;
  }
}

} // namespace

// ---- json_doc
// ----------------------------------------------------------------

namespace {

/// Size of an arena's first block: a pod's DOM, kwok status included,
/// fits; bigger documents continue in heap blocks.
constexpr std::size_t arena_block = 8192;

/// Recycles arena blocks. Every write builds a new version in a fresh arena
/// and the history frees old ones in FIFO order; through malloc that churn
/// grows and shrinks thread heaps (mprotect) on every write.
class block_pool {
public:
  void* get() {
    {
      std::lock_guard lock{mu_};
      if (!free_.empty()) {
        void* p = free_.back();
        free_.pop_back();
        return p;
      }
    }
    return ::operator new(arena_block);
  }
  void put(void* p) {
    {
      std::lock_guard lock{mu_};
      if (free_.size() < max_free) {
        free_.push_back(p);
        return;
      }
    }
    ::operator delete(p);
  }
  ~block_pool() {
    for (void* p : free_)
      ::operator delete(p);
  }

private:
  /// At most 32 MiB of idle blocks are kept.
  static constexpr std::size_t max_free = 4096;
  std::mutex mu_;
  std::vector<void*> free_;
};

block_pool& pool() {
  static block_pool p;
  return p;
}

} // namespace

struct json_doc::arena {
  arena()
    : block(pool().get()),
      resource(static_cast<unsigned char*>(block), arena_block) {
  }
  ~arena() {
    resource.release();
    pool().put(block);
  }
  arena(const arena&) = delete;
  arena& operator=(const arena&) = delete;

  void* block;
  json::monotonic_resource resource;
};

json_doc::json_doc()
  : arena_(std::make_unique<arena>()),
    value_(std::make_unique<json::value>(
      json::object(json::storage_ptr(&arena_->resource)))) {
}

json_doc::json_doc(json_doc&&) noexcept = default;
json_doc& json_doc::operator=(json_doc&& other) noexcept {
  value_.reset();
  arena_ = std::move(other.arena_);
  value_ = std::move(other.value_);
  return *this;
}

json_doc::~json_doc() {
  // With a non-owning pointer to a monotonic arena, the value's destructor
  // does not walk the tree; the arena then frees every node at once.
  value_.reset();
  arena_.reset();
}

json_doc json_doc::copy_of(const json::value& v) {
  json_doc d;
  *d.value_ = json::value(v, json::storage_ptr(&d.arena_->resource));
  return d;
}

json_doc json_doc::adopt(json::value&& v) {
  json_doc d;
  d.value_.reset();
  d.arena_.reset();
  d.value_ = std::make_unique<json::value>(std::move(v));
  return d;
}

bool json_doc::parse(std::string_view text, json_doc& out, std::string& error,
                     std::size_t max_depth) {
  json_doc d;
  json::parse_options opts;
  opts.max_depth = max_depth;
  json::error_code ec;
  *d.value_
    = json::parse(text, ec, json::storage_ptr(&d.arena_->resource), opts);
  if (ec) {
    error = ec.message();
    return false;
  }
  if (auto bad = non_finite_number(*d.value_)) {
    error = *bad;
    return false;
  }
  out = std::move(d);
  return true;
}

std::optional<std::string> json_doc::non_finite_number(const json::value& v) {
  switch (v.kind()) {
  case json::kind::double_:
    if (!std::isfinite(v.get_double()))
      return std::string{"a number is out of the range of a float64"};
    return std::nullopt;
  case json::kind::array:
    for (const auto& x : v.get_array())
      if (auto bad = non_finite_number(x))
        return bad;
    return std::nullopt;
  case json::kind::object:
    for (const auto& kv : v.get_object())
      if (auto bad = non_finite_number(kv.value()))
        return bad;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

// ---- stored_object
// ----------------------------------------------------------------

stored_object::~stored_object() = default;

const std::string& stored_object::key() const noexcept {
  return key_;
}

std::string stored_object::json_item() const {
  if (prefix_len_ == 0)
    return *json_;
  std::string out;
  out.reserve(json_->size() - prefix_len_ + 1);
  out += '{';
  out.append(*json_, prefix_len_, std::string::npos);
  return out;
}

void stored_object::append_item(std::string& out) const {
  if (prefix_len_ == 0) {
    out += *json_;
    return;
  }
  out += '{';
  out.append(*json_, prefix_len_, std::string::npos);
}

std::optional<std::string> model_decode_problem(storage_kind storage,
                                                const json::value& doc) {
  auto kind = model_kind(storage);
  if (!kind)
    return std::nullopt;
  model::decode_options opts;
  opts.apply_defaults = false;
  auto decoded = model::decode_object_json(json::serialize(doc), *kind, opts);
  if (decoded)
    return std::nullopt;
  return decoded.err().message;
}

expected<model::object> stored_object::to_model() const {
  auto decode = [this]() -> expected<model::object> {
    auto kind = model_kind(storage_);
    if (!kind)
      return make_error(ec::unsupported, "no model type for this resource");
    model::decode_options opts;
    opts.apply_defaults = false;
    return model::decode_object_json(*json_, *kind, opts);
  };
  // A pod is decoded afresh on each call and not kept: its reader (the
  // scheduler's store bridge) holds it as long as it needs it, and a copy
  // kept here beside the scheduler's would double the memory of a million
  // bound pods. Other kinds are few and read again by the controllers.
  if (storage_ == storage_kind::pod)
    return decode();
  if (!model_)
    return decode();
  std::call_once(model_->once, [&] { model_->value.emplace(decode()); });
  return *model_->value;
}

json_doc stored_object::parse() const {
  json_doc d;
  std::string ignored;
  if (!json_doc::parse(*json_, d, ignored, 256))
    return json_doc{};
  return d;
}

object_ptr stored_object::make(storage_kind storage, json::value& doc) {
  // Private constructor: build through a local derived helper.
  struct maker : stored_object {};
  auto obj = std::make_shared<maker>();
  obj->storage_ = storage;
  if (!doc.is_object())
    doc = json::object{};
  auto& root = doc.as_object();
  // kind and apiVersion first, so list items can drop them by offset.
  bool ordered = root.size() >= 2 && root.begin()->key() == "kind"
                 && std::next(root.begin())->key() == "apiVersion";
  if (!ordered && root.contains("kind") && root.contains("apiVersion")) {
    json::object reordered(root.storage());
    reordered.reserve(root.size());
    reordered.emplace("kind", root.at("kind"));
    reordered.emplace("apiVersion", root.at("apiVersion"));
    for (auto& kv : root)
      if (kv.key() != "kind" && kv.key() != "apiVersion")
        reordered.emplace(kv.key(), std::move(kv.value()));
    root = std::move(reordered);
    ordered = true;
  }
  if (auto* meta = object_at(root, "metadata")) {
    auto ns = string_at(*meta, "namespace");
    auto name = string_at(*meta, "name");
    obj->ns_len_ = static_cast<std::uint32_t>(ns.size());
    obj->key_.reserve(ns.size() + 1 + name.size());
    obj->key_.append(ns);
    if (!ns.empty())
      obj->key_ += '/';
    obj->key_.append(name);
    obj->uid_ = std::string{string_at(*meta, "uid")};
    auto rv = string_at(*meta, "resourceVersion");
    std::uint64_t n = 0;
    auto [p, e] = std::from_chars(rv.data(), rv.data() + rv.size(), n);
    if (e == std::errc{} && p == rv.data() + rv.size())
      obj->rv_ = n;
  }
  obj->attrs_ = extract_attrs(storage, root, obj->ns(), obj->name());
  if (storage != storage_kind::pod && model_kind(storage))
    obj->model_ = std::make_unique<model_cache>();
  auto text = std::make_shared<std::string>(json::serialize(doc));
  // serialize grows its buffer by doubling; the bytes are kept for the
  // object's life, so the slack is given back once here.
  text->shrink_to_fit();
  if (ordered) {
    // `{"kind":"X","apiVersion":"Y",` — find the comma after apiVersion.
    auto kind = string_at(root, "kind");
    auto api = string_at(root, "apiVersion");
    std::size_t expect
      = 2 + 6 + 1 + kind.size() + 2 + 1 + 12 + 1 + api.size() + 2;
    if (text->size() > expect && (*text)[expect - 1] == ','
        && text->compare(0, 9, "{\"kind\":\"") == 0)
      obj->prefix_len_ = static_cast<std::uint32_t>(expect);
  }
  obj->json_ = std::move(text);
  return obj;
}

} // namespace tessera::apiserver
