// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/credentials.hpp"

#include "support/log.hpp"

#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sstream>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace tessera::io {

namespace {

std::string trim(std::string s) {
  while (!s.empty()
         && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '
             || s.back() == '\t'))
    s.pop_back();
  std::size_t start = 0;
  while (start < s.size() && (s[start] == ' ' || s[start] == '\t'))
    ++start;
  return s.substr(start);
}

/// Closes a file descriptor on scope exit.
struct fd_guard {
  int fd = -1;
  ~fd_guard() {
    if (fd >= 0)
      ::close(fd);
  }
};

} // namespace

expected<std::string> read_token_file(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  if (!in)
    return make_error(ec::unavailable, "cannot read token file \"" + path
                                         + "\": " + std::strerror(errno));
  std::stringstream buf;
  buf << in.rdbuf();
  std::string t = trim(buf.str());
  if (t.empty())
    return make_error(ec::unavailable, "token file \"" + path + "\" is empty");
  return t;
}

expected<exec_credential> run_exec_plugin(const exec_config& exec,
                                          const exec_cluster_info* cluster,
                                          std::chrono::milliseconds timeout) {
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0)
    return make_error(ec::unavailable, std::string{"exec plugin: pipe: "}
                                         + std::strerror(errno));
  fd_guard read_end{pipefd[0]};
  fd_guard write_end{pipefd[1]};

  // Environment: ours, then the kubeconfig's entries, then the exec info.
  std::vector<std::string> env_text;
  auto overridden = [&](std::string_view entry) {
    auto eq = entry.find('=');
    std::string_view name = entry.substr(0, eq);
    if (name == "KUBERNETES_EXEC_INFO")
      return true;
    for (const auto& [n, v] : exec.env)
      if (n == name)
        return true;
    return false;
  };
  for (char** e = environ; e != nullptr && *e != nullptr; ++e)
    if (!overridden(*e))
      env_text.emplace_back(*e);
  for (const auto& [n, v] : exec.env)
    env_text.push_back(n + "=" + v);
  env_text.push_back(
    "KUBERNETES_EXEC_INFO="
    + encode_exec_info(exec.api_version,
                       exec.provide_cluster_info ? cluster : nullptr));
  std::vector<char*> envp;
  for (auto& s : env_text)
    envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_text{exec.command};
  argv_text.insert(argv_text.end(), exec.args.begin(), exec.args.end());
  std::vector<char*> argv;
  for (auto& s : argv_text)
    argv.push_back(s.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, exec.command.c_str(), &actions, &attr,
                          argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    std::string msg = "exec plugin: cannot run \"" + exec.command
                      + "\": " + std::strerror(rc);
    if (!exec.install_hint.empty())
      msg += "\n" + exec.install_hint;
    return make_error(ec::unavailable, msg);
  }
  ::close(write_end.fd);
  write_end.fd = -1;

  std::string out;
  bool timed_out = false;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{read_end.fd, POLLIN, 0};
    int n = ::poll(&p, 1, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      timed_out = n == 0;
      break;
    }
    char buf[4096];
    auto got = ::read(read_end.fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    out.append(buf, static_cast<std::size_t>(got));
    if (out.size() > (std::size_t{1} << 20)) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
      return make_error(ec::invalid_input, "exec plugin \"" + exec.command
                                             + "\" wrote more than 1 MiB");
    }
  }
  if (timed_out)
    ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out)
    return make_error(ec::timeout, "exec plugin \"" + exec.command
                                     + "\" did not finish in time");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string msg = "exec plugin \"" + exec.command + "\" failed: ";
    msg += WIFEXITED(status)
             ? "exit status " + std::to_string(WEXITSTATUS(status))
             : "killed by signal " + std::to_string(WTERMSIG(status));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127
        && !exec.install_hint.empty())
      msg += "\n" + exec.install_hint;
    return make_error(ec::unavailable, msg);
  }
  return decode_exec_credential(out, exec.api_version);
}

credential_provider::credential_provider(const rest_config& cfg,
                                         credential_options options)
  : cfg_(cfg), options_(options),
    clock_(options.time ? *options.time : system_clock::instance()) {
  current_.token = cfg_.token;
  current_.client_cert_pem = cfg_.tls.client_cert_pem;
  current_.client_key_pem = cfg_.tls.client_key_pem;
  have_ = cfg_.token_file.empty() && !cfg_.exec;
}

void credential_provider::invalidate() {
  std::lock_guard guard{mutex_};
  stale_ = true;
}

error credential_provider::refresh_file(time_point now) {
  auto t = read_token_file(cfg_.token_file);
  next_file_read_ = now + options_.token_file_refresh;
  if (!t)
    return t.err();
  if (*t != current_.token)
    TLOG_V(2, "read bearer token file", "path", cfg_.token_file);
  current_.token = std::move(*t);
  return {};
}

error credential_provider::refresh_exec(time_point) {
  exec_cluster_info info;
  info.server = cfg_.server;
  info.tls_server_name = cfg_.tls.server_name;
  info.insecure_skip_tls_verify = cfg_.tls.insecure_skip_verify;
  info.ca_pem = cfg_.tls.ca_pem;
  auto c = run_exec_plugin(*cfg_.exec, &info, options_.exec_timeout);
  if (!c)
    return c.err();
  current_.token = c->token;
  if (c->client_cert_pem != current_.client_cert_pem
      || c->client_key_pem != current_.client_key_pem) {
    if (!c->client_cert_pem.empty()) {
      current_.client_cert_pem = c->client_cert_pem;
      current_.client_key_pem = c->client_key_pem;
      ++current_.cert_generation;
    }
  }
  exec_expiry_ = c->expiry;
  TLOG_V(2, "ran exec credential plugin", "command", cfg_.exec->command,
         "expires", c->expiry ? format_time(*c->expiry) : std::string{"never"});
  return {};
}

expected<credentials> credential_provider::get() {
  std::lock_guard guard{mutex_};
  time_point now = clock_.now();
  error failure;
  bool backing_off = retry_at_ && now < *retry_at_;
  if (backing_off && !have_)
    return last_failure_;
  if (!backing_off) {
    if (!cfg_.token_file.empty()) {
      if (!have_ || stale_ || !next_file_read_ || now >= *next_file_read_)
        failure = refresh_file(now);
    } else if (cfg_.exec) {
      bool expired = exec_expiry_ && clock_.wall_now() >= *exec_expiry_;
      if (!have_ || stale_ || expired)
        failure = refresh_exec(now);
    }
    stale_ = false;
  }
  if (failure) {
    // A failed refresh is not retried at once: each request would
    // otherwise re-read the file or re-run the plugin.
    retry_at_ = now + std::chrono::seconds(5);
    last_failure_ = failure;
    if (!have_)
      return failure;
    TLOG_WARN("cannot refresh credentials; keeping the previous ones", "err",
              failure.message);
  } else if (!backing_off) {
    retry_at_.reset();
    have_ = true;
  }
  return current_;
}

} // namespace tessera::io
