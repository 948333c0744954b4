// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/json_reader.hpp"
#include "support/time_format.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>

namespace tessera::model::json_detail {

namespace {

std::string_view kind_name(const json_value& v) noexcept {
  switch (v.kind()) {
  case boost::json::kind::null:
    return "null";
  case boost::json::kind::bool_:
    return "boolean";
  case boost::json::kind::int64:
  case boost::json::kind::uint64:
    return "integer";
  case boost::json::kind::double_:
    return "number";
  case boost::json::kind::string:
    return "string";
  case boost::json::kind::array:
    return "array";
  case boost::json::kind::object:
    return "object";
  }
  return "unknown";
}

[[noreturn]] void fail_type(const json_reader& r, std::string_view expected,
                            const json_value& got) {
  std::string problem = "expected ";
  problem += expected;
  problem += ", got ";
  problem += kind_name(got);
  r.fail(problem);
}

template <class Int> std::string int_text(Int value) {
  std::array<char, 32> buf{};
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return std::string(buf.data(), res.ptr);
}

std::string double_text(double value) {
  std::array<char, 64> buf{};
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return std::string(buf.data(), res.ptr);
}

/// A value as it appears in messages: strings quoted (and shortened), other
/// scalars as JSON would print them.
std::string describe(const json_value& v) {
  switch (v.kind()) {
  case boost::json::kind::string: {
    const auto& s = v.get_string();
    constexpr std::size_t max_shown = 80;
    std::size_t n = s.size();
    bool cut = false;
    if (n > max_shown) {
      n = max_shown;
      // Back off to the start of a UTF-8 sequence.
      while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
        --n;
      cut = true;
    }
    std::string out = "\"";
    out.append(s.data(), n);
    if (cut)
      out += "...";
    out += '"';
    return out;
  }
  case boost::json::kind::int64:
    return int_text(v.get_int64());
  case boost::json::kind::uint64:
    return int_text(v.get_uint64());
  case boost::json::kind::double_:
    return double_text(v.get_double());
  case boost::json::kind::bool_:
    return v.get_bool() ? "true" : "false";
  default:
    return std::string{kind_name(v)};
  }
}

std::int64_t get_integer(const json_reader& r, const json_value& v,
                         std::int64_t lo, std::int64_t hi) {
  switch (v.kind()) {
  case boost::json::kind::int64: {
    const std::int64_t x = v.get_int64();
    if (x < lo || x > hi)
      r.fail("value " + int_text(x) + " out of range");
    return x;
  }
  case boost::json::kind::uint64:
    r.fail("value " + int_text(v.get_uint64()) + " out of range");
  case boost::json::kind::double_: {
    // Integers written as 1.0 or 1e3, and integers too large for 64 bits,
    // arrive as doubles.
    const double d = v.get_double();
    if (std::isfinite(d) && d != std::trunc(d))
      fail_type(r, "integer", v);
    constexpr double two_63 = 9223372036854775808.0;
    if (!(d >= -two_63 && d < two_63)) // also catches inf
      r.fail("value " + double_text(d) + " out of range");
    const auto x = static_cast<std::int64_t>(d);
    if (x < lo || x > hi)
      r.fail("value " + double_text(d) + " out of range");
    return x;
  }
  default:
    fail_type(r, "integer", v);
  }
}

/// RFC 3339 (`2026-08-07T05:54:51Z`, optional fraction, `Z` or `±hh:mm`)
/// to seconds since the epoch, as strictly as Go's time.Parse: `T` or `t`
/// only, no leap second, a real calendar date, an offset of at most
/// 23:59; fractions are truncated.
std::optional<std::int64_t> parse_rfc3339(std::string_view s) noexcept {
  auto f = scan_rfc3339(s);
  if (!f || f->separator == ' ' || f->hour > 23 || f->minute > 59
      || f->second > 59 || f->offset_hours > 23 || f->offset_minutes > 59)
    return std::nullopt;
  const std::chrono::year_month_day ymd{
    std::chrono::year{f->year},
    std::chrono::month{static_cast<unsigned>(f->month)},
    std::chrono::day{static_cast<unsigned>(f->day)}};
  if (!ymd.ok())
    return std::nullopt;
  return f->epoch_seconds();
}

constexpr std::array<std::string_view, 16> kind_names
  = {"CSIDriver",
     "CSINode",
     "CSIStorageCapacity",
     "Namespace",
     "Node",
     "PersistentVolume",
     "PersistentVolumeClaim",
     "Pod",
     "PodDisruptionBudget",
     "PriorityClass",
     "ReplicaSet",
     "ReplicationController",
     "Service",
     "StatefulSet",
     "StorageClass",
     "VolumeAttachment"};

} // namespace

std::string json_reader::path() const {
  std::string out = prefix_;
  for (const auto& s : segments_) {
    if (s.is_index) {
      out += '[';
      out += int_text(s.index);
      out += ']';
    } else {
      if (!out.empty())
        out += '.';
      out += s.key;
    }
  }
  return out;
}

void json_reader::fail(std::string_view problem) const {
  std::string message = path();
  if (!message.empty())
    message += ": ";
  message += problem;
  throw decode_failure{std::move(message)};
}

const json_object& get_object(const json_reader& r, const json_value& v) {
  if (const auto* o = v.if_object())
    return *o;
  fail_type(r, "object", v);
}

const json_array& get_array(const json_reader& r, const json_value& v) {
  if (const auto* a = v.if_array())
    return *a;
  fail_type(r, "array", v);
}

std::string_view get_string(const json_reader& r, const json_value& v) {
  if (const auto* s = v.if_string())
    return {s->data(), s->size()};
  fail_type(r, "string", v);
}

bool get_bool(const json_reader& r, const json_value& v) {
  if (const auto* b = v.if_bool())
    return *b;
  fail_type(r, "boolean", v);
}

std::int32_t get_int32(const json_reader& r, const json_value& v) {
  return static_cast<std::int32_t>(
    get_integer(r, v, std::numeric_limits<std::int32_t>::min(),
                std::numeric_limits<std::int32_t>::max()));
}

std::int64_t get_int64(const json_reader& r, const json_value& v) {
  return get_integer(r, v, std::numeric_limits<std::int64_t>::min(),
                     std::numeric_limits<std::int64_t>::max());
}

symbol get_symbol(const json_reader& r, const json_value& v) {
  return intern(get_string(r, v));
}

symbol intern(std::string_view text) {
  if (text.empty())
    return symbol{};
  struct entry {
    std::uint64_t hash = 0;
    symbol sym;
  };
  constexpr std::size_t slots = 4096; // 64 KiB per thread
  thread_local std::array<entry, slots> cache{};
  std::uint64_t hash = 0xcbf29ce484222325ull; // FNV-1a
  for (char c : text)
    hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  entry& e = cache[(hash ^ (hash >> 32)) & (slots - 1)];
  if (e.hash == hash && e.sym.view() == text)
    return e.sym;
  const symbol sym{text};
  e = {hash, sym};
  return sym;
}

std::int64_t get_timestamp(const json_reader& r, const json_value& v) {
  const auto text = get_string(r, v);
  if (auto t = parse_rfc3339(text))
    return *t;
  r.fail("invalid timestamp " + describe(v));
}

quantity get_quantity(const json_reader& r, const json_value& v) {
  std::string number;
  std::string_view text;
  switch (v.kind()) {
  case boost::json::kind::string:
    text = get_string(r, v);
    break;
  case boost::json::kind::int64:
  case boost::json::kind::uint64:
  case boost::json::kind::double_:
    // `cpu: 2` or `cpu: 0.5`: the shortest decimal text of the number.
    number = describe(v);
    text = number;
    break;
  default:
    fail_type(r, "string", v);
  }
  auto q = quantity::parse(text);
  if (!q)
    r.fail(q.err().message);
  return *q;
}

void fail_unsupported(const json_reader& r, std::string_view value,
                      std::span<const std::string_view> supported) {
  std::vector<std::string_view> sorted(supported.begin(), supported.end());
  std::sort(sorted.begin(), sorted.end());
  std::string problem = "unsupported value \"";
  problem += value;
  problem += "\": supported values: ";
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i > 0)
      problem += ", ";
    problem += '"';
    problem += sorted[i];
    problem += '"';
  }
  r.fail(problem);
}

