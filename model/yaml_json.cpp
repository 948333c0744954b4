// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// YAML to JSON (yaml_documents_to_json) and manifest files (decode_manifest).
//
// YAML is read through yaml-cpp's event interface, building one
// boost::json::value per document directly, so that the nesting depth, the
// growth through aliases and each document's number are under our control.
// Plain scalars are typed as Kubernetes' YAML library (sigs.k8s.io/yaml on
// go-yaml v2, i.e. YAML 1.1 rules) types them, so a manifest means here what
// it means to kubectl:
// - null: `~`, `null`, `Null`, `NULL` and the empty scalar;
// - booleans: `true True TRUE y Y yes Yes YES on On ON` and `false False
//   FALSE n N no No NO off Off OFF`;
// - integers: decimal, `0x`/`0o`/`0b` prefixes, a leading `0` for octal,
//   `_` separators, an optional sign;
// - floats: `1.5`, `.5`, `1e3`, `-2.5E-3` (`.inf` and `.nan` are errors:
//   JSON cannot hold them); a float too large for a double stays a string;
// - anything else, and every quoted or block scalar, is a string.
// Explicit tags `!!str`, `!!int`, `!!float`, `!!bool`, `!!null` are honoured;
// other tags are ignored. Merge keys (`<<: *base`) are applied, explicit
// keys winning. Map keys that are not strings are rendered as text (`1`,
// `true`); null and collection keys are errors.
#include "model/decode.hpp"
#include "model/json_reader.hpp"
#include "model/yaml_stream.hpp"
#include "support/yaml_words.hpp"

#include <boost/json.hpp>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <unordered_map>

namespace tessera::model {

namespace {

using json_detail::decode_failure;
using json_detail::json_array;
using json_detail::json_object;
using json_detail::json_value;
using json_detail::max_nesting;

std::string number_text(std::int64_t x) {
  std::array<char, 24> buf{};
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), x);
  return std::string(buf.data(), res.ptr);
}

// --- scalar typing ---------------------------------------------------------

/// An integer scalar: a 64-bit value, or the magnitude of a larger one.
struct parsed_integer {
  enum class kind { none, signed_64, unsigned_64, big } k = kind::none;
  std::int64_t s = 0;
  std::uint64_t u = 0;
  double big = 0;
};

/// Parses an integer the way Go's strconv.ParseInt(s, 0, 64), then
/// ParseUint, then big.Int do, after the caller removed `_`: optional sign,
/// `0x` / `0o` / `0b` prefixes, a leading `0` for octal.
parsed_integer parse_go_integer(std::string_view s) noexcept {
  parsed_integer out;
  bool negative = false;
  bool has_sign = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    has_sign = true;
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() >= 2 && s[0] == '0') {
    const char p = s[1];
    const int prefixed = p == 'x' || p == 'X'   ? 16
                         : p == 'o' || p == 'O' ? 8
                         : p == 'b' || p == 'B' ? 2
                                                : 0;
    base = prefixed != 0 ? prefixed : 8;
    s.remove_prefix(prefixed != 0 ? 2 : 1);
  }
  if (s.empty())
    return out;
  // Every character must be a digit of the base; accumulate exactly while
  // the value fits 64 bits and as a double beyond.
  constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t magnitude = 0;
  double approx = 0;
  bool overflow = false;
  for (char c : s) {
    int d = -1;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    if (d < 0 || d >= base)
      return out;
    approx = approx * base + d;
    const auto ub = static_cast<std::uint64_t>(base);
    if (!overflow && magnitude > (max - static_cast<std::uint64_t>(d)) / ub)
      overflow = true;
    if (!overflow)
      magnitude = magnitude * ub + static_cast<std::uint64_t>(d);
  }
  constexpr std::uint64_t int64_limit = std::uint64_t{1} << 63;
  if (!overflow && negative && magnitude <= int64_limit) {
    out.k = parsed_integer::kind::signed_64;
    out.s = magnitude == int64_limit ? std::numeric_limits<std::int64_t>::min()
                                     : -static_cast<std::int64_t>(magnitude);
  } else if (!overflow && magnitude < int64_limit) {
    out.k = parsed_integer::kind::signed_64;
    out.s = static_cast<std::int64_t>(magnitude);
  } else if (!overflow && !has_sign) { // ParseUint takes no sign
    out.k = parsed_integer::kind::unsigned_64;
    out.u = magnitude;
  } else {
    out.k = parsed_integer::kind::big;
    out.big = negative ? -approx : approx;
  }
  return out;
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
bool looks_like_float(std::string_view s) noexcept {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')
      ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-'))
    ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0)
      return false;
  } else {
    if (digits() == 0)
      return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
      ++i;
    if (digits() == 0)
      return false;
  }
  return i == s.size();
}

