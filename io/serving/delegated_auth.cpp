// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/serving/delegated_auth.hpp"

#include "support/log.hpp"
#include "support/text.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <cctype>

namespace tessera::serving {

namespace {

constexpr std::string_view anonymous_user = "system:anonymous";
constexpr std::string_view unauthenticated_group = "system:unauthenticated";
constexpr std::string_view authenticated_group = "system:authenticated";

std::string lower(std::string_view s) {
  std::string out{s};
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return out;
}

/// The token of `Authorization: Bearer <token>`, or "" when the header is
/// absent or of another scheme (then the request is not a token request).
std::string bearer_token(std::string_view header) {
  auto blank
    = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < header.size()) {
    while (i < header.size() && blank(header[i]))
      ++i;
    std::size_t start = i;
    while (i < header.size() && !blank(header[i]))
      ++i;
    if (i > start)
      fields.push_back(header.substr(start, i - start));
  }
  if (fields.size() < 2 || lower(fields[0]) != "bearer")
    return {};
  return std::string{fields[1]};
}

void add_authenticated_group(user_info& u) {
  if (u.name == anonymous_user)
    return;
  for (const auto& g : u.groups)
    if (g == authenticated_group || g == unauthenticated_group)
      return;
  u.groups.emplace_back(authenticated_group);
}

/// The token cache's key: a digest, so that the cache holds no token.
std::string token_key(const std::string& token) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(),
         digest);
  return std::string(reinterpret_cast<const char*>(digest), sizeof digest);
}

/// Every attribute of a SubjectAccessReview, as one cache key.
std::string access_key(const user_info& u, std::string_view path,
                       std::string_view verb) {
  std::string k;
  auto put = [&k](std::string_view s) {
    k += std::to_string(s.size());
    k += ':';
    k += s;
  };
  put(u.name);
  put(u.uid);
  k += std::to_string(u.groups.size());
  for (const auto& g : u.groups)
    put(g);
  k += std::to_string(u.extra.size());
  for (const auto& [key, values] : u.extra) {
    put(key);
    k += std::to_string(values.size());
    for (const auto& v : values)
      put(v);
  }
  put(path);
  put(verb);
  return k;
}

auth_decision internal_error(std::string_view path, std::string_view why) {
  auth_decision d;
  d.status = 500;
  d.content_type = "text/plain; charset=utf-8";
  d.body = "Internal Server Error: " + go_quote(path) + ": " + std::string{why}
           + "\n";
  return d;
}

} // namespace

template <class V>
std::optional<V> delegated_auth::cache<V>::get(const std::string& key,
                                               time_point now) {
  auto it = entries.find(key);
  if (it == entries.end())
    return std::nullopt;
  if (it->second.expires <= now) {
    entries.erase(it);
    return std::nullopt;
  }
  return it->second.value;
}

template <class V>
void delegated_auth::cache<V>::put(const std::string& key, V value,
                                   time_point expires, time_point now,
                                   std::size_t limit) {
  if (entries.size() >= limit) {
    std::erase_if(entries,
                  [now](const auto& kv) { return kv.second.expires <= now; });
    if (entries.size() >= limit)
      entries.clear();
  }
  entries[key] = {std::move(value), expires};
}

template <class V, class Review, class Ttl>
std::optional<expected<V>>
delegated_auth::reviewed(cache<V>& c, const std::string& key, bool may_review,
                         std::uint64_t delegated_auth_stats::*counter,
                         Review review, Ttl ttl) {
  std::unique_lock lock{mutex_};
  if (auto hit = c.get(key, config_.time->now())) {
    ++stats_.cache_hits;
    return expected<V>{std::move(*hit)};
  }
  if (!may_review)
    return std::nullopt;
  if (auto it = c.asking.find(key); it != c.asking.end()) {
    auto joined = it->second;
    landed_.wait(lock, [&joined] { return joined->done; });
    return *joined->answer;
  }
  auto mine = std::make_shared<typename cache<V>::flight>();
  c.asking[key] = mine;
  lock.unlock();
  expected<V> answer = review();
  lock.lock();
  ++(stats_.*counter);
  if (answer && ttl(*answer).count() > 0) {
    auto now = config_.time->now();
    c.put(key, *answer, now + ttl(*answer), now, config_.cache_size);
  }
  mine->answer = answer;
  mine->done = true;
  c.asking.erase(key);
  lock.unlock();
  landed_.notify_all();
  return answer;
}

auth_decision unauthorized_reply() {
  auth_decision d;
  d.status = 401;
  d.content_type = "application/json";
  d.body = R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
           R"("status":"Failure","message":"Unauthorized",)"
           R"("reason":"Unauthorized","code":401})";
  return d;
}

auth_decision forbidden_reply(std::string_view user, std::string_view verb,
                              std::string_view path, std::string_view reason) {
  std::string message = "forbidden: User " + go_quote(user) + " cannot "
                        + std::string{verb} + " path " + go_quote(path);
  if (!reason.empty())
    message += ": " + std::string{reason};
  auth_decision d;
  d.status = 403;
  d.content_type = "application/json";
  d.body = R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
           R"("status":"Failure","message":)"
           + json_quoted(message)
           + R"(,"reason":"Forbidden","details":{},"code":403})";
  d.user = std::string{user};
  return d;
}

