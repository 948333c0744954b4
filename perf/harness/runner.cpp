// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/runner.hpp"

#include "perf/harness/embedded_target.hpp"
#include "perf/harness/observed_sink.hpp"
#include "perf/harness/pod_tracker.hpp"
#include "perf/harness/resource_usage.hpp"
#include "perf/harness/templates.hpp"
#include "support/log.hpp"
#include "support/thread_body.hpp"
#include "support/thread_name.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace tessera::perf {

namespace {

/// The createPods ops of a plan, createPodSets' included.
std::vector<const create_pods_op*> pod_ops(const plan& p) {
  std::vector<const create_pods_op*> out;
  for (const auto& o : p.ops)
    if (const auto* pods = std::get_if<create_pods_op>(&o.body))
      out.push_back(pods);
    else if (const auto* sets = std::get_if<create_pod_sets_op>(&o.body))
      out.push_back(&sets->pods);
  return out;
}

/// The paths of every template a plan reads.
std::set<std::string> template_paths(const plan& p) {
  std::set<std::string> out;
  for (const auto& o : p.ops)
    std::visit(
      [&](const auto& body) {
        using T = std::decay_t<decltype(body)>;
        if constexpr (
          std::is_same_v<
            T,
            create_nodes_op> || std::is_same_v<T, create_namespaces_op> || std::is_same_v<T, create_any_op>) {
          if (!body.template_path.empty())
            out.insert(body.template_path);
        } else if constexpr (std::is_same_v<T, churn_op>) {
          out.insert(body.template_paths.begin(), body.template_paths.end());
        } else if constexpr (std::is_same_v<T, update_any_op>) {
          out.insert(body.template_path);
        }
      },
      o.body);
  for (const auto* pods : pod_ops(p))
    for (const auto* path : {&pods->template_path, &pods->volume_template_path,
                             &pods->claim_template_path})
      if (!path->empty())
        out.insert(*path);
  return out;
}

/// A createPods op's volume and claim templates must be of those kinds.
error check_claim_templates(const plan& p) {
  for (const auto* pods : pod_ops(p))
    for (const auto& [path, kind] :
         {std::pair{&pods->volume_template_path, "PersistentVolume"},
          std::pair{&pods->claim_template_path, "PersistentVolumeClaim"}}) {
      if (path->empty())
        continue;
      auto t = load_template(*path);
      if (!t)
        return t.err();
      if (t->kind != kind || t->api_version != "v1")
        return make_error(ec::invalid_input,
                          *path + ": kind: must be a v1 " + std::string{kind}
                            + ", got " + t->api_version + " " + t->kind);
    }
  return {};
}

/// What createNodes' nodeAllocatableStrategy creates beside each node.
object_template csi_node_template() {
  object_template t;
  t.file = "<CSINode of nodeAllocatableStrategy>";
  t.kind = "CSINode";
  t.api_version = "storage.k8s.io/v1";
  return t;
}

/// Observes bindings made by a scheduler outside this process (the
/// kubeconfig target with --external-scheduler): a pod that shows up with
/// spec.nodeName set counts as bound when the watch delivers it.
class binding_observer {
public:
  explicit binding_observer(pod_tracker& tracker) : tracker_(tracker) {
  }
  actors::cluster_source::receiver receiver() {
    actors::cluster_source::receiver r;
    r.deliver = [this](actors::object_events events) {
      auto now = tracker_.time().now();
      for (const auto& e : events) {
        const auto* p = std::get_if<model::pod_ptr>(&e.obj);
        if (p == nullptr || e.type == actors::object_event::kind::deleted)
          continue;
        if ((*p)->is_bound())
          tracker_.bound((*p)->key(), now);
      }
    };
    r.synced = [this] { synced_ = true; };
    return r;
  }
  bool synced() const {
    return synced_.load();
  }

private:
  pod_tracker& tracker_;
  std::atomic<bool> synced_{false};
};

/// A churn op running on a thread of its own until the workload ends.
class churner {
public:
  using create_fn = std::function<expected<std::string>(std::size_t)>;
  using remove_fn = std::function<error(std::size_t, const std::string&)>;

