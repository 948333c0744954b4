// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/controller_loop.hpp"

#include "support/log.hpp"
#include "support/thread_body.hpp"

#include <exception>
#include <utility>

namespace tessera::apiserver {

controller_loop::controller_loop(std::string name, duration retry, pass_fn pass)
  : name_(std::move(name)), retry_(retry), pass_(std::move(pass)),
    thread_([this] {
      // run() catches around each pass; only a failed wait escapes it.
      (void)run_thread_body(name_, [this] { run(); });
    }) {
}

controller_loop::~controller_loop() {
  stop();
}

void controller_loop::stop() {
  signal_.stop();
  if (thread_.joinable())
    thread_.join();
}

void controller_loop::run() {
  std::optional<duration> wait;
  do {
    try {
      wait = pass_();
    } catch (...) {
      TLOG_ERROR("controller pass failed", "controller", name_, "error",
                 exception_text(std::current_exception()));
      wait = retry_;
    }
  } while (signal_.wait(wait));
}

} // namespace tessera::apiserver
