// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/serving/self_signed.hpp"

#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>

namespace tessera::serving {

namespace {

template <class T, void (*Free)(T*)> struct deleter {
  void operator()(T* p) const noexcept {
    Free(p);
  }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, deleter<EVP_PKEY, EVP_PKEY_free>>;
using x509_ptr = std::unique_ptr<X509, deleter<X509, X509_free>>;
using bio_ptr = std::unique_ptr<BIO, deleter<BIO, BIO_free_all>>;
using ext_ptr = std::unique_ptr<X509_EXTENSION,
                                deleter<X509_EXTENSION, X509_EXTENSION_free>>;

error openssl_error(const std::string& step) {
  char buf[256] = {};
  ERR_error_string_n(ERR_get_error(), buf, sizeof buf);
  return make_error(ec::internal,
                    "self-signed certificate: " + step + ": " + buf);
}

std::string bio_text(BIO* b) {
  char* data = nullptr;
  long n = BIO_get_mem_data(b, &data);
  return std::string(data, static_cast<std::size_t>(n));
}

bool add_extension(X509* cert, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  ext_ptr ext{X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str())};
  return ext && X509_add_ext(cert, ext.get(), -1) == 1;
}

} // namespace

expected<certificate_pem>
make_self_signed_certificate(const self_signed_options& options) {
  pkey_ptr key{EVP_EC_gen("P-256")};
  if (!key)
    return openssl_error("generating the P-256 key");
  x509_ptr cert{X509_new()};
  if (!cert || X509_set_version(cert.get(), 2) != 1)
    return openssl_error("creating the certificate");
  unsigned char serial[16];
  if (RAND_bytes(serial, sizeof serial) != 1)
    return openssl_error("drawing a serial number");
  serial[0] &= 0x7f; // positive, as RFC 5280 requires
  BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
  bool serial_ok
    = bn != nullptr
      && BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get())) != nullptr;
  BN_free(bn);
  if (!serial_ok)
    return openssl_error("setting the serial number");
  // Valid from an hour ago, so a slightly skewed client clock still accepts.
  auto seconds
    = std::chrono::duration_cast<std::chrono::seconds>(options.validity)
        .count();
  if (X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) == nullptr
      || X509_gmtime_adj(X509_getm_notAfter(cert.get()), seconds) == nullptr)
    return openssl_error("setting the validity");
  X509_NAME* name = X509_get_subject_name(cert.get());
  if (X509_NAME_add_entry_by_txt(
        name, "CN", MBSTRING_UTF8,
        reinterpret_cast<const unsigned char*>(options.common_name.c_str()), -1,
        -1, 0)
        != 1
      || X509_set_issuer_name(cert.get(), name) != 1)
    return openssl_error("setting the subject");
  if (X509_set_pubkey(cert.get(), key.get()) != 1)
    return openssl_error("setting the public key");
  std::string san;
  for (const auto& d : options.dns_names)
    san += (san.empty() ? "DNS:" : ",DNS:") + d;
  for (const auto& ip : options.ip_addresses)
    san += (san.empty() ? "IP:" : ",IP:") + ip;
  if (!add_extension(cert.get(), NID_basic_constraints, "critical,CA:TRUE")
      || !add_extension(cert.get(), NID_key_usage,
                        "critical,digitalSignature,keyCertSign")
      || !add_extension(cert.get(), NID_ext_key_usage, "serverAuth")
      || (!san.empty()
          && !add_extension(cert.get(), NID_subject_alt_name, san)))
    return openssl_error("adding extensions");
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0)
    return openssl_error("signing");

  certificate_pem out;
  bio_ptr cert_bio{BIO_new(BIO_s_mem())};
  bio_ptr key_bio{BIO_new(BIO_s_mem())};
  if (!cert_bio || !key_bio
      || PEM_write_bio_X509(cert_bio.get(), cert.get()) != 1
      || PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0,
                                  nullptr, nullptr)
           != 1)
    return openssl_error("writing PEM");
  out.certificate = bio_text(cert_bio.get());
  out.private_key = bio_text(key_bio.get());
  return out;
}

} // namespace tessera::serving