std::size_t get_enum(const json_reader& r, const json_value& v,
                     std::span<const std::string_view> supported) {
  const auto text = get_string(r, v);
  for (std::size_t i = 0; i < supported.size(); ++i)
    if (supported[i] == text)
      return i;
  fail_unsupported(r, text, supported);
}

const json_value* find(const json_object& o, std::string_view key) noexcept {
  const json_value* v
    = o.if_contains(boost::json::string_view{key.data(), key.size()});
  return v == nullptr || v->is_null() ? nullptr : v;
}

void fail_at(const json_reader& r, std::initializer_list<std::string_view> keys,
             std::string_view problem) {
  json_reader at = r; // leave r's path as it was: lists keep decoding
  for (auto key : keys)
    at.push(key);
  at.fail(problem);
}

object_metadata read_metadata(json_reader& r, const json_object& o) {
  object_metadata meta;
  with_member(r, o, "metadata", [&](const json_value& v) {
    for_each_field(r, get_object(r, v),
                   [&](std::string_view key, const json_value& x) {
                     if (key == "name")
                       meta.name = get_string(r, x);
                     else if (key == "namespace")
                       meta.namespace_ = get_string(r, x);
                     else if (key == "uid")
                       meta.uid = get_string(r, x);
                     else if (key == "resourceVersion")
                       meta.resource_version = get_string(r, x);
                     else if (key == "labels")
                       meta.labels = read_label_map(r, x);
                     else if (key == "creationTimestamp")
                       meta.creation_unix = get_timestamp(r, x);
                     else if (key == "generateName")
                       meta.generate_name = get_string(r, x);
                     else if (key == "generation")
                       meta.generation = get_int64(r, x);
                     else if (key == "ownerReferences") {
                       (void)get_array(r, x); // read by the pod decoder
                       meta.owner_references = &x;
                     } else if (key == "annotations") {
                       (void)get_object(r, x);
                       meta.annotations = &x;
                     } else if (key == "deletionTimestamp") {
                       (void)get_timestamp(r, x); // only its presence matters
                       meta.deleting = true;
                     }
                   });
  });
  return meta;
}

