// Infinite scroll on listings against the real binary: spinner mode (default
// settings), button mode (--infinite-scroll button) and a failing next page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { holdRequests, launchBrowser, startServer, withPage } from './server.mjs';

let spinner; // default server: --infinite-scroll spinner
let button; // --infinite-scroll button
let browser;

before(async () => {
  [spinner, button] = await Promise.all([startServer(), startServer({ args: ['--infinite-scroll', 'button'] })]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await Promise.all([spinner?.stop(), button?.stop()]);
});

const CARDS = 'ul.products > li.product.type-product';

async function shopTotals(baseURL) {
  const res = await fetch(`${baseURL}/wp-json/wc/store/v1/products?per_page=1`);
  return { total: Number(res.headers.get('x-wp-total')) };
}

/** Records the listing page requests the page makes (path + query, and the X-Requested-With header). */
function watchPageRequests(page) {
  const seen = [];
  page.on('request', (req) => {
    const u = new URL(req.url());
    if (/^\/shop\/page\/\d+\/$/.test(u.pathname)) seen.push({ url: u.pathname + u.search, xrw: req.headers()['x-requested-with'] });
  });
  return seen;
}

async function hydrated(page) {
  // PageHydrated marks <html> once the page has hydrated (lib/page-hydration.ts).
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
}

test('spinner: scrolling to the bottom of /shop/ appends page 2, the URL follows, and loading stops at the last page', async () => {
  const { total } = await shopTotals(spinner.baseURL);
  assert.ok(total > 24 && total <= 48, `the demo shop has two pages (${total} products)`);
  await withPage(browser, spinner.baseURL, { viewport: { width: 1280, height: 900 } }, async (page) => {
    const requests = watchPageRequests(page);
    await page.goto('/shop/');
    await hydrated(page);
    assert.equal(await page.locator(CARDS).count(), 24);
    // The paging links stay in the DOM (hidden while infinite scroll runs).
    assert.equal(await page.locator('nav.woocommerce-pagination a[rel="next"]').getAttribute('href'), '/shop/page/2/');
    assert.equal(requests.length, 0, 'nothing loads before the visitor scrolls');

    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction((n) => document.querySelectorAll('ul.products > li.product.type-product').length === n, total);
    await page.waitForURL((u) => u.pathname === '/shop/page/2/');
    assert.deepEqual(requests, [{ url: '/shop/page/2/', xrw: 'XMLHttpRequest' }]);
    assert.equal(await page.locator(`${CARDS}.is-appended`).count(), total - 24, 'the new cards are marked to fade in');
    await page.getByRole('status').filter({ hasText: `Loaded ${total - 24} more products` }).waitFor({ state: 'attached' });
    // Unique products, no duplicates.
    const ids = await page.$$eval(CARDS, (els) => els.map((el) => el.className.match(/post-(\d+)/)[1]));
    assert.equal(new Set(ids).size, total);

    // The last page: scrolling again loads nothing more.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(600);
    assert.equal(requests.length, 1, 'no request after the last page');
    assert.equal(await page.locator('.infinite-scroll__sentinel').count(), 0);
    assert.equal(await page.locator(CARDS).count(), total);

    // Back returns to /shop/ and shows what /shop/ shows (the first page),
    // not the appended list under the old address.
    await page.evaluate(() => {
      window.__beforeBack = true;
    });
    await page.goBack();
    await page.waitForFunction(() => !window.__beforeBack && document.readyState === 'complete');
    assert.equal(new URL(page.url()).pathname, '/shop/');
    await hydrated(page);
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'the reloaded page starts at its top');
    assert.equal(await page.locator(CARDS).count(), 24);
  });
});

test('spinner: keeps the sort order (the next page keeps ?orderby)', async () => {
  await withPage(browser, spinner.baseURL, async (page) => {
    const requests = watchPageRequests(page);
    await page.goto('/shop/?orderby=price');
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForURL((u) => u.pathname === '/shop/page/2/' && u.searchParams.get('orderby') === 'price');
    assert.equal(requests[0].url, '/shop/page/2/?orderby=price');
  });
});

test('button: "View more" appends, is disabled while loading, and is gone at the last page', async () => {
  const { total } = await shopTotals(button.baseURL);
  await withPage(browser, button.baseURL, async (page) => {
    const requests = watchPageRequests(page);
    const release = await holdRequests(page, '**/shop/page/2/');
    await page.goto('/shop/');
    await hydrated(page);
    // Nothing loads on scrolling in button mode.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(300);
    assert.equal(requests.length, 0);

    const more = page.getByRole('button', { name: 'View more' });
    await more.click();
    await page.waitForFunction(() => document.querySelector('.view-more-button')?.disabled === true);
    assert.equal(await more.isDisabled(), true, 'disabled while loading');
    release();
    await page.waitForFunction((n) => document.querySelectorAll('ul.products > li.product.type-product').length === n, total);
    assert.equal(await page.getByRole('button', { name: 'View more' }).count(), 0, 'hidden on the last page');
    assert.equal(new URL(page.url()).pathname, '/shop/page/2/');
    assert.equal(requests.length, 1);
    assert.equal(requests[0].xrw, 'XMLHttpRequest');
    // Focus moved to the first new product.
    const focused = await page.evaluate(() => document.activeElement?.closest('li.product')?.classList.contains('is-appended'));
    assert.equal(focused, true, 'focus is on the first appended product');
  });
});

test('a failing next page (500) shows the error status with a retry link and stops loading', async () => {
  await withPage(browser, spinner.baseURL, async (page) => {
    let hits = 0;
    await page.route('**/shop/page/2/', (route) => {
      hits++;
      return route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>boom</h1>' });
    });
    await page.goto('/shop/');
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load more products.' });
    await alert.waitFor();
    assert.equal(await alert.getByRole('link', { name: 'Try again' }).getAttribute('href'), '/shop/page/2/');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(500);
    assert.equal(hits, 1, 'loading stopped after the error');
    assert.equal(await page.locator(CARDS).count(), 24);
    assert.equal(new URL(page.url()).pathname, '/shop/');
  });
});

test('without scripts the paging links are there and visible', async () => {
  await withPage(browser, spinner.baseURL, { javaScriptEnabled: false }, async (page) => {
    await page.goto('/shop/');
    const next = page.locator('nav.woocommerce-pagination a[rel="next"]');
    assert.equal(await next.isVisible(), true);
    assert.equal(await page.getByRole('button', { name: 'View more' }).count(), 0);
  });
});
