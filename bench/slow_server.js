#!/usr/bin/env node
// The scale scenarios' server (bench/run): answers GET /slow after DELAY_MS (issue 18's "a server
// that answers each after 1 s") and anything else at once, with "hello\n", over HTTP/1.1
// cleartext on HTTP_PORT and over TLS on HTTPS_PORT (h2 by ALPN, HTTP/1.1 too). Node's own http
// and http2 modules: one event loop holds every waiting request, so the server is never what
// limits the clients under test.
//   slow_server.js HTTP_PORT HTTPS_PORT CERT_PEM KEY_PEM [DELAY_MS]
// Prints "ready" once both ports listen.
'use strict';
const fs = require('fs');
const http = require('http');
const http2 = require('http2');

const [httpPort, httpsPort, certFile, keyFile, delayArg] = process.argv.slice(2);
if (!keyFile) {
  console.error('usage: slow_server.js HTTP_PORT HTTPS_PORT CERT_PEM KEY_PEM [DELAY_MS]');
  process.exit(2);
}
const delayMs = Number(delayArg || 1000);
const body = 'hello\n';

function answer(request, response) {
  const send = () => {
    response.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length });
    response.end(body);
  };
  if (request.url.startsWith('/slow')) setTimeout(send, delayMs); else send();
}

// Room for every client connection at once (the kernel caps the backlog at somaxconn), and no
// idle timeout shorter than a run.
const backlog = 8192;
const h1 = http.createServer({ keepAliveTimeout: 120000 }, answer);
h1.headersTimeout = 0;
h1.requestTimeout = 0;

// Any number of streams on one connection, and memory for them (maxSessionMemory is in MB;
// Node refuses new streams beyond it).
const h2 = http2.createSecureServer({
  cert: fs.readFileSync(certFile),
  key: fs.readFileSync(keyFile),
  allowHTTP1: true,
  maxSessionMemory: 1024,
  settings: { maxConcurrentStreams: 100000 },
  peerMaxConcurrentStreams: 100000,
}, answer);
h2.setTimeout(0);

let listening = 0;
const ready = () => { if (++listening === 2) console.log('ready'); };
h1.listen({ port: Number(httpPort), host: '127.0.0.1', backlog }, ready);
h2.listen({ port: Number(httpsPort), host: '127.0.0.1', backlog }, ready);
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
