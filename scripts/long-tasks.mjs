// The long tasks a storefront page runs after its first paint, and what
// each one is: the figure behind Lighthouse's Total Blocking Time, measured
// in a real browser instead of Lighthouse's simulation.
//
// Usage (from the repository root, after `make build`):
//   node scripts/long-tasks.mjs                        # the six pages, 4× slower CPU
//   node scripts/long-tasks.mjs --pages home,product --runs 3 --rate 4
//   node scripts/long-tasks.mjs --binary /path/to/vitrine --json
//
// It starts the binary (bin/vitrine unless --binary) in demo mode on a free
// port with a throw-away SQLite store, and Debian's Chromium with the
// browser tests' flags (web/e2e/server.mjs; it needs web/node_modules for
// playwright-core). Each page loads in a fresh context with the CPU slowed
// down (CDP Emulation.setCPUThrottlingRate, 4 as in Lighthouse's mobile
// preset) while a trace records the main thread. A PerformanceObserver for
// "longtask" lists the tasks of 50 ms or more (at the slowed-down rate);
// the trace says what ran in each: the scripts evaluated, the functions
// called (file:line, the build is minified), style and layout, and the
// sampled JavaScript by file. "blocking" sums (duration − 50 ms) over the
// tasks after the first contentful paint, as TBT does (until the page is
// quiet rather than until Lighthouse's time to interactive).
//
// It reports and never asserts: a loaded machine stretches every task (say
// the load average with its figures), but the list of tasks and their
// parts changes far less than wall-clock latencies do.
import { launchBrowser } from '../web/e2e/server.mjs';
import { startVitrine, storefrontPages } from './lib/vitrine.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const rate = Number(opt('--rate', '4'));
const runs = Number(opt('--runs', '1'));
const json = argv.includes('--json');
const only = opt('--pages', '').split(',').filter(Boolean);

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'v8',
  'blink.user_timing',
  'disabled-by-default-v8.cpu_profiler',
].join(',');

/** Records a trace over fn() and resolves with its events. */
async function traced(cdp, fn) {
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  try {
    await fn();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
  }
  return events;
}

const short = (url) => (url ? url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/assets\//, '') : '');

/** The JavaScript samples of the main thread's CPU profile: [{ts (µs), file, fn}]. */
function samples(events, tid) {
  // The profile starts on the main thread; its chunks come from the profiler's thread.
  const start = events.find((e) => e.name === 'Profile' && e.tid === tid);
  if (!start) return [];
  const nodes = new Map();
  const out = [];
  let ts = start.args?.data?.startTime ?? 0;
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.pid !== start.pid || e.id !== start.id) continue;
    const p = e.args?.data?.cpuProfile ?? {};
    for (const n of p.nodes ?? []) nodes.set(n.id, n);
    const deltas = e.args.data.timeDeltas ?? [];
    (p.samples ?? []).forEach((id, i) => {
      ts += deltas[i] ?? 0;
      const cf = nodes.get(id)?.callFrame ?? {};
      const file = short(cf.url);
      out.push({ ts, file: file || `(${cf.functionName || 'program'})`, fn: file ? `${cf.functionName || '(anonymous)'} ${file}:${(cf.lineNumber ?? 0) + 1}:${(cf.columnNumber ?? 0) + 1}` : '' });
    });
  }
  return out;
}

