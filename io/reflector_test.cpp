// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The reflector against the embedded API server over HTTP: pagination,
// live events, disconnections and 410s, checked by a consumer that fails on
// any lost or duplicated event.
#include "io/apiserver/resources.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "io/reflector.hpp"
#include "test/support/api_client.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>

namespace tessera::io {
namespace {

using namespace std::chrono_literals;

const apiserver::resource_info& pods_resource() {
  return *apiserver::find_resource("", "v1", "pods");
}

std::string pod_json(const std::string& name, const std::string& label = "a") {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name
         + R"(","labels":{"v":")" + label
         + R"("}},"spec":{"containers":[{"name":"c","image":"busybox"}]}})";
}

/// Applies delivered events to a map and records every violation of the
/// reflector's contract: ADDED only for an absent key, MODIFIED and DELETED
/// only for a present one, and never the same resourceVersion twice.
class mirror {
public:
  void apply(std::vector<reflected_event> events) {
    std::lock_guard guard{mutex_};
    ++batches_;
    for (auto& e : events) {
      std::string key = object_key(e.obj);
      std::string rv = object_resource_version(e.obj);
      auto it = objects_.find(key);
      switch (e.type) {
      case reflected_event::kind::added:
        if (it != objects_.end())
          violations_.push_back("ADDED twice: " + key);
        objects_[key] = rv;
        ++added_;
        break;
      case reflected_event::kind::modified:
        if (it == objects_.end())
          violations_.push_back("MODIFIED unknown: " + key);
        else if (it->second == rv)
          violations_.push_back("MODIFIED without change: " + key);
        objects_[key] = rv;
        ++modified_;
        break;
      case reflected_event::kind::deleted:
        if (it == objects_.end())
          violations_.push_back("DELETED unknown: " + key);
        else
          objects_.erase(it);
        ++deleted_;
        break;
      }
    }
    cv_.notify_all();
  }
  void synced() {
    std::lock_guard guard{mutex_};
    synced_ = true;
    ++syncs_;
    synced_size_ = objects_.size();
    cv_.notify_all();
  }
  /// Waits until the mirror equals `want` (key -> resourceVersion).
  bool wait_equal(const std::map<std::string, std::string>& want,
                  std::chrono::milliseconds timeout) {
    std::unique_lock lock{mutex_};
    return cv_.wait_for(lock, timeout, [&] { return objects_ == want; });
  }
  bool wait_synced(std::chrono::milliseconds timeout) {
    std::unique_lock lock{mutex_};
    return cv_.wait_for(lock, timeout, [&] { return synced_; });
  }
  /// A copy of `field`, read under the lock.
  template <class T> T locked(const T& field) const {
    std::lock_guard guard{mutex_};
    return field;
  }
  std::map<std::string, std::string> objects() const {
    return locked(objects_);
  }
  std::vector<std::string> violations() const {
    return locked(violations_);
  }
  /// `synced` calls: the first list and every relist.
  std::size_t syncs() const {
    return locked(syncs_);
  }
  std::size_t synced_size() const {
    return locked(synced_size_);
  }
  std::size_t added() const {
    return locked(added_);
  }
  std::size_t deleted() const {
    return locked(deleted_);
  }
  std::size_t modified() const {
    return locked(modified_);
  }

private:
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::map<std::string, std::string> objects_;
  std::vector<std::string> violations_;
  bool synced_ = false;
  std::size_t syncs_ = 0;
  std::size_t synced_size_ = 0;
  std::size_t batches_ = 0;
  std::size_t added_ = 0;
  std::size_t modified_ = 0;
  std::size_t deleted_ = 0;
};

