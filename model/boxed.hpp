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

namespace detail {

/// A unique_ptr whose copy copies the pointee: the storage both boxes share.
template <class T> class deep_ptr {
public:
  deep_ptr() = default;
  deep_ptr(const deep_ptr& other)
    : p_(other.p_ ? std::make_unique<T>(*other.p_) : nullptr) {
  }
  deep_ptr(deep_ptr&&) noexcept = default;
  deep_ptr& operator=(const deep_ptr& other) {
    if (this != &other)
      p_ = other.p_ ? std::make_unique<T>(*other.p_) : nullptr;
    return *this;
  }
  deep_ptr& operator=(deep_ptr&&) noexcept = default;
  ~deep_ptr() = default;

  T* get() const noexcept {
    return p_.get();
  }
  template <class... Args> T& make(Args&&... args) {
    p_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *p_;
  }
  void reset() noexcept {
    p_.reset();
  }

private:
  std::unique_ptr<T> p_;
};

} // namespace detail

template <class T> class boxed {
public:
  boxed() = default;
  boxed(T value) {
    value_.make(std::move(value));
  }

  const T& operator*() const noexcept {
    return value_.get() ? *value_.get() : empty();
  }
  const T* operator->() const noexcept {
    return &**this;
  }
  /// The box's own T, made (default) on first use.
  T& edit() {
    return value_.get() ? *value_.get() : value_.make();
  }

  friend bool operator==(const boxed& a, const boxed& b) {
    return *a == *b;
  }

private:
  static const T& empty() noexcept {
    static const T value{};
    return value;
  }

  detail::deep_ptr<T> value_;
};

template <class T> class optional_box {
public:
  optional_box() = default;
  optional_box(std::nullopt_t) noexcept {
  }
  optional_box(T value) {
    value_.make(std::move(value));
  }
  optional_box& operator=(std::nullopt_t) noexcept {
    value_.reset();
    return *this;
  }
  optional_box& operator=(T value) {
    value_.make(std::move(value));
    return *this;
  }

  bool has_value() const noexcept {
    return value_.get() != nullptr;
  }
  explicit operator bool() const noexcept {
    return has_value();
  }
  const T& operator*() const noexcept {
    return *value_.get();
  }
  T& operator*() noexcept {
    return *value_.get();
  }
  const T* operator->() const noexcept {
    return value_.get();
  }
  T* operator->() noexcept {
    return value_.get();
  }
  template <class... Args> T& emplace(Args&&... args) {
    return value_.make(std::forward<Args>(args)...);
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
  detail::deep_ptr<T> value_;
};

} // namespace tessera::model
