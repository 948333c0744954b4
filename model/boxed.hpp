// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Values held behind a pointer, with value semantics (a copy copies the
/// value, equality compares values):
/// - `boxed<T>`: always has a T; an empty box reads as a default T, and
///   writing goes through `edit()`, which makes the box's own T.
/// - `optional_box<T>`: std::optional's interface for the parts used here.
///
/// For the parts of a pod most pods do not have (affinity, pod-level
/// resources, overhead, the scheduled condition): inline they widened every
/// pod the cache and the queue hold by some 450 bytes, which at a million
/// pods is half a gigabyte of default values.
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace tessera::model {

template <class T> class boxed {
public:
  boxed() = default;
  boxed(T value) : value_(std::make_unique<T>(std::move(value))) {
  }
  boxed(const boxed& other)
    : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {
  }
  boxed(boxed&&) noexcept = default;
  boxed& operator=(const boxed& other) {
    if (this != &other)
      value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  boxed& operator=(boxed&&) noexcept = default;
  ~boxed() = default;

  const T& operator*() const noexcept {
    return value_ ? *value_ : empty();
  }
  const T* operator->() const noexcept {
    return &**this;
  }
  /// The box's own T, made (default) on first use.
  T& edit() {
    if (!value_)
      value_ = std::make_unique<T>();
    return *value_;
  }

  friend bool operator==(const boxed& a, const boxed& b) {
    return *a == *b;
  }

private:
  static const T& empty() noexcept {
    static const T value{};
    return value;
  }

  std::unique_ptr<T> value_;
};

template <class T> class optional_box {
public:
  optional_box() = default;
  optional_box(std::nullopt_t) noexcept {
  }
  optional_box(T value) : value_(std::make_unique<T>(std::move(value))) {
  }
  optional_box(const optional_box& other)
    : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {
  }
  optional_box(optional_box&&) noexcept = default;
  optional_box& operator=(const optional_box& other) {
    if (this != &other)
      value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  optional_box& operator=(optional_box&&) noexcept = default;
  optional_box& operator=(std::nullopt_t) noexcept {
    value_.reset();
    return *this;
  }
  optional_box& operator=(T value) {
    value_ = std::make_unique<T>(std::move(value));
    return *this;
  }
  ~optional_box() = default;

  bool has_value() const noexcept {
    return value_ != nullptr;
  }
  explicit operator bool() const noexcept {
    return has_value();
  }
  const T& operator*() const noexcept {
    return *value_;
  }
  T& operator*() noexcept {
    return *value_;
  }
  const T* operator->() const noexcept {
    return value_.get();
  }
  T* operator->() noexcept {
    return value_.get();
  }
  template <class... Args> T& emplace(Args&&... args) {
    value_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *value_;
  }
  void reset() noexcept {
    value_.reset();
  }

  friend bool operator==(const optional_box& a, const optional_box& b) {
    if (!a || !b)
      return !a && !b;
    return *a == *b;
  }

private:
  std::unique_ptr<T> value_;
};

} // namespace tessera::model
