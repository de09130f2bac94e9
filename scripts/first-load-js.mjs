// First-load JavaScript per storefront page: the bytes of script responses
// as transferred (the body as sent, brotli when the browser accepts it) on a
// cold load of each page, counted until the network is idle (so the page's
// on-demand chunk counts too).
//
// Usage (from the repository root, after `make build`):
//   node scripts/first-load-js.mjs            # a table (markdown)
//   node scripts/first-load-js.mjs --json     # the figures, one object
//   node scripts/first-load-js.mjs --files    # also each script's name and size
//   node scripts/first-load-js.mjs --binary /path/to/vitrine   # another build
//
// It starts the binary (bin/vitrine unless --binary) in demo mode on a free
// port with a throw-away SQLite store, and Debian's Chromium with the
// browser tests' flags (web/e2e/server.mjs), so it needs web/node_modules
// (playwright-core).
import { launchBrowser } from '../web/e2e/server.mjs';
import { startVitrine, storefrontPages } from './lib/vitrine.mjs';

const argv = process.argv.slice(2);
const args = new Set(argv);
const bi = argv.indexOf('--binary');

const server = await startVitrine(bi >= 0 ? argv[bi + 1] : undefined);
const browser = await launchBrowser();
try {
  const pages = await storefrontPages(server.baseURL);
  const out = [];
  for (const [name, path] of pages) {
    const ctx = await browser.newContext(); // a cold cache each time
    const page = await ctx.newPage();
    const scripts = [];
    page.on('requestfinished', async (req) => {
      if (req.resourceType() !== 'script') return;
      scripts.push(
        req.sizes().then((s) => ({ url: new URL(req.url()).pathname, body: s.responseBodySize, headers: s.responseHeadersSize })),
      );
    });
    await page.goto(server.baseURL + path, { waitUntil: 'networkidle' });
    const files = await Promise.all(scripts);
    const total = files.reduce((n, f) => n + f.body, 0);
    out.push({ page: name, path, scripts: files.length, bytes: total, files });
    await ctx.close();
  }
  if (args.has('--json')) {
    console.log(JSON.stringify(out, null, 2));
  } else {
    console.log('| page | path | scripts | JS transferred (bytes) | KiB |');
    console.log('|---|---|---:|---:|---:|');
    for (const r of out) {
      console.log(`| ${r.page} | ${r.path} | ${r.scripts} | ${r.bytes} | ${(r.bytes / 1024).toFixed(1)} |`);
    }
    if (args.has('--files')) {
      for (const r of out) {
        console.log(`\n${r.page}:`);
        for (const f of r.files) console.log(`  ${f.body}\t${f.url}`);
      }
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
