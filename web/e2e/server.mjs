// Shared helpers for the browser tests: start the REAL binary (bin/vitrine) on
// a free loopback port with a throw-away SQLite store, launch Debian's
// Chromium through playwright-core (no browser downloads), and run a test's
// page in a fresh context that is closed whatever happens. Accounts and log
// in are in accounts.mjs, axe scans in axe.mjs, hit tests in visible.mjs.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { after, before } from 'node:test';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
/** bin/vitrine, resolved from the web folder (web/e2e/../../bin/vitrine). */
export const BINARY = path.resolve(here, '..', '..', 'bin', 'vitrine');
export const CHROMIUM = process.env.VITRINE_E2E_CHROMIUM || '/usr/bin/chromium';
const READY_TIMEOUT_MS = 60_000;

// Servers still running if the test process exits without calling stop()
// (a crash, a failed hook): SIGTERM them on the way out and remove their
// temporary stores, so nothing is left behind.
const live = new Map(); // child process -> its temporary directory
process.on('exit', () => {
  for (const [child, dir] of live) {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Start bin/vitrine on 127.0.0.1:<free port> with an empty SQLite store (demo mode, --demo: the demo
 * catalogue is seeded on start) and wait for GET /readyz = 200.
 * @param {{ args?: string[] }} [options] extra command-line flags (e.g. ['--zoom'])
 * @returns {Promise<{ baseURL: string, db: string, stop: () => Promise<void> }>} db: the SQLite file (read it; write
 *   it only through the binary, as createUser does)
 */
export async function startServer({ args = [] } = {}) {
  if (!existsSync(BINARY)) {
    throw new Error(`e2e: ${BINARY} is missing: run make build first (cd .. && make build)`);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vitrine-e2e-'));
  const port = await freePort();
  const db = path.join(dir, 'v.db');
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(
    BINARY,
    ['--addr', `127.0.0.1:${port}`, '--metrics-addr', '', '--db', `sqlite:${db}`, '--log-level', 'warn', '--demo', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  live.set(child, dir);
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ code: null, signal: null, error })); // could not start
  });
  let hasExited = false;
  exited.then(() => {
    hasExited = true;
    live.delete(child);
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (!hasExited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        if (!hasExited) child.kill('SIGKILL');
      }, 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      if (hasExited) {
        const { code, signal, error } = await exited;
        const why = error ? error.message : `code ${code}, signal ${signal}`;
        throw new Error(`e2e: bin/vitrine exited before it was ready (${why}):\n${output}`);
      }
      try {
        const res = await fetch(`${baseURL}/readyz`, { signal: AbortSignal.timeout(2000) });
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        throw new Error(`e2e: bin/vitrine not ready after ${READY_TIMEOUT_MS / 1000}s at ${baseURL}/readyz:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseURL, db, stop };
}

/**
 * Starts one server (with the given options) and one browser for a test file
 * and stops both after it; the returned object's server and browser are set
 * once the file's tests start. Its context(options) and withPage(options, fn)
 * are newContext and withPage on that server and browser.
 */
export function useShop(options = {}) {
  const shop = {
    server: undefined,
    browser: undefined,
    context: (contextOptions = {}) => newContext(shop.browser, shop.server.baseURL, contextOptions),
    withPage: (contextOptions, fn) => withPage(shop.browser, shop.server.baseURL, contextOptions, fn),
  };
  before(async () => {
    shop.server = await startServer(options);
    shop.browser = await launchBrowser();
  });
  after(async () => {
    await shop.browser?.close();
    await shop.server?.stop();
  });
  return shop;
}

/** Launch Debian's Chromium headless (never a downloaded browser). */
export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`e2e: ${CHROMIUM} is missing: install Debian's chromium (make chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Current price of every product card in the page, in major units, as shown:
 * the sale price for products on sale, the lower bound for a price range.
 */
export async function cardPrices(page) {
  return page.$$eval('ul.products > li.product.type-product .price', (els) =>
    els.map((el) => {
      const amount = el.querySelector('ins .amount') || el.querySelector('.amount');
      const text = amount ? amount.textContent : '';
      const n = Number(String(text).replace(/[^0-9.]/g, ''));
      return Number.isFinite(n) && text ? n : NaN;
    }),
  );
}

/** A fresh browser context on the server, with short timeouts so a failure is quick. */
export async function newContext(browser, baseURL, options = {}) {
  const context = await browser.newContext({ baseURL, ...options });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(20_000);
  return context;
}

/**
 * Runs fn(page, context) on a fresh page in a fresh context (newContext's
 * options; they may be left out) and closes the context after it, whether fn
 * passes or throws. Answers what fn answers.
 */
export async function withPage(browser, baseURL, options, fn) {
  if (typeof options === 'function') [options, fn] = [{}, options];
  const context = await newContext(browser, baseURL, options);
  try {
    return await fn(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

/**
 * Holds the page's requests to url (what page.route takes) until the
 * returned release() is called, so a test can see the page in between; they
 * then go on unchanged.
 */
export async function holdRequests(page, url) {
  let release;
  const held = new Promise((r) => (release = r));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Wraps a withPage callback: the page must get through fn without an
 * uncaught error and, unless consoleErrors is false, without a console error
 * (those whose text matches ignore aside).
 */
export function withoutErrors(fn, { consoleErrors = true, ignore } = {}) {
  return async (page, context) => {
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    if (consoleErrors) page.on('console', (m) => m.type() === 'error' && !ignore?.test(m.text()) && errors.push(m.text()));
    const out = await fn(page, context);
    assert.deepEqual(errors, [], 'no console or page errors');
    return out;
  };
}

/**
 * Adds an account to the server's store with the binary's own CLI (vitrine
 * user create), the way an operator would; the password goes in on stdin.
 */
export function createUser(server, { email, role, password }) {
  const made = spawnSync(BINARY, ['--db', `sqlite:${server.db}`, '--log-level', 'warn', 'user', 'create', '--email', email, '--role', role, '--password-stdin'], {
    input: `${password}\n`,
    encoding: 'utf8',
  });
  assert.equal(made.status, 0, `user create ${email}: ${made.stderr}`);
}
