#!/usr/bin/python3
"""Python's websockets client doing what bench/ws_bench.cc does, for bench/run's WebSocket rows.

Usage: ws_client.py echo|throughput URL [--count N] [--size S] [--no-compress]
Prints round_trips_per_s= (echo) or mib_per_s= (throughput, both ways), as tern_ws_bench does.
"""
import argparse
import asyncio
import time

import websockets


def message(size):
    return "".join(chr(ord("a") + (i * 7 + i // 13) % 26) for i in range(size))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["echo", "throughput"])
    parser.add_argument("url")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--no-compress", action="store_true")
    args = parser.parse_args()
    text = message(args.size)
    compression = None if args.no_compress else "deflate"
    async with websockets.connect(args.url, compression=compression,
                                  max_size=64 * 1024 * 1024) as socket:
        start = time.monotonic()
        if args.mode == "echo":
            for _ in range(args.count):
                await socket.send(text)
                if await socket.recv() != text:
                    raise SystemExit("an echo differs from what was sent")
        else:
            async def sender():
                for _ in range(args.count):
                    await socket.send(text)
            task = asyncio.ensure_future(sender())
            for _ in range(args.count):
                if await socket.recv() != text:
                    raise SystemExit("an echo differs from what was sent")
            await task
        seconds = time.monotonic() - start
    if args.mode == "echo":
        print("round_trips_per_s=%f" % (args.count / seconds))
    else:
        print("mib_per_s=%f" % (2.0 * args.count * args.size / (1024 * 1024) / seconds))


asyncio.run(main())