enum class scalar_hint { none, sign, digit, dot, table };

scalar_hint hint_of(char c) noexcept {
  if (c == '+' || c == '-')
    return scalar_hint::sign;
  if (c >= '0' && c <= '9')
    return scalar_hint::digit;
  if (c == '.')
    return scalar_hint::dot;
  switch (c) {
  case 'y':
  case 'Y':
  case 'n':
  case 'N':
  case 't':
  case 'T':
  case 'f':
  case 'F':
  case 'o':
  case 'O':
  case '~':
    return scalar_hint::table;
  default:
    return scalar_hint::none;
  }
}

enum class resolved_kind { null, boolean, integer, floating, string, special };

struct resolved {
  resolved_kind kind = resolved_kind::string;
  json_value value;
};

/// Types a plain scalar. `special` is .inf / .nan, which JSON cannot hold.
resolved resolve_plain(std::string_view s) {
  if (is_yaml_null(s))
    return {resolved_kind::null, nullptr};
  if (auto b = yaml_bool(s))
    return {resolved_kind::boolean, *b};
  if (yaml_special_float(s))
    return {resolved_kind::special, nullptr};
  const scalar_hint hint = hint_of(s[0]);
  auto as_double = [](std::string_view text, double& out) {
    // from_chars rejects a leading '+'.
    if (!text.empty() && text[0] == '+')
      text.remove_prefix(1);
    auto res = std::from_chars(text.data(), text.data() + text.size(), out);
    return res.ec == std::errc{} && res.ptr == text.data() + text.size();
  };
  if (hint == scalar_hint::dot) {
    double d = 0;
    if (looks_like_float(s) && as_double(s, d))
      return {resolved_kind::floating, d};
  } else if (hint == scalar_hint::digit || hint == scalar_hint::sign) {
    std::string plain;
    plain.reserve(s.size());
    for (char c : s)
      if (c != '_')
        plain += c;
    const parsed_integer n = parse_go_integer(plain);
    if (n.k == parsed_integer::kind::signed_64)
      return {resolved_kind::integer, n.s};
    if (n.k == parsed_integer::kind::unsigned_64)
      return {resolved_kind::integer, n.u};
    double d = 0;
    if (looks_like_float(plain) && as_double(plain, d))
      return {resolved_kind::floating, d};
    // Go keeps a big.Int; JSON numbers here are doubles beyond 64 bits.
    if (n.k == parsed_integer::kind::big)
      return {resolved_kind::integer, n.big};
  }
  return {resolved_kind::string, boost::json::string(s)};
}

bool valid_utf8(std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size())
        return false;
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80)
        return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    const bool overlong = (n == 1 && cp < 0x80) || (n == 2 && cp < 0x800)
                          || (n == 3 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n + 1;
  }
  return true;
}

// --- YAML events to JSON values --------------------------------------------

constexpr std::string_view tag_prefix = "tag:yaml.org,2002:";

