// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/go_template.hpp"

#include <cctype>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace tessera::perf {

namespace {

/// A piece of the template: literal text or the inside of `{{ }}`.
struct segment {
  bool action = false;
  std::string text;
};

expected<std::vector<segment>> split(std::string_view text) {
  std::vector<segment> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto open = text.find("{{", pos);
    if (open == std::string_view::npos) {
      out.push_back({false, std::string{text.substr(pos)}});
      break;
    }
    std::string literal{text.substr(pos, open - pos)};
    std::size_t inner = open + 2;
    // `{{-` trims the white space before the action.
    if (inner + 1 < text.size() && text[inner] == '-'
        && std::isspace(static_cast<unsigned char>(text[inner + 1]))) {
      while (!literal.empty()
             && std::isspace(static_cast<unsigned char>(literal.back())))
        literal.pop_back();
      ++inner;
    }
    out.push_back({false, std::move(literal)});
    auto close = text.find("}}", inner);
    if (close == std::string_view::npos)
      return make_error(ec::invalid_input, "unclosed action \"{{\"");
    std::size_t end = close;
    bool trim_after = false;
    if (end > inner && text[end - 1] == '-' && end - 1 > inner
        && std::isspace(static_cast<unsigned char>(text[end - 2]))) {
      trim_after = true;
      --end;
    }
    out.push_back({true, std::string{text.substr(inner, end - inner)}});
    pos = close + 2;
    if (trim_after)
      while (pos < text.size()
             && std::isspace(static_cast<unsigned char>(text[pos])))
        ++pos;
  }
  return out;
}

std::string describe(const go_value& v) {
  if (std::holds_alternative<std::monostate>(v))
    return "<no value>";
  if (const auto* i = std::get_if<std::int64_t>(&v))
    return std::to_string(*i);
  if (const auto* b = std::get_if<bool>(&v))
    return *b ? "true" : "false";
  return std::get<std::string>(v);
}

bool truthy(const go_value& v) {
  if (std::holds_alternative<std::monostate>(v))
    return false;
  if (const auto* i = std::get_if<std::int64_t>(&v))
    return *i != 0;
  if (const auto* b = std::get_if<bool>(&v))
    return *b;
  return !std::get<std::string>(v).empty();
}

/// Evaluates one action's expression: a command (`fn arg...`) or an
/// operand.
class evaluator {
public:
  evaluator(std::string_view text, const go_data& data)
    : text_(text), data_(data) {
  }

  expected<go_value> run() {
    auto v = command();
    if (!v)
      return v;
    skip_space();
    if (pos_ != text_.size())
      return fail("unexpected \"" + std::string{text_.substr(pos_)} + "\"");
    return v;
  }

private:
  error fail(const std::string& what) const {
    return make_error(ec::invalid_input,
                      "in action \"{{" + std::string{text_} + "}}\": " + what);
  }

