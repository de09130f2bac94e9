// HTTP status codes and security headers of the real server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, newContext, startServer } from './server.mjs';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

const get = (path) => fetch(new URL(path, server.baseURL), { redirect: 'manual' });

test('an unknown URL is a 404 with the shop\'s 404 page', async () => {
  const res = await get('/no-such-page-here/');
  assert.equal(res.status, 404);
  assert.match(res.headers.get('content-type'), /^text\/html/);
  const html = await res.text();
  assert.match(html, /<h1[^>]*>Page not found<\/h1>/);
  assert.match(html, /<header class="site-header"/, 'the 404 page is the shop\'s page, with its header');
  assert.match(html, /href="\/shop\/"[^>]*>Continue shopping</);
});

test('the 404 page renders in the browser with its h1', async () => {
  const browser = await launchBrowser();
  try {
    const context = await newContext(browser, server.baseURL);
    const page = await context.newPage();
    const res = await page.goto('/no-such-page-here/');
    assert.equal(res.status(), 404);
    assert.equal((await page.locator('main h1').textContent()).trim(), 'Page not found');
    assert.match(await page.title(), /not found/i);
  } finally {
    await browser.close();
  }
});

test('/shop/page/999/ is a 404', async () => {
  const res = await get('/shop/page/999/');
  assert.equal(res.status, 404);
  assert.match(await res.text(), /<h1[^>]*>Page not found<\/h1>/);
});

test('/shop/page/2/ exists (so page 999 is a 404 for being past the end)', async () => {
  const res = await get('/shop/page/2/');
  assert.equal(res.status, 200);
});

test('/product/classic-tee/ is served with a Content-Security-Policy', async () => {
  const res = await get('/product/classic-tee/');
  assert.equal(res.status, 200);
  const csp = res.headers.get('content-security-policy');
  assert.ok(csp, 'content-security-policy header is present');
  const directives = Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );
  assert.ok(directives['script-src'] || directives['default-src'], `CSP restricts scripts: ${csp}`);
  const scriptSrc = directives['script-src'] || directives['default-src'];
  assert.ok(!scriptSrc.includes("'unsafe-inline'"), `script-src has no 'unsafe-inline': ${csp}`);
  assert.ok(!scriptSrc.includes("'unsafe-eval'"), `script-src has no 'unsafe-eval': ${csp}`);
  assert.deepEqual(directives['object-src'], ["'none'"]);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
});