  churner(const churn_op& op, std::size_t templates, create_fn create,
          remove_fn remove, cpu_meter& meter)
    : op_(op), templates_(templates), create_(std::move(create)),
      remove_(std::move(remove)), meter_(meter) {
    thread_ = std::thread([this] {
      set_thread_name("perf:churn");
      meter_.exclude_this_thread();
      // A churn op that died is a failed background op: the run must not
      // pass for a measurement of what the file describes.
      if (!run_thread_body("perf:churn", [this] { run(); }))
        note(make_error(ec::internal, "the churn thread failed"));
      meter_.thread_exiting();
    });
  }
  ~churner() {
    {
      std::lock_guard guard{mu_};
      stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  std::uint64_t errors() const {
    return errors_.load();
  }
  /// The first error's message.
  std::string first_error() const {
    std::lock_guard guard{mu_};
    return first_error_;
  }

private:
  void run() {
    auto number = static_cast<std::size_t>(op_.number);
    // recreate: slot i of template t holds the object it created last.
    std::vector<std::vector<std::string>> slots(
      templates_, std::vector<std::string>(op_.recreate ? number : 0));
    std::size_t count = 0;
    std::unique_lock lock{mu_};
    for (;;) {
      if (cv_.wait_for(lock, op_.interval, [&] { return stopping_; }))
        break;
      lock.unlock();
      for (std::size_t t = 0; t < templates_; ++t) {
        if (op_.recreate) {
          auto& slot = slots[t][count % number];
          if (!slot.empty())
            if (auto e = remove_(t, slot))
              note(e);
          auto name = create_(t);
          slot = name ? *name : std::string{};
          if (!name)
            note(name.err());
        } else if (op_.number == 0 || count < number) {
          auto name = create_(t);
          if (!name)
            note(name.err());
        }
      }
      ++count;
      lock.lock();
    }
  }

  void note(const error& e) {
    if (errors_++ == 0) {
      std::lock_guard guard{mu_};
      first_error_ = e.message;
    }
  }

  churn_op op_;
  std::size_t templates_;
  create_fn create_;
  remove_fn remove_;
  cpu_meter& meter_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::atomic<std::uint64_t> errors_{0};
  std::string first_error_;
  std::thread thread_;
};

class runner {
public:
  runner(const plan& p, const run_options& o, progress& show)
    : plan_(p), options_(o), show_(show) {
  }

  plan_outcome run() {
    if (auto e = start())
      out_.failure = e.message;
    else
      for (const auto& o : plan_.ops)
        if (auto e = run_op(o)) {
          out_.failure
            = o.path + " (" + std::string{opcode(o.body)} + "): " + e.message;
          break;
        }
    // Background ops (churn, deletions) count their errors: a run whose op
    // failed is not a measurement of what the file describes.
    std::string background;
    for (const auto& c : churners_)
      if (c->errors() > 0 && background.empty())
        background
          = "churn: " + std::to_string(c->errors())
            + " create/delete calls failed; first: " + c->first_error();
    finish();
    if (background.empty() && background_errors_ > 0)
      background = "deletePods: " + std::to_string(background_errors_.load())
                   + " deletions failed; first: " + background_first_error_;
    if (!background.empty()) {
      if (out_.failure.empty())
        out_.failure = background;
      for (auto& r : out_.results)
        if (r.failure.empty())
          r.failure = background;
    }
    for (auto& r : out_.results) {
      r.threshold = plan_.threshold;
      r.feature_gates = to_string(plan_.gates);
    }
    return std::move(out_);
  }

private:
  // ------------------------------------------------------------ set-up

  error start() {
    if (auto e = check_claim_templates(plan_))
      return e;
    for (const auto& path : template_paths(plan_)) {
      auto t = load_template(path);
      if (!t)
        return t.err();
      templates_.emplace(path, std::move(*t));
    }
    target_options to = options_.target;
    to.meter = &meter_;
    auto t = make_target(to);
    if (!t)
      return t.err();
    target_ = std::move(*t);
    if (target_->kind() == target_kind::kubeconfig) {
      marks_.kwok_fake = target_->kwok_marks();
      marks_.run_label_key = run_label;
      marks_.run_label_value
        = "run-"
          + std::to_string(
            std::chrono::system_clock::now().time_since_epoch().count());
    }
    // Every thread alive now belongs to the harness or the cluster; what
    // starts from here on is the scheduler's.
    meter_.exclude_existing();
    rss_before_ = current_rss_bytes();
    reset_peak_rss();
    if (auto e = target_->open_scheduler_side())
      return e;
    auto deadline = clock().now() + options_.op_timeout;
    show_.note(plan_.name() + ": starting the scheduler ("
               + std::string{to_string(target_->kind())} + ")");
    if (target_->runs_scheduler()) {
      sink_ = std::make_unique<observed_sink>(target_->sink(), tracker_);
      host_ = std::make_unique<scheduler_host>(options_.scheduler,
                                               target_->source(), *sink_);
      if (!tracker_.wait([&] { return host_->synced(); }, deadline, {}))
        return make_error(ec::timeout, "the scheduler did not sync");
    } else {
      observer_ = std::make_unique<binding_observer>(tracker_);
      target_->source().start(observer_->receiver());
      observing_ = true;
      if (!tracker_.wait([&] { return observer_->synced(); }, deadline, {}))
        return make_error(ec::timeout, "the pod watch did not sync");
    }
    return {};
  }

  void finish() {
    stopping_ = true;
    for (auto& t : deleters_)
      t.join();
    deleters_.clear();
    churners_.clear();
    if (host_)
      host_->stop();
    if (observing_)
      target_->source().stop();
    if (target_) {
      target_->close_scheduler_side();
      target_->cleanup();
    }
    host_.reset();
    sink_.reset();
  }

  const tessera::clock& clock() const {
    return tracker_.time();
  }

  const object_template& tmpl(const std::string& path) const {
    return templates_.at(path);
  }

  error ensure_namespace(const std::string& ns) {
    if (ns.empty() || namespaces_.count(ns) > 0)
      return {};
    return create_namespace(nullptr, ns);
  }

  /// Creates namespace `ns` from `t` (null: a bare namespace).
  error create_namespace(const object_template* t, const std::string& ns) {
    auto json = render_namespace(t, ns, marks_);
    if (!json)
      return json.err();
    if (auto e = target_->create_namespace(ns, *json))
      return e;
    namespaces_.insert(ns);
    return {};
  }

  // --------------------------------------------------------------- ops

  error run_op(const planned_op& o) {
    return std::visit([&](const auto& body) { return run(o, body); }, o.body);
  }

  error run(const planned_op&, const create_nodes_op& op) {
    const object_template& t
      = op.template_path.empty() ? default_node_ : tmpl(op.template_path);
    auto n = static_cast<std::size_t>(op.count.value);
    show_.begin(plan_.name() + ": nodes", n, "created");
    for (std::size_t i = 0; i < n; ++i) {
      auto ti
        = instantiate_template(t, static_cast<std::int64_t>(i), op.count.value);
      if (!ti)
        return ti.err();
      auto json
        = render_node(*ti, op.labels, nodes_created_++, marks_, op.allocatable);
      if (!json)
        return json.err();
      auto made = target_->create(*ti, "", *json);
      if (!made)
        return made.err();
      // As upstream's node preparer: the node's CSINode right after it.
      if (op.allocatable.set) {
        auto csi = target_->create(csi_node_template_, "",
                                   render_csi_node(made->name, op.allocatable));
        if (!csi)
          return csi.err();
      }
      show_.update(i + 1);
    }
    show_.end(n);
    return {};
  }

  error run(const planned_op&, const create_namespaces_op& op) {
    const object_template* t
      = op.template_path.empty() ? nullptr : &tmpl(op.template_path);
    for (std::int64_t i = 0; i < op.count.value; ++i)
      if (auto e = create_namespace(t, op.prefix + "-" + std::to_string(i)))
        return e;
    return {};
  }

  error run(const planned_op& po, const create_pods_op& op) {
    return create_pods(po, op);
  }

  error run(const planned_op& po, const create_pod_sets_op& op) {
    for (std::int64_t i = 0; i < op.count.value; ++i) {
      create_pods_op pods = op.pods;
      pods.ns = op.ns_prefix + "-" + std::to_string(i);
      if (auto e = create_pods(po, pods))
        return e;
    }
    return {};
  }

  /// One createPods op (also each of a createPodSets op), as one group of
  /// the tracker.
  error create_pods(const planned_op& po, const create_pods_op& op) {
    if (auto e = ensure_namespace(op.ns))
      return e;
    const object_template& t
      = op.template_path.empty() ? default_pod_ : tmpl(op.template_path);
    // Object 0 stands for the group's labels and gates (a Go template
    // renders each pod on its own below).
    auto first = instantiate_template(t, 0, op.count.value, op.params);
    if (!first)
      return first.err();
    auto json = render_pod(*first, target_->kwok_marks());
    if (!json)
      return json.err();
    int group = next_group_++;
    groups_.push_back({op.ns, labels_of(*first), clock().now()});
    // The API server marks a gated pod PodScheduled=False (SchedulingGated)
    // when it stores it, which is what an Attempted barrier waits for; only
    // gated pods are read back, so plain ones cost no parse.
    bool gated = is_gated(*first);
    auto n = static_cast<std::size_t>(op.count.value);
    std::string label = plan_.name() + ": "
                        + (op.collect_metrics ? "measured pods" : "pods") + " ("
                        + po.path + ")";
    auto bound = [&] { return tracker_.group(group).bound; };
    show_.begin(label, n);
    double cpu0 = meter_.scheduler_seconds();
    std::uint64_t conflicts0 = host_ ? host_->assume_conflicts() : 0;
    std::uint64_t binds_failed0 = tracker_.binds_failed();
    std::uint64_t batched0 = tracker_.batched_total();
    time_point start = clock().now();
    auto created = [&](const created_object& made, time_point at) {
      tracker_.created(op.ns, made.name, group, at);
      if (gated && made.json && marked_not_scheduled(*made.json))
        tracker_.failed(op.ns + "/" + made.name);
      show_.update(bound());
    };
    bool claims = !op.claim_template_path.empty();
    error e;
    if (t.go_text.empty() && !claims) {
      e = target_->create_pods(t, op.ns, *json, n, created);
    } else {
      for (std::size_t i = 0; i < n && !e; ++i) {
        auto index = static_cast<std::int64_t>(i);
        auto ti = instantiate_template(t, index, op.count.value, op.params);
        auto pod = ti ? render_pod(*ti, target_->kwok_marks())
                      : expected<std::string>{ti.err()};
        if (pod && claims) {
          auto claim = create_bound_claim(op, index);
          pod = claim ? with_claim_volume(*pod, *claim)
                      : expected<std::string>{claim.err()};
        }
        e = pod ? target_->create_pods(*ti, op.ns, *pod, 1, created)
                : pod.err();
      }
    }
    if (e)
      return e;
    if (op.skip_wait) {
      show_.end(bound());
      return {};
    }
    bool done = tracker_.wait([&] { return bound() >= n; },
                              clock().now() + options_.op_timeout,
                              [&] { show_.update(bound()); });
    show_.end(bound());
    if (op.collect_metrics) {
      window w{start, cpu0, conflicts0, binds_failed0, batched0};
      out_.results.push_back(measure(w, tracker_.records(group)));
      if (!done)
        out_.results.back().failure = "timed out: " + std::to_string(bound())
                                      + " of " + std::to_string(n)
                                      + " measured pods bound";
    }
    if (!done)
      return make_error(ec::timeout, std::to_string(bound()) + " of "
                                       + std::to_string(n)
                                       + " pods bound before the timeout");
    return {};
  }

  /// Pod `index`'s claim and volume, bound to each other as upstream's
  /// harness creates them: the claim, its status, the volume, its status
  /// (a create resets a status). Returns the claim's name.
  expected<std::string> create_bound_claim(const create_pods_op& op,
                                           std::int64_t index) {
    const object_template& claim_t = tmpl(op.claim_template_path);
    const object_template& volume_t = tmpl(op.volume_template_path);
    auto b = render_bound_claim(volume_t, claim_t, op.ns, index);
    if (!b)
      return b.err();
    if (auto name = target_->create(claim_t, op.ns, b->claim_json); !name)
      return name.err();
    if (auto e = target_->update(claim_t, op.ns, b->claim_name, b->claim_json,
                                 "status"))
      return e;
    if (auto name = target_->create(volume_t, "", b->volume_json); !name)
      return name.err();
    if (auto e = target_->update(volume_t, "", b->volume_name, b->volume_json,
                                 "status"))
      return e;
    return b->claim_name;
  }

  /// Where a measurement began.
  struct window {
    time_point start;
    double cpu0 = 0;
    std::uint64_t conflicts0 = 0;
    std::uint64_t binds_failed0 = 0;
    std::uint64_t batched0 = 0;
  };

  run_result measure(const window& w, const std::vector<pod_record>& pods) {
    run_result r;
    r.name = plan_.name();
    if (!out_.results.empty())
      r.name += "#" + std::to_string(out_.results.size() + 1);
    r.target = std::string{to_string(target_->kind())};
    r.shards = options_.scheduler.shards;
    r.inflight = options_.scheduler.max_inflight_cycles;
    r.baseline = options_.baseline;
    measure_pods(pods, w.start, r);
    r.scheduler_cpu_seconds = meter_.scheduler_seconds() - w.cpu0;
    r.assume_conflicts = (host_ ? host_->assume_conflicts() : 0) - w.conflicts0;
    r.binds_failed = tracker_.binds_failed() - w.binds_failed0;
    r.batched_pods = tracker_.batched_total() - w.batched0;
    r.peak_rss_bytes = peak_rss_bytes();
    r.rss_before_scheduler_bytes = rss_before_;
    return r;
  }

  error run(const planned_op&, const collect_metrics_op& op) {
    if (op.start) {
      if (collecting_)
        return make_error(ec::invalid_input,
                          "startCollectingMetrics while already collecting");
      collecting_ = op;
      collect_from_group_ = next_group_;
      collect_window_
        = window{clock().now(), meter_.scheduler_seconds(),
                 host_ ? host_->assume_conflicts() : 0, tracker_.binds_failed(),
                 tracker_.batched_total()};
      return {};
    }
    if (!collecting_)
      return make_error(ec::invalid_input,
                        "stopCollectingMetrics without startCollectingMetrics");
    std::set<std::string> ns(collecting_->namespaces.begin(),
                             collecting_->namespaces.end());
    std::vector<pod_record> pods;
    for (int g = collect_from_group_; g < next_group_; ++g) {
      const auto& info = groups_[static_cast<std::size_t>(g)];
      if ((ns.empty() || ns.count(info.ns) > 0)
          && matches(collecting_->selector, info.labels)) {
        auto records = tracker_.records(g);
        for (auto& r : records)
          if (!r.deleted)
            pods.push_back(std::move(r));
      }
    }
    out_.results.push_back(measure(collect_window_, pods));
    collecting_.reset();
    return {};
  }

  error run(const planned_op&, const update_any_op& op) {
    const object_template& t = tmpl(op.template_path);
    auto gap = op.per_second > 0 ? std::chrono::duration_cast<duration>(
                 std::chrono::duration<double>(1.0 / op.per_second))
                                 : duration{0};
    for (std::int64_t i = 0; i < op.count.value; ++i) {
      auto ti = instantiate_template(t, i, op.count.value, op.params);
      if (!ti)
        return ti.err();
      if (ti->name.empty())
        return make_error(ec::invalid_input,
                          t.file + ": updateAny needs metadata.name");
      std::string ns = op.ns.empty() ? ti->ns : op.ns;
      // As upstream: the object (or the named subresource), then its
      // status, so that a template's status takes effect too.
      if (auto e = target_->update(*ti, ns, ti->name, ti->json, op.subresource))
        return e;
      if (auto e = target_->update(*ti, ns, ti->name, ti->json, "status"))
        return e;
      if (gap.count() > 0)
        std::this_thread::sleep_for(gap);
    }
    return {};
  }

  error run(const planned_op&, const delete_pods_op& op) {
    std::vector<std::string> names;
    for (const auto& [name, group] : tracker_.live_pods(op.ns))
      if (group >= 0
          && matches(op.selector,
                     groups_[static_cast<std::size_t>(group)].labels))
        names.push_back(name);
    auto remove_all = [this, names, op] {
      auto gap = op.per_second > 0 ? std::chrono::duration_cast<duration>(
                   std::chrono::duration<double>(1.0 / op.per_second))
                                   : duration{0};
      for (const auto& name : names) {
        if (stopping_.load())
          return;
        if (auto e = target_->remove(default_pod_, op.ns, name)) {
          if (background_errors_++ == 0) {
            std::lock_guard guard{background_mu_};
            background_first_error_ = e.message;
          }
          continue;
        }
        tracker_.deleted(op.ns, name);
        if (gap.count() > 0)
          std::this_thread::sleep_for(gap);
      }
    };
    if (op.skip_wait) {
      deleters_.emplace_back([this, remove_all] {
        set_thread_name("perf:delete");
        meter_.exclude_this_thread();
        // Failed deletions fail the run (see the background errors).
        if (!run_thread_body("perf:delete", remove_all))
          if (background_errors_++ == 0) {
            std::lock_guard guard{background_mu_};
            background_first_error_ = "the deletion thread failed";
          }
        meter_.thread_exiting();
      });
      return {};
    }
    remove_all();
    return {};
  }

  error run(const planned_op&, const create_any_op& op) {
    const object_template& t = tmpl(op.template_path);
    std::string ns = op.ns.empty() ? t.ns : op.ns;
    if (auto e = ensure_namespace(ns))
      return e;
    for (std::int64_t i = 0; i < op.count.value; ++i) {
      auto ti = instantiate_template(t, i, op.count.value, op.params);
      if (!ti)
        return ti.err();
      auto name = create_from(*ti, ns);
      if (!name)
        return name.err();
    }
    return {};
  }

  /// Counts over the pods in `ns` (empty = all) whose group's labels
  /// match `selector`.
  pod_counts counts(const std::set<std::string>& ns,
                    const label_match& selector) const {
    if (selector.empty())
      return tracker_.namespaces(ns);
    pod_counts total;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      const auto& info = groups_[g];
      if ((!ns.empty() && ns.count(info.ns) == 0)
          || !matches(selector, info.labels))
        continue;
      auto c = tracker_.group(static_cast<int>(g));
      total.created += c.created;
      total.bound += c.bound;
      total.attempted += c.attempted;
      total.deleted += c.deleted;
    }
    return total;
  }

  error run(const planned_op&, const barrier_op& op) {
    std::set<std::string> ns(op.namespaces.begin(), op.namespaces.end());
    auto done = [&] {
      auto c = counts(ns, op.selector);
      return op.scheduled ? c.bound >= c.created : c.attempted >= c.created;
    };
    show_.begin(plan_.name() + ": barrier", counts(ns, op.selector).created);
    bool ok = tracker_.wait(done, clock().now() + options_.op_timeout, [&] {
      show_.update(counts(ns, op.selector).bound);
    });
    auto c = counts(ns, op.selector);
    show_.end(op.scheduled ? c.bound : c.attempted);
    if (!ok)
      return make_error(ec::timeout,
                        std::to_string(op.scheduled ? c.bound : c.attempted)
                          + " of " + std::to_string(c.created) + " pods "
                          + (op.scheduled ? "scheduled" : "attempted")
                          + " before the timeout");
    return {};
  }

  error run(const planned_op&, const sleep_op& op) {
    // The op's meaning is "let time pass" (churn runs meanwhile).
    std::this_thread::sleep_for(op.duration);
    return {};
  }

  error run(const planned_op&, const churn_op& op) {
    if (auto e = ensure_namespace(op.ns))
      return e;
    std::vector<const object_template*> ts;
    for (const auto& path : op.template_paths)
      ts.push_back(&tmpl(path));
    auto create = [this, ts, ns = op.ns](std::size_t i) {
      return create_from(*ts[i], ns);
    };
    auto remove
      = [this, ts, ns = op.ns](std::size_t i, const std::string& name) {
          return target_->remove(*ts[i], ns, name);
        };
    churners_.push_back(
      std::make_unique<churner>(op, ts.size(), create, remove, meter_));
    return {};
  }

  /// One object of any kind from a template (churn, createAny).
  expected<std::string> create_from(const object_template& t,
                                    const std::string& ns) {
    if (!t.go_text.empty()) {
      auto ti
        = instantiate_template(t, static_cast<std::int64_t>(churn_index_++), 1);
      if (!ti)
        return ti.err();
      return create_from(*ti, ns);
    }
    expected<std::string> json = t.json;
    if (t.kind == "Node" && t.api_version == "v1")
      json = render_node(t, {}, churn_nodes_++, marks_);
    else if (t.kind == "Pod" && t.api_version == "v1")
      json = render_pod(t, target_->kwok_marks());
    if (!json)
      return json.err();
    auto made = target_->create(t, ns, *json);
    if (!made)
      return made.err();
    return made->name;
  }

  const plan& plan_;
  const run_options& options_;
  progress& show_;
  plan_outcome out_;
  cpu_meter meter_;
  pod_tracker tracker_;
  std::map<std::string, object_template> templates_;
  object_template default_node_ = default_node_template();
  object_template default_pod_ = default_pod_template();
  object_template csi_node_template_ = csi_node_template();
  /// What the runner knows of each tracker group (createPods op).
  struct group_info {
    std::string ns;
    label_match labels;
    time_point created;
  };
  std::vector<group_info> groups_;
  int next_group_ = 0;
  std::optional<collect_metrics_op> collecting_;
  int collect_from_group_ = 0;
  window collect_window_;
  std::vector<std::thread> deleters_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> background_errors_{0};
  std::mutex background_mu_;
  std::string background_first_error_;
  node_marks marks_;
  std::uint64_t rss_before_ = 0;
  std::size_t nodes_created_ = 0;
  std::atomic<std::size_t> churn_nodes_{1000000};
  std::atomic<std::size_t> churn_index_{0};
  std::set<std::string> namespaces_;
  // Destroyed in reverse: the scheduler before the target it reads.
  std::unique_ptr<target> target_;
  std::unique_ptr<observed_sink> sink_;
  std::unique_ptr<scheduler_host> host_;
  std::unique_ptr<binding_observer> observer_;
  bool observing_ = false;
  std::vector<std::unique_ptr<churner>> churners_;
};

} // namespace

error check_templates(const plan& p) {
  if (auto e = check_claim_templates(p))
    return e;
  for (const auto& path : template_paths(p)) {
    auto t = load_template(path);
    if (!t)
      return t.err();
  }
  return {};
}

std::string unsupported_by_target(const plan& p, target_kind kind) {
  if (kind == target_kind::kubeconfig)
    return {};
  for (const auto& path : template_paths(p)) {
    auto t = load_template(path);
    if (t && find_embedded_resource(t->api_version, t->kind) == nullptr)
      return "creates " + t->api_version + " " + t->kind + " (" + path
             + "), which the embedded cluster does not serve yet";
  }
  return {};
}

plan_outcome run_plan(const plan& p, const run_options& options,
                      progress& show) {
  runner r{p, options, show};
  return r.run();
}

} // namespace tessera::perf