void require_name(const json_reader& r, const object_metadata& meta) {
  if (meta.name.empty())
    fail_at(r, {"metadata", "name"}, "required value");
}

label_set read_label_map(json_reader& r, const json_value& v) {
  label_set labels;
  for_each_member(
    r, get_object(r, v), [&](std::string_view key, const json_value& value) {
      // A null value decodes as "" (as Go's map[string]string does).
      labels.set(intern(key),
                 value.is_null() ? symbol{} : get_symbol(r, value));
    });
  return labels;
}

label_selector read_label_selector(json_reader& r, const json_value& v) {
  static constexpr std::array<std::string_view, 4> operators
    = {"In", "NotIn", "Exists", "DoesNotExist"};
  const auto& o = get_object(r, v);
  // Requirements are built in place: moving a finished one into the vector
  // moves its small_vector, which GCC 12 misreads as an overread once it
  // inlines enough (-Wstringop-overread). A failed check throws, so a
  // half-built entry never reaches a selector; from_requirements sorts the
  // values.
  std::vector<label_requirement> reqs;
  with_member(r, o, "matchLabels", [&](const json_value& labels) {
    for_each_member(r, get_object(r, labels),
                    [&](std::string_view key, const json_value& value) {
                      auto& req = reqs.emplace_back();
                      req.key = intern(key);
                      req.oper = label_requirement::op::in;
                      req.values.push_back(
                        value.is_null() ? symbol{} : get_symbol(r, value));
                    });
  });
  with_member(r, o, "matchExpressions", [&](const json_value& exprs) {
    for_each_element(
      r, get_array(r, exprs), [&](std::size_t, const json_value& e) {
        const auto& expr = get_object(r, e);
        auto& req = reqs.emplace_back();
        bool has_key = false;
        with_member(r, expr, "key", [&](const json_value& k) {
          req.key = get_symbol(r, k);
          has_key = !req.key.empty();
        });
        if (!has_key) {
          path_guard guard{r, "key"};
          r.fail("required value");
        }
        std::string_view op_name;
        with_member(r, expr, "operator", [&](const json_value& op) {
          op_name = get_string(r, op);
          req.oper
            = static_cast<label_requirement::op>(get_enum(r, op, operators));
        });
        if (op_name.empty()) {
          path_guard guard{r, "operator"};
          r.fail("required value");
        }
        with_member(r, expr, "values", [&](const json_value& vals) {
          for_each_element(r, get_array(r, vals),
                           [&](std::size_t, const json_value& val) {
                             req.values.push_back(get_symbol(r, val));
                           });
        });
        const bool needs_values = req.oper == label_requirement::op::in
                                  || req.oper == label_requirement::op::not_in;
        if (needs_values && req.values.empty()) {
          path_guard guard{r, "values"};
          r.fail("must be non-empty for operator " + std::string{op_name});
        }
        if (!needs_values && !req.values.empty()) {
          path_guard guard{r, "values"};
          r.fail("must be empty for operator " + std::string{op_name});
        }
      });
  });
  if (reqs.empty())
    return label_selector::everything();
  return label_selector::from_requirements(std::move(reqs));
}

