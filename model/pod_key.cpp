// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/pod_key.hpp"

#include "model/pod.hpp"

namespace tessera::model {

std::string pod_key(const pod_core& p) {
  if (!p.uid.empty())
    return p.uid;
  std::string key{p.ns.view()};
  key += '/';
  key += p.name;
  return key;
}

} // namespace tessera::model
