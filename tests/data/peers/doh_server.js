#!/usr/bin/env node
// A DNS over HTTPS responder (RFC 8484) on 127.0.0.1 for tern's tests, on Node's built-in http2
// over TLS (ALPN h2): independent of tern's DNS codec. Answers GET /dns-query?dns=BASE64URL and
// POST /dns-query (application/dns-message) for A and AAAA from a fixed table, NXDOMAIN for any
// other name, and logs each query to stdout as "METHOD NAME TYPE".
// Usage: doh_server.js PORT KEY CERT NAME=ADDR[,ADDR...]...   (e.g. app.test=127.0.0.1,::1)
'use strict';
const http2 = require('http2');
const fs = require('fs');
const net = require('net');

const [port, keyFile, certFile, ...entries] = process.argv.slice(2);
const table = new Map();
for (const entry of entries) {
  const [name, addresses] = entry.split('=');
  table.set(name.toLowerCase(), addresses.split(','));
}
const TTL = 300;

// The question of a query: its name (no compression in a query), type, and where it ends.
function readQuestion(message) {
  let at = 12;
  const labels = [];
  while (message[at] !== 0) {
    const length = message[at];
    labels.push(message.subarray(at + 1, at + 1 + length).toString('latin1'));
    at += 1 + length;
  }
  at += 1;
  return { name: labels.join('.'), type: message.readUInt16BE(at), end: at + 4 };
}

function ipv6Bytes(text) {
  const [head, tail] = text.split('::');
  const parse = (part) => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  const groups = [...first, ...new Array(8 - first.length - last.length).fill(0), ...last];
  const bytes = Buffer.alloc(16);
  groups.forEach((g, i) => bytes.writeUInt16BE(g, i * 2));
  return bytes;
}

function answer(query) {
  const question = readQuestion(query);
  const addresses = table.get(question.name.toLowerCase());
  const records = (addresses || [])
    .filter((a) => (question.type === 1 ? net.isIPv4(a) : question.type === 28 && net.isIPv6(a)))
    .map((a) => {
      const data = question.type === 1 ? Buffer.from(a.split('.').map(Number)) : ipv6Bytes(a);
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0);  // The question's name, compressed.
      record.writeUInt16BE(question.type, 2);
      record.writeUInt16BE(1, 4);
      record.writeUInt32BE(TTL, 6);
      record.writeUInt16BE(data.length, 10);
      return Buffer.concat([record, data]);
    });
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  header.writeUInt16BE(0x8180 | (addresses ? 0 : 3), 2);  // QR RD RA, NXDOMAIN if unknown.
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  return { name: question.name, type: question.type,
           message: Buffer.concat([header, query.subarray(12, question.end), ...records]) };
}

const server = http2.createSecureServer({
  key: fs.readFileSync(keyFile),
  cert: fs.readFileSync(certFile),
});
server.on('stream', (stream, headers) => {
  const method = headers[':method'];
  const url = new URL(headers[':path'], 'https://localhost');
  const respond = (query) => {
    let result;
    try {
      result = answer(query);
    } catch (e) {
      stream.respond({ ':status': 400 });
      stream.end('bad query');
      return;
    }
    console.log(`${method} ${result.name} ${result.type === 1 ? 'A' : result.type === 28 ? 'AAAA' : result.type}`);
    stream.respond({ ':status': 200, 'content-type': 'application/dns-message',
                     'cache-control': `max-age=${TTL}` });
    stream.end(result.message);
  };
  if (url.pathname !== '/dns-query') {
    stream.respond({ ':status': 404 });
    stream.end();
  } else if (method === 'GET') {
    respond(Buffer.from(url.searchParams.get('dns') || '', 'base64url'));
  } else if (method === 'POST') {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => respond(Buffer.concat(chunks)));
  } else {
    stream.respond({ ':status': 405 });
    stream.end();
  }
});
server.listen(Number(port), '127.0.0.1');
