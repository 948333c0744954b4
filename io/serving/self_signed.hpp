// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `make_self_signed_certificate`: an ECDSA P-256 key and a self-signed
/// X.509 certificate for it, both PEM, made in memory. kube-scheduler does
/// the same at start when its secure port has no certificate files; the
/// names (`localhost`, `127.0.0.1`, the host name) go into the subject
/// alternative names so a client can still verify against the certificate
/// it fetched.
#pragma once

#include "support/error.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace tessera::serving {

struct certificate_pem {
  std::string certificate;
  std::string private_key;
};

struct self_signed_options {
  /// Subject CN (upstream: `<host>@<unix time>`).
  std::string common_name = "localhost";
  /// DNS names for the subjectAltName extension.
  std::vector<std::string> dns_names = {"localhost"};
  /// IP addresses for the subjectAltName extension.
  std::vector<std::string> ip_addresses = {"127.0.0.1"};
  std::chrono::hours validity{24 * 365};
};

/// Makes a key and certificate; an error names the OpenSSL step that
/// failed.
[[nodiscard]] expected<certificate_pem>
make_self_signed_certificate(const self_signed_options& options);

} // namespace tessera::serving
