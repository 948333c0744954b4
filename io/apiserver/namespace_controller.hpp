// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `namespace_controller`: the embedded cluster's stand-in for the
/// namespace controller of kube-controller-manager. Deleting a namespace
/// only marks it Terminating (deletionTimestamp, status.phase); while it is,
/// the store refuses creates in it with 403 Forbidden. On each change of a
/// namespace, and every `resync` while one is Terminating, this controller
/// deletes (after `content_delay`) every object in each Terminating
/// namespace with ordinary deletes
/// (pods on fake nodes then go through graceful deletion and kwok's fake
/// kubelet; pods of nodes that are gone are deleted at once, as the pod
/// garbage collector deletes orphaned pods) and deletes the namespace again,
/// which removes it once nothing is left in it:
///
///   Active --DELETE--> Terminating --contents deleted, DELETE--> gone
///
/// `api_server` runs one; in-process users of a bare `store` start their own
/// when they delete namespaces.
#pragma once

#include "io/apiserver/store.hpp"

#include <chrono>
#include <cstddef>
#include <memory>

namespace tessera::apiserver {

struct namespace_controller_config {
  /// A pass at least this often while a namespace is Terminating.
  std::chrono::milliseconds resync{200};
  /// How long a namespace stays Terminating before its contents are
  /// deleted. It stands in for the discovery round the real controller
  /// makes first: a client that deletes a namespace together with its
  /// objects (`kubectl delete -f` of one file) still finds them, where an
  /// immediate sweep plus kwok's instant pod termination would answer its
  /// later DELETEs with 404.
  std::chrono::milliseconds content_delay{1000};
};

class namespace_controller {
public:
  /// Starts the controller thread on `s` (which must outlive it).
  explicit namespace_controller(store& s,
                                namespace_controller_config config = {});
  /// Stops and joins.
  ~namespace_controller();
  namespace_controller(const namespace_controller&) = delete;
  namespace_controller& operator=(const namespace_controller&) = delete;

  /// Namespaces removed so far (for tests).
  std::size_t finalized() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace tessera::apiserver