/// Builds the JSON value of one YAML document from yaml-cpp's events.
class document_builder final : public YAML::EventHandler {
public:
  explicit document_builder(std::size_t node_budget)
    : node_budget_(node_budget) {
  }

  /// Starts document `number` (counted from 1).
  void begin(int number) {
    number_ = number;
    stack_.clear();
    anchors_.clear();
    root_ = nullptr;
  }
  json_value take_root() {
    return std::move(root_);
  }

  void OnDocumentStart(const YAML::Mark&) override {
  }
  void OnDocumentEnd() override {
  }

  void OnNull(const YAML::Mark&, YAML::anchor_t anchor) override {
    if (expecting_key())
      fail("null map keys are not supported");
    count_nodes(1);
    finish(nullptr, anchor, 1);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end())
      fail("alias refers to an anchor that is not complete");
    count_nodes(it->second.nodes);
    if (expecting_key()) {
      set_key(key_text(it->second.value), mark);
      return;
    }
    finish(json_value(it->second.value), YAML::NullAnchor, it->second.nodes);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag,
                YAML::anchor_t anchor, const std::string& text) override {
    if (!valid_utf8(text))
      fail("invalid UTF-8");
    count_nodes(1);
    json_value v = typed_scalar(tag, text);
    if (expecting_key()) {
      auto& f = stack_.back();
      f.merge_key = tag == "?" && text == "<<";
      set_key(key_text(v), mark);
      if (anchor != YAML::NullAnchor)
        anchors_[anchor] = {std::move(v), 1};
      return;
    }
    finish(std::move(v), anchor, 1);
  }

  void OnSequenceStart(const YAML::Mark&, const std::string&,
                       YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(false, anchor);
  }
  void OnSequenceEnd() override {
    close();
  }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(true, anchor);
  }
  void OnMapEnd() override {
    close();
  }

