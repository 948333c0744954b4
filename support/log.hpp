// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Structured logging in klog's format. Every log line in tessera goes through
/// the TLOG_* macros below: a stable lowercase message followed by key/value
/// pairs, e.g. `TLOG_V(2, "successfully bound pod to node", "pod", key,
/// "node", name)`. The macros test the level before evaluating any argument,
/// so a disabled line costs one relaxed atomic load.
///
/// Text format (default), as klog's structured output:
///   I1121 12:34:56.789012   123 file.cpp:42] "message" key="value" n=3
/// JSON format (`--logging-format=json`), as component-base's JSON logger:
///   {"ts":1763728496.789,"caller":"file.cpp:42","msg":"message","v":0,"key":"value"}
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

namespace tessera::log {

/// Severity of a line; `info` lines additionally carry a verbosity.
enum class severity : std::uint8_t { info, warning, error };

enum class format : std::uint8_t { text, json };

/// Process-wide verbosity (`-v`); lines with V(n) print when n <= verbosity.
inline std::atomic<int> verbosity{0};

/// Sets the output format.
void set_format(format f);

/// Replaces the line sink (default: write(2) to stderr). Tests capture lines
/// with it; pass nullptr to restore stderr.
void set_sink(std::function<void(std::string_view line)> sink);

/// True when V(level) lines are printed.
inline bool enabled(int level) noexcept {
  return level <= verbosity.load(std::memory_order_relaxed);
}

/// Collects key/value pairs for one line. Not for direct use: see TLOG_*.
class line_builder {
public:
  line_builder(severity s, int v, const char* file, int line,
               std::string_view message);
  ~line_builder();
  line_builder(const line_builder&) = delete;
  line_builder& operator=(const line_builder&) = delete;

  void add(std::string_view key, std::string_view value);
  void add(std::string_view key, const char* value) {
    add(key, std::string_view{value ? value : ""});
  }
  void add(std::string_view key, const std::string& value) {
    add(key, std::string_view{value});
  }
  void add(std::string_view key, bool value);
  void add(std::string_view key, long long value);
  void add(std::string_view key, unsigned long long value);
  void add(std::string_view key, double value);

  template <class T>
  requires std::is_integral_v<T>
  void add(std::string_view key, T value) {
    if constexpr (std::is_signed_v<T>)
      add(key, static_cast<long long>(value));
    else
      add(key, static_cast<unsigned long long>(value));
  }
  template <class T>
  requires std::is_floating_point_v<T>
  void add(std::string_view key, T value) {
    add(key, static_cast<double>(value));
  }
  /// Anything else with an operator<< is rendered as a quoted string.
  template <class T>
  requires(
    !std::is_arithmetic_v<
      T> && !std::is_convertible_v<const T&, std::string_view>) void add(std::
                                                                           string_view
                                                                             key,
                                                                         const T&
                                                                           value) {
    std::ostringstream out;
    out << value;
    add(key, std::string_view{out.str()});
  }

  template <class K, class V, class... Rest>
  void add_all(const K& key, const V& value, const Rest&... rest) {
    add(std::string_view{key}, value);
    if constexpr (sizeof...(Rest) > 0) {
      static_assert(sizeof...(Rest) % 2 == 0, "log keys and values must pair");
      add_all(rest...);
    }
  }
  void add_all() {
  }

private:
  void begin_value(std::string_view key);

  std::string text_;
  format format_;
};

/// Writes one line; used by the macros.
template <class... KV>
void write(severity s, int v, const char* file, int line,
           std::string_view message, const KV&... kv) {
  static_assert(sizeof...(KV) % 2 == 0, "log keys and values must pair");
  line_builder b{s, v, file, line, message};
  b.add_all(kv...);
}

} // namespace tessera::log

/// Info line at verbosity `level` (0 = always).
#define TLOG_V(level, ...)                                                     \
  do {                                                                         \
    if (::tessera::log::enabled(level))                                        \
      ::tessera::log::write(::tessera::log::severity::info, (level), __FILE__, \
                            __LINE__, __VA_ARGS__);                            \
  } while (false)
#define TLOG_INFO(...) TLOG_V(0, __VA_ARGS__)
/// Debug and trace are V(4) and V(5), as kube components use them.
#define TLOG_DEBUG(...) TLOG_V(4, __VA_ARGS__)
#define TLOG_TRACE(...) TLOG_V(5, __VA_ARGS__)
#define TLOG_WARN(...)                                                         \
  ::tessera::log::write(::tessera::log::severity::warning, 0, __FILE__,        \
                        __LINE__, __VA_ARGS__)
#define TLOG_ERROR(...)                                                        \
  ::tessera::log::write(::tessera::log::severity::error, 0, __FILE__,          \
                        __LINE__, __VA_ARGS__)