void read_resource_map(json_reader& r, const json_value& v,
                       resource_entries& out) {
  const auto& o = get_object(r, v);
  for_each_member(r, o, [&](std::string_view name, const json_value& value) {
    const quantity q = get_quantity(r, value);
    if (q.is_negative())
      r.fail("invalid value " + describe(value) + ": must be non-negative");
    const resource_kind kind = classify_resource(name);
    if (kind == resource_kind::ignored)
      return;
    auto converted = kind == resource_kind::cpu ? q.milli_value() : q.value();
    if (!converted)
      r.fail(converted.err().message);
    for (auto& e : out) {
      if (e.name == name) { // a duplicate key: the last one wins
        e.value = *converted;
        return;
      }
    }
    out.push_back({name, kind, *converted});
  });
}

void apply_resources(const resource_entries& entries, resource_list& out) {
  for (const auto& e : entries) {
    switch (e.kind) {
    case resource_kind::cpu:
      out.milli_cpu = e.value;
      break;
    case resource_kind::memory:
      out.memory = e.value;
      break;
    case resource_kind::ephemeral_storage:
      out.ephemeral_storage = e.value;
      break;
    case resource_kind::pods:
      out.pods = e.value;
      break;
    case resource_kind::scalar:
      out.set_scalar(intern(e.name), e.value);
      break;
    case resource_kind::ignored:
      break;
    }
  }
}

resource_list read_resource_list(json_reader& r, const json_value& v) {
  resource_entries entries;
  read_resource_map(r, v, entries);
  resource_list out;
  apply_resources(entries, out);
  return out;
}

json_value parse_json(std::string_view text, const boost::json::storage_ptr& sp,
                      std::size_t base_offset, std::size_t* consumed_out) {
  // One parser per thread, reused: it keeps its internal stack between
  // calls. Reset after every use so that it never holds on to `sp`.
  thread_local boost::json::parser parser{boost::json::storage_ptr{}, [] {
                                            boost::json::parse_options opts;
                                            opts.max_depth = max_nesting;
                                            return opts;
                                          }()};
  struct reset_at_exit {
    boost::json::parser& p;
    ~reset_at_exit() {
      p.reset();
    }
  } reset_guard{parser};
  parser.reset(sp);
  boost::json::error_code ec;
  const std::size_t consumed
    = consumed_out != nullptr ? parser.write_some(text.data(), text.size(), ec)
                              : parser.write(text.data(), text.size(), ec);
  if (ec) {
    std::string problem
      = "invalid JSON at offset " + int_text(base_offset + consumed) + ": ";
    if (ec == boost::json::error::too_deep)
      problem += "nesting deeper than " + int_text(max_nesting) + " levels";
    else
      problem += ec.message();
    throw decode_failure{std::move(problem)};
  }
  if (consumed_out != nullptr)
    *consumed_out = consumed;
  return parser.release();
}