private:
  struct frame {
    json_value value;
    bool is_map = false;
    bool has_key = false;
    bool merge_key = false;
    std::string key;
    int key_line = 0;
    /// The line of each explicit key, in the mapping's order.
    std::vector<int> key_lines;
    YAML::anchor_t anchor = YAML::NullAnchor;
    std::size_t nodes_at_start = 0;
    /// Sources of `<<` merge keys, in order.
    std::vector<json_value> merges;
  };
  struct anchored {
    json_value value;
    std::size_t nodes = 0;
  };

  bool expecting_key() const noexcept {
    return !stack_.empty() && stack_.back().is_map && !stack_.back().has_key;
  }

  void set_key(std::string key, const YAML::Mark& mark) {
    auto& f = stack_.back();
    f.key = std::move(key);
    f.key_line = mark.line + 1;
    f.has_key = true;
  }

  std::string key_text(const json_value& v) {
    switch (v.kind()) {
    case boost::json::kind::string:
      return std::string(v.get_string());
    case boost::json::kind::bool_:
      return v.get_bool() ? "true" : "false";
    case boost::json::kind::int64:
      return number_text(v.get_int64());
    case boost::json::kind::uint64:
    case boost::json::kind::double_: {
      std::array<char, 64> buf{};
      auto res
        = v.is_uint64()
            ? std::to_chars(buf.data(), buf.data() + buf.size(), v.get_uint64())
            : std::to_chars(buf.data(), buf.data() + buf.size(),
                            v.get_double());
      return std::string(buf.data(), res.ptr);
    }
    case boost::json::kind::null:
      fail("null map keys are not supported");
    default:
      fail("map keys must be scalars");
    }
  }

  json_value typed_scalar(const std::string& tag, const std::string& text) {
    if (tag == "?") {
      resolved r = resolve_plain(text);
      if (r.kind == resolved_kind::special)
        fail(text + " cannot be represented in JSON");
      return std::move(r.value);
    }
    const std::string_view t{tag};
    if (!t.starts_with(tag_prefix))
      return boost::json::string(text); // "!" (quoted) and custom tags
    const std::string_view name = t.substr(tag_prefix.size());
    if (name == "str" || name == "binary" || name == "timestamp")
      return boost::json::string(text);
    resolved r = resolve_plain(text);
    if (name == "null" && r.kind == resolved_kind::null)
      return nullptr;
    if (name == "bool" && r.kind == resolved_kind::boolean)
      return std::move(r.value);
    if (name == "int" && r.kind == resolved_kind::integer)
      return std::move(r.value);
    if (name == "float" && r.kind == resolved_kind::floating)
      return std::move(r.value);
    if (name == "float" && r.kind == resolved_kind::integer)
      return r.value.is_double()  ? r.value.get_double()
             : r.value.is_int64() ? static_cast<double>(r.value.get_int64())
                                  : static_cast<double>(r.value.get_uint64());
    if (name == "null" || name == "bool" || name == "int" || name == "float")
      fail("cannot decode \"" + text + "\" as !!" + std::string{name});
    return boost::json::string(text);
  }

  void open(bool is_map, YAML::anchor_t anchor) {
    if (expecting_key())
      fail("map keys must be scalars");
    if (stack_.size() >= static_cast<std::size_t>(max_nesting))
      fail("nesting deeper than " + number_text(max_nesting) + " levels");
    count_nodes(1);
    frame f;
    f.is_map = is_map;
    if (is_map)
      f.value = boost::json::object{};
    else
      f.value = boost::json::array{};
    f.anchor = anchor;
    f.nodes_at_start = nodes_;
    stack_.push_back(std::move(f));
  }

  void close() {
    frame f = std::move(stack_.back());
    stack_.pop_back();
    if (f.is_map && !f.merges.empty()) {
      auto& obj = f.value.get_object();
      // Earlier sources win over later ones; explicit keys over both.
      for (const auto& src : f.merges)
        for (const auto& member : src.get_object())
          if (!obj.contains(member.key()))
            obj.emplace(member.key(), member.value());
    }
    finish(std::move(f.value), f.anchor, nodes_ - f.nodes_at_start + 1);
  }

  /// A complete node: store it where the enclosing collection expects it.
  void finish(json_value v, YAML::anchor_t anchor, std::size_t nodes) {
    if (anchor != YAML::NullAnchor)
      anchors_[anchor] = {json_value(v), nodes};
    if (stack_.empty()) {
      root_ = std::move(v);
      return;
    }
    auto& f = stack_.back();
    if (!f.is_map) {
      f.value.get_array().push_back(std::move(v));
      return;
    }
    if (f.merge_key) {
      add_merge(f, v);
    } else {
      auto& obj = f.value.get_object();
      // kubectl refuses a key given twice rather than keep one value.
      if (auto at = obj.find(f.key); at != obj.end()) {
        const int first = f.key_lines[static_cast<std::size_t>(
          std::distance(obj.begin(), at))];
        f.has_key = false; // the path names the mapping, not the key
        fail("line " + number_text(f.key_line) + ": mapping key \"" + f.key
             + "\" already defined at line " + number_text(first));
      }
      obj.emplace(f.key, std::move(v));
      f.key_lines.push_back(f.key_line);
    }
    f.has_key = false;
    f.merge_key = false;
  }

  void add_merge(frame& f, const json_value& v) {
    if (v.is_object()) {
      f.merges.push_back(v);
      return;
    }
    if (const auto* a = v.if_array()) {
      for (const auto& e : *a) {
        if (!e.is_object())
          fail("a merge key needs a mapping or a sequence of mappings");
        f.merges.push_back(e);
      }
      return;
    }
    fail("a merge key needs a mapping or a sequence of mappings");
  }

  void count_nodes(std::size_t n) {
    nodes_ += n;
    if (nodes_ > node_budget_)
      fail("document too large after alias expansion (more than "
           + number_text(static_cast<std::int64_t>(node_budget_)) + " nodes)");
  }

  /// The path of the node being built, e.g. `spec.containers[0]`.
  std::string path() const {
    return json_detail::frames_path(
      stack_, [](const frame& f) { return f.value.get_array().size(); });
  }

  [[noreturn]] void fail(const std::string& problem) const {
    std::string message = "doc " + number_text(number_) + ": ";
    const std::string p = path();
    if (!p.empty())
      message += p + ": ";
    message += problem;
    throw decode_failure{std::move(message)};
  }

  std::size_t node_budget_;
  std::size_t nodes_ = 0;
  int number_ = 0;
  std::vector<frame> stack_;
  std::unordered_map<YAML::anchor_t, anchored> anchors_;
  json_value root_;
};

