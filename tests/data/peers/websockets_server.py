#!/usr/bin/python3
"""A WebSocket server on 127.0.0.1 for tern's interop tests, on Debian's python3-websockets.

Echoes every message (text as text, binary as binary), except these text commands:
  "close CODE REASON"  closes with CODE and REASON
  "fragments"          sends "Hello, world" as three fragments
  "big N"              sends a text message of N bytes
  "info"               sends what was negotiated: "extensions=[...]" with permessage-deflate's
                       parameters, or "extensions=[]"
  "ping"               pings the client, and sends "pong received" once its pong came
Usage: websockets_server.py PORT [--no-compression] [--server-no-context-takeover]
       [--client-no-context-takeover] [--server-max-window-bits N]
"""
import argparse
import asyncio

import websockets
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory


def describe(extension):
    return ("permessage-deflate(remote_no_context_takeover=%s, local_no_context_takeover=%s, "
            "remote_max_window_bits=%s, local_max_window_bits=%s)" % (
                extension.remote_no_context_takeover, extension.local_no_context_takeover,
                extension.remote_max_window_bits, extension.local_max_window_bits))


async def handler(websocket, path=None):
    async for message in websocket:
        if isinstance(message, str) and message.startswith("close "):
            _, code, reason = (message + " ").split(" ", 2)
            await websocket.close(int(code), reason.strip())
            return
        if message == "fragments":
            await websocket.send(["Hel", "lo, ", "world"])
        elif isinstance(message, str) and message.startswith("big "):
            size = int(message.split(" ")[1])
            await websocket.send("".join(chr(ord("a") + i % 26) for i in range(size)))
        elif message == "info":
            await websocket.send(
                "extensions=[%s]" % ", ".join(describe(e) for e in websocket.extensions))
        elif message == "ping":
            waiter = await websocket.ping(b"hello")
            await waiter
            await websocket.send("pong received")
        else:
            await websocket.send(message)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("--no-compression", action="store_true")
    parser.add_argument("--server-no-context-takeover", action="store_true")
    parser.add_argument("--client-no-context-takeover", action="store_true")
    parser.add_argument("--server-max-window-bits", type=int)
    args = parser.parse_args()
    extensions = None
    compression = None
    if not args.no_compression:
        extensions = [ServerPerMessageDeflateFactory(
            server_no_context_takeover=args.server_no_context_takeover,
            client_no_context_takeover=args.client_no_context_takeover,
            server_max_window_bits=args.server_max_window_bits,
        )]
    async with websockets.serve(handler, "127.0.0.1", args.port, compression=compression,
                                extensions=extensions, max_size=32 * 1024 * 1024):
        await asyncio.Future()


asyncio.run(main())
