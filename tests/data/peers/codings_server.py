#!/usr/bin/python3
# A real content-coding peer for tests/interop/content_coding_interop_test.cc: Python's own
# brotli and zstandard modules (Debian's python3-brotli, python3-zstandard) and its gzip, on
# 127.0.0.1:PORT over HTTP/1.1.
#
#   GET /text/N       N deterministic bytes of text, encoded with the first of the server's
#                     preference (br, zstd, gzip; or the one named by ?prefer=) that the request's
#                     Accept-Encoding lists; identity if none. X-Accept-Encoding echoes the
#                     request's header.
#   GET /corrupt/C    a body that is not valid C, with "Content-Encoding: C".
import gzip
import random
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import brotli
import zstandard

WORDS = [b"alpha ", b"bravo ", b"charlie ", b"delta ", b"echo ", b"foxtrot "]


def text(size):
    # Words in a pseudo-random order with digits: about 4:1, as ordinary text. (A periodic text
    # would compress past any ratio limit: Brotli makes 3 MB of a short period into 100 bytes.)
    rng = random.Random(1)
    out = bytearray()
    while len(out) < size:
        out += rng.choice(WORDS)
        if rng.random() < 0.25:
            out += str(rng.randrange(10)).encode()
    return bytes(out[:size])


def encode(coding, data):
    if coding == "br":
        return brotli.compress(data, quality=5)
    if coding == "zstd":
        return zstandard.ZstdCompressor(level=3, write_checksum=True).compress(data)
    if coding == "gzip":
        return gzip.compress(data)
    return data


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        url = urlparse(self.path)
        parts = url.path.strip("/").split("/")
        accepted = [c.split(";")[0].strip().lower()
                    for c in self.headers.get("Accept-Encoding", "").split(",")]
        if parts[0] == "text":
            prefer = parse_qs(url.query).get("prefer", ["br"])[0]
            order = [prefer] + [c for c in ("br", "zstd", "gzip") if c != prefer]
            coding = next((c for c in order if c in accepted), "identity")
            body = encode(coding, text(int(parts[1])))
        elif parts[0] == "corrupt":
            coding = parts[1]
            body = b"this is not " + coding.encode()
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        if coding != "identity":
            self.send_header("Content-Encoding", coding)
        self.send_header("X-Accept-Encoding", self.headers.get("Accept-Encoding", ""))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        sys.stderr.write(format % args + "\n")


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
