// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/thread_name.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <pthread.h>

namespace tessera {

void set_thread_name(std::string_view name) noexcept {
  std::array<char, max_thread_name_length + 1> buf{};
  std::memcpy(buf.data(), name.data(),
              std::min(name.size(), max_thread_name_length));
  pthread_setname_np(pthread_self(), buf.data());
}

std::string thread_name() {
  std::array<char, max_thread_name_length + 1> buf{};
  if (pthread_getname_np(pthread_self(), buf.data(), buf.size()) != 0)
    return {};
  return std::string{buf.data()};
}

} // namespace tessera