/** What ran inside one task of the trace (a RunTask on the main thread). */
function explain(task, events, tid, profile) {
  const end = task.ts + task.dur;
  const parts = new Map();
  const add = (key, dur) => parts.set(key, (parts.get(key) ?? 0) + dur);
  for (const e of events) {
    if (e.tid !== tid || e.ph !== 'X' || e.ts < task.ts || e.ts + (e.dur ?? 0) > end || e === task) continue;
    const d = e.args?.data ?? {};
    switch (e.name) {
      case 'EvaluateScript':
      case 'v8.evaluateModule':
        add(`evaluate ${short(d.url || e.args?.fileName) || '(module)'}`, e.dur);
        break;
      case 'v8.compile':
      case 'v8.compileModule':
        add(`compile ${short(d.url || e.args?.fileName)}`, e.dur);
        break;
      case 'FunctionCall':
        add(`call ${d.functionName || '(anonymous)'} ${short(d.url)}:${(d.lineNumber ?? 0) + 1}`, e.dur);
        break;
      case 'TimerFire':
      case 'FireAnimationFrame':
      case 'EventDispatch':
        add(`${e.name} ${d.type ?? ''}`.trim(), e.dur);
        break;
      case 'RunMicrotasks':
      case 'v8.runMicrotasks':
        add('microtasks', e.dur);
        break;
      case 'Layout':
      case 'UpdateLayoutTree':
      case 'ParseHTML':
      case 'ParseAuthorStyleSheet':
      case 'Paint':
      case 'HitTest':
      case 'Decode Image':
      case 'MajorGC':
      case 'MinorGC':
        add(e.name, e.dur);
        break;
      default:
    }
  }
  const js = new Map();
  const fns = new Map();
  for (const s of profile) {
    if (s.ts < task.ts || s.ts > end) continue;
    js.set(s.file, (js.get(s.file) ?? 0) + 1);
    if (s.fn) fns.set(s.fn, (fns.get(s.fn) ?? 0) + 1);
  }
  const top = [...parts].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`);
  const total = [...js.values()].reduce((a, b) => a + b, 0) || 1;
  const pct = ([k, v]) => `${k} ${Math.round((100 * v) / total)}%`;
  const files = [...js].sort((a, b) => b[1] - a[1]).slice(0, 5).map(pct);
  const hot = [...fns].sort((a, b) => b[1] - a[1]).slice(0, 4).map(pct);
  return { parts: top, samples: files, functions: hot };
}

async function measure(browser, url) {
  const ctx = await browser.newContext(); // a cold cache each time
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    const w = window;
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  let result;
  const events = await traced(cdp, async () => {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'), null, { timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    // Work left for idle time (deferred hydration, installs) runs now.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 1500)));
    result = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
      origin: performance.timeOrigin,
      tasks: window.__longTasks,
    }));
  });
  await ctx.close();

  // The renderer's main thread: the one that ran the page's navigation.
  const main = events.find((e) => e.name === 'TracingStartedInBrowser')
    ? events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    : [];
  // Of the renderer main threads, the one with the page's scripts.
  let tid = main[0]?.tid;
  for (const t of main) {
    if (events.some((e) => e.tid === t.tid && e.name === 'EvaluateScript')) tid = t.tid;
  }
  const nav = events.find((e) => e.tid === tid && e.name === 'navigationStart') ??
    events.find((e) => e.name === 'navigationStart');
  const t0 = nav?.ts ?? 0; // µs; performance.now() 0 is close to navigationStart
  const profile = samples(events, tid);
  const runTasks = events.filter((e) => e.tid === tid && e.name === 'RunTask' && e.ph === 'X' && e.dur >= 50_000);
  const tasks = result.tasks.map((lt) => {
    // The trace's task that matches the observer's (the same start, to a ms or two).
    const startUs = t0 + lt.start * 1000;
    const task = runTasks.reduce((best, e) => (!best || Math.abs(e.ts - startUs) < Math.abs(best.ts - startUs) ? e : best), null);
    const what = task && Math.abs(task.ts - startUs) < 20_000 ? explain(task, events, tid, profile) : { parts: [], samples: [], functions: [] };
    return { start: Math.round(lt.start), duration: Math.round(lt.duration), afterPaint: lt.start >= result.fcp, ...what };
  });
  const blocking = tasks.filter((t) => t.afterPaint).reduce((a, t) => a + Math.max(0, t.duration - 50), 0);
  return { fcp: Math.round(result.fcp), tasks, blocking };
}

const server = await startVitrine(opt('--binary'));
const browser = await launchBrowser();
try {
  const pages = await storefrontPages(server.baseURL, only);
  const all = {};
  for (const [name, path] of pages) {
    all[name] = [];
    for (let i = 0; i < runs; i++) all[name].push(await measure(browser, server.baseURL + path));
  }
  if (json) {
    console.log(JSON.stringify(all, null, 2));
  } else {
    console.log(`CPU slowed ${rate}×; long tasks (≥ 50 ms) in ms from navigation; * = after the first contentful paint`);
    for (const [name, list] of Object.entries(all)) {
      list.forEach((r, i) => {
        console.log(`\n${name}${runs > 1 ? ` (run ${i + 1})` : ''}: FCP ${r.fcp} ms, ${r.tasks.length} long task(s), blocking after FCP ${r.blocking} ms`);
        for (const t of r.tasks) {
          console.log(`  ${t.afterPaint ? '*' : ' '} at ${t.start}: ${t.duration} ms`);
          if (t.parts.length) console.log(`      ${t.parts.join('; ')}`);
          if (t.samples.length) console.log(`      samples by file: ${t.samples.join(', ')}`);
          if (t.functions.length) console.log(`      hottest (self): ${t.functions.join(', ')}`);
        }
      });
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
