#!/usr/bin/env node
// A WebSocket server on 127.0.0.1 for tern's interop tests, on Node's ws (Debian's node-ws).
// The same commands as websockets_server.py: echoes every message except "close CODE REASON",
// "fragments", "big N", "info" (what was negotiated) and "ping".
// Usage: ws_server.js PORT [--no-compression] [--server-no-context-takeover]
//        [--client-no-context-takeover] [--server-max-window-bits N]
'use strict';
let ws;
try {
  ws = require('ws');
} catch (e) {
  ws = require('/usr/share/nodejs/ws');  // Debian's node-ws, where NODE_PATH does not name it.
}

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

const server = new ws.WebSocketServer({
  host: '127.0.0.1',
  port,
  perMessageDeflate,
  maxPayload: 32 * 1024 * 1024,
});

server.on('connection', (socket, request) => {
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
      socket.send('extensions=[' + (request.headers['sec-websocket-extensions'] || '') + ' -> ' +
                  agreed + ']');
    } else if (text === 'ping') {
      socket.once('pong', () => socket.send('pong received'));
      socket.ping('hello');
    } else {
      socket.send(data, { binary: isBinary });
    }
  });
});
