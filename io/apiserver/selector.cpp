// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/selector.hpp"

#include "support/names.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace tessera::apiserver {

namespace {

// Lengths are LEB128 varints: one byte for any piece under 128 bytes.
void put_piece(std::string& out, std::string_view piece) {
  auto n = piece.size();
  while (n >= 0x80) {
    out += static_cast<char>((n & 0x7f) | 0x80);
    n >>= 7;
  }
  out += static_cast<char>(n);
  out.append(piece);
}

} // namespace

object_attrs::object_attrs(
  std::span<const std::string_view> paths,
  std::span<const std::string_view> values,
  std::span<const std::pair<std::string_view, std::string_view>> labels)
  : paths_(paths.first(std::min(paths.size(), values.size()))),
    label_count_(static_cast<std::uint32_t>(labels.size())) {
  std::size_t size = 0;
  for (const auto& [k, v] : labels)
    size += k.size() + v.size() + 4;
  for (auto v : values.first(paths_.size()))
    size += v.size() + 2;
  text_.reserve(size);
  for (const auto& [k, v] : labels) {
    put_piece(text_, k);
    put_piece(text_, v);
  }
  fields_at_ = static_cast<std::uint32_t>(text_.size());
  for (auto v : values.first(paths_.size()))
    put_piece(text_, v);
  text_.shrink_to_fit();
}

std::string_view object_attrs::next(std::size_t& pos) const noexcept {
  std::size_t n = 0;
  for (int shift = 0; pos < text_.size(); shift += 7) {
    auto b = static_cast<unsigned char>(text_[pos++]);
    n |= static_cast<std::size_t>(b & 0x7f) << shift;
    if (!(b & 0x80))
      break;
  }
  std::string_view piece{text_.data() + pos, n};
  pos += n;
  return piece;
}

std::optional<std::string_view>
object_attrs::label(std::string_view key) const noexcept {
  std::size_t pos = 0;
  for (std::uint32_t i = 0; i < label_count_; ++i) {
    auto k = next(pos);
    auto v = next(pos);
    if (k == key)
      return v;
  }
  return std::nullopt;
}

std::optional<std::string_view>
object_attrs::field(std::string_view path) const noexcept {
  std::size_t pos = fields_at_;
  for (auto p : paths_) {
    auto v = next(pos);
    if (p == path)
      return v;
  }
  return std::nullopt;
}

namespace {

bool is_label_ident_char(char c) noexcept {
  return !(c == ' ' || c == '\t' || c == '\n' || c == ',' || c == '('
           || c == ')' || c == '=' || c == '!');
}

bool valid_label_key(std::string_view key) noexcept {
  if (key.empty() || key.size() > 317)
    return false;
  auto slash = key.find('/');
  std::string_view name = key;
  if (slash != std::string_view::npos) {
    auto prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty() || prefix.size() > 253)
      return false;
    for (char c : prefix)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-'
            || c == '.'))
        return false;
  }
  return name.size() <= max_qualified_name_part_length
         && is_qualified_name_part(name);
}

bool valid_label_value(std::string_view v) noexcept {
  if (v.empty())
    return true;
  return v.size() <= max_qualified_name_part_length
         && is_qualified_name_part(v);
}

/// A small lexer for label selectors.
class label_lexer {
public:
  enum class tok { end, ident, comma, lparen, rparen, eq, deq, neq, bang };
  explicit label_lexer(std::string_view s) : s_(s) {
  }
  tok next(std::string_view& text) {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t'))
      ++pos_;
    if (pos_ >= s_.size())
      return tok::end;
    char c = s_[pos_];
    switch (c) {
    case ',':
      ++pos_;
      return tok::comma;
    case '(':
      ++pos_;
      return tok::lparen;
    case ')':
      ++pos_;
      return tok::rparen;
    case '=':
      ++pos_;
      if (pos_ < s_.size() && s_[pos_] == '=') {
        ++pos_;
        return tok::deq;
      }
      return tok::eq;
    case '!':
      ++pos_;
      if (pos_ < s_.size() && s_[pos_] == '=') {
        ++pos_;
        return tok::neq;
      }
      return tok::bang;
    default:
      break;
    }
    auto start = pos_;
    while (pos_ < s_.size() && is_label_ident_char(s_[pos_]))
      ++pos_;
    text = s_.substr(start, pos_ - start);
    return tok::ident;
  }
  std::size_t pos() const noexcept {
    return pos_;
  }
  void reset(std::size_t p) noexcept {
    pos_ = p;
  }

private:
  std::string_view s_;
  std::size_t pos_ = 0;
};