struct document {
  int number = 0;
  json_value value;
};

/// Every document of a YAML stream, empty ones included (as null).
std::vector<document> load_yaml(std::string_view text) {
  yaml_stream stream{text};
  // Aliases may repeat nodes, but not without bound (a "billion laughs"
  // document would otherwise expand exponentially).
  document_builder builder{100'000 + 4 * text.size()};
  std::vector<document> docs;
  for (int number = 1;; ++number) {
    builder.begin(number);
    try {
      if (!stream.next(builder))
        break;
    } catch (const YAML::Exception& e) {
      std::string message = "doc " + number_text(number) + ": invalid YAML";
      if (!e.mark.is_null())
        message += " at line " + number_text(e.mark.line + 1) + ", column "
                   + number_text(e.mark.column + 1);
      message += ": ";
      // yaml-cpp may quote the offending bytes; keep the message printable.
      for (char c : e.msg)
        message += static_cast<unsigned char>(c) < 0x20
                       || static_cast<unsigned char>(c) >= 0x80
                     ? '?'
                     : c;
      throw decode_failure{std::move(message)};
    }
    docs.push_back({number, builder.take_root()});
  }
  return docs;
}

bool starts_like_json(std::string_view text) noexcept {
  if (text.starts_with("\xEF\xBB\xBF"))
    text.remove_prefix(3);
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
      continue;
    return c == '{' || c == '[';
  }
  return false;
}

/// JSON text as one document; other text as YAML. Text that starts like
/// JSON but does not parse as JSON is tried as YAML (flow mappings are
/// YAML too); if both fail the JSON error is reported.
std::vector<document> load_documents(std::string_view text) {
  if (starts_like_json(text)) {
    std::string_view body = text;
    if (body.starts_with("\xEF\xBB\xBF"))
      body.remove_prefix(3);
    try {
      std::vector<document> docs;
      docs.push_back({1, json_detail::parse_json(body, {})});
      return docs;
    } catch (decode_failure& json_error) {
      // Too deep for JSON is too deep for YAML: do not let yaml-cpp tokenize
      // the whole of it before saying so.
      if (json_error.message.find("nesting deeper") != std::string::npos)
        throw decode_failure{"doc 1: " + json_error.message};
      try {
        return load_yaml(text);
      } catch (const decode_failure&) {
        throw decode_failure{"doc 1: " + json_error.message};
      }
    }
  }
  return load_yaml(text);
}

// --- JSON text -------------------------------------------------------------