  void skip_space() {
    while (pos_ < text_.size()
           && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }

  bool at_end() {
    skip_space();
    return pos_ >= text_.size() || text_[pos_] == ')';
  }

  std::string word() {
    std::size_t start = pos_;
    while (pos_ < text_.size()
           && (std::isalnum(static_cast<unsigned char>(text_[pos_]))
               || text_[pos_] == '_'))
      ++pos_;
    return std::string{text_.substr(start, pos_ - start)};
  }

  expected<go_value> command() {
    skip_space();
    if (pos_ < text_.size()
        && std::isalpha(static_cast<unsigned char>(text_[pos_]))) {
      auto name = word();
      if (name == "true" || name == "false")
        return go_value{name == "true"};
      std::vector<go_value> args;
      while (!at_end()) {
        auto a = operand();
        if (!a)
          return a;
        args.push_back(std::move(*a));
      }
      return call(name, args);
    }
    return operand();
  }

  expected<go_value> operand() {
    skip_space();
    if (pos_ >= text_.size())
      return fail("missing operand");
    char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      auto v = command();
      if (!v)
        return v;
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ')')
        return fail("missing \")\"");
      ++pos_;
      return v;
    }
    if (c == '.') {
      ++pos_;
      auto name = word();
      if (name.empty())
        return fail("\".\" alone is not supported; name a field");
      auto it = data_.find(name);
      if (it == data_.end())
        return go_value{std::monostate{}};
      return it->second;
    }
    if (c == '"') {
      auto close = text_.find('"', pos_ + 1);
      if (close == std::string_view::npos)
        return fail("unterminated string");
      std::string s{text_.substr(pos_ + 1, close - pos_ - 1)};
      pos_ = close + 1;
      return go_value{std::move(s)};
    }
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t start = pos_++;
      while (pos_ < text_.size()
             && std::isdigit(static_cast<unsigned char>(text_[pos_])))
        ++pos_;
      try {
        return go_value{static_cast<std::int64_t>(
          std::stoll(std::string{text_.substr(start, pos_ - start)}))};
      } catch (const std::exception&) {
        return fail("bad number");
      }
    }
    if (std::isalpha(static_cast<unsigned char>(c))) {
      auto name = word();
      if (name == "true" || name == "false")
        return go_value{name == "true"};
      // A function without arguments in argument position is Go's error
      // too; name it.
      return fail("function \"" + name + "\" needs parentheses here");
    }
    return fail("unexpected \"" + std::string(1, c) + "\"");
  }

  expected<go_value> call(const std::string& name,
                          const std::vector<go_value>& values) {
    auto ints = [&](std::int64_t& a, std::int64_t& b) -> error {
      if (values.size() != 2)
        return fail(name + " takes two arguments");
      const auto* x = std::get_if<std::int64_t>(&values[0]);
      const auto* y = std::get_if<std::int64_t>(&values[1]);
      if (x == nullptr || y == nullptr)
        return fail(name + " takes integers");
      a = *x;
      b = *y;
      return {};
    };
    static const std::map<
      std::string,
      std::function<std::optional<std::int64_t>(std::int64_t, std::int64_t)>>
      arithmetic{
        {"AddInt", [](auto a, auto b) { return a + b; }},
        {"SubtractInt", [](auto a, auto b) { return a - b; }},
        {"MultiplyInt", [](auto a, auto b) { return a * b; }},
        {"DivideInt",
         [](auto a, auto b) {
           return b == 0 ? std::nullopt : std::optional{a / b};
         }},
        {"div",
         [](auto a, auto b) {
           return b == 0 ? std::nullopt : std::optional{a / b};
         }},
        {"mod",
         [](auto a, auto b) {
           return b == 0 ? std::nullopt : std::optional{a % b};
         }},
        {"Mod",
         [](auto a, auto b) {
           return b == 0 ? std::nullopt : std::optional{a % b};
         }},
      };
    if (auto it = arithmetic.find(name); it != arithmetic.end()) {
      std::int64_t a = 0;
      std::int64_t b = 0;
      if (auto e = ints(a, b))
        return e;
      auto r = it->second(a, b);
      if (!r)
        return fail(name + ": division by zero");
      return go_value{*r};
    }
    if (name == "not") {
      if (values.size() != 1)
        return fail("not takes one argument");
      return go_value{!truthy(values[0])};
    }
    if (name == "and" || name == "or") {
      if (values.empty())
        return fail(name + " takes arguments");
      for (const auto& v : values)
        if (truthy(v) != (name == "and"))
          return v;
      return values.back();
    }
    static const std::map<std::string, std::function<bool(int)>> compare{
      {"eq", [](int c) { return c == 0; }},
      {"ne", [](int c) { return c != 0; }},
      {"lt", [](int c) { return c < 0; }},
      {"le", [](int c) { return c <= 0; }},
      {"gt", [](int c) { return c > 0; }},
      {"ge", [](int c) { return c >= 0; }},
    };
    if (auto it = compare.find(name); it != compare.end()) {
      if (values.size() != 2)
        return fail(name + " takes two arguments");
      if (values[0].index() != values[1].index())
        return fail(name + ": incompatible types");
      int c = values[0] < values[1] ? -1 : (values[1] < values[0] ? 1 : 0);
      return go_value{it->second(c)};
    }
    return fail("function \"" + name + "\" is not supported");
  }

  std::string_view text_;
  const go_data& data_;
  std::size_t pos_ = 0;
};

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

