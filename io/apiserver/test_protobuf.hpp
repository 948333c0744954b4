// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Helpers of the protobuf tests: bodies as a Go client writes them, and
/// what the server's decoder makes of them.
#pragma once

#include "io/apiserver/kube_wire.pb.h"
#include "io/apiserver/protobuf_body.hpp"

#include <boost/json.hpp>
#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace tessera::apiserver::test {

/// The envelope around `object` as kubectl writes it.
inline std::string envelope(const google::protobuf::Message& object,
                            const std::string& api_version,
                            const std::string& kind) {
  kube::Unknown u;
  u.mutable_typemeta()->set_apiversion(api_version);
  u.mutable_typemeta()->set_kind(kind);
  u.set_raw(object.SerializeAsString());
  return std::string{"k8s\0", 4} + u.SerializeAsString();
}

/// The JSON the server stores for a protobuf body; null (and a failure)
/// when it refuses the body.
inline boost::json::value decode(std::string_view body) {
  auto r = protobuf_body_to_json(body);
  EXPECT_TRUE(r) << r.err().message;
  if (!r)
    return nullptr;
  return boost::json::parse(*r);
}

} // namespace tessera::apiserver::test