void write_json(const json_value& v, std::string& out) {
  switch (v.kind()) {
  case boost::json::kind::null:
    out += "null";
    return;
  case boost::json::kind::bool_:
    out += v.get_bool() ? "true" : "false";
    return;
  case boost::json::kind::int64:
  case boost::json::kind::uint64:
  case boost::json::kind::double_: {
    std::array<char, 64> buf{};
    auto res
      = v.is_int64()
          ? std::to_chars(buf.data(), buf.data() + buf.size(), v.get_int64())
        : v.is_uint64()
          ? std::to_chars(buf.data(), buf.data() + buf.size(), v.get_uint64())
          : std::to_chars(buf.data(), buf.data() + buf.size(), v.get_double());
    out.append(buf.data(), res.ptr);
    return;
  }
  case boost::json::kind::string:
    out += boost::json::serialize(v.get_string());
    return;
  case boost::json::kind::array: {
    out += '[';
    bool first = true;
    for (const auto& e : v.get_array()) {
      if (!first)
        out += ',';
      first = false;
      write_json(e, out);
    }
    out += ']';
    return;
  }
  case boost::json::kind::object: {
    out += '{';
    bool first = true;
    for (const auto& member : v.get_object()) {
      if (!first)
        out += ',';
      first = false;
      out += boost::json::serialize(member.key());
      out += ':';
      write_json(member.value(), out);
    }
    out += '}';
    return;
  }
  }
}

// --- manifests -------------------------------------------------------------

std::string not_used(std::string_view where, std::string_view kind) {
  std::string w{where};
  w += "kind ";
  w += kind;
  w += " is not used by the scheduler; skipped";
  return w;
}

/// Adds the objects of one document (an object or a list) to `m`.
void add_document(const json_value& v, int number, manifest& m,
                  const decode_options& opts) {
  using namespace json_detail;
  const std::string doc = "doc " + number_text(number) + ": ";
  json_reader r;
  const auto& o = get_object(r, v);
  auto required_string = [&](const json_object& obj, std::string_view key) {
    const json_value* x = find(obj, key);
    if (x == nullptr)
      fail_at(r, {key}, "required value");
    path_guard guard{r, key};
    const auto s = get_string(r, *x);
    if (s.empty())
      r.fail("required value");
    return s;
  };
  const std::string_view kind = required_string(o, "kind");
  (void)required_string(o, "apiVersion");
  if (auto k = kind_from_name(kind)) {
    m.objects.push_back(read_object(r, v, *k, opts));
    return;
  }
  constexpr std::string_view list_suffix = "List";
  if (!kind.ends_with(list_suffix)) {
    m.warnings.push_back(not_used(doc, kind));
    return;
  }
  std::optional<object_kind> item_kind;
  if (kind != list_suffix) {
    item_kind
      = kind_from_name(kind.substr(0, kind.size() - list_suffix.size()));
    if (!item_kind) {
      m.warnings.push_back(not_used(doc, kind));
      return;
    }
  }
  with_member(r, o, "items", [&](const json_value& items) {
    for_each_element(
      r, get_array(r, items), [&](std::size_t i, const json_value& item) {
        if (item_kind) {
          m.objects.push_back(read_object(r, item, *item_kind, opts));
          return;
        }
        const auto& io = get_object(r, item);
        const std::string_view k = required_string(io, "kind");
        (void)required_string(io, "apiVersion");
        if (auto known = kind_from_name(k))
          m.objects.push_back(read_object(r, item, *known, opts));
        else
          m.warnings.push_back(not_used(
            doc + "items[" + number_text(static_cast<std::int64_t>(i)) + "]: ",
            k));
      });
  });
}

} // namespace

expected<std::vector<std::string>>
yaml_documents_to_json(std::string_view text) {
  return json_detail::guarded<std::vector<std::string>>([&] {
    std::vector<std::string> out;
    for (const auto& doc : load_yaml(text)) {
      if (doc.value.is_null())
        continue;
      std::string json;
      write_json(doc.value, json);
      out.push_back(std::move(json));
    }
    return out;
  });
}

expected<manifest> decode_manifest(std::string_view text,
                                   const decode_options& options) {
  return json_detail::guarded<manifest>([&] {
    manifest m;
    for (const auto& doc : load_documents(text)) {
      if (doc.value.is_null())
        continue; // an empty document
      try {
        add_document(doc.value, doc.number, m, options);
      } catch (decode_failure& e) {
        throw decode_failure{"doc " + number_text(doc.number) + ": "
                             + e.message};
      }
    }
    return m;
  });
}

} // namespace tessera::model
