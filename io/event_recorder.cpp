// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/event_recorder.hpp"

#include "io/rest_client.hpp"
#include "support/log.hpp"
#include "support/thread_body.hpp"
#include "support/thread_name.hpp"

#include <algorithm>
#include <cstdio>
#include <random>

namespace tessera::io {

namespace {

void add_ref(std::string& key, const object_ref& r) {
  key += r.kind;
  key += '\x1f';
  key += r.ns;
  key += '\x1f';
  key += r.name;
  key += '\x1f';
  key += r.uid;
  key += '\x1e';
}

std::string key_of(const event_record& e) {
  std::string key;
  for (const std::string* part :
       {&e.type, &e.action, &e.reason, &e.reporting_controller,
        &e.reporting_instance}) {
    key += *part;
    key += '\x1e';
  }
  add_ref(key, e.regarding);
  if (e.related)
    add_ref(key, *e.related);
  return key;
}

std::string event_name(const std::string& object, wall_time t) {
  auto nanos
    = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch())
        .count();
  char hex[32];
  std::snprintf(hex, sizeof hex, "%llx",
                static_cast<unsigned long long>(nanos));
  return object + "." + hex;
}

} // namespace

event_recorder::event_recorder(rest_client& client,
                               event_recorder_config config)
  : client_(client), config_(config),
    clock_(config.time ? *config.time : system_clock::instance()) {
  next_refresh_ = clock_.now() + config_.refresh_every;
  next_finish_ = clock_.now() + config_.finish_after;
}

event_recorder::~event_recorder() {
  stop();
}

void event_recorder::start() {
  std::lock_guard guard{mutex_};
  if (!writers_.empty())
    return;
  stopping_ = false;
  for (std::size_t i = 0; i < std::max<std::size_t>(config_.writers, 1); ++i)
    writers_.emplace_back([this] {
      set_thread_name("events");
      // writer_loop() catches around each write and each housekeeping pass;
      // what still escapes ends this writer, logged, and the others serve.
      (void)run_thread_body("events", [this] { writer_loop(); });
    });
}

void event_recorder::stop(std::chrono::milliseconds drain) {
  std::vector<std::thread> threads;
  {
    std::unique_lock lock{mutex_};
    if (drain.count() > 0)
      idle_.wait_for(lock, drain,
                     [this] { return queue_.empty() && busy_ == 0; });
    stopping_ = true;
    threads.swap(writers_);
  }
  wake_.notify_all();
  for (auto& t : threads)
    t.join();
}

std::size_t event_recorder::queued() const {
  std::lock_guard guard{mutex_};
  return queue_.size() + busy_;
}

void event_recorder::enqueue(write w) {
  // Called with mutex_ held. A newer series PATCH supersedes a queued one.
  if (!w.create)
    for (auto& q : queue_)
      if (!q.create && q.key == w.key) {
        q.event = std::move(w.event);
        return;
      }
  if (queue_.size() >= config_.max_queued) {
    stats_.dropped.fetch_add(1, std::memory_order_relaxed);
    TLOG_V(2, "event queue full; dropping an event", "reason", w.event.reason,
           "object", w.event.regarding.name);
    return;
  }
  queue_.push_back(std::move(w));
  wake_.notify_one();
}

void event_recorder::record(event_record e) {
  stats_.recorded.fetch_add(1, std::memory_order_relaxed);
  time_point now = clock_.now();
  wall_time wall = std::chrono::time_point_cast<std::chrono::microseconds>(
    clock_.wall_now());
  std::string key = key_of(e);
  std::lock_guard guard{mutex_};
  auto it = cache_.find(key);
  if (it == cache_.end()) {
    e.event_time = wall;
    e.last_observed = wall;
    e.series_count = 0;
    e.name = event_name(e.regarding.name, wall);
    cache_.emplace(key, cached{e, now, now});
    enqueue({true, std::move(e), std::move(key), 0});
    return;
  }
  cached& c = it->second;
  c.last = now;
  c.event.last_observed = wall;
  if (c.event.series_count == 0) {
    c.event.series_count = 2;
    enqueue({false, c.event, key, 0});
    return;
  }
  ++c.event.series_count;
  stats_.deduplicated.fetch_add(1, std::memory_order_relaxed);
}

