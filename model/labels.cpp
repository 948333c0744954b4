// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/labels.hpp"

#include "support/names.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>

namespace tessera::model {

// ---------------------------------------------------------------------------
// Key and value syntax (apimachinery's qualified-name rules).

std::string label_key_problem(std::string_view key) {
  auto slash = key.find('/');
  std::string_view name = key;
  if (slash != std::string_view::npos) {
    if (key.find('/', slash + 1) != std::string_view::npos)
      return "a label key has at most one '/'";
    auto prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty())
      return "the prefix before '/' must not be empty";
    if (prefix.size() > max_dns1123_subdomain_length
        || !is_dns1123_subdomain(prefix))
      return "the prefix must be a lowercase DNS subdomain of at most 253 "
             "characters";
  }
  if (name.empty())
    return "the name part must not be empty";
  if (name.size() > max_qualified_name_part_length)
    return "the name part must be no more than 63 characters";
  if (!is_qualified_name_part(name))
    return "the name part must consist of alphanumeric characters, '-', '_' "
           "or '.', and must start and end with an alphanumeric character";
  return {};
}

std::string label_value_problem(std::string_view value) {
  if (value.size() > max_qualified_name_part_length)
    return "must be no more than 63 characters";
  if (!value.empty() && !is_qualified_name_part(value))
    return "must be empty or consist of alphanumeric characters, '-', '_' or "
           "'.', and must start and end with an alphanumeric character";
  return {};
}