class ReflectorTest : public ::testing::Test {
protected:
  void start_server(std::chrono::milliseconds latency = 0ms,
                    std::chrono::milliseconds drop_watches_every = 0ms) {
    apiserver::store_config sc;
    sc.seed = 11;
    store_ = std::make_unique<apiserver::store>(sc);
    apiserver::server_config cfg;
    cfg.fault_latency = latency;
    cfg.fault_drop_watches_every = drop_watches_every;
    server_ = test::start_test_server(*store_, cfg);
    client_
      = std::make_unique<rest_client>(test::client_config_for(server_->url()));
  }
  /// Stops the server and starts another on the same port over `st`
  /// (the same store: a server restart; a new one: a new cluster).
  void restart_server(std::unique_ptr<apiserver::store> st = nullptr) {
    stop_server();
    if (st)
      store_ = std::move(st);
    apiserver::server_config cfg;
    cfg.port = port_;
    auto s = apiserver::api_server::start(*store_, cfg);
    ASSERT_TRUE(s) << s.err().message;
    server_ = std::move(*s);
  }
  /// Stops the server (if running) and closes its connections.
  void stop_server() {
    if (!server_)
      return;
    port_ = server_->port();
    server_->stop();
    server_.reset();
  }
  void TearDown() override {
    if (reflector_)
      reflector_->stop();
    if (server_)
      server_->stop();
  }
  /// A reflector of pods backing off from `initial` up to `max`.
  static reflector_config pods_config(std::chrono::milliseconds initial,
                                      std::chrono::milliseconds max) {
    reflector_config cfg;
    cfg.name = "pods";
    cfg.path = "/api/v1/pods";
    cfg.kind = model::object_kind::pod;
    cfg.backoff_initial = initial;
    cfg.backoff_max = max;
    return cfg;
  }
  /// Starts a reflector of pods that feeds the mirror.
  void start_reflector(std::int64_t page_size = 500) {
    auto cfg = pods_config(50ms, 200ms);
    cfg.page_size = page_size;
    start_reflector_with(cfg);
  }
  /// Starts a reflector with `cfg` that feeds the mirror.
  void start_reflector_with(const reflector_config& cfg) {
    reflector::handler h;
    h.deliver
      = [this](std::vector<reflected_event> e) { mirror_.apply(std::move(e)); };
    h.synced = [this] { mirror_.synced(); };
    h.lost_sync = [this] { lost_syncs_.fetch_add(1); };
    reflector_ = std::make_unique<reflector>(*client_, cfg, std::move(h));
    watchers_before_ = store_->stats().watchers_open;
    reflector_->start();
  }
  void create(const std::string& name) {
    auto r = store_->create(pods_resource(), "default", pod_json(name));
    ASSERT_TRUE(r) << name;
  }
  void relabel(const std::string& name, const std::string& value) {
    auto r = store_->patch(pods_resource(), "default", name,
                           apiserver::patch_type::merge,
                           R"({"metadata":{"labels":{"v":")" + value + "\"}}}",
                           apiserver::subresource::main);
    ASSERT_TRUE(r) << name;
  }
  void remove(const std::string& name) {
    auto r = store_->remove(pods_resource(), "default", name);
    ASSERT_TRUE(r) << name;
  }
  /// key -> resourceVersion of every pod in the store.
  std::map<std::string, std::string> server_state() {
    std::map<std::string, std::string> out;
    auto l = store_->list(pods_resource(), "");
    EXPECT_TRUE(l);
    for (const auto& o : l->items) {
      auto m = o->to_model();
      if (m)
        out[object_key(*m)] = object_resource_version(*m);
    }
    return out;
  }
  /// Waits until `done()` holds, at most `timeout`; whether it holds.
  template <class Pred>
  static bool wait_for(Pred done, std::chrono::milliseconds timeout = 10s) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(5ms);
    return done();
  }
  /// Waits until the reflector's watch number `n` is open on the server
  /// (the server runs watches of its own: the reflector's count says whose
  /// it is).
  bool wait_watch_open(std::uint64_t n) {
    return wait_for([&] {
      return reflector_->stats().watches.load() >= n
             && store_->stats().watchers_open > watchers_before_;
    });
  }
  /// Waits until the server has a watch open.
  bool wait_watching() {
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (store_->stats().watchers_open == 0
           && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(5ms);
    return store_->stats().watchers_open > 0;
  }
  void expect_in_step() {
    auto want = server_state();
    EXPECT_TRUE(mirror_.wait_equal(want, 10s))
      << "mirror has " << mirror_.objects().size() << " objects, server "
      << want.size();
    for (const auto& v : mirror_.violations())
      ADD_FAILURE() << v;
  }

  std::unique_ptr<apiserver::store> store_;
  std::unique_ptr<apiserver::api_server> server_;
  std::uint16_t port_ = 0;
  std::unique_ptr<rest_client> client_;
  std::atomic<int> lost_syncs_{0};
  /// Watches the server had open before the reflector started.
  std::uint64_t watchers_before_ = 0;
  std::unique_ptr<reflector> reflector_;
  mirror mirror_;
};