api_status selector_error(std::string_view text, std::string_view why) {
  std::string msg = "unable to parse requirement: ";
  msg += why;
  msg += " (selector \"";
  msg += text;
  msg += "\")";
  return status::bad_request(std::move(msg));
}

} // namespace

std::span<const std::string_view> selectable_fields(storage_kind storage) {
  static constexpr std::string_view pod[] = {
    "metadata.name",           "metadata.namespace", "spec.nodeName",
    "spec.restartPolicy",      "spec.schedulerName", "spec.serviceAccountName",
    "spec.hostNetwork",        "status.phase",       "status.podIP",
    "status.nominatedNodeName"};
  static constexpr std::string_view node[]
    = {"metadata.name", "metadata.namespace", "spec.unschedulable"};
  static constexpr std::string_view namespace_[]
    = {"metadata.name", "metadata.namespace", "status.phase"};
  static constexpr std::string_view event[] = {"metadata.name",
                                               "metadata.namespace",
                                               "involvedObject.kind",
                                               "involvedObject.namespace",
                                               "involvedObject.name",
                                               "involvedObject.uid",
                                               "involvedObject.apiVersion",
                                               "involvedObject.resourceVersion",
                                               "involvedObject.fieldPath",
                                               "reason",
                                               "reportingComponent",
                                               "source",
                                               "type"};
  static constexpr std::string_view other[]
    = {"metadata.name", "metadata.namespace"};
  switch (storage) {
  case storage_kind::pod:
    return pod;
  case storage_kind::node:
    return node;
  case storage_kind::namespace_:
    return namespace_;
  case storage_kind::event:
    return event;
  default:
    return other;
  }
}

bool is_selectable_field(const resource_info& resource, std::string_view path) {
  // Cluster-scoped kinds store an empty namespace but do not let selectors
  // name it.
  if (path == "metadata.namespace")
    return resource.namespaced;
  auto fields = selectable_fields(resource.storage);
  return std::find(fields.begin(), fields.end(), path) != fields.end();
}

api_result<selector> selector::parse_labels(std::string_view text) {
  selector out;
  label_lexer lex{text};
  using tok = label_lexer::tok;
  std::string_view word;
  auto t = lex.next(word);
  if (t == tok::end)
    return out;
  for (;;) {
    requirement r;
    if (t == tok::bang) {
      if (lex.next(word) != tok::ident)
        return selector_error(text, "expected a key after '!'");
      r.key = std::string{word};
      r.oper = op::does_not_exist;
      t = lex.next(word);
    } else if (t == tok::ident) {
      r.key = std::string{word};
      t = lex.next(word);
      if (t == tok::eq || t == tok::deq || t == tok::neq) {
        r.oper = t == tok::neq ? op::not_equals : op::equals;
        auto save = lex.pos();
        std::string_view value;
        auto vt = lex.next(value);
        if (vt == tok::ident) {
          r.values.emplace_back(value);
          t = lex.next(word);
        } else {
          // `k=` selects the empty value.
          lex.reset(save);
          r.values.emplace_back();
          t = lex.next(word);
        }
      } else if (t == tok::ident && (word == "in" || word == "notin")) {
        r.oper = word == "in" ? op::in : op::not_in;
        if (lex.next(word) != tok::lparen)
          return selector_error(text, "expected '(' after set operator");
        for (;;) {
          std::string_view value;
          auto vt = lex.next(value);
          if (vt == tok::rparen)
            break;
          if (vt == tok::ident) {
            r.values.emplace_back(value);
            vt = lex.next(value);
            if (vt == tok::rparen)
              break;
            if (vt != tok::comma)
              return selector_error(text, "expected ',' or ')' in value set");
          } else if (vt == tok::comma) {
            r.values.emplace_back();
          } else {
            return selector_error(text, "unterminated value set");
          }
        }
        if (r.values.empty())
          return selector_error(text, "for 'in', 'notin' operators, values "
                                      "set can't be empty");
        t = lex.next(word);
      } else {
        r.oper = op::exists;
      }
    } else {
      return selector_error(text, "expected a key");
    }
    if (!valid_label_key(r.key))
      return selector_error(text, "invalid label key \"" + r.key + "\"");
    for (const auto& v : r.values)
      if (!valid_label_value(v))
        return selector_error(text, "invalid label value \"" + v + "\"");
    out.requirements_.push_back(std::move(r));
    if (t == tok::end)
      break;
    if (t != tok::comma)
      return selector_error(text, "expected ',' between requirements");
    t = lex.next(word);
    if (t == tok::end)
      return selector_error(text, "expected a requirement after ','");
  }
  return out;
}

