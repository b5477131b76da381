// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Certificates for TLS tests, made in code (no test ships a certificate file): a root CA, a
// "localhost" server certificate it signed, and a client certificate for mutual TLS, with the
// HandshakeCertificates each side uses (OkHttp's okhttp-testing-support localhost()).
#pragma once

#include "tern/tls/handshake_certificates.h"
#include "tern/tls/held_certificate.h"

namespace tern::testing {

// Fresh certificates per instance: a key generation each, fast with EC P-256.
struct TestCertificates {
  tls::HeldCertificate root =
      tls::HeldCertificate::Builder().certificateAuthority(0).commonName("tern test root").build();
  // Valid for localhost, 127.0.0.1 and ::1.
  tls::HeldCertificate localhost = tls::HeldCertificate::Builder()
                                       .commonName("localhost")
                                       .addSubjectAlternativeName("localhost")
                                       .addSubjectAlternativeName("127.0.0.1")
                                       .addSubjectAlternativeName("::1")
                                       .signedBy(root)
                                       .build();
  tls::HeldCertificate client =
      tls::HeldCertificate::Builder().commonName("client").signedBy(root).build();

  // What MockWebServer (or any test server) presents; it also trusts the root, so it accepts the
  // client certificate when it asks for one.
  tls::HandshakeCertificates server() const {
    return tls::HandshakeCertificates::Builder()
        .heldCertificate(localhost)
        .addTrustedCertificate(root.certificate())
        .build();
  }
  // What a client trusts: the root only.
  tls::HandshakeCertificates clientTrust() const {
    return tls::HandshakeCertificates::Builder().addTrustedCertificate(root.certificate()).build();
  }
  // The root, and the client certificate for mutual TLS.
  tls::HandshakeCertificates clientWithCertificate() const {
    return tls::HandshakeCertificates::Builder()
        .addTrustedCertificate(root.certificate())
        .heldCertificate(client)
        .build();
  }
};

}  // namespace tern::testing