TEST_F(ReflectorTest, PagedListThenLiveEvents) {
  start_server();
  for (int i = 0; i < 7; ++i)
    create("p" + std::to_string(i));
  // Paging happens only for lists that are not served "from the cache":
  // the first list (RV 0) may come in one page, later lists page.
  start_reflector(3);
  ASSERT_TRUE(mirror_.wait_synced(10s));
  EXPECT_EQ(mirror_.synced_size(), 7u);
  create("p7");
  relabel("p1", "b");
  remove("p2");
  expect_in_step();
  EXPECT_EQ(mirror_.added(), 8u);
  EXPECT_EQ(mirror_.modified(), 1u);
  EXPECT_EQ(mirror_.deleted(), 1u);
  EXPECT_GE(reflector_->stats().watches.load(), 1u);
}

// A quiet watch (nothing to report for seconds) whose connection is cut
// is watched again at once, as client-go does: backing off longer at each
// cut would leave the informer blind for longer and longer.
TEST_F(ReflectorTest, CutQuietWatchesAreWatchedAgainAtOnce) {
  start_server(0ms, 1500ms);
  start_reflector_with(pods_config(3s, 30s));
  ASSERT_TRUE(mirror_.wait_synced(10s));
  // Past the first cut, which may end a watch younger than a second (a
  // relist after 3-6 s).
  std::this_thread::sleep_for(7s);
  auto before = reflector_->stats().watches.load();
  auto lists = reflector_->stats().lists.load();
  std::this_thread::sleep_for(6s);
  // A cut every 1.5 s: four in 6 s; backing off (3 s, then 6 s) allows
  // two watches at most.
  EXPECT_GE(reflector_->stats().watches.load() - before, 3u);
  EXPECT_EQ(reflector_->stats().lists.load(), lists);
  create("seen");
  expect_in_step();
}

