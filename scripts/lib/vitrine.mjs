// Starts a vitrine binary for the measuring scripts (first-load-js.mjs,
// lighthouse.mjs): demo mode, a free loopback port, a throw-away SQLite
// store; resolves once /readyz answers 200. stop() ends it and removes the
// store.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export async function startVitrine(binary = path.join(root, 'bin', 'vitrine')) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vitrine-measure-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(
    binary,
    ['--addr', `127.0.0.1:${port}`, '--metrics-addr', '', '--db', `sqlite:${path.join(dir, 'v.db')}`, '--log-level', 'warn', '--demo'],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  let exited = false;
  const done = new Promise((resolve) => child.once('exit', () => resolve((exited = true))));
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      await done;
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`${binary} exited before it was ready`);
    try {
      const res = await fetch(`${baseURL}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${binary} not ready after 60s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { baseURL, stop };
}

/**
 * The six storefront pages the measuring scripts visit, as [name, path]:
 * the product is the shop's first card (one in the demo catalogue). only,
 * if not empty, keeps the pages it names.
 */
export async function storefrontPages(baseURL, only = []) {
  const shop = await (await fetch(`${baseURL}/shop/`)).text();
  const product = shop.match(/href="(?:https?:\/\/[^"/]+)?(\/product\/[^"/]+\/)"/)?.[1];
  if (!product) throw new Error('no product link on /shop/');
  const pages = [
    ['home', '/'],
    ['shop', '/shop/'],
    ['product', product],
    ['cart', '/cart/'],
    ['my-account', '/my-account/'],
    ['contact', '/contact/'],
  ];
  return pages.filter(([name]) => only.length === 0 || only.includes(name));
}
