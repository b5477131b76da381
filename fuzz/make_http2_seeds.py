#!/usr/bin/env python3
# Writes the seed corpus of http2_frames_fuzzer (fuzz/corpus/http2_frames_fuzzer/): what real
# servers send on an HTTP/2 connection (RFC 9113), frame by frame, with HPACK (RFC 7541) by hand.
# Each file is one option byte (see the fuzzer's comment) and the server's bytes.
# Usage: fuzz/make_http2_seeds.py
import os
import struct

DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, \
    CONTINUATION = range(10)
END_STREAM, ACK, END_HEADERS, PADDED, PRIORITY_FLAG = 0x1, 0x1, 0x4, 0x8, 0x20


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def settings(*pairs, ack=False):
    return frame(SETTINGS, ACK if ack else 0, 0, b"".join(struct.pack(">HI", k, v) for k, v in pairs))


def literal(name, value):
    """A literal header field without indexing, new name (RFC 7541 §6.2.2), no Huffman."""
    assert len(name) < 127 and len(value) < 127
    return b"\x00" + bytes([len(name)]) + name.encode() + bytes([len(value)]) + value.encode()


STATUS_200 = b"\x88"  # Static table index 8 (RFC 7541 Appendix A).
STATUS_204 = b"\x89"
STATUS_404 = b"\x8d"


def headers(stream, block, end_stream=False, end_headers=True, flags=0):
    f = flags | (END_STREAM if end_stream else 0) | (END_HEADERS if end_headers else 0)
    return frame(HEADERS, f, stream, block)


def data(stream, payload, end_stream=False):
    return frame(DATA, END_STREAM if end_stream else 0, stream, payload)


PREFACE = settings((3, 100), (4, 65535)) + settings(ack=True)
OK = STATUS_200 + literal("content-type", "text/plain")


def seeds():
    yield "get_no_body", 0x30, PREFACE + headers(1, STATUS_204, end_stream=True)
    yield "get_body", 0x40, PREFACE + headers(1, OK + literal("content-length", "5")) + \
        data(1, b"hello", end_stream=True)
    yield "empty_settings_prepended", 0x38, headers(1, STATUS_200) + data(1, b"abc") + \
        data(1, b"", end_stream=True)
    yield "three_streams_interleaved", 0x22, PREFACE + headers(3, OK) + headers(1, STATUS_404) + \
        headers(5, OK) + data(1, b"one") + data(3, b"three", True) + data(1, b"!", True) + \
        data(5, b"five", True)
    yield "trailers", 0x40, PREFACE + headers(1, OK) + data(1, b"abc") + \
        headers(1, literal("grpc-status", "0") + literal("grpc-message", "ok"), end_stream=True)
    yield "interim_100_then_200", 0x44, PREFACE + headers(1, b"\x08\x03100") + \
        headers(1, OK) + data(1, b"posted", end_stream=True)
    yield "rst_refused", 0x30, PREFACE + frame(RST_STREAM, 0, 1, struct.pack(">I", 7))
    yield "rst_after_headers", 0x31, PREFACE + headers(1, OK) + headers(3, OK) + \
        data(1, b"partial") + frame(RST_STREAM, 0, 1, struct.pack(">I", 2)) + \
        data(3, b"done", True)
    yield "goaway_last_stream_1", 0x32, PREFACE + \
        frame(GOAWAY, 0, 0, struct.pack(">II", 1, 0) + b"bye") + headers(1, OK) + \
        data(1, b"last", True)
    yield "goaway_protocol_error", 0x30, PREFACE + frame(GOAWAY, 0, 0, struct.pack(">II", 0, 1))
    yield "ping_and_window_update", 0x30, PREFACE + frame(PING, 0, 0, b"12345678") + \
        frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", 1 << 20)) + \
        frame(WINDOW_UPDATE, 0, 1, struct.pack(">I", 1000)) + headers(1, OK) + \
        data(1, b"x", True)
    yield "small_windows_post", 0x34, settings((4, 1), (5, 16384), (3, 1)) + settings(ack=True) + \
        frame(WINDOW_UPDATE, 0, 1, struct.pack(">I", 4)) + headers(1, OK) + data(1, b"ok", True)
    yield "continuation", 0x30, PREFACE + headers(1, STATUS_200, end_headers=False) + \
        frame(CONTINUATION, 0, 1, literal("x-a", "1")) + \
        frame(CONTINUATION, END_HEADERS, 1, literal("x-b", "2")) + data(1, b"c", True)
    yield "padded_and_priority", 0x30, PREFACE + \
        frame(HEADERS, END_HEADERS | PADDED | PRIORITY_FLAG, 1,
              b"\x03" + struct.pack(">IB", 0, 15) + OK + b"\x00\x00\x00") + \
        frame(DATA, PADDED | END_STREAM, 1, b"\x02hi\x00\x00") + \
        frame(PRIORITY, 0, 3, struct.pack(">IB", 1, 7))
    yield "push_promise_refused", 0x30, PREFACE + \
        frame(PUSH_PROMISE, END_HEADERS, 1, struct.pack(">I", 2) + STATUS_200)
    yield "dynamic_table", 0x31, settings((1, 256)) + settings(ack=True) + \
        headers(1, STATUS_200 + b"\x40\x06x-seen\x03one") + data(1, b"", True) + \
        headers(3, b"\x3f\xe1\x01" + STATUS_200 + b"\xbe") + data(3, b"", True)
    yield "cancel_mid_body", 0xb0, PREFACE + headers(1, OK) + data(1, b"a" * 100) + \
        data(1, b"b" * 100, True)
    yield "byte_by_byte", 0x02, PREFACE + headers(1, OK) + headers(3, OK) + headers(5, OK) + \
        data(5, b"5", True) + data(3, b"3", True) + data(1, b"1", True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "corpus", "http2_frames_fuzzer")
    os.makedirs(out, exist_ok=True)
    for name, options, payload in seeds():
        with open(os.path.join(out, name), "wb") as f:
            f.write(bytes([options]) + payload)


if __name__ == "__main__":
    main()