// A watch the server ends within a second, with nothing received, is what
// a server that died (or was replaced) right after accepting it looks
// like: the consumer hears `lost_sync` at once, not after the backoff, and
// the reflector lists again, so it never keeps serving the state of a
// server that is gone.
TEST_F(ReflectorTest, WatchCutShortLosesSyncAtOnceAndRelists) {
  start_server();
  create("old-a");
  create("old-b");
  start_reflector_with(pods_config(2s, 10s));
  ASSERT_TRUE(mirror_.wait_synced(10s));
  ASSERT_TRUE(wait_watch_open(1));
  // Closed until the stream ends (a close can race the server's start of
  // the stream); then the reflector backs off for 2-4 s.
  auto deadline = std::chrono::steady_clock::now() + 1500ms;
  while (lost_syncs_.load() == 0 && reflector_->stats().watches.load() == 1
         && std::chrono::steady_clock::now() < deadline) {
    store_->close_watchers();
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(lost_syncs_.load(), 1)
    << "a watch cut short must report lost sync before the backoff";
  EXPECT_EQ(mirror_.syncs(), 1u);
  // A new cluster answers on the same port: other objects, other UIDs, and
  // resourceVersions the old watch never saw.
  apiserver::store_config sc;
  sc.seed = 12;
  restart_server(std::make_unique<apiserver::store>(sc));
  create("new-a");
  create("old-b");
  expect_in_step();
  EXPECT_TRUE(wait_for([&] { return mirror_.syncs() == 2; }))
    << "listed again after the cut";
  EXPECT_EQ(reflector_->stats().lists.load(), 2u);
}

// A watch that stayed open a second shows a healthy server: the next
// failure backs off from the initial wait again, not from where the
// failures of an earlier outage left it.
TEST_F(ReflectorTest, AWatchThatLastedResetsTheBackoff) {
  start_server();
  start_reflector_with(pods_config(100ms, 20s));
  ASSERT_TRUE(mirror_.wait_synced(10s));
  ASSERT_TRUE(wait_watch_open(1));
  // An outage long enough for the waits to grow: 0.1, 0.2, 0.4, 0.8, 1.6 s
  // (each up to twice that with jitter).
  stop_server();
  ASSERT_TRUE(
    wait_for([&] { return reflector_->stats().errors.load() >= 5; }, 20s));
  auto lists = reflector_->stats().lists.load();
  restart_server();
  // Listed again, then a quiet watch (nothing to receive) that lasts past
  // a second.
  ASSERT_TRUE(wait_for(
    [&] { return mirror_.syncs() == 2 && reflector_->stats().lists > lists; },
    20s));
  ASSERT_TRUE(wait_watch_open(reflector_->stats().watches.load()));
  std::this_thread::sleep_for(1500ms);
  // A short outage: the re-watch fails once, and the reflector waits.
  auto errors = reflector_->stats().errors.load();
  auto watches = reflector_->stats().watches.load();
  stop_server();
  ASSERT_TRUE(
    wait_for([&] { return reflector_->stats().errors.load() > errors; }));
  restart_server();
  auto t0 = std::chrono::steady_clock::now();
  wait_for([&] { return reflector_->stats().watches.load() > watches + 1; });
  // Kept, the backoff would be 3.2 s or more; reset, it is 0.1-0.2 s (one
  // failed list more at most while the server restarts: 0.4 s).
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1500ms);
  create("seen");
  expect_in_step();
}

TEST_F(ReflectorTest, DisconnectionsLoseNothing) {
  start_server();
  start_reflector();
  ASSERT_TRUE(mirror_.wait_synced(10s));
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 20; ++i)
      create("r" + std::to_string(round) + "-" + std::to_string(i));
    // Close a watch that is open (not one still being opened), until the
    // reflector has watched again: a close can race the server's start of
    // the stream and end nothing. The watch has brought the new pods: one
    // cut short, with nothing received, would be listed again. Each close
    // waits long for the re-watch (which follows a backoff of up to 0.2 s),
    // so that a second close cannot hit the new watch as it opens.
    ASSERT_TRUE(mirror_.wait_equal(server_state(), 10s));
    ASSERT_TRUE(wait_watching());
    auto watches = reflector_->stats().watches.load();
    auto rewatched
      = [&] { return reflector_->stats().watches.load() > watches; };
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!rewatched() && std::chrono::steady_clock::now() < deadline) {
      store_->close_watchers();
      auto patience = std::chrono::steady_clock::now() + 1s;
      while (!rewatched() && std::chrono::steady_clock::now() < patience)
        std::this_thread::sleep_for(1ms);
    }
    ASSERT_GT(reflector_->stats().watches.load(), watches)
      << "the reflector did not watch again after its watch was closed";
    relabel("r" + std::to_string(round) + "-0", "x");
    remove("r" + std::to_string(round) + "-1");
  }
  expect_in_step();
  EXPECT_GE(reflector_->stats().watches.load(), 5u) << "a watch per round";
  // A clean close re-watches without listing again: one relist per round
  // would make six lists. One relist is tolerated: on a loaded host a new
  // watch can end before its first event, and a watch cut short like that
  // lists again (as client-go's "very short watch" does).
  EXPECT_LE(reflector_->stats().lists.load(), 2u)
    << "watch errors " << reflector_->stats().errors.load() << ", gone "
    << reflector_->stats().gone.load() << ", watches "
    << reflector_->stats().watches.load();
}

