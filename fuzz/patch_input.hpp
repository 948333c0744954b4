// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The input of the three patch targets: the first line names the resource
/// whose merge keys apply ("pods"), then the stored object's JSON, a line
/// `---`, and the patch's JSON. Both are parsed as the store parses them;
/// only an object can be a stored object.
#pragma once

#include "fuzz/fuzz_input.hpp"
#include "io/apiserver/patch.hpp"
#include "io/apiserver/stored_object.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <optional>

namespace tessera::fuzz {

struct patch_input {
  apiserver::storage_kind storage = apiserver::storage_kind::pod;
  boost::json::value target;
  boost::json::value patch;
};

inline std::optional<patch_input> read_patch_input(const std::uint8_t* data,
                                                   std::size_t size) {
  auto [resource, rest] = first_line(as_text(data, size));
  auto [target, patch] = split_at_marker(rest);
  patch_input in;
  bool known = false;
  for (const auto& res : apiserver::all_resources())
    if (res.name == resource) {
      in.storage = res.storage;
      known = true;
      break;
    }
  if (!known)
    return std::nullopt;
  boost::json::error_code ec;
  in.target = boost::json::parse(target, ec);
  if (ec || !in.target.is_object()
      || apiserver::json_doc::non_finite_number(in.target))
    return std::nullopt;
  in.patch = boost::json::parse(patch, ec);
  if (ec || apiserver::json_doc::non_finite_number(in.patch))
    return std::nullopt;
  return in;
}

/// Applies the input's patch; when `idempotent`, applying it a second time
/// must change nothing (RFC 7386 merge patches are). Strategic merge
/// patches are not, upstream either: a keyed list element without its
/// merge key is taken as is when the list is absent, and refused once the
/// list exists.
inline int run_patch(const std::uint8_t* data, std::size_t size,
                     apiserver::patch_type type, bool idempotent) {
  auto in = read_patch_input(data, size);
  if (!in)
    return -1;
  if (apiserver::apply_patch(in->target, in->patch, type, in->storage))
    return 0; // a malformed patch or a failed operation: 422/400
  if (!idempotent)
    return 0;
  boost::json::value twice = in->target;
  if (auto err = apiserver::apply_patch(twice, in->patch, type, in->storage))
    finding("a patch that applied once fails the second time", *err);
  if (twice != in->target)
    finding("applying a patch twice differs from applying it once",
            boost::json::serialize(in->target) + "\n"
              + boost::json::serialize(twice));
  return 0;
}

} // namespace tessera::fuzz