api_result<selector> selector::parse_fields(std::string_view text,
                                            const resource_info& resource) {
  selector out;
  out.fields_ = true;
  if (text.empty())
    return out;
  // Split on unescaped commas, unescaping as we go.
  std::vector<std::string> terms(1);
  std::vector<std::vector<bool>> escaped(1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      terms.back() += text[++i];
      escaped.back().push_back(true);
    } else if (c == ',') {
      terms.emplace_back();
      escaped.emplace_back();
    } else {
      terms.back() += c;
      escaped.back().push_back(false);
    }
  }
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const auto& term = terms[t];
    const auto& esc = escaped[t];
    std::size_t at = std::string::npos;
    std::size_t len = 0;
    op oper = op::equals;
    for (std::size_t i = 0; i < term.size(); ++i) {
      if (esc[i])
        continue;
      if (term[i] == '!' && i + 1 < term.size() && term[i + 1] == '='
          && !esc[i + 1]) {
        at = i;
        len = 2;
        oper = op::not_equals;
        break;
      }
      if (term[i] == '=') {
        at = i;
        len
          = (i + 1 < term.size() && term[i + 1] == '=' && !esc[i + 1]) ? 2 : 1;
        break;
      }
    }
    if (at == std::string::npos)
      return status::bad_request("invalid selector: '" + std::string{text}
                                 + "'; can't understand '" + term + "'");
    requirement r;
    r.key = term.substr(0, at);
    r.oper = oper;
    r.values.push_back(term.substr(at + len));
    while (!r.key.empty() && r.key.back() == ' ')
      r.key.pop_back();
    while (!r.key.empty() && r.key.front() == ' ')
      r.key.erase(r.key.begin());
    if (!is_selectable_field(resource, r.key))
      return status::bad_request("field label not supported: " + r.key);
    out.requirements_.push_back(std::move(r));
  }
  return out;
}

void selector::add(requirement r) {
  requirements_.push_back(std::move(r));
}

bool selector::matches(const object_attrs& attrs) const noexcept {
  for (const auto& r : requirements_) {
    auto v = fields_ ? attrs.field(r.key) : attrs.label(r.key);
    switch (r.oper) {
    case op::equals:
      if (fields_) {
        if (v.value_or(std::string_view{}) != r.values[0])
          return false;
      } else if (!v || *v != r.values[0]) {
        return false;
      }
      break;
    case op::not_equals:
      if (v && *v == r.values[0])
        return false;
      if (fields_ && !v && r.values[0].empty())
        return false;
      break;
    case op::in:
      if (!v
          || std::find(r.values.begin(), r.values.end(), *v) == r.values.end())
        return false;
      break;
    case op::not_in:
      if (v
          && std::find(r.values.begin(), r.values.end(), *v) != r.values.end())
        return false;
      break;
    case op::exists:
      if (!v)
        return false;
      break;
    case op::does_not_exist:
      if (v)
        return false;
      break;
    }
  }
  return true;
}

} // namespace tessera::apiserver