TEST_F(ReflectorTest, GoneRelistsAndReconciles) {
  // Every request waits 300 ms before the server handles it, so changes
  // made right after closing the watches happen while the reflector is
  // disconnected; compaction then makes its re-watch answer 410.
  start_server(300ms);
  for (int i = 0; i < 6; ++i)
    create("g" + std::to_string(i));
  start_reflector(2);
  ASSERT_TRUE(mirror_.wait_synced(10s));
  auto before = server_state();
  ASSERT_TRUE(mirror_.wait_equal(before, 10s));
  // Wait for the watch to be open (its request passed the latency).
  ASSERT_TRUE(wait_watching());

  std::uint64_t gone_before = reflector_->stats().gone.load();
  store_->close_watchers();
  remove("g0");             // vanished: a synthesized DELETED
  relabel("g1", "changed"); // changed: MODIFIED
  create("g6");             // new: ADDED
  remove("g2");             // replaced under the same name:
  create("g2");             //   DELETED then ADDED (new UID)
  store_->compact();
  expect_in_step();
  EXPECT_GT(reflector_->stats().gone.load(), gone_before);
  EXPECT_GE(reflector_->stats().lists.load(), 2u);
  EXPECT_GE(reflector_->stats().synthesized_deletes.load(), 2u);
  // The first list (RV 0) may come whole; the relist (not from RV 0) of 6
  // pods came in pages of 2: at least two pages more than lists. (A list
  // answered 410 counts one list and one page.)
  EXPECT_GE(reflector_->stats().pages.load(),
            reflector_->stats().lists.load() + 2);
  // g3, g4, g5 unchanged: added once each, never touched again.
  EXPECT_EQ(mirror_.added(), 6u + 1u + 1u);
  EXPECT_EQ(mirror_.deleted(), 2u);
  EXPECT_EQ(mirror_.modified(),
            1u); // The 410 said the state was stale before the relist.
  EXPECT_GE(lost_syncs_.load(), 1);
}

TEST_F(ReflectorTest, ServerDownThenBack) {
  start_server();
  create("a");
  start_reflector();
  ASSERT_TRUE(mirror_.wait_synced(10s));
  auto port = server_->port();
  server_->stop();
  server_.reset();
  create("b"); // while the server is away (the store lives on)
  // Restart only once the reflector has failed to reconnect at least once.
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (reflector_->stats().errors.load() == 0
         && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(10ms);
  EXPECT_GE(reflector_->stats().errors.load(), 1u);
  apiserver::server_config cfg;
  cfg.port = port;
  auto s = apiserver::api_server::start(*store_, cfg);
  ASSERT_TRUE(s) << s.err().message;
  server_ = std::move(*s);
  expect_in_step();
  EXPECT_GE(lost_syncs_.load(), 1);
}

TEST_F(ReflectorTest, UnservedKindIsEmptyAndSynced) {
  start_server();
  reflector_config cfg;
  cfg.name = "widgets";
  cfg.path = "/apis/example.com/v1/widgets";
  cfg.kind = model::object_kind::pod;
  cfg.backoff_initial = 50ms;
  cfg.backoff_max = 100ms;
  start_reflector_with(cfg);
  ASSERT_TRUE(mirror_.wait_synced(10s));
  EXPECT_EQ(mirror_.synced_size(), 0u);
  EXPECT_TRUE(reflector_->has_synced());
  // It keeps trying (with backoff), and never delivers anything.
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (reflector_->stats().lists.load() < 2
         && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(10ms);
  EXPECT_GE(reflector_->stats().lists.load(), 2u);
  EXPECT_EQ(mirror_.added(), 0u);
  // Its failing watch never stops the other kinds.
  EXPECT_EQ(lost_syncs_.load(), 0);
}

TEST_F(ReflectorTest, StopIsPrompt) {
  start_server();
  start_reflector();
  ASSERT_TRUE(mirror_.wait_synced(10s));
  auto t0 = std::chrono::steady_clock::now();
  reflector_->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
}

} // namespace
} // namespace tessera::io
