// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/run/run_fixture.hpp"

#include "io/apiserver/resources.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <random>
#include <signal.h>
#include <spawn.h>
#include <sstream>
#include <unistd.h>

extern char** environ;

namespace tessera::test {

namespace fs = std::filesystem;
namespace json = boost::json;

bool wait_until(const std::function<bool()>& pred,
                std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

// files

std::string read_text(const std::string& path) {
  std::ifstream in{path};
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

test_pki::test_pki(const temp_dir& d) {
  auto run = [&](const std::string& cmd) {
    if (!ok)
      return;
    if (std::system((cmd + " >/dev/null 2>&1").c_str()) != 0) {
      ok = false;
      problem = cmd;
    }
  };
  const std::string ec = "-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes ";
  run("openssl req -x509 " + ec + "-keyout " + d.file("ca.key") + " -out "
      + d.file("ca.crt") + " -days 2 -subj /CN=tessera-test-ca");
  auto issue = [&](const std::string& name, const std::string& subject,
                   const std::string& ext) {
    run("openssl req " + ec + "-keyout " + d.file(name + ".key") + " -out "
        + d.file(name + ".csr") + " -subj " + subject);
    d.write(name + ".ext", ext + "\n");
    run("openssl x509 -req -in " + d.file(name + ".csr") + " -CA "
        + d.file("ca.crt") + " -CAkey " + d.file("ca.key")
        + " -CAcreateserial -days 2 -extfile " + d.file(name + ".ext")
        + " -out " + d.file(name + ".crt"));
  };
  issue("server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1");
  issue("client", "/CN=tessera", "extendedKeyUsage=clientAuth");
  issue("admin", "/CN=tessera:cluster-admin/O=ops",
        "extendedKeyUsage=clientAuth");
}

namespace {

// The low end of the kernel's ephemeral port range (32768 by default).
int ephemeral_low() {
  std::ifstream f{"/proc/sys/net/ipv4/ip_local_port_range"};
  int low = 0;
  if (!(f >> low) || low <= 2048)
    return 32768;
  return low;
}

sockaddr_in loopback(int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  return a;
}

// True when nothing holds `port` on loopback right now.
bool bindable(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0)
    return false;
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a = loopback(port);
  bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

} // namespace

int free_port() {
  // A port below the ephemeral range: the kernel never hands it to another
  // socket on its own (an outgoing connection, a bind to port 0), so a
  // server that is restarted on it — while other suites run beside — finds
  // it free again. Only another explicit pick can collide, and the range is
  // wide.
  thread_local std::mt19937 rng{std::random_device{}()};
  const int high = ephemeral_low();
  const int low = std::max(1025, high - 12000);
  std::uniform_int_distribution<int> pick{low, high - 1};
  for (int attempt = 0; attempt < 200; ++attempt)
    if (int port = pick(rng); bindable(port))
      return port;
  // Fallback: whatever the kernel gives now.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a = loopback(0);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

// test_cluster

namespace {
const apiserver::resource_info& pods() {
  return *apiserver::find_resource("", "v1", "pods");
}
} // namespace

test_cluster::test_cluster(apiserver::server_config cfg,
                           apiserver::store_config sc)
  : config_(std::move(cfg)) {
  store_ = std::make_unique<apiserver::store>(sc);
  start_server(0);
}

void test_cluster::start_server(std::uint16_t port) {
  config_.port = port;
  auto s = apiserver::api_server::start(*store_, config_);
  if (!s) {
    std::fprintf(stderr, "cannot start the API server: %s\n",
                 s.err().message.c_str());
    std::abort();
  }
  server_ = std::move(*s);
  port_ = server_->port();
  url_ = server_->url();
}

test_cluster::~test_cluster() {
  if (server_)
    server_->stop();
}

void test_cluster::stop_server() {
  server_->stop();
  server_.reset();
}

void test_cluster::restart_server() {
  start_server(port_);
}

std::string test_cluster::url() const {
  return url_;
}

void test_cluster::create_node(const std::string& name, const std::string& cpu,
                               const std::string& pods_allowed,
                               const std::string& spec) {
  std::string body
    = R"({"kind":"Node","apiVersion":"v1","metadata":{"name":")" + name
      + R"(","labels":{"kubernetes.io/hostname":")" + name + R"("}},"spec":)"
      + spec + R"(,"status":{"allocatable":{"cpu":")" + cpu
      + R"(","memory":"32Gi","pods":")" + pods_allowed
      + R"("},"capacity":{"cpu":")" + cpu + R"(","memory":"32Gi","pods":")"
      + pods_allowed + R"("}}})";
  auto r
    = store_->create(*apiserver::find_resource("", "v1", "nodes"), "", body);
  if (!r) {
    std::fprintf(stderr, "create node %s: %s\n", name.c_str(),
                 r.err().message.c_str());
    std::abort();
  }
}

