// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/flags.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

namespace tessera {

namespace {

error bad_value(std::string_view flag, std::string_view value,
                std::string_view want) {
  std::string msg = "invalid argument \"";
  msg += value;
  msg += "\" for \"--";
  msg += flag;
  msg += "\" flag: ";
  msg += want;
  return make_error(ec::invalid_input, std::move(msg));
}

template <class Int> bool parse_int(std::string_view text, Int& out) {
  if (text.empty())
    return false;
  auto [ptr, err]
    = std::from_chars(text.data(), text.data() + text.size(), out);
  return err == std::errc{} && ptr == text.data() + text.size();
}

// The long name of a flag declared as "long" or "long,short".
std::string long_name(std::string_view names) {
  return std::string{names.substr(0, names.find(','))};
}

// Sets `target` from an integer flag's value; an error names flag `name`.
template <class Int>
std::function<error(std::string_view)> integer_setter(Int& target,
                                                      std::string name) {
  return [&target, name = std::move(name)](std::string_view v) {
    if (!parse_int(v, target))
      return bad_value(name, v, "not an integer");
    return error{};
  };
}

} // namespace

flag_set::flag_set(std::string usage) : usage_(std::move(usage)) {
}

flag_set::flag&
flag_set::define(std::string_view names, std::string help,
                 std::string default_text, bool is_bool,
                 std::function<error(std::string_view)> assign) {
  flag f;
  auto comma = names.find(',');
  f.long_name = std::string{names.substr(0, comma)};
  if (comma != std::string_view::npos)
    f.short_name = std::string{names.substr(comma + 1)};
  f.help = std::move(help);
  f.default_text = std::move(default_text);
  f.is_bool = is_bool;
  f.assign = std::move(assign);
  flags_.push_back(std::move(f));
  return flags_.back();
}

void flag_set::add(std::string_view names, std::string& target,
                   std::string help) {
  define(names, std::move(help), target.empty() ? "" : "\"" + target + "\"",
         false, [&target](std::string_view v) {
           target = std::string{v};
           return error{};
         });
}

void flag_set::add(std::string_view names, bool& target, std::string help) {
  std::string name = long_name(names);
  define(names, std::move(help), target ? "true" : "", true,
         [&target, name](std::string_view v) {
           if (v == "true" || v == "1" || v == "t" || v == "T" || v == "TRUE"
               || v == "True")
             target = true;
           else if (v == "false" || v == "0" || v == "f" || v == "F"
                    || v == "FALSE" || v == "False")
             target = false;
           else
             return bad_value(name, v,
                              "strconv.ParseBool: parsing \"" + std::string{v}
                                + "\": invalid syntax");
           return error{};
         });
}

void flag_set::add(std::string_view names, int& target, std::string help) {
  define(names, std::move(help), std::to_string(target), false,
         integer_setter(target, long_name(names)));
}

void flag_set::add(std::string_view names, std::int64_t& target,
                   std::string help) {
  define(names, std::move(help), std::to_string(target), false,
         integer_setter(target, long_name(names)));
}

void flag_set::add(std::string_view names, double& target, std::string help) {
  std::string name = long_name(names);
  std::ostringstream def;
  def << target;
  define(names, std::move(help), def.str(), false,
         [&target, name](std::string_view v) {
           std::string s{v};
           char* end = nullptr;
           double d = std::strtod(s.c_str(), &end);
           if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(d))
             return bad_value(name, v, "not a number");
           target = d;
           return error{};
         });
}

void flag_set::add(std::string_view names, std::vector<std::string>& target,
                   std::string help) {
  define(names, std::move(help), "", false, [&target](std::string_view v) {
    target.emplace_back(v);
    return error{};
  });
}

void flag_set::add(std::string_view names, std::chrono::milliseconds& target,
                   std::string help) {
  std::string name = long_name(names);
  define(names, std::move(help), format_duration(target), false,
         [&target, name](std::string_view v) {
           auto d = parse_duration(v);
           if (!d)
             return bad_value(name, v, d.err().message);
           target = *d;
           return error{};
         });
}

void flag_set::add(std::string_view names, std::optional<int>& target,
                   std::string help) {
  std::string name = long_name(names);
  define(names, std::move(help), "", false,
         [&target, name](std::string_view v) {
           int x = 0;
           if (!parse_int(v, x))
             return bad_value(name, v, "not an integer");
           target = x;
           return error{};
         });
}

void flag_set::add(std::string_view names, std::optional<std::string>& target,
                   std::string help) {
  define(names, std::move(help), "", false, [&target](std::string_view v) {
    target = std::string{v};
    return error{};
  });
}

void flag_set::allow_positionals(std::size_t max, std::string what) {
  max_positionals_ = max;
  positional_what_ = std::move(what);
}

flag_set::flag* flag_set::find(std::string_view name) {
  for (auto& f : flags_)
    if (f.long_name == name || (!f.short_name.empty() && f.short_name == name))
      return &f;
  return nullptr;
}