namespace {

bool key_less(const label& a, const label& b) noexcept {
  return a.key < b.key;
}

void normalize_values(boost::container::small_vector<symbol, 2>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

// Requirements are kept ordered by key text (stable), as apimachinery does,
// so that equal selectors compare equal and print the same.
void sort_requirements(std::vector<label_requirement>& reqs) {
  std::stable_sort(reqs.begin(), reqs.end(),
                   [](const label_requirement& a, const label_requirement& b) {
                     return lexical_less(a.key, b.key);
                   });
}

std::vector<std::string_view>
sorted_texts(const boost::container::small_vector<symbol, 2>& values) {
  std::vector<std::string_view> out;
  out.reserve(values.size());
  for (auto v : values)
    out.push_back(v.view());
  std::sort(out.begin(), out.end());
  return out;
}

void append_joined(std::string& out,
                   const boost::container::small_vector<symbol, 2>& values) {
  bool first = true;
  for (auto v : sorted_texts(values)) {
    if (!first)
      out += ',';
    out.append(v);
    first = false;
  }
}

void append_requirement(std::string& out, const label_requirement& r) {
  using op = label_requirement::op;
  switch (r.oper) {
  case op::exists:
    out.append(r.key.view());
    return;
  case op::does_not_exist:
    out += '!';
    out.append(r.key.view());
    return;
  case op::in:
    out.append(r.key.view());
    if (r.values.size() == 1) {
      out += '=';
      out.append(r.values.front().view());
      return;
    }
    out += " in (";
    append_joined(out, r.values);
    out += ')';
    return;
  case op::not_in:
    out.append(r.key.view());
    if (r.values.size() == 1) {
      out += "!=";
      out.append(r.values.front().view());
      return;
    }
    out += " notin (";
    append_joined(out, r.values);
    out += ')';
    return;
  }
}

// ---------------------------------------------------------------------------
// The string syntax of `?labelSelector=`.

enum class token_kind : std::uint8_t {
  end,
  identifier,
  comma,
  open_paren,
  close_paren,
  bang,
  equals,
  double_equals,
  not_equals,
  in_keyword,
  notin_keyword,
  greater,
  less,
};

struct token {
  token_kind kind = token_kind::end;
  std::string_view text;
};

bool is_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool is_operator_char(char c) noexcept {
  switch (c) {
  case '=':
  case '!':
  case '(':
  case ')':
  case ',':
  case '<':
  case '>':
    return true;
  default:
    return false;
  }
}

// Splits the selector text into tokens. Identifiers are runs of characters
// that are neither blanks nor operator characters; "in" and "notin" are
// keywords where an operator is expected and plain identifiers elsewhere.
std::vector<token> tokenize(std::string_view text) {
  std::vector<token> tokens;
  std::size_t i = 0;
  while (true) {
    while (i < text.size() && is_space(text[i]))
      ++i;
    if (i == text.size())
      break;
    char c = text[i];
    if (is_operator_char(c)) {
      bool pair
        = i + 1 < text.size() && text[i + 1] == '=' && (c == '!' || c == '=');
      auto lexeme = text.substr(i, pair ? 2 : 1);
      token_kind kind = token_kind::comma;
      switch (c) {
      case '=':
        kind = pair ? token_kind::double_equals : token_kind::equals;
        break;
      case '!':
        kind = pair ? token_kind::not_equals : token_kind::bang;
        break;
      case '(':
        kind = token_kind::open_paren;
        break;
      case ')':
        kind = token_kind::close_paren;
        break;
      case '<':
        kind = token_kind::less;
        break;
      case '>':
        kind = token_kind::greater;
        break;
      default:
        kind = token_kind::comma;
        break;
      }
      tokens.push_back({kind, lexeme});
      i += lexeme.size();
      continue;
    }
    auto start = i;
    while (i < text.size() && !is_space(text[i]) && !is_operator_char(text[i]))
      ++i;
    auto word = text.substr(start, i - start);
    auto kind = word == "in"      ? token_kind::in_keyword
                : word == "notin" ? token_kind::notin_keyword
                                  : token_kind::identifier;
    tokens.push_back({kind, word});
  }
  tokens.push_back({token_kind::end, {}});
  return tokens;
}

std::string describe(const token& t) {
  if (t.kind == token_kind::end)
    return "end of string";
  return "'" + std::string{t.text} + "'";
}

class selector_parser {
public:
  explicit selector_parser(std::string_view text) : tokens_(tokenize(text)) {
  }

  expected<label_selector> run() {
    std::vector<label_requirement> reqs;
    if (peek().kind == token_kind::end)
      return label_selector::from_requirements(std::move(reqs));
    while (true) {
      if (!starts_requirement(peek()))
        return fail("found " + describe(peek())
                    + ", expected: '!', a key, or end of string");
      auto req = requirement();
      if (!req)
        return std::move(req).err();
      reqs.push_back(std::move(*req));
      auto next = take();
      if (next.kind == token_kind::end)
        break;
      if (next.kind != token_kind::comma)
        return fail("found " + describe(next)
                    + ", expected: ',' or end of string");
      if (!starts_requirement(peek()))
        return fail("found " + describe(peek())
                    + ", expected: a key after ','");
    }
    return label_selector::from_requirements(std::move(reqs));
  }

private:
  // In value position the keywords are ordinary words.
  static bool is_word(const token& t) noexcept {
    return t.kind == token_kind::identifier || t.kind == token_kind::in_keyword
           || t.kind == token_kind::notin_keyword;
  }
  static bool starts_requirement(const token& t) noexcept {
    return is_word(t) || t.kind == token_kind::bang;
  }

  const token& peek() const noexcept {
    return tokens_[pos_];
  }
  token take() noexcept {
    auto t = tokens_[pos_];
    if (t.kind != token_kind::end)
      ++pos_;
    return t;
  }

  static error fail(std::string message) {
    return make_error(ec::invalid_input,
                      "unable to parse requirement: " + std::move(message));
  }

  expected<label_requirement> requirement() {
    label_requirement req;
    bool negated = false;
    if (peek().kind == token_kind::bang) {
      negated = true;
      take();
    }
    auto key = take();
    if (!is_word(key))
      return fail("found " + describe(key) + ", expected: a key");
    if (auto why = label_key_problem(key.text); !why.empty())
      return fail("invalid label key \"" + std::string{key.text}
                  + "\": " + why);
    req.key = symbol{key.text};
    auto after = peek().kind;
    if (negated || after == token_kind::end || after == token_kind::comma) {
      // `!k` and bare `k`; anything after `!k` other than ',' or the end is
      // reported by the caller.
      req.oper = negated ? label_requirement::op::does_not_exist
                         : label_requirement::op::exists;
      return req;
    }
    auto oper = take();
    std::vector<std::string_view> values;
    switch (oper.kind) {
    case token_kind::in_keyword:
    case token_kind::notin_keyword: {
      req.oper = oper.kind == token_kind::in_keyword
                   ? label_requirement::op::in
                   : label_requirement::op::not_in;
      auto list = value_list();
      if (!list)
        return std::move(list).err();
      values = std::move(*list);
      break;
    }
    case token_kind::equals:
    case token_kind::double_equals:
    case token_kind::not_equals: {
      req.oper = oper.kind == token_kind::not_equals
                   ? label_requirement::op::not_in
                   : label_requirement::op::in;
      auto value = exact_value();
      if (!value)
        return std::move(value).err();
      values.push_back(*value);
      break;
    }
    case token_kind::greater:
    case token_kind::less:
      return fail("operator '" + std::string{oper.text} + "' is not supported");
    default:
      return fail("found " + describe(oper)
                  + ", expected: in, notin, =, ==, !=");
    }
    for (auto v : values) {
      if (auto why = label_value_problem(v); !why.empty())
        return fail("invalid label value \"" + std::string{v} + "\" for key \""
                    + std::string{key.text} + "\": " + why);
      req.values.push_back(symbol{v});
    }
    normalize_values(req.values);
    return req;
  }

  // `( v1, v2 )`; empty entries stand for the empty value, so `()` is the
  // set {""} as in apimachinery.
  expected<std::vector<std::string_view>> value_list() {
    auto open = take();
    if (open.kind != token_kind::open_paren)
      return fail("found " + describe(open) + ", expected: '('");
    std::vector<std::string_view> values;
    bool expect_value = true;
    while (true) {
      auto t = take();
      if (t.kind == token_kind::close_paren) {
        if (expect_value)
          values.emplace_back();
        return values;
      }
      if (t.kind == token_kind::comma) {
        if (expect_value)
          values.emplace_back();
        expect_value = true;
        continue;
      }
      if (is_word(t) && expect_value) {
        values.push_back(t.text);
        expect_value = false;
        continue;
      }
      return fail("found " + describe(t)
                  + (expect_value ? ", expected: a value, ',' or ')'"
                                  : ", expected: ',' or ')'"));
    }
  }

  // The single value after `=`, `==` or `!=`; absent means the empty value.
  expected<std::string_view> exact_value() {
    auto next = peek().kind;
    if (next == token_kind::end || next == token_kind::comma)
      return std::string_view{};
    auto t = take();
    if (!is_word(t))
      return fail("found " + describe(t) + ", expected: a value");
    return t.text;
  }

  std::vector<token> tokens_;
  std::size_t pos_ = 0;
};

} // namespace

// ---------------------------------------------------------------------------
// label_set

label_set::label_set(std::vector<label> labels) {
  // A stable sort keeps equal keys in input order; the last one wins.
  std::stable_sort(labels.begin(), labels.end(), key_less);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (i + 1 < labels.size() && labels[i + 1].key == labels[i].key)
      continue;
    labels_.push_back(labels[i]);
  }
}

