#!/usr/bin/env node
// Node's ws client doing what bench/ws_bench.cc does, for bench/run's WebSocket rows (Debian's
// node-ws). Usage: ws_client.js echo|throughput URL [--count N] [--size S] [--no-compress]
// Prints round_trips_per_s= (echo) or mib_per_s= (throughput, both ways), as tern_ws_bench does.
'use strict';
let ws;
try {
  ws = require('ws');
} catch (e) {
  ws = require('/usr/share/nodejs/ws');  // Debian's node-ws, if NODE_PATH lacks it.
}

const args = process.argv.slice(2);
const mode = args[0];
const url = args[1];
const option = (flag, fallback) =>
  (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback);
const count = option('--count', 1000);
const size = option('--size', 1024);
if (mode !== 'echo' && mode !== 'throughput') {
  console.error('usage: ws_client.js echo|throughput URL [--count N] [--size S] [--no-compress]');
  process.exit(2);
}

let text = '';
for (let i = 0; i < size; i++) text += String.fromCharCode(97 + ((i * 7 + Math.floor(i / 13)) % 26));

const socket = new ws.WebSocket(url, {
  perMessageDeflate: args.includes('--no-compress') ? false : { threshold: 0 },
  maxPayload: 64 * 1024 * 1024,
});
socket.on('error', (e) => {
  console.error('ws_client.js: ' + e.message);
  process.exit(1);
});
socket.on('open', () => {
  const start = process.hrtime.bigint();
  let received = 0;
  socket.on('message', (data) => {
    if (data.toString('utf8') !== text) {
      console.error('ws_client.js: an echo differs from what was sent');
      process.exit(1);
    }
    received++;
    if (received === count) {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      if (mode === 'echo') {
        console.log('round_trips_per_s=' + (count / seconds).toFixed(6));
      } else {
        console.log('mib_per_s=' + ((2 * count * size) / (1024 * 1024) / seconds).toFixed(6));
      }
      socket.close(1000);
    } else if (mode === 'echo') {
      socket.send(text);
    }
  });
  if (mode === 'echo') {
    socket.send(text);
  } else {
    for (let i = 0; i < count; i++) socket.send(text);
  }
});