bool flag_set::was_set(std::string_view long_name) const {
  for (const auto& f : flags_)
    if (f.long_name == long_name)
      return f.set;
  return false;
}

expected<std::vector<std::string>>
flag_set::parse(const std::vector<std::string>& args) {
  std::vector<std::string> positionals;
  bool only_positionals = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (only_positionals || arg.size() < 2 || arg[0] != '-') {
      positionals.emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      only_positionals = true;
      continue;
    }
    std::string_view body = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string_view name = body;
    std::optional<std::string_view> value;
    if (auto eq = body.find('='); eq != std::string_view::npos) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
    }
    if (name == "help" || name == "h") {
      help_requested_ = true;
      continue;
    }
    flag* f = find(name);
    if (f == nullptr)
      return make_error(ec::invalid_input,
                        "unknown flag: "
                          + std::string{arg.substr(0, arg.find('='))});
    if (!value) {
      if (f->is_bool) {
        value = "true";
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return make_error(ec::invalid_input,
                          "flag needs an argument: --" + f->long_name);
      }
    }
    if (auto err = f->assign(*value))
      return err;
    f->set = true;
  }
  if (positionals.size() > max_positionals_) {
    std::string msg
      = "unexpected argument \"" + positionals[max_positionals_] + "\"";
    if (max_positionals_ > 0)
      msg += " (expects at most " + std::to_string(max_positionals_) + " "
             + positional_what_ + ")";
    return make_error(ec::invalid_input, std::move(msg));
  }
  return positionals;
}

std::string flag_set::help() const {
  std::string out = "Usage: " + usage_ + "\n\nFlags:\n";
  for (const auto& f : flags_) {
    std::string left = "  ";
    left += f.short_name.empty() ? "    " : "-" + f.short_name + ", ";
    left += "--" + f.long_name;
    if (left.size() < 34)
      left.resize(34, ' ');
    else
      left += "  ";
    out += left + f.help;
    if (!f.default_text.empty())
      out += " (default " + f.default_text + ")";
    out += "\n";
  }
  out += "  -h, --help                      show this help\n";
  return out;
}

expected<std::chrono::milliseconds> parse_duration(std::string_view text) {
  auto fail = [&] {
    return make_error(ec::invalid_input,
                      "time: invalid duration \"" + std::string{text} + "\"");
  };
  if (text.empty())
    return fail();
  if (text == "0")
    return std::chrono::milliseconds{0};
  bool negative = false;
  std::string_view s = text;
  if (s[0] == '-' || s[0] == '+') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  double total_ms = 0;
  while (!s.empty()) {
    std::size_t n = 0;
    while (n < s.size() && ((s[n] >= '0' && s[n] <= '9') || s[n] == '.'))
      ++n;
    if (n == 0)
      return fail();
    std::string number{s.substr(0, n)};
    s.remove_prefix(n);
    std::size_t u = 0;
    while (u < s.size() && !((s[u] >= '0' && s[u] <= '9') || s[u] == '.'))
      ++u;
    std::string_view unit = s.substr(0, u);
    s.remove_prefix(u);
    double scale = 0;
    if (unit == "ns")
      scale = 1e-6;
    else if (unit == "us" || unit == "µs")
      scale = 1e-3;
    else if (unit == "ms")
      scale = 1;
    else if (unit == "s")
      scale = 1e3;
    else if (unit == "m")
      scale = 60e3;
    else if (unit == "h")
      scale = 3600e3;
    else
      return fail();
    char* end = nullptr;
    double v = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size())
      return fail();
    total_ms += v * scale;
  }
  // Go's durations are int64 nanoseconds: anything longer (about 292
  // years) is invalid there, and would overflow the conversion here.
  constexpr double max_ms = 9223372036854.775807;
  if (!(total_ms <= max_ms))
    return fail();
  auto ms = static_cast<std::int64_t>(std::llround(total_ms));
  return std::chrono::milliseconds{negative ? -ms : ms};
}

std::string format_duration(std::chrono::milliseconds d) {
  if (d.count() == 0)
    return "0s";
  std::string out = d.count() < 0 ? "-" : "";
  // The magnitude as unsigned: the most negative count has no positive
  // int64 counterpart.
  const auto count = static_cast<std::uint64_t>(d.count());
  const std::uint64_t ms = d.count() < 0 ? 0 - count : count;
  if (ms < 1000)
    return out + std::to_string(ms) + "ms";
  std::uint64_t h = ms / 3600000;
  std::uint64_t m = (ms / 60000) % 60;
  std::uint64_t s = (ms / 1000) % 60;
  std::uint64_t frac = ms % 1000;
  if (h > 0)
    out += std::to_string(h) + "h";
  if (h > 0 || m > 0)
    out += std::to_string(m) + "m";
  out += std::to_string(s);
  if (frac > 0) {
    char buf[8];
    std::snprintf(buf, sizeof buf, ".%03lld", static_cast<long long>(frac));
    std::string f = buf;
    while (f.back() == '0')
      f.pop_back();
    out += f;
  }
  return out + "s";
}

} // namespace tessera
