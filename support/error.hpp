// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `error` and `expected<T>`: how every tessera function outside the plugin
/// framework reports failure. The `ec` codes are shared by all components; the
/// actors layer maps them onto caf::error (see actors/atoms.hpp) so that the
/// same codes cross actor boundaries without CAF leaking into model or io.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace tessera {

/// Error codes. Keep the list short: callers branch on the code, humans read
/// the message.
enum class ec : std::uint8_t {
  ok = 0,
  /// Input (a file, a flag, an object, a request) is malformed or invalid.
  invalid_input,
  /// The named thing does not exist.
  not_found,
  /// The operation lost a race: stale version, already bound, already exists.
  conflict,
  /// A peer or resource is temporarily unreachable; retrying may help.
  unavailable,
  /// A deadline passed.
  timeout,
  /// The request is understood but not supported by this build.
  unsupported,
  /// A resource limit was hit (queue full, watcher too slow, overflow).
  exhausted,
  /// A bug or an impossible state; the message says which.
  internal,
};

/// Returns the stable lowercase name of a code, e.g. "invalid_input".
const char* to_string(ec code) noexcept;

/// An error code with a human message. A default-constructed error means "no
/// error".
struct error {
  ec code = ec::ok;
  std::string message;

  explicit operator bool() const noexcept {
    return code != ec::ok;
  }
};

/// Builds an error; `make_error(ec::not_found, "pods \"p\" not found")`.
inline error make_error(ec code, std::string message) {
  return error{code, std::move(message)};
}

/// A value or an error (C++20 has no std::expected yet). The error type is
/// `error` everywhere but at the embedded apiserver's edge, which carries its
/// Kubernetes Status instead (`apiserver::api_result<T>`).
template <class T, class E = error> class [[nodiscard]] expected {
public:
  expected(T value) : state_(std::in_place_index<0>, std::move(value)) {
  }
  expected(E err) : state_(std::in_place_index<1>, std::move(err)) {
  }

  bool has_value() const noexcept {
    return state_.index() == 0;
  }
  explicit operator bool() const noexcept {
    return has_value();
  }

  T& value() & {
    return std::get<0>(state_);
  }
  const T& value() const& {
    return std::get<0>(state_);
  }
  T&& value() && {
    return std::get<0>(std::move(state_));
  }
  T& operator*() & {
    return value();
  }
  const T& operator*() const& {
    return value();
  }
  T* operator->() {
    return &value();
  }
  const T* operator->() const {
    return &value();
  }

  const E& err() const& {
    return std::get<1>(state_);
  }
  E&& err() && {
    return std::get<1>(std::move(state_));
  }

private:
  std::variant<T, E> state_;
};

} // namespace tessera
