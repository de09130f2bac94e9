// Multi-currency in the browser (issue 13, second slice) against the real
// binary: the switcher on a cached listing, the price call, infinite-scroll
// appends, a product page with a variation, the mobile sidebar, axe.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { launchBrowser, newContext, startServer } from './server.mjs';
import { seriousViolations } from './checkout-helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const CARDS = 'ul.products > li.product.type-product';
const WRAPPERS = '.wmc-cache-pid[data-wmc_product_id]';
// The demo's EUR: rate 0.92 to USD, rounded up to a whole euro ending in .99, "1.234,56 €".
const EUR_RATE = 0.92;

async function withPage(fn, options = {}) {
  const context = await newContext(browser, server.baseURL, { viewport: { width: 1280, height: 900 }, ...options });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const out = await fn(page, context);
    assert.deepEqual(errors, [], 'no console or page errors');
    return out;
  } finally {
    await context.close();
  }
}

/** Price calls the page makes: their pids and answers. */
function watchPriceCalls(page) {
  const calls = [];
  page.on('response', async (res) => {
    const req = res.request();
    if (!req.url().endsWith('/wp-admin/admin-ajax.php') || req.method() !== 'POST') return;
    const body = new URLSearchParams(req.postData() || '');
    if (body.get('action') !== 'wmc_get_products_price') return;
    const entry = { pids: body.getAll('pids[]'), answer: null };
    calls.push(entry);
    entry.answer = await res.json().catch(() => null);
  });
  return calls;
}

