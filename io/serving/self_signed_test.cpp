// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/serving/self_signed.hpp"

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace tessera::serving {
namespace {

TEST(self_signed, certificate_matches_key_and_names) {
  self_signed_options o;
  o.common_name = "tessera-test@1";
  o.dns_names = {"localhost", "scheduler.example"};
  o.ip_addresses = {"127.0.0.1"};
  auto pem = make_self_signed_certificate(o);
  ASSERT_TRUE(pem) << pem.err().message;
  EXPECT_TRUE(pem->certificate.starts_with("-----BEGIN CERTIFICATE-----"));
  EXPECT_NE(pem->private_key.find("PRIVATE KEY-----"), std::string::npos);

  BIO* cb = BIO_new_mem_buf(pem->certificate.data(),
                            static_cast<int>(pem->certificate.size()));
  X509* cert = PEM_read_bio_X509(cb, nullptr, nullptr, nullptr);
  BIO* kb = BIO_new_mem_buf(pem->private_key.data(),
                            static_cast<int>(pem->private_key.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(kb, nullptr, nullptr, nullptr);
  ASSERT_NE(cert, nullptr);
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(X509_check_private_key(cert, key), 1);
  // Self-signed: verifies with its own public key.
  EXPECT_EQ(X509_verify(cert, key), 1);
  struct test_case {
    std::string name;
    bool ip;
    bool expected;
  };
  for (const auto& tc :
       std::vector<test_case>{{"localhost", false, true},
                              {"scheduler.example", false, true},
                              {"other.example", false, false},
                              {"127.0.0.1", true, true},
                              {"10.0.0.1", true, false}}) {
    SCOPED_TRACE(tc.name);
    int r = tc.ip ? X509_check_ip_asc(cert, tc.name.c_str(), 0)
                  : X509_check_host(cert, tc.name.c_str(), tc.name.size(), 0,
                                    nullptr);
    EXPECT_EQ(r == 1, tc.expected);
  }
  X509_free(cert);
  EVP_PKEY_free(key);
  BIO_free(cb);
  BIO_free(kb);
}

TEST(self_signed, each_call_makes_a_new_key) {
  auto a = make_self_signed_certificate({});
  auto b = make_self_signed_certificate({});
  ASSERT_TRUE(a);
  ASSERT_TRUE(b);
  EXPECT_NE(a->private_key, b->private_key);
  EXPECT_NE(a->certificate, b->certificate);
}

} // namespace
} // namespace tessera::serving
