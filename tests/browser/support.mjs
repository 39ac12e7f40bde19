// What the browser tests share: a free loopback port, and agent-eventsd started on one
// (from $AEV_DAEMON_BIN, with a temporary data dir and its log in a file) with small
// helpers to call its API.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const daemonBin = process.env.AEV_DAEMON_BIN;
export const chromiumBin = process.env.AEV_CHROMIUM || '/usr/bin/chromium';
// Debian's Chromium, headless, as the project runs it everywhere.
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// What the console tests share: a bounded wait, one window size, and where screenshots go
// (AEV_SCREENSHOT_DIR; none when unset).
export const WAIT = 20_000;
export const VIEWPORT = { width: 1280, height: 800 };
// A phone's viewport (the narrow layout's checks).
export const PHONE = { width: 390, height: 844 };
export const SHOTS = process.env.AEV_SCREENSHOT_DIR || '';

let axeText;
// axe-core's source, read once, to inject into a page.
export function axeSource() {
  axeText ??= fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeText;
}

// A PNG of the page in SHOTS (`options`: Playwright's, e.g. {fullPage: true}).
export async function shot(page, name, options = {}) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), ...options });
}

// A daemon for the console tests, with `settings`; AEV_CONSOLE_DIR=daemon/console serves
// the console's files from the source tree (console.dir), to work on it without a rebuild.
export function consoleDaemon(settings = {}) {
  return new Daemon({ ...(process.env.AEV_CONSOLE_DIR ? { 'console.dir': process.env.AEV_CONSOLE_DIR } : {}), ...settings });
}

// Debian's Chromium with the project's flags (fails when it is not installed).
export async function launchChromium() {
  assert.ok(fs.existsSync(chromiumBin), `${chromiumBin} is missing (apt-get install chromium)`);
  return chromium.launch({ executablePath: chromiumBin, headless: true, args: CHROMIUM_ARGS });
}

// Stops the daemon with SIGTERM, removes its files, and fails unless it exited cleanly.
export async function stopDaemon(daemon) {
  const status = await daemon.stop();
  daemon.cleanup();
  if (status) assert.deepEqual(status, { code: 0, signal: null }, 'agent-eventsd did not exit cleanly on SIGTERM');
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------- the daemon

export class Daemon {
  // settings: extra `--set key=value` pairs, e.g. {'http.cors_origins': origin}.
  constructor(settings = {}) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aev-browser-'));
    this.dataDir = path.join(this.dir, 'data');
    this.logPath = path.join(this.dir, 'daemon.log');
    this.settings = settings;
    this.port = 0;
    this.child = null;
  }

  get base() {
    return `http://127.0.0.1:${this.port}`;
  }

  log() {
    try {
      return fs.readFileSync(this.logPath, 'utf8');
    } catch {
      return '';
    }
  }

  async start() {
    if (!this.port) this.port = await freePort();
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AGENT_EVENTS_')));
    const out = fs.openSync(this.logPath, 'a');
    const args = ['--host', '127.0.0.1', '--port', String(this.port), '--data-dir', this.dataDir,
      '--set', 'log.file=', '--set', 'log.level=info'];
    for (const [k, v] of Object.entries(this.settings)) args.push('--set', `${k}=${v}`);
    this.child = spawn(daemonBin, args, { stdio: ['ignore', out, out], env });
    fs.closeSync(out);
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
    let gone = null;
    this.exited.then((s) => { gone = s; });
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (gone) throw new Error(`agent-eventsd exited during start-up (${JSON.stringify(gone)}):\n${this.log()}`);
      try {
        const r = await fetch(`${this.base}/readyz`);
        if (r.status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    throw new Error(`agent-eventsd was not ready within 15 s:\n${this.log()}`);
  }

  async stop() {
    if (!this.child) return null;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
    const status = await this.exited;
    clearTimeout(timer);
    this.child = null;
    return status;
  }

  cleanup() {
    if (process.env.AEV_KEEP_TEMP === '1') {
      console.log(`# kept ${this.dir}`);
      return;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  async call(method, urlPath, body, token, extraHeaders = {}) {
    const headers = { ...extraHeaders };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    const r = await fetch(`${this.base}${urlPath}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: r.status, json, text, headers: r.headers };
  }

  async expect(status, method, urlPath, body, token, extraHeaders) {
    const r = await this.call(method, urlPath, body, token, extraHeaders);
    assert.equal(r.status, status, `${method} ${urlPath} → ${r.status} ${r.text}`);
    return r.json;
  }
}


// A TCP relay on a free loopback port to `targetPort`: cut() resets every connection
// through it (open streams included), as a network drop would; new ones still go through.
export async function cuttableRelay(targetPort) {
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    const pair = [client, upstream];
    for (const s of pair) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        for (const other of pair) other.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
  return {
    port,
    cut() {
      const n = sockets.size;
      for (const s of sockets) s.resetAndDestroy ? s.resetAndDestroy() : s.destroy();
      return n;
    },
    close: () => new Promise((r) => {
      for (const s of sockets) s.destroy();
      server.close(r);
    }),
  };
}

// ---------------------------------------------------------------- console pages (shared by the console tests)

export const uid = () => `${process.pid}x${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

// A registered, logged-in user with its personal organization: {username, password, orgId, token, ...}.
export async function newUser(daemon, tag) {
  const id = uid();
  const user = { username: `${tag}_${id}`, email: `${tag}-${id}@example.test`, password: `pw-${id}-Secret!` };
  const reg = await daemon.expect(201, 'POST', '/auth/register', user);
  const login = await daemon.expect(200, 'POST', '/auth/login', { login: user.username, password: user.password });
  return { ...user, orgId: reg.organizationId, token: login.access_token };
}

// A page that records CSP violations, console errors and page errors.
export async function consolePage(context) {
  const page = await context.newPage();
  page.problems = [];
  page.urls = [];
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  page.on('console', (m) => {
    if (m.type() === 'error') page.problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => page.urls.push(r.url()));
  return page;
}

// No CSP violation and no console error; `allowed` lists expected HTTP errors (the first
// refresh's 401 always is one) that the browser logs as console errors.
export async function cleanPage(page, what, allowed = []) {
  const csp = await page.evaluate(() => window.__csp || []);
  assert.deepEqual(csp, [], `${what}: CSP violations`);
  const expected = [/status of 401/, ...allowed];
  const problems = page.problems.filter((p) => !expected.some((re) => re.test(p)));
  assert.deepEqual(problems, [], `${what}: console errors`);
}

export async function signIn(page, daemon, user, where = '/console/live', timeout = 20_000) {
  await page.goto(`${daemon.base}${where}`);
  await page.getByLabel('E-mail or username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('nav.side').waitFor({ state: 'attached', timeout });
}

// axe-core's serious and critical findings fail; the rest is returned to be reported.
// source: axe-core, injected first unless the page already has it.
export async function axeCheck(page, what, source) {
  if (source) await page.addScriptTag({ content: source });
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${what}: axe-core serious/critical findings`);
  return result;
}

// A loopback HTTP receiver that records each request; `answer(req, body)` → {status, body}.
export async function receiver(answer = () => ({ status: 200, body: 'ok' })) {
  const http = await import('node:http');
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      const a = answer(req, body);
      res.writeHead(a.status, { 'Content-Type': 'text/plain' });
      res.end(a.body || '');
    });
  });
  const port = await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
  return { port, url: (p = '/') => `http://127.0.0.1:${port}${p}`, requests, close: () => new Promise((r) => server.close(r)) };
}
