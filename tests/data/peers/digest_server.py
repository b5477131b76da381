#!/usr/bin/env python3
"""A minimal HTTP Digest (RFC 7616) server for tern's tests, on 127.0.0.1.

Usage: digest_server.py PORT USER PASSWORD [ALGORITHM ...]

Every request without a valid Authorization header gets a 401 with one WWW-Authenticate: Digest
challenge per ALGORITHM (default MD5), each with a fresh nonce, qop="auth" and an opaque value.
A valid answer (right username, realm, uri, opaque, a nonce this server issued, an nc above the
last one seen for that nonce, and the right response hash) gets 200 and a body naming the user,
the algorithm and the path. It checks the answer independently of tern: hashlib only.
"""
import hashlib
import http.server
import re
import secrets
import sys
import threading

REALM = "tern-test@127.0.0.1"
OPAQUE = "5ccc069c403ebaf9f0171e9517f40e41"
HASHES = {"MD5": "md5", "SHA-256": "sha256", "SHA-512-256": "sha512_256"}

port = int(sys.argv[1])
user, password = sys.argv[2], sys.argv[3]
algorithms = sys.argv[4:] or ["MD5"]
lock = threading.Lock()
nonces = {}  # Issued nonce -> highest nc seen.


def h(algorithm, text):
    base = algorithm[:-5] if algorithm.endswith("-sess") else algorithm
    return hashlib.new(HASHES[base], text.encode()).hexdigest()


def parse(value):
    """The auth-params of a "Digest a=b, c="d"" credential, as a dict."""
    if not value.startswith("Digest "):
        return None
    params = {}
    for match in re.finditer(r'([\w*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))', value[7:]):
        quoted = match.group(2)
        params[match.group(1).lower()] = (
            re.sub(r"\\(.)", r"\1", quoted) if quoted is not None else match.group(3)
        )
    return params


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def verified(self):
        p = parse(self.headers.get("Authorization", ""))
        if not p:
            return None
        algorithm = p.get("algorithm", "MD5")
        if algorithm not in algorithms or p.get("username") != user or p.get("realm") != REALM:
            return None
        if p.get("uri") != self.path or p.get("opaque") != OPAQUE or p.get("qop") != "auth":
            return None
        nonce, cnonce, nc = p.get("nonce"), p.get("cnonce", ""), p.get("nc", "")
        with lock:
            if nonce not in nonces or not re.fullmatch(r"[0-9a-fA-F]{8}", nc):
                return None
            if int(nc, 16) <= nonces[nonce]:
                return None  # A replayed nonce count.
            nonces[nonce] = int(nc, 16)
        ha1 = h(algorithm, f"{user}:{REALM}:{password}")
        if algorithm.endswith("-sess"):
            ha1 = h(algorithm, f"{ha1}:{nonce}:{cnonce}")
        ha2 = h(algorithm, f"{self.command}:{self.path}")
        expected = h(algorithm, f"{ha1}:{nonce}:{nc}:{cnonce}:auth:{ha2}")
        return algorithm if p.get("response") == expected else None

    def respond(self, code, body, headers=()):
        data = body.encode()
        self.send_response(code)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_GET(self):
        algorithm = self.verified()
        if algorithm:
            self.respond(200, f"Hello, {user}! ({algorithm}, {self.path})\n")
            return
        challenges = []
        with lock:
            for name in algorithms:
                nonce = secrets.token_hex(16)
                nonces[nonce] = 0
                challenges.append(
                    (
                        "WWW-Authenticate",
                        f'Digest realm="{REALM}", qop="auth", algorithm={name}, '
                        f'nonce="{nonce}", opaque="{OPAQUE}"',
                    )
                )
        self.respond(401, "Unauthorized.\n", challenges)

    do_HEAD = do_GET

    def log_message(self, format, *args):
        sys.stderr.write("digest_server: " + (format % args) + "\n")


server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
print(f"listening on 127.0.0.1:{port}", flush=True)
server.serve_forever()
