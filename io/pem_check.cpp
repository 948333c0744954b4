// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/pem_check.hpp"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <memory>

namespace tessera::io {

std::string check_pem(std::string_view pem, pem_kind kind) {
  if (pem.empty())
    return "is empty";
  std::unique_ptr<BIO, decltype(&BIO_free)> bio{
    BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free};
  if (!bio)
    return "cannot be read";
  std::string problem;
  if (kind == pem_kind::certificates) {
    int count = 0;
    while (X509* cert
           = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
      X509_free(cert);
      ++count;
    }
    if (count == 0)
      problem = "does not hold a PEM certificate";
  } else {
    EVP_PKEY* key
      = PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr);
    if (key == nullptr)
      problem = "does not hold a PEM private key";
    EVP_PKEY_free(key);
  }
  // The reads leave their failure (at least the end of input) queued on
  // this thread; nothing else must see it.
  ERR_clear_error();
  return problem;
}

} // namespace tessera::io
