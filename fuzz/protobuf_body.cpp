// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// A protobuf request body as the embedded API server decodes it
// (`Content-Type: application/vnd.kubernetes.protobuf`): the raw bytes,
// envelope included. Every body it accepts must give a JSON object that
// names the envelope's kind, and encoding that JSON as a reply must give
// the same JSON back through the decoder, with nothing dropped.
#include "io/apiserver/protobuf_body.hpp"

#include "fuzz/fuzz_input.hpp"
#include "io/apiserver/protobuf_reply.hpp"

#include <boost/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto decoded = apiserver::protobuf_body_to_json(fuzz::as_text(data, size));
  if (!decoded) {
    int code = decoded.err().code;
    if (code != 400 && code != 415)
      fuzz::finding("a refused body must be 400 or 415, got "
                    + std::to_string(code));
    return 0;
  }
  boost::json::error_code ec;
  auto v = boost::json::parse(*decoded, ec);
  if (ec || !v.is_object() || !v.as_object().contains("kind")) {
    fuzz::finding("decoded body is not a JSON object with a kind: " + *decoded);
    return 0;
  }
  auto encoded = apiserver::encode_protobuf_reply(*decoded);
  if (!encoded) {
    fuzz::finding("a decoded body has no protobuf form: " + *decoded);
    return 0;
  }
  if (!encoded->dropped.empty())
    fuzz::finding("encoding a decoded body dropped " + encoded->dropped.front()
                  + ": " + *decoded);
  auto again = apiserver::protobuf_body_to_json(encoded->bytes);
  if (!again || boost::json::parse(*again) != v)
    fuzz::finding("decode(encode(json)) differs from json: " + *decoded
                  + " became " + (again ? *again : again.err().message));
  return 0;
}