/** Waits until every recorded call has its answer read. */
async function answered(calls) {
  for (let i = 0; i < 200 && calls.some((c) => c.answer === null); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(calls.every((c) => c.answer !== null), 'price call answers read');
}

async function hydrated(page) {
  await page.waitForFunction(() => {
    const el = document.querySelector('header .site-title');
    return !!el && Object.keys(el).some((k) => k.startsWith('__reactFiber$'));
  });
}

/** Text of an HTML fragment as the page shows it. */
function textOf(page, html) {
  return page.evaluate((h) => {
    const d = document.createElement('div');
    d.innerHTML = h;
    return d.textContent;
  }, html);
}

function euros(text) {
  // "16,99 €" (maybe a range: take every amount)
  return [...text.matchAll(/([\d.]+,\d{2})\s€/g)].map((m) => Number(m[1].replace(/\./g, '').replace(',', '.')));
}

async function scan(page, label) {
  const results = await new AxeBuilder({ page }).analyze();
  assert.ok(results.passes.length > 0, 'axe ran its rules');
  assert.deepEqual(seriousViolations(results), [], `axe on ${label}`);
}

test('listing: switching to EUR converts every price with one call, appended cards too; EUR is kept on a product page and its variations', async () => {
  const base = await (await fetch(`${server.baseURL}/wp-json/wc/store/v1/products?per_page=100`)).json();
  const usd = new Map(base.map((p) => [String(p.id), p]));
  await withPage(async (page, context) => {
    const calls = watchPriceCalls(page);
    await page.goto('/shop/');
    await hydrated(page);
    assert.equal(await page.locator(CARDS).count(), 24);
    const wrappers = page.locator(WRAPPERS);
    assert.equal(await wrappers.count(), 24, 'one price wrapper per card');
    assert.match(await wrappers.first().textContent(), /\$/);
    assert.equal(calls.length, 0, 'no price call while the base is shown');

    const select = page.getByRole('combobox', { name: 'Currency' });
    assert.deepEqual(await select.locator('option').evaluateAll((os) => os.map((o) => o.value)), ['USD', 'EUR', 'GBP', 'JPY']);
    await select.selectOption('EUR');
    await page.locator('[aria-live="polite"]', { hasText: 'Prices shown in EUR' }).waitFor({ state: 'attached' });
    assert.equal(calls.length, 1, 'one price call');
    await answered(calls);
    const first = calls[0];
    assert.equal(first.pids.length, 24);
    assert.equal(first.answer?.success, true);
    assert.equal(first.answer.data.current_currency, 'EUR');
    const cookies = await context.cookies();
    const c = cookies.find((k) => k.name === 'wmc_current_currency');
    assert.equal(c?.value, 'EUR');
    assert.equal(c.path, '/');
    assert.equal(c.sameSite, 'Lax');
    assert.ok(c.expires * 1000 > Date.now() + 360 * 24 * 3600 * 1000, 'kept for a year');

    // Every card shows the price call's HTML, in euros, close to the USD price × rate.
    const shown = await wrappers.evaluateAll((els) => els.map((e) => [e.dataset.wmc_product_id, e.textContent]));
    for (const [id, text] of shown) {
      assert.equal(text, await textOf(page, first.answer.data.prices[id]), `product ${id} shows the answer`);
      assert.doesNotMatch(text, /\$/, `product ${id} has no dollar left`);
      const p = usd.get(id);
      const minor = Number(p.prices.price_range ? p.prices.price_range.min_amount : p.prices.price);
      const eur = euros(text);
      assert.ok(eur.length > 0, `product ${id} in euros: ${text}`);
      const expected = (minor / 100) * EUR_RATE;
      const got = p.prices.price_range ? eur[0] : eur[eur.length - 1];
      assert.ok(got >= expected - 0.005 && got <= expected + 1, `product ${id}: ${got} for ${expected.toFixed(4)}`);
    }
    await scan(page, 'the listing in EUR');

    // Page 2 appended by infinite scroll: its prices are converted by one more call.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const total = usd.size;
    await page.waitForFunction((n) => document.querySelectorAll('ul.products > li.product.type-product').length === n, total);
    await page.waitForFunction(
      (sel) => [...document.querySelectorAll(sel)].every((e) => /€/.test(e.textContent) && !/\$/.test(e.textContent)),
      WRAPPERS,
    );
    assert.equal(calls.length, 2, 'one call for the appended page');
    assert.equal(calls[1].pids.length, total - 24, 'only the new ids');
    assert.ok(calls[1].pids.every((id) => !first.pids.includes(id)));

    // A product page: rendered in USD, refreshed on load from the cookie.
    const variable = base.find((p) => p.permalink.endsWith('/product/everyday-hoodie/'));
    assert.ok(variable, 'the demo hoodie');
    await page.goto('/product/everyday-hoodie/');
    const form = page.locator('form.variations_form');
    await form.getByRole('radiogroup', { name: 'Color' }).waitFor();
    const main = page.locator(`.summary ${WRAPPERS}[data-wmc_product_id="${variable.id}"], .product-summary ${WRAPPERS}[data-wmc_product_id="${variable.id}"]`).first();
    await page.waitForFunction((id) => [...document.querySelectorAll(`.wmc-cache-pid[data-wmc_product_id="${id}"]`)].every((e) => /€/.test(e.textContent)), variable.id);
    assert.match(await main.textContent(), /€/);
    assert.equal(await page.getByRole('combobox', { name: 'Currency' }).inputValue(), 'EUR', 'the switcher marks EUR');
    await answered(calls);
    const onProduct = calls[calls.length - 1];
    assert.ok(onProduct.pids.includes(String(variable.id)));
    for (const v of variable.variations) assert.ok(onProduct.pids.includes(String(v.id)), `variation ${v.id} asked for`);

    await form.getByRole('radiogroup', { name: 'Color' }).getByRole('radio', { name: 'Black', exact: true }).click();
    await form.getByRole('radiogroup', { name: 'Size' }).getByRole('radio', { name: /^M( \(Out of stock\))?$/ }).click();
    const vprice = page.locator('.woocommerce-variation-price');
    await vprice.waitFor();
    const vtext = await vprice.textContent();
    assert.match(vtext, /€/, `the variation price is converted: ${vtext}`);
    assert.doesNotMatch(vtext, /\$/);
    const vid = await vprice.locator(WRAPPERS).getAttribute('data-wmc_product_id');
    assert.equal(vtext.trim(), (await textOf(page, onProduct.answer.data.prices[vid])).trim());
  });
});

test('sidebar under 768 px: keyboard opens it, arrows move, Enter chooses, Escape closes; prices convert', async () => {
  await withPage(
    async (page) => {
      const calls = watchPriceCalls(page);
      await page.goto('/shop/');
      await hydrated(page);
      assert.equal(await page.getByRole('combobox', { name: 'Currency' }).isVisible(), false, 'the header select is hidden');
      const tab = page.getByRole('button', { name: 'Currency: USD' });
      assert.ok(await tab.isVisible());
      await tab.focus();
      await page.keyboard.press('Enter');
      assert.equal(await tab.getAttribute('aria-expanded'), 'true');
      const list = page.getByRole('list', { name: 'Currency' });
      await list.waitFor();
      assert.match(await page.evaluate(() => document.activeElement?.textContent || ''), /^USD/);
      await page.keyboard.press('Escape');
      assert.equal(await tab.getAttribute('aria-expanded'), 'false');
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('currency-sidebar__tab')), true, 'focus back on the tab');
      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowDown');
      assert.match(await page.evaluate(() => document.activeElement?.textContent || ''), /^EUR/);
      await scan(page, 'the open sidebar at 375 px');
      await page.keyboard.press('Enter');
      await page.locator('[aria-live="polite"]', { hasText: 'Prices shown in EUR' }).waitFor({ state: 'attached' });
      assert.equal(await page.getByRole('button', { name: 'Currency: EUR' }).count(), 1);
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('currency-sidebar__tab')), true);
      assert.equal(calls.length, 1);
      const texts = await page.locator(WRAPPERS).evaluateAll((els) => els.map((e) => e.textContent));
      assert.ok(texts.length === 24 && texts.every((t) => /€/.test(t)), 'every price in euros');
    },
    { viewport: { width: 375, height: 740 } },
  );
});
