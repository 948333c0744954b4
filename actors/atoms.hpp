// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Atoms and message-type registrations of the actor layer. Every payload is
/// a `shared_ptr<const T>` exchanged inside one process, so each is
/// whitelisted as an unsafe (not serializable) message type; nothing here is
/// ever sent over the network. tessera's `ec` codes become caf::error values
/// of category "tessera".
#pragma once

#include "actors/messages.hpp"
#include "actors/source.hpp"
#include "support/error.hpp"

#include <caf/all.hpp>

namespace tessera::actors {

// Source and cache.
using events_atom = caf::atom_constant<caf::atom("events")>;
using synced_atom = caf::atom_constant<caf::atom("synced")>;
using assume_atom = caf::atom_constant<caf::atom("assume")>;
using finish_atom = caf::atom_constant<caf::atom("finish")>;
using forget_atom = caf::atom_constant<caf::atom("forget")>;
using subscribe_atom = caf::atom_constant<caf::atom("subscribe")>;
using barrier_atom = caf::atom_constant<caf::atom("barrier")>;
using stats_atom = caf::atom_constant<caf::atom("stats")>;
using tick_atom = caf::atom_constant<caf::atom("tick")>;
using flush_atom = caf::atom_constant<caf::atom("flush")>;
// Cache -> shards / coordinator / queue.
using delta_atom = caf::atom_constant<caf::atom("delta")>;
using view_atom = caf::atom_constant<caf::atom("view")>;
using input_atom = caf::atom_constant<caf::atom("qinput")>;
using nominees_atom = caf::atom_constant<caf::atom("nominees")>;
// Queue <-> coordinator / binder.
using want_atom = caf::atom_constant<caf::atom("want")>;
using work_atom = caf::atom_constant<caf::atom("work")>;
using outcome_atom = caf::atom_constant<caf::atom("outcome")>;
using bound_atom = caf::atom_constant<caf::atom("bound")>;
using preemption_ended_atom = caf::atom_constant<caf::atom("preended")>;
using idle_atom = caf::atom_constant<caf::atom("idle")>;
// Coordinator -> shards / binder.
using scan_atom = caf::atom_constant<caf::atom("scan")>;
using filter_atom = caf::atom_constant<caf::atom("filter")>;
using score_atom = caf::atom_constant<caf::atom("score")>;
using preempt_atom = caf::atom_constant<caf::atom("preempt")>;
using bind_atom = caf::atom_constant<caf::atom("bind")>;
using bind_done_atom = caf::atom_constant<caf::atom("binddone")>;
using evict_atom = caf::atom_constant<caf::atom("evict")>;
using deleted_atom = caf::atom_constant<caf::atom("deleted")>;

} // namespace tessera::actors

CAF_ERROR_CODE_ENUM(tessera::ec, "tessera")

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::model::pod_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::object_events_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::shard_delta_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::cluster_view_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::queue_inputs_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::work_batch_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::cycle_outcome_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::bind_outcome_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::scan_request_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::scan_reply_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::filter_request_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::filter_reply_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::score_request_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::score_reply_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::preempt_request_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::preempt_reply_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::assume_request_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::assume_reply_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::bind_request_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::eviction_ptr)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::queue_stats)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(tessera::actors::cache_stats)
