// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `fake_reviews`: a `review_client` for tests — tokens it knows, users it
/// allows, a switch that makes every call fail (the API server down), an
/// optional gate every call waits at, and counters of the calls made.
#pragma once

#include "io/serving/review_client.hpp"

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace tessera::serving {

class fake_reviews final : public review_client {
public:
  /// `token` authenticates as `user` in `groups`.
  void add_token(const std::string& token, const std::string& user,
                 std::vector<std::string> groups = {}) {
    std::lock_guard guard{mutex_};
    tokens_[token] = user_info{user, "", std::move(groups), {}};
  }
  /// `token` is refused with `error` in the status.
  void refuse_with_error(const std::string& token, const std::string& error) {
    std::lock_guard guard{mutex_};
    errors_[token] = error;
  }
  /// `user` may do anything.
  void allow(const std::string& user) {
    std::lock_guard guard{mutex_};
    allowed_.insert(user);
  }
  /// Every call fails (as with an unreachable API server).
  std::atomic<bool> down{false};
  /// While closed, calls wait (see open_gate).
  void close_gate() {
    std::lock_guard guard{mutex_};
    gate_open_ = false;
  }
  void open_gate() {
    {
      std::lock_guard guard{mutex_};
      gate_open_ = true;
    }
    cv_.notify_all();
  }

  std::atomic<int> token_calls{0};
  std::atomic<int> access_calls{0};
  /// The users whose access was reviewed, in order.
  std::vector<user_info> reviewed() {
    std::lock_guard guard{mutex_};
    return reviewed_;
  }

  expected<token_review_result>
  review_token(const std::string& token) override {
    ++token_calls;
    wait_gate();
    if (down.load())
      return make_error(ec::unavailable, "connection refused");
    std::lock_guard guard{mutex_};
    token_review_result r;
    if (auto e = errors_.find(token); e != errors_.end())
      r.error = e->second;
    auto it = tokens_.find(token);
    if (it != tokens_.end()) {
      r.authenticated = true;
      r.user = it->second;
    }
    return r;
  }

  expected<access_review_result> review_access(const user_info& user,
                                               std::string_view,
                                               std::string_view) override {
    ++access_calls;
    wait_gate();
    if (down.load())
      return make_error(ec::unavailable, "connection refused");
    std::lock_guard guard{mutex_};
    reviewed_.push_back(user);
    access_review_result r;
    r.allowed = allowed_.count(user.name) > 0;
    if (!r.allowed)
      r.reason = "no RBAC policy matched";
    return r;
  }

  void shutdown() override {
    down = true;
    open_gate();
  }

private:
  void wait_gate() {
    std::unique_lock lock{mutex_};
    cv_.wait(lock, [this] { return gate_open_; });
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  bool gate_open_ = true;
  std::map<std::string, user_info> tokens_;
  std::map<std::string, std::string> errors_;
  std::set<std::string> allowed_;
  std::vector<user_info> reviewed_;
};

} // namespace tessera::serving
