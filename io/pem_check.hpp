// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `check_pem`: whether PEM text holds what a TLS setting needs, so that a
/// bad certificate or key in a kubeconfig (or a flag) is refused at start,
/// naming its field, instead of failing every request later with a
/// misleading handshake error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::io {

enum class pem_kind : std::uint8_t {
  /// One or more X.509 certificates (a CA bundle, a certificate chain).
  certificates,
  /// One unencrypted private key.
  private_key,
};

/// "" when `pem` holds at least one block of `kind` that OpenSSL can read,
/// else why not ("not a PEM certificate", ...).
std::string check_pem(std::string_view pem, pem_kind kind);

} // namespace tessera::io