expected<std::unique_ptr<delegated_auth>>
delegated_auth::make(delegated_auth_config config) {
  auto d = std::unique_ptr<delegated_auth>(new delegated_auth(config));
  for (const auto& raw : config.always_allow_paths) {
    std::string p = raw;
    if (!p.empty() && p.front() == '/')
      p.erase(0, 1);
    if (p.empty()) {
      d->exact_paths_.push_back(p);
      continue;
    }
    if (p.substr(0, p.size() - 1).find('*') != std::string::npos)
      return make_error(ec::invalid_input,
                        "--authorization-always-allow-paths: only a trailing "
                        "* is allowed in "
                          + go_quote(raw));
    if (p.back() == '*')
      d->prefix_paths_.push_back(p.substr(0, p.size() - 1));
    else
      d->exact_paths_.push_back(p);
  }
  for (auto [flag, ttl] :
       {std::pair{"--authentication-token-webhook-cache-ttl", config.token_ttl},
        std::pair{"--authorization-webhook-cache-authorized-ttl",
                  config.authorized_ttl},
        std::pair{"--authorization-webhook-cache-unauthorized-ttl",
                  config.unauthorized_ttl}})
    if (ttl.count() < 0)
      return make_error(ec::invalid_input,
                        std::string{flag} + ": must not be negative");
  return d;
}

delegated_auth::delegated_auth(delegated_auth_config config)
  : config_(std::move(config)) {
  if (config_.time == nullptr)
    config_.time = &system_clock::instance();
}

delegated_auth_stats delegated_auth::stats() const {
  std::lock_guard guard{mutex_};
  return stats_;
}

void delegated_auth::shutdown() {
  if (config_.tokens != nullptr)
    config_.tokens->shutdown();
  if (config_.access != nullptr && config_.access != config_.tokens)
    config_.access->shutdown();
}

auth_decision delegated_auth::check(const auth_request& r) {
  bool needs = false;
  return decide(r, true, needs);
}

std::optional<auth_decision> delegated_auth::try_check(const auth_request& r) {
  bool needs = false;
  auto d = decide(r, false, needs);
  if (needs)
    return std::nullopt;
  return d;
}

auth_decision delegated_auth::decide(const auth_request& r, bool may_review,
                                     bool& needs) {
  // Authentication: certificate, then token, then anonymous.
  std::optional<user_info> user;
  if (r.peer.presented) {
    if (!r.peer.verified) {
      TLOG_V(2, "unable to authenticate the request", "path", r.path, "error",
             "client certificate: " + r.peer.problem);
      return unauthorized_reply();
    }
    if (!r.peer.common_name.empty())
      user = user_info{r.peer.common_name, {}, r.peer.organizations, {}};
  }
  std::string token;
  if (!user && config_.tokens != nullptr)
    token = bearer_token(r.authorization);
  if (!token.empty()) {
    auto review = reviewed(
      tokens_, token_key(token), may_review,
      &delegated_auth_stats::token_reviews,
      [&] { return config_.tokens->review_token(token); },
      // A refusal that carries an error is a failure, not an answer:
      // asked again next time, as upstream.
      [this](const token_review_result& t) {
        return !t.authenticated && !t.error.empty()
                 ? std::chrono::milliseconds{0}
                 : config_.token_ttl;
      });
    if (!review) {
      needs = true;
      return {};
    }
    if (!*review) {
      TLOG_WARN("unable to authenticate the request", "path", r.path, "error",
                "token review: " + review->err().message);
      return unauthorized_reply();
    }
    if (!(*review)->authenticated) {
      TLOG_V(2, "unable to authenticate the request", "path", r.path, "error",
             (*review)->error.empty() ? std::string{"invalid bearer token"}
                                      : (*review)->error);
      return unauthorized_reply();
    }
    user = (*review)->user;
  }
  if (user) {
    add_authenticated_group(*user);
  } else {
    if (!config_.anonymous)
      return unauthorized_reply();
    user = user_info{std::string{anonymous_user},
                     {},
                     {std::string{unauthenticated_group}},
                     {}};
  }

  // Authorization: privileged groups, always-allowed paths, then a review.
  auth_decision allow;
  allow.allowed = true;
  allow.user = user->name;
  for (const auto& g : user->groups)
    if (std::find(config_.always_allow_groups.begin(),
                  config_.always_allow_groups.end(), g)
        != config_.always_allow_groups.end())
      return allow;
  std::string_view bare = r.path;
  if (!bare.empty() && bare.front() == '/')
    bare.remove_prefix(1);
  for (const auto& p : exact_paths_)
    if (bare == p)
      return allow;
  for (const auto& p : prefix_paths_)
    if (bare.starts_with(p))
      return allow;
  std::string verb = lower(r.method);
  if (config_.access == nullptr)
    return forbidden_reply(user->name, verb, r.path, "");
  std::string key = access_key(*user, r.path, verb);
  auto review = reviewed(
    access_, key, may_review, &delegated_auth_stats::access_reviews,
    [&] { return config_.access->review_access(*user, r.path, verb); },
    [this](const access_review_result& a) {
      return a.allowed ? config_.authorized_ttl : config_.unauthorized_ttl;
    });
  if (!review) {
    needs = true;
    return {};
  }
  if (!*review) {
    TLOG_WARN("unable to authorize the request", "path", r.path, "user",
              user->name, "error", review->err().message);
    return internal_error(r.path, review->err().message);
  }
  if ((*review)->allowed)
    return allow;
  TLOG_V(4, "forbidden", "path", r.path, "user", user->name, "reason",
         (*review)->reason);
  return forbidden_reply(user->name, verb, r.path, (*review)->reason);
}

} // namespace tessera::serving
