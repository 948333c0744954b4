// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/api_objects.hpp"

namespace tessera::io {

bool lease_record::same_record(const lease_record& o) const {
  return holder_identity == o.holder_identity
         && lease_duration_seconds == o.lease_duration_seconds
         && acquire_time == o.acquire_time && renew_time == o.renew_time
         && lease_transitions == o.lease_transitions;
}

} // namespace tessera::io
