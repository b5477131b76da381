#!/usr/bin/env node
// A WebSocket server on 127.0.0.1 for tern's interop tests, on Node's ws (Debian's node-ws).
// The same commands as websockets_server.py: echoes every message except "close CODE REASON",
// "fragments", "big N", "info" (what was negotiated) and "ping".
// With --http2 it is an HTTP/2 server (cleartext, prior knowledge; with --tls KEY CERT over TLS
// with ALPN h2) that announces SETTINGS_ENABLE_CONNECT_PROTOCOL and takes WebSockets as extended
// CONNECT streams (RFC 8441), answering other requests with "h2 METHOD PATH"; "info" then also
// says "http2".
// Usage: ws_server.js PORT [--no-compression] [--server-no-context-takeover]
//        [--client-no-context-takeover] [--server-max-window-bits N]
//        [--http2 [--tls KEY CERT] [--no-connect-protocol]]
'use strict';
let wsPath;
try {
  wsPath = require.resolve('ws');
} catch (e) {
  wsPath = require.resolve('/usr/share/nodejs/ws');  // Debian's node-ws, if NODE_PATH lacks it.
}
const ws = require(wsPath);
const wsLib = (name) => require(require('path').join(require('path').dirname(wsPath), 'lib', name));

const args = process.argv.slice(2);
const port = Number(args[0]);
const has = (flag) => args.includes(flag);
const valueOf = (flag) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : undefined);

let perMessageDeflate = false;
if (!has('--no-compression')) {
  perMessageDeflate = {
    threshold: 0,
    serverNoContextTakeover: has('--server-no-context-takeover'),
    clientNoContextTakeover: has('--client-no-context-takeover'),
  };
  const bits = valueOf('--server-max-window-bits');
  if (bits !== undefined) perMessageDeflate.serverMaxWindowBits = bits;
}

const maxPayload = 32 * 1024 * 1024;
const valueAfter = (flag, n) => args[args.indexOf(flag) + n];

if (has('--http2')) {
  serveHttp2();
} else {
  const server = new ws.WebSocketServer({ host: '127.0.0.1', port, perMessageDeflate, maxPayload });
  server.on('connection', (socket, request) => serve(socket, request.headers, false));
}

// RFC 8441: each extended CONNECT stream with :protocol websocket becomes a ws WebSocket over the
// stream, negotiated as ws's own server does over HTTP/1.1.
function serveHttp2() {
  const http2 = require('http2');
  const fs = require('fs');
  const extension = wsLib('extension.js');
  const PerMessageDeflate = wsLib('permessage-deflate.js');
  const options = { settings: { enableConnectProtocol: !has('--no-connect-protocol') } };
  const server = has('--tls')
      ? http2.createSecureServer({
          ...options,
          key: fs.readFileSync(valueAfter('--tls', 1)),
          cert: fs.readFileSync(valueAfter('--tls', 2)),
        })
      : http2.createServer(options);
  server.on('stream', (stream, headers) => {
    if (headers[':method'] !== 'CONNECT' || headers[':protocol'] !== 'websocket') {
      stream.respond({ ':status': 200, 'content-type': 'text/plain' });
      stream.end('h2 ' + headers[':method'] + ' ' + headers[':path']);
      return;
    }
    const responseHeaders = { ':status': 200 };
    const extensions = {};
    const offer = headers['sec-websocket-extensions'];
    if (perMessageDeflate && offer !== undefined) {
      const deflate = new PerMessageDeflate(perMessageDeflate, true, maxPayload);
      const offers = extension.parse(offer);
      if (offers[PerMessageDeflate.extensionName]) {
        deflate.accept(offers[PerMessageDeflate.extensionName]);
        extensions[PerMessageDeflate.extensionName] = deflate;
        responseHeaders['sec-websocket-extensions'] =
            extension.format({ [PerMessageDeflate.extensionName]: [deflate.params] });
      }
    }
    stream.respond(responseHeaders);
    const socket = new ws.WebSocket(null);
    socket._extensions = extensions;
    stream.setNoDelay = () => {};  // ws tunes a TCP socket; a stream has nothing to tune.
    socket.setSocket(stream, Buffer.alloc(0), { maxPayload });
    serve(socket, headers, true);
  });
  server.listen(port, '127.0.0.1');
}

function serve(socket, headers, http2) {
  socket.on('message', (data, isBinary) => {
    const text = isBinary ? null : data.toString('utf8');
    if (text !== null && text.startsWith('close ')) {
      const [, code, ...reason] = text.split(' ');
      socket.close(Number(code), reason.join(' ').trim());
    } else if (text === 'fragments') {
      socket.send('Hel', { fin: false });
      socket.send('lo, ', { fin: false });
      socket.send('world', { fin: true });
    } else if (text !== null && text.startsWith('big ')) {
      const size = Number(text.split(' ')[1]);
      let big = '';
      for (let i = 0; i < size; i++) big += String.fromCharCode(97 + (i % 26));
      socket.send(big);
    } else if (text === 'info') {
      // What the client offered, and the parameters the server agreed to.
      const deflate = socket._extensions && socket._extensions['permessage-deflate'];
      const agreed = deflate ? 'permessage-deflate ' + JSON.stringify(deflate.params) : 'none';
      socket.send('extensions=[' + (headers['sec-websocket-extensions'] || '') + ' -> ' +
                  agreed + ']' + (http2 ? ' http2' : ''));
    } else if (text === 'ping') {
      socket.once('pong', () => socket.send('pong received'));
      socket.ping('hello');
    } else {
      socket.send(data, { binary: isBinary });
    }
  });
}
