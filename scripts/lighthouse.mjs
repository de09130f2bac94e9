// Lighthouse (mobile, default settings) on the storefront's main pages
// against the real binary: the median of N runs per page (by performance
// score) of the four category scores, LCP and TBT, as a markdown table.
//
// Usage (from the repository root, after `make build`):
//   npm install --prefix .tools/lighthouse lighthouse@13   # once (.tools/ is git-ignored)
//   node scripts/lighthouse.mjs                 # 3 runs per page
//   node scripts/lighthouse.mjs --runs 5 --binary /path/to/vitrine --pages home,product
//
// It starts the binary in demo mode on a free port with a throw-away SQLite
// store (scripts/lib/vitrine.mjs) and runs Lighthouse's CLI with Debian's
// Chromium (CHROME_PATH, /usr/bin/chromium unless set) and the flags the
// browser tests use. The reports stay in a temporary directory (printed).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitrine, storefrontPages } from './lib/vitrine.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const runs = Number(opt('--runs', '3'));
const local = path.join(root, '.tools', 'lighthouse', 'node_modules', '.bin', 'lighthouse');
const [cmd, pre] = existsSync(local) ? [local, []] : ['npx', ['--yes', 'lighthouse@13']];
const chrome = process.env.CHROME_PATH || '/usr/bin/chromium';
const flags = '--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';

const out = mkdtempSync(path.join(os.tmpdir(), 'vitrine-lighthouse-'));
const server = await startVitrine(opt('--binary'));
try {
  const rows = [];
  for (const [name, p] of await storefrontPages(server.baseURL, opt('--pages', '').split(',').filter(Boolean))) {
    const results = [];
    for (let i = 0; i < runs; i++) {
      const file = path.join(out, `${name}-${i}.json`);
      const r = spawnSync(
        cmd,
        [...pre, server.baseURL + p, '--quiet', '--output=json', `--output-path=${file}`, `--chrome-flags=${flags}`],
        { env: { ...process.env, CHROME_PATH: chrome }, encoding: 'utf8' },
      );
      if (r.status !== 0) throw new Error(`lighthouse ${p}: ${r.stderr || r.error}`);
      const lhr = JSON.parse(readFileSync(file, 'utf8'));
      const c = lhr.categories;
      results.push({
        perf: Math.round(c.performance.score * 100),
        a11y: Math.round(c.accessibility.score * 100),
        bp: Math.round(c['best-practices'].score * 100),
        seo: Math.round(c.seo.score * 100),
        lcp: lhr.audits['largest-contentful-paint'].numericValue,
        tbt: lhr.audits['total-blocking-time'].numericValue,
      });
    }
    results.sort((a, b) => a.perf - b.perf || a.lcp - b.lcp);
    rows.push([name, p, results[Math.floor(results.length / 2)], results.map((r) => r.perf)]);
  }
  console.log(`| page | path | performance | accessibility | best practices | SEO | LCP (ms) | TBT (ms) | performance of the ${runs} runs |`);
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
  for (const [name, p, m, all] of rows) {
    console.log(`| ${name} | ${p} | ${m.perf} | ${m.a11y} | ${m.bp} | ${m.seo} | ${Math.round(m.lcp)} | ${Math.round(m.tbt)} | ${all.join(', ')} |`);
  }
  console.log(`\nreports: ${out}`);
} finally {
  await server.stop();
}
