// Node's own HTTP/1.1 parser (llhttp, through node:http with its default, strict
// settings) on every vector of vectors.json: prints one verdict per vector as JSON,
// "reject", "incomplete" (llhttp reached the end of the bytes mid-request) or the
// requests it parsed ({method, target, body}, bytes as U+0000..U+00FF code points).
// Run by differential.py; loopback only.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';

const file = process.argv[2];
const { vectors } = JSON.parse(readFileSync(file, 'utf8'));

function rawOf(raw) {
  const parts = typeof raw === 'string' ? [raw] : raw;
  return Buffer.concat(parts.map((p) => Buffer.from(typeof p === 'string' ? p : p.repeat.repeat(p.times), 'latin1')));
}

let current = null; // { requests: [], error: null, answered: '' }
const server = http.createServer((req, res) => {
  const chunks = [];
  const entry = { method: req.method, target: req.url, body: '' };
  current.requests.push(entry);
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    entry.body = Buffer.concat(chunks).toString('latin1');
    res.end('ok');
  });
});
server.on('clientError', (err, socket) => {
  if (current && !current.error) current.error = err.code || String(err);
  socket.destroy();
});

function run(raw) {
  return new Promise((resolve) => {
    current = { requests: [], error: null, answered: '' };
    const socket = net.connect(server.address().port, '127.0.0.1', () => {
      socket.write(raw);
      socket.end();
    });
    socket.on('data', (d) => {
      current.answered += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => setTimeout(() => resolve(current), 20));
  });
}

server.listen(0, '127.0.0.1', async () => {
  const verdicts = [];
  for (const v of vectors) {
    const r = await run(rawOf(v.raw));
    let verdict;
    if (r.error === 'HPE_INVALID_EOF_STATE') verdict = r.requests.length ? { requests: r.requests, incomplete: true } : 'incomplete';
    else if (r.error) verdict = { reject: r.error, requests: r.requests };
    // node:http itself answers some requests llhttp parsed (no Host: 400) without a
    // 'request' event: that is a refusal too.
    else if (!r.requests.length && /^HTTP\/1\.1 4\d\d/.test(r.answered)) verdict = { reject: r.answered.split('\r\n')[0] };
    else verdict = { requests: r.requests };
    verdicts.push({ name: v.name, verdict });
  }
  process.stdout.write(JSON.stringify(verdicts));
  server.close();
});