bool starts_with_word(std::string_view s, std::string_view w) {
  return s.substr(0, w.size()) == w
         && (s.size() == w.size()
             || std::isspace(static_cast<unsigned char>(s[w.size()])));
}

/// Renders segments [pos, ...) until an `else`/`end` at this level, which
/// it leaves at `pos`.
class renderer {
public:
  renderer(const std::vector<segment>& segs, const go_data& data)
    : segs_(segs), data_(data) {
  }

  expected<std::string> all() {
    std::string out;
    if (auto e = block(out, true))
      return e;
    if (pos_ != segs_.size())
      return make_error(ec::invalid_input,
                        "unexpected {{" + segs_[pos_].text + "}}");
    return out;
  }

private:
  /// Renders (or, with !emit, skips) up to the next else/end.
  error block(std::string& out, bool emit) {
    while (pos_ < segs_.size()) {
      const auto& s = segs_[pos_];
      if (!s.action) {
        if (emit)
          out += s.text;
        ++pos_;
        continue;
      }
      auto a = trimmed(s.text);
      if (a.substr(0, 2) == "/*") {
        ++pos_;
        continue;
      }
      if (a == "end" || a == "else" || starts_with_word(a, "else"))
        return {};
      if (starts_with_word(a, "if")) {
        if (auto e = conditional(out, emit))
          return e;
        continue;
      }
      if (emit) {
        auto v = evaluator{a, data_}.run();
        if (!v)
          return v.err();
        out += describe(*v);
      }
      ++pos_;
    }
    return {};
  }

  /// `if c` ... [`else if c` ...]* [`else` ...] `end`.
  error conditional(std::string& out, bool emit) {
    bool taken = false;
    std::string_view cond = trimmed(segs_[pos_].text).substr(2);
    for (;;) {
      bool run = false;
      if (emit && !taken) {
        auto v = evaluator{cond, data_}.run();
        if (!v)
          return v.err();
        run = truthy(*v);
      }
      ++pos_;
      if (auto e = block(out, run))
        return e;
      taken |= run;
      if (pos_ >= segs_.size())
        return make_error(ec::invalid_input, "{{if}} without {{end}}");
      auto a = trimmed(segs_[pos_].text);
      if (a == "end") {
        ++pos_;
        return {};
      }
      if (a == "else") {
        ++pos_;
        if (auto e = block(out, emit && !taken))
          return e;
        if (pos_ >= segs_.size() || trimmed(segs_[pos_].text) != "end")
          return make_error(ec::invalid_input, "{{else}} without {{end}}");
        ++pos_;
        return {};
      }
      // else if ...
      auto rest = trimmed(a.substr(4));
      if (!starts_with_word(rest, "if"))
        return make_error(ec::invalid_input,
                          "unsupported {{" + std::string{a} + "}}");
      cond = rest.substr(2);
    }
  }

  const std::vector<segment>& segs_;
  const go_data& data_;
  std::size_t pos_ = 0;
};

} // namespace

bool has_go_actions(std::string_view text) noexcept {
  return text.find("{{") != std::string_view::npos;
}

expected<std::string> render_go_template(std::string_view text,
                                         const go_data& data) {
  auto segs = split(text);
  if (!segs)
    return segs.err();
  return renderer{*segs, data}.all();
}

} // namespace tessera::perf