void test_cluster::create_pod(const std::string& name, const std::string& cpu,
                              const std::string& extra_spec) {
  std::string body = R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")"
                     + name + R"("},"spec":{)" + extra_spec
                     + R"("containers":[{"name":"c","image":"busybox",)"
                       R"("resources":{"requests":{"cpu":")"
                     + cpu + R"("}}}]}})";
  auto r = store_->create(pods(), "default", body);
  if (!r) {
    std::fprintf(stderr, "create pod %s: %s\n", name.c_str(),
                 r.err().message.c_str());
    std::abort();
  }
}

void test_cluster::delete_pod(const std::string& name) {
  apiserver::delete_options o;
  o.grace_period_seconds = 0;
  (void)store_->remove(pods(), "default", name, o);
}

std::optional<std::string> test_cluster::node_of(const std::string& name) {
  auto o = store_->get(pods(), "default", name);
  if (!o)
    return std::nullopt;
  auto doc = json::parse((*o)->json());
  const auto* n = doc.at("spec").as_object().if_contains("nodeName");
  return n && n->is_string() ? std::string{n->as_string()} : std::string{};
}

json::value test_cluster::pod_doc(const std::string& name) {
  auto o = store_->get(pods(), "default", name);
  if (!o)
    return nullptr;
  return json::parse((*o)->json());
}

std::vector<json::value> test_cluster::events_of(const std::string& name) {
  apiserver::list_options lo;
  lo.field_selector = "involvedObject.name=" + name;
  auto l = store_->list(*apiserver::find_resource("", "v1", "events"),
                        "default", lo);
  std::vector<json::value> out;
  if (l)
    for (const auto& o : l->items)
      out.push_back(json::parse(o->json()));
  return out;
}

std::size_t test_cluster::bound_pods() {
  apiserver::list_options lo;
  lo.field_selector = "spec.nodeName!=";
  auto l = store_->list(pods(), "default", lo);
  return l ? l->items.size() : 0;
}

// scheduler_run

scheduler_run::scheduler_run(std::vector<std::string> args) {
  hooks_.control = &control_;
  hooks_.start_serving
    = [this](const cmd::serving_options&, const cmd::run_status& s) {
        status_.store(&s);
        return error{};
      };
  hooks_.on_started = [this](const cmd::run_handles& h) {
    handles_copy_ = h;
    started_at_ = std::chrono::steady_clock::now();
    handles_.store(&handles_copy_);
  };
  thread_ = std::thread{[this, args = std::move(args)] {
    int code = cmd::run_scheduler(args, hooks_);
    handles_.store(nullptr);
    status_.store(nullptr);
    finished_at_ = std::chrono::steady_clock::now();
    code_.store(code);
  }};
}

scheduler_run::~scheduler_run() {
  stop();
}

int scheduler_run::stop() {
  control_.request_stop();
  if (thread_.joinable())
    thread_.join();
  return code_.load();
}