void event_recorder::housekeeping() {
  time_point now = clock_.now();
  std::lock_guard guard{mutex_};
  if (now >= next_finish_) {
    next_finish_ = now + config_.finish_after;
    for (auto it = cache_.begin(); it != cache_.end();) {
      cached& c = it->second;
      if (now - c.last < config_.finish_after) {
        ++it;
        continue;
      }
      if (c.event.series_count > 0)
        enqueue({false, c.event, it->first, 0});
      it = cache_.erase(it);
    }
  }
  if (now >= next_refresh_) {
    next_refresh_ = now + config_.refresh_every;
    for (auto& [key, c] : cache_)
      if (c.event.series_count > 0)
        enqueue({false, c.event, key, 0});
  }
}

std::deque<event_recorder::write>::iterator event_recorder::next_ready() {
  return std::find_if(queue_.begin(), queue_.end(), [this](const write& w) {
    return running_.count(w.key) == 0;
  });
}

void event_recorder::writer_loop() {
  for (;;) {
    write w;
    {
      std::unique_lock lock{mutex_};
      // Periodic work is checked at least every 30 s (real time).
      wake_.wait_for(lock, std::chrono::seconds(30), [this] {
        return stopping_ || next_ready() != queue_.end();
      });
      if (stopping_)
        return;
      if (clock_.now() >= std::min(next_finish_, next_refresh_)) {
        lock.unlock();
        // housekeeping() moves its deadlines before the work that may
        // throw, so a failed pass is logged and tried again only when due.
        try {
          housekeeping();
        } catch (...) {
          TLOG_ERROR("event housekeeping failed", "error",
                     exception_text(std::current_exception()));
        }
        continue;
      }
      auto it = next_ready();
      if (it == queue_.end())
        continue;
      w = std::move(*it);
      queue_.erase(it);
      running_.insert(w.key);
      ++busy_;
    }
    std::string key = w.key;
    // An exception must not end the process from this thread: the event
    // is lost, as one the API server refused would be.
    try {
      perform(std::move(w));
    } catch (...) {
      TLOG_ERROR("cannot write an event", "key", key, "error",
                 exception_text(std::current_exception()));
    }
    {
      std::lock_guard guard{mutex_};
      --busy_;
      running_.erase(key);
      if (queue_.empty() && busy_ == 0)
        idle_.notify_all();
    }
    // A write of this key may have been waiting for this one.
    wake_.notify_all();
  }
}

bool event_recorder::gate_refuses(const write& w) {
  if (!config_.write_gate)
    return false;
  error e = config_.write_gate();
  if (!e)
    return false;
  stats_.gated.fetch_add(1, std::memory_order_relaxed);
  TLOG_V(2, "event not written: the write gate refused it", "reason",
         w.event.reason, "object",
         w.event.regarding.ns + "/" + w.event.regarding.name, "err", e.message);
  return true;
}

void event_recorder::perform(write w) {
  for (;;) {
    if (gate_refuses(w))
      return;
    error e;
    bool created = w.create;
    if (w.create) {
      e = client_.create_event(w.event, config_.use_events_v1);
    } else {
      e = client_.patch_event(w.event, config_.use_events_v1);
      if (e.code == ec::not_found) {
        // The Event expired on the server: write it again whole.
        created = true;
        if (gate_refuses(w))
          return;
        e = client_.create_event(w.event, config_.use_events_v1);
      }
    }
    if (!e) {
      (created ? stats_.created : stats_.patched)
        .fetch_add(1, std::memory_order_relaxed);
      return;
    }
    bool transport = e.code == ec::unavailable || e.code == ec::timeout;
    if (!transport || ++w.tries >= config_.max_tries
        || client_.is_shut_down()) {
      stats_.failed.fetch_add(1, std::memory_order_relaxed);
      TLOG_V(2, "cannot write event", "reason", w.event.reason, "object",
             w.event.regarding.ns + "/" + w.event.regarding.name, "err",
             e.message);
      return;
    }
    TLOG_V(2, "cannot write event; retrying", "err", e.message);
    std::unique_lock lock{mutex_};
    thread_local std::mt19937_64 gen{std::random_device{}()};
    std::uniform_real_distribution<double> jitter{1.0, 1.25};
    auto wait = std::chrono::milliseconds(static_cast<std::int64_t>(
      static_cast<double>(config_.retry_sleep.count()) * jitter(gen)));
    if (wake_.wait_for(lock, wait, [this] { return stopping_; }))
      return;
  }
}

} // namespace tessera::io