void label_set::set(symbol key, symbol value) {
  auto it
    = std::lower_bound(labels_.begin(), labels_.end(), key,
                       [](const label& l, symbol k) { return l.key < k; });
  if (it != labels_.end() && it->key == key) {
    it->value = value;
    return;
  }
  labels_.insert(it, label{key, value});
}

// ---------------------------------------------------------------------------
// label_requirement

bool label_requirement::matches(label_view labels) const noexcept {
  const symbol* value = labels.find(key);
  auto listed = [&] {
    return std::find(values.begin(), values.end(), *value) != values.end();
  };
  switch (oper) {
  case op::in:
    return value != nullptr && listed();
  case op::not_in:
    return value == nullptr || !listed();
  case op::exists:
    return value != nullptr;
  case op::does_not_exist:
    return value == nullptr;
  }
  return false;
}

// ---------------------------------------------------------------------------
// label_selector

label_selector label_selector::nothing() {
  return label_selector{};
}

label_selector label_selector::everything() {
  label_selector s;
  s.nothing_ = false;
  return s;
}

label_selector
label_selector::from_requirements(std::vector<label_requirement> reqs) {
  label_selector s;
  s.nothing_ = false;
  for (auto& r : reqs)
    normalize_values(r.values);
  sort_requirements(reqs);
  s.requirements_ = std::move(reqs);
  return s;
}

expected<label_selector> label_selector::parse(std::string_view text) {
  try {
    return selector_parser{text}.run();
  } catch (const std::exception& e) {
    return make_error(
      ec::internal, std::string{"label selector parsing failed: "} + e.what());
  }
}

bool label_selector::matches(label_view labels) const noexcept {
  if (nothing_)
    return false;
  for (const auto& r : requirements_)
    if (!r.matches(labels))
      return false;
  return true;
}

void label_selector::add(label_requirement req) {
  // Adding to the nil selector leaves it matching nothing (apimachinery).
  if (nothing_)
    return;
  normalize_values(req.values);
  requirements_.push_back(std::move(req));
  sort_requirements(requirements_);
}

std::string label_selector::to_string() const {
  if (nothing_)
    return "<none>";
  std::string out;
  for (std::size_t i = 0; i < requirements_.size(); ++i) {
    if (i > 0)
      out += ',';
    append_requirement(out, requirements_[i]);
  }
  return out;
}

} // namespace tessera::model