std::optional<int> scheduler_run::finished(std::chrono::milliseconds wait) {
  wait_until([&] { return code_.load() >= 0; }, wait);
  int c = code_.load();
  if (c < 0)
    return std::nullopt;
  if (thread_.joinable())
    thread_.join();
  return c;
}

bool scheduler_run::wait_started(std::chrono::milliseconds timeout) const {
  return wait_until([&] { return started(); }, timeout);
}

adapters::api_sink* scheduler_run::sink() const {
  const auto* h = handles_.load();
  return h ? h->sink : nullptr;
}

// child_process

child_process::child_process(const std::vector<std::string>& argv) {
  int out[2], err[2];
  if (::pipe(out) != 0 || ::pipe(err) != 0)
    std::abort();
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  posix_spawn_file_actions_addclose(&fa, out[0]);
  posix_spawn_file_actions_addclose(&fa, err[0]);
  std::vector<char*> args;
  std::vector<std::string> copy = argv;
  for (auto& a : copy)
    args.push_back(a.data());
  args.push_back(nullptr);
  if (::posix_spawn(&pid_, copy[0].c_str(), &fa, nullptr, args.data(), environ)
      != 0)
    pid_ = -1;
  posix_spawn_file_actions_destroy(&fa);
  ::close(out[1]);
  ::close(err[1]);
  out_ = out[0];
  err_ = err[0];
  ::fcntl(out_, F_SETFL, O_NONBLOCK);
  ::fcntl(err_, F_SETFL, O_NONBLOCK);
}

child_process::~child_process() {
  if (pid_ > 0 && !code_) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  ::close(out_);
  ::close(err_);
}

void child_process::drain(int fd, std::string& into) {
  char buf[4096];
  for (;;) {
    auto n = ::read(fd, buf, sizeof buf);
    if (n <= 0)
      return;
    into.append(buf, static_cast<std::size_t>(n));
  }
}

std::string child_process::wait_for_line(const std::string& prefix,
                                         std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    drain(out_, out_buf_);
    drain(err_, err_buf_);
    std::size_t start = 0;
    for (;;) {
      auto nl = out_buf_.find('\n', start);
      if (nl == std::string::npos)
        break;
      std::string line = out_buf_.substr(start, nl - start);
      if (line.rfind(prefix, 0) == 0)
        return line;
      start = nl + 1;
    }
    pollfd p[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
    ::poll(p, 2, 50);
  }
  return {};
}

void child_process::signal(int sig) {
  if (pid_ > 0 && !code_)
    ::kill(pid_, sig);
}

std::optional<int> child_process::wait(std::chrono::milliseconds timeout) {
  if (code_)
    return code_;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    drain(out_, out_buf_);
    drain(err_, err_buf_);
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      drain(out_, out_buf_);
      drain(err_, err_buf_);
      code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return code_;
    }
    if (std::chrono::steady_clock::now() >= deadline)
      return std::nullopt;
    std::this_thread::sleep_for(10ms);
  }
}

std::string child_process::stderr_text() {
  drain(err_, err_buf_);
  return err_buf_;
}

void child_process::drain_output(std::size_t keep) {
  drain(out_, out_buf_);
  drain(err_, err_buf_);
  for (auto* buf : {&out_buf_, &err_buf_})
    if (buf->size() > keep)
      buf->erase(0, buf->size() - keep);
}

std::string tessera_binary() {
  return TESSERA_BINARY;
}

std::vector<std::string> elected_run_args(const std::string& url,
                                          std::vector<std::string> extra) {
  std::vector<std::string> args = {tessera_binary(),
                                   "run",
                                   "--master",
                                   url,
                                   "--kube-api-qps=0",
                                   "--secure-port=0",
                                   "--leader-elect-lease-duration=2s",
                                   "--leader-elect-renew-deadline=1500ms",
                                   "--leader-elect-retry-period=250ms"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::string cluster_url(child_process& cluster) {
  std::string line = cluster.wait_for_line("listening on ");
  return line.empty() ? line : line.substr(std::string{"listening on "}.size());
}

} // namespace tessera::test