namespace {

/// The per-thread block. Bounded so that one huge list does not pin its
/// memory for the life of the thread.
struct scratch_block {
  static constexpr std::size_t initial_size = std::size_t{64} << 10;
  static constexpr std::size_t max_size = std::size_t{16} << 20;
  std::unique_ptr<unsigned char[]> data;
  std::size_t size = 0;
  bool busy = false;
};

thread_local scratch_block scratch;

} // namespace

struct json_document::impl {
  // A member type rather than one of the unnamed namespace: impl has
  // external linkage, so its fields must not use internal-linkage types.
  /// Upstream of the scratch memory: the heap, counting what it hands out so
  /// that the next document on this thread can start with a larger block.
  class counting_resource final : public boost::json::memory_resource {
  public:
    std::size_t allocated = 0;

  private:
    void* do_allocate(std::size_t n, std::size_t align) override {
      allocated += n;
      return ::operator new (n, std::align_val_t{align});
    }
    void do_deallocate(void* p, std::size_t n, std::size_t align) override {
      ::operator delete (p, n, std::align_val_t{align});
    }
    bool do_is_equal(const memory_resource& other) const noexcept override {
      return this == &other;
    }
  };

  impl(std::string_view text, std::size_t base_offset, bool use_scratch,
       bool first_value)
    : uses_scratch(use_scratch),
      mr(use_scratch
           ? boost::json::monotonic_resource{scratch.data.get(), scratch.size,
                                             &heap}
           : boost::json::monotonic_resource{std::size_t{4096}, &heap}),
      root(
        parse_json(text, &mr, base_offset, first_value ? &consumed : nullptr)) {
  }
  bool uses_scratch;
  std::size_t consumed = 0;
  counting_resource heap;
  boost::json::monotonic_resource mr;
  json_value root; // destroyed before the memory it lives in
};

json_document::json_document(std::string_view text, std::size_t base_offset)
  : json_document(text, base_offset, false) {
}

json_document::json_document(std::string_view text, std::size_t base_offset,
                             first_value_t)
  : json_document(text, base_offset, true) {
}

json_document::json_document(std::string_view text, std::size_t base_offset,
                             bool first_value) {
  const bool use_scratch = !scratch.busy;
  if (use_scratch) {
    if (!scratch.data) {
      scratch.data.reset(new unsigned char[scratch_block::initial_size]);
      scratch.size = scratch_block::initial_size;
    }
    scratch.busy = true;
  }
  try {
    impl_ = std::make_unique<impl>(text, base_offset, use_scratch, first_value);
  } catch (...) {
    impl_.reset();
    if (use_scratch)
      scratch.busy = false;
    throw;
  }
}

json_document::~json_document() {
  if (!impl_)
    return;
  const bool used_scratch = impl_->uses_scratch;
  const std::size_t spilled = impl_->heap.allocated;
  impl_.reset(); // values first, then their memory
  if (!used_scratch)
    return;
  scratch.busy = false;
  if (spilled > 0 && scratch.size < scratch_block::max_size) {
    const std::size_t want
      = std::min(scratch_block::max_size, scratch.size + spilled);
    // Pages are faulted in by the next document, then reused.
    scratch.data.reset(new (std::nothrow) unsigned char[want]);
    scratch.size = scratch.data ? want : 0;
  }
}

json_document::json_document(json_document&&) noexcept = default;

const json_value& json_document::root() const noexcept {
  return impl_->root;
}

std::size_t json_document::consumed() const noexcept {
  return impl_->consumed;
}

std::optional<object_kind> kind_from_name(std::string_view name) noexcept {
  return parse_object_kind(name);
}

std::span<const std::string_view> supported_kind_names() noexcept {
  return kind_names;
}

} // namespace tessera::model::json_detail
