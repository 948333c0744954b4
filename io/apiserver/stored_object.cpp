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

std::string bool_field(const json::object* o, std::string_view key) {
  if (o)
    if (auto* v = o->if_contains(key))
      if (auto* b = v->if_bool())
        return *b ? "true" : "false";
  return "false";
}

std::string string_field(const json::object* o, std::string_view key) {
  if (!o)
    return {};
  return std::string{string_at(*o, key)};
}

void extract_attrs(storage_kind storage, const json::object& root,
                   const std::string& ns, const std::string& name,
                   object_attrs& attrs) {
  // Sized once: the largest field set (events) has 13 entries.
  attrs.fields.reserve(storage == storage_kind::event ? 13 : 10);
  if (auto* meta = object_at(root, "metadata"))
    if (auto* labels = object_at(*meta, "labels")) {
      attrs.labels.reserve(labels->size());
      for (const auto& kv : *labels)
        if (auto* s = kv.value().if_string())
          attrs.labels.emplace_back(std::string{kv.key()},
                                    std::string{s->data(), s->size()});
    }
  attrs.fields.emplace_back("metadata.name", name);
  attrs.fields.emplace_back("metadata.namespace", ns);
  const json::object* spec = object_at(root, "spec");
  const json::object* status = object_at(root, "status");
  switch (storage) {
  case storage_kind::pod:
    attrs.fields.emplace_back("spec.nodeName", string_field(spec, "nodeName"));
    attrs.fields.emplace_back("spec.restartPolicy",
                              string_field(spec, "restartPolicy"));
    attrs.fields.emplace_back("spec.schedulerName",
                              string_field(spec, "schedulerName"));
    attrs.fields.emplace_back("spec.serviceAccountName",
                              string_field(spec, "serviceAccountName"));
    attrs.fields.emplace_back("spec.hostNetwork",
                              bool_field(spec, "hostNetwork"));
    attrs.fields.emplace_back("status.phase", string_field(status, "phase"));
    attrs.fields.emplace_back("status.podIP", string_field(status, "podIP"));
    attrs.fields.emplace_back("status.nominatedNodeName",
                              string_field(status, "nominatedNodeName"));
    break;
  case storage_kind::node:
    attrs.fields.emplace_back("spec.unschedulable",
                              bool_field(spec, "unschedulable"));
    break;
  case storage_kind::namespace_:
    attrs.fields.emplace_back("status.phase", string_field(status, "phase"));
    break;
  case storage_kind::event: {
    const json::object* inv = object_at(root, "involvedObject");
    static constexpr std::pair<std::string_view, std::string_view> involved[]
      = {{"involvedObject.kind", "kind"},
         {"involvedObject.namespace", "namespace"},
         {"involvedObject.name", "name"},
         {"involvedObject.uid", "uid"},
         {"involvedObject.apiVersion", "apiVersion"},
         {"involvedObject.resourceVersion", "resourceVersion"},
         {"involvedObject.fieldPath", "fieldPath"}};
    for (const auto& [path, field] : involved)
      attrs.fields.emplace_back(path, string_field(inv, field));
    attrs.fields.emplace_back("reason", string_field(&root, "reason"));
    attrs.fields.emplace_back("reportingComponent",
                              string_field(&root, "reportingComponent"));
    attrs.fields.emplace_back(
      "source", string_field(object_at(root, "source"), "component"));
    attrs.fields.emplace_back("type", string_field(&root, "type"));
    break;
  }
  default:
    break;
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
  std::call_once(model_once_, [&] { model_.emplace(decode()); });
  return *model_;
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
    obj->ns_ = std::string{string_at(*meta, "namespace")};
    obj->name_ = std::string{string_at(*meta, "name")};
    obj->uid_ = std::string{string_at(*meta, "uid")};
    auto rv = string_at(*meta, "resourceVersion");
    std::uint64_t n = 0;
    auto [p, e] = std::from_chars(rv.data(), rv.data() + rv.size(), n);
    if (e == std::errc{} && p == rv.data() + rv.size())
      obj->rv_ = n;
  }
  obj->key_ = obj->ns_.empty() ? obj->name_ : obj->ns_ + '/' + obj->name_;
  extract_attrs(storage, root, obj->ns_, obj->name_, obj->attrs_);
  auto text = std::make_shared<std::string>(json::serialize(doc));
  if (ordered) {
    // `{"kind":"X","apiVersion":"Y",` — find the comma after apiVersion.
    auto kind = string_at(root, "kind");
    auto api = string_at(root, "apiVersion");
    std::size_t expect
      = 2 + 6 + 1 + kind.size() + 2 + 1 + 12 + 1 + api.size() + 2;
    if (text->size() > expect && (*text)[expect - 1] == ','
        && text->compare(0, 9, "{\"kind\":\"") == 0)
      obj->prefix_len_ = expect;
  }
  obj->json_ = std::move(text);
  return obj;
}

} // namespace tessera::apiserver
