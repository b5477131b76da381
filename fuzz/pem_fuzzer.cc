// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Decodes arbitrary bytes as PEM the three ways a user can: one certificate, a chain or CA
// bundle, a held certificate (certificate + private key), and a private key alone. Bad input must
// be std::invalid_argument, never a crash, a hang or another exception; what decodes must read
// back through every accessor and re-encode to the same certificate.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "tern/certificate.h"
#include "tern/ok_hostname_verifier.h"
#include "tern/tls/held_certificate.h"
#include "tern/tls/key_pair.h"

namespace {

void exercise(const tern::Certificate& certificate) {
  (void)certificate.subject();
  (void)certificate.issuer();
  (void)certificate.commonName();
  (void)certificate.serialNumber();
  (void)certificate.notBefore();
  (void)certificate.notAfter();
  (void)certificate.pin();
  (void)certificate.publicKeyAlgorithm();
  (void)certificate.basicConstraints();
  (void)certificate.isSelfSigned();
  (void)tern::OkHostnameVerifier::allSubjectAltNames(certificate);
  (void)tern::OkHostnameVerifier::instance()->verify("www.example.com", certificate);
  (void)tern::OkHostnameVerifier::instance()->verify("127.0.0.1", certificate);
  // What decoded re-encodes to a certificate that decodes to itself.
  if (!(tern::Certificate::decodePem(certificate.pem()) == certificate)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view pem(reinterpret_cast<const char*>(data), size);
  try {
    exercise(tern::Certificate::decodePem(pem));
  } catch (const std::invalid_argument&) {
  }
  try {
    for (const tern::Certificate& certificate : tern::Certificate::decodePemChain(pem)) {
      exercise(certificate);
    }
  } catch (const std::invalid_argument&) {
  }
  try {
    tern::tls::HeldCertificate held = tern::tls::HeldCertificate::decode(pem);
    exercise(held.certificate());
    (void)held.privateKeyPkcs8Pem();
  } catch (const std::invalid_argument&) {
  }
  try {
    (void)tern::tls::KeyPair::decodePem(pem).privateKeyPkcs8Pem();
  } catch (const std::invalid_argument&) {
  }
  try {
    (void)tern::Certificate::fromDer(std::vector<uint8_t>(data, data + size));
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
