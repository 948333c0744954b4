# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
# Unit tests of the actors' CAF-free states (included by CMakeLists.txt).
tessera_add_test(actors_tests
  SOURCES
    cache/node_tree_test.cpp
    cache/cache_state_test.cpp
    cache/storage_book_test.cpp
    queue/queue_state_test.cpp
    queue/settling_queue_state_test.cpp
    shard/shard_state_test.cpp
    coordinator/admission_test.cpp
    coordinator/nominator_test.cpp
    coordinator/batcher_test.cpp
    coordinator/node_claims_test.cpp
    coordinator/coordinator_state_test.cpp
    binder/binder_state_test.cpp
    worker_polling_test.cpp
  DEPS tessera::actors tessera::test_support tessera::test_profile)
