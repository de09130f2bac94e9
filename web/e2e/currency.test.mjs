// Multi-currency in the browser (issue 13) against the real binary: the
// switcher on a cached listing, the price call, infinite-scroll appends, a
// product page with a variation, the mobile sidebar, axe; the issue's "Done
// when" purchase in EUR (listing from the shared cache, converted in the
// browser, mini cart, checkout, order-received page, the stored order); and
// the mini cart, drawer and cart page following a switch while the cart has items;
// the price filter read in the shopper's currency (JPY); the header switcher
// marking the shopper's choice on pages without prices (contact, a 404).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { assertAccessible } from './axe.mjs';
import { useShop, withoutErrors } from './server.mjs';
import { assertUsable } from './visible.mjs';
import { acceptTerms, bankTitle, countryKinds, fillBilling, openCheckout, orderReceived } from './checkout-helpers.mjs';

const shop = useShop();

const CARDS = 'ul.products > li.product.type-product';
const WRAPPERS = '.wmc-cache-pid[data-wmc_product_id]';
// The demo's EUR: rate 0.92 to USD, rounded to the cent (no step), written "1.234,56 €" (GBP has the .99 endings).
const EUR_RATE = 0.92;

/** A page at 1280×900 unless options say otherwise, which must see no console or page error. */
function withPage(fn, options = {}) {
  return shop.withPage({ viewport: { width: 1280, height: 900 }, ...options }, withoutErrors(fn));
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
  // PageHydrated marks <html> once the page has hydrated (lib/page-hydration.ts).
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
}

/** Waits for the live region to announce the prices in the currency. */
function announced(page, code) {
  return page.locator('[aria-live="polite"]', { hasText: `Prices shown in ${code}` }).waitFor({ state: 'attached' });
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

test('listing: switching to EUR converts every price with one call, appended cards too; EUR is kept on a product page and its variations', async () => {
  const base = await (await fetch(`${shop.server.baseURL}/wp-json/wc/store/v1/products?per_page=100`)).json();
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
    await announced(page, 'EUR');
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
    await assertAccessible(page, 'the listing in EUR');

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
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' }); // the swatches work once the page has hydrated
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
      await assertAccessible(page, 'the open sidebar at 375 px');
      await page.keyboard.press('Enter');
      await announced(page, 'EUR');
      assert.equal(await page.getByRole('button', { name: 'Currency: EUR' }).count(), 1);
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('currency-sidebar__tab')), true);
      assert.equal(calls.length, 1);
      const texts = await page.locator(WRAPPERS).evaluateAll((els) => els.map((e) => e.textContent));
      assert.ok(texts.length === 24 && texts.every((t) => /€/.test(t)), 'every price in euros');
    },
    { viewport: { width: 375, height: 740 } },
  );
});

/** Minor units × rate, rounded half up to a minor unit (the demo's EUR and GBP have two decimals, like USD). */
function convert(minor, rate) {
  // Exact: rate as an integer over 100 (0.92, 0.79).
  const n = minor * Math.round(rate * 100);
  return (n - (n % 100)) / 100 + (n % 100 >= 50 ? 1 : 0);
}

/** The demo's EUR format of minor units: "1.234,56 €". */
function eurText(minor) {
  const whole = String(Math.floor(minor / 100)).replace(/\B(?=(\d{3})+$)/g, '.');
  return `${whole},${String(minor % 100).padStart(2, '0')} €`;
}

/** The demo's GBP: rounded up to the next .99, "£17.99". */
function gbpText(usdMinor) {
  const exact = usdMinor * 79; // hundredths of a penny
  let pence = Math.ceil((exact / 100 - 99) / 100) * 100 + 99;
  if (pence <= 0) pence = 99;
  return `£${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')}`;
}

/** Text as shown, with no-break spaces as spaces. */
const plain = (t) => String(t ?? '').replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();

async function products() {
  const list = await (await fetch(`${shop.server.baseURL}/wp-json/wc/store/v1/products?per_page=100`)).json();
  const bySlug = (slug) => {
    const p = list.find((x) => x.slug === slug);
    assert.ok(p, `the demo's ${slug}`);
    return p;
  };
  return { list, bySlug };
}

/** The header cart's total as shown (the fragment span.header-cart-total). */
const headerTotal = (page) => page.locator('a.header-cart .header-cart-total');

/** Waits for a locator's shown text (no-break spaces as spaces) to equal want. */
async function waitForText(page, selector, want) {
  await page.waitForFunction(
    ([sel, w]) => {
      const el = document.querySelector(sel);
      return !!el && el.textContent.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim() === w;
    },
    [selector, want],
  );
}

/** The order row as the shop stored it (read-only; the server keeps writing its own connection). */
function storedOrder(id) {
  const db = new DatabaseSync(shop.server.db, { readOnly: true });
  try {
    return db.prepare('SELECT currency, currency_rate, base_currency, items_subtotal, total, payment_method FROM orders WHERE id = ?').get(id);
  } finally {
    db.close();
  }
}

test('done when: a new visitor switches a cached listing to EUR with the keyboard, scrolls, buys by bank transfer, and the order is in EUR', async () => {
  const { list, bySlug } = await products();
  const tank = bySlug('cotton-tank-top'); // page 1 of /shop/, $22.00, simple, not on sale
  const shorts = bySlug('chino-shorts'); // page 2, $54.00
  assert.equal(tank.prices.price_range, null);
  assert.equal(tank.on_sale, false);
  const tankEUR = eurText(convert(Number(tank.prices.price), EUR_RATE));
  const shortsEUR = eurText(convert(Number(shorts.prices.price), EUR_RATE));
  assert.equal(tankEUR, '20,24 €', 'the demo tank top: 22.00 × 0.92');
  // Other visitors have been here: the listing pages are in the shared cache.
  for (const u of ['/shop/', '/shop/page/2/']) await (await fetch(`${shop.server.baseURL}${u}`)).arrayBuffer();

  await withPage(async (page, context) => {
    const calls = watchPriceCalls(page);
    const res = await page.goto('/shop/');
    assert.equal(res.headers()['x-cache'], 'hit', 'the listing is the shared cached page');
    await hydrated(page);
    assert.equal((await context.cookies()).find((c) => c.name === 'wmc_current_currency'), undefined, 'a new visitor: no currency chosen');
    const tankPrice = page.locator(`${WRAPPERS}[data-wmc_product_id="${tank.id}"]`).first();
    assert.equal(plain(await tankPrice.textContent()), '$22.00');

    // The header switcher, by keyboard: focus it, arrow down from USD to EUR.
    await page.evaluate(() => {
      window.__samePage = true;
    });
    const select = page.getByRole('combobox', { name: 'Currency' });
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await announced(page, 'EUR');
    assert.equal(await page.evaluate(() => window.__samePage), true, 'no reload');
    assert.equal(await select.inputValue(), 'EUR');
    await answered(calls);
    assert.equal(calls.length, 1, 'one price call');
    const texts = await page.locator(WRAPPERS).evaluateAll((els) => els.map((e) => e.textContent));
    assert.equal(texts.length, 24);
    for (const t of texts) {
      assert.doesNotMatch(t, /\$/, `no dollar left: ${t}`);
      assert.match(t, /€/);
    }
    assert.equal(plain(await tankPrice.textContent()), tankEUR);

    // The listing stays the shared page: the same cached HTML (base prices) for
    // this visitor's next request with the EUR cookie; conversion is in the browser.
    const again = await page.request.get('/shop/');
    assert.equal(again.headers()['x-cache'], 'hit');
    assert.ok((await again.text()).includes('<bdi>$22.00</bdi>'), 'the cached HTML carries the base price');

    // Infinite scroll appends page 2 (also from the cache); its prices are converted too.
    const next = page.waitForResponse((r) => new URL(r.url()).pathname === '/shop/page/2/');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    assert.equal((await next).headers()['x-cache'], 'hit', 'page 2 from the shared cache');
    await page.waitForFunction((n) => document.querySelectorAll('ul.products > li.product.type-product').length === n, list.length);
    await page.waitForFunction(
      (sel) => [...document.querySelectorAll(sel)].every((e) => /€/.test(e.textContent) && !/\$/.test(e.textContent)),
      WRAPPERS,
    );
    assert.equal(await page.locator(WRAPPERS).count(), list.length);
    assert.equal(plain(await page.locator(`${WRAPPERS}[data-wmc_product_id="${shorts.id}"]`).first().textContent()), shortsEUR);
    assert.equal(calls.length, 2, 'one more call for the appended products');

    // Add the tank top from its card: the header total and the mini cart are in euros.
    const add = page.locator(`a.ajax_add_to_cart[data-product_id="${tank.id}"]`);
    const added = page.waitForResponse((r) => r.url().includes('wc-ajax=add_to_cart'));
    await add.click();
    assert.equal((await added).status(), 200);
    await waitForText(page, 'a.header-cart .header-cart-total', tankEUR);
    const panel = page.locator('#mini-cart-panel');
    await panel.waitFor(); // opened by the add
    await panel.locator('.widget_shopping_cart_content .woocommerce-mini-cart-item').waitFor();
    const mini = plain(await panel.locator('.widget_shopping_cart_content').textContent());
    assert.ok(mini.includes(tankEUR), `the mini cart in euros: ${mini}`);
    assert.doesNotMatch(mini, /\$/);

    // The checkout: the order review in euros, the switcher marking EUR; axe.
    const data = await openCheckout(page);
    assert.equal(data.cart.totals.currency_code, 'EUR');
    const review = page.locator('#order_review');
    const reviewText = plain(await review.innerText());
    assert.ok(reviewText.includes(tankEUR), `the review shows the line in euros: ${reviewText}`);
    assert.doesNotMatch(reviewText, /\$/);
    const amounts = await review.locator('.woocommerce-Price-amount').allTextContents();
    assert.ok(amounts.length >= 2, 'the review shows amounts');
    for (const a of amounts) assert.match(plain(a), /^\d{1,3}(\.\d{3})*,\d{2} €$/, `an amount in the shop's EUR format: ${a}`);
    assert.equal(await page.getByRole('combobox', { name: 'Currency' }).inputValue(), 'EUR', 'the switcher marks EUR on the checkout');
    await assertAccessible(page, 'the checkout in EUR');

    await fillBilling(page, countryKinds(data).withStates);
    await page.getByRole('radio', { name: bankTitle(data) }).check();
    await acceptTerms(page);
    const placed = page.waitForResponse((r) => r.url().endsWith('/wp-json/wc/store/v1/checkout') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Place order' }).click();
    assert.equal((await placed).status(), 200);
    const { overview, details } = await orderReceived(page);
    assert.match(plain(overview), /Total: \d{1,3}(\.\d{3})*,\d{2} €/, `the total in euros: ${overview}`);
    assert.doesNotMatch(overview + details, /\$/);
    assert.ok(plain(details).includes(tankEUR), `the line in euros: ${details}`);
    // The header's switcher shows the cookie's currency once it is live (it
    // hydrates in a part of its own after the page's first pass).
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
    assert.equal(await page.getByRole('combobox', { name: 'Currency' }).inputValue(), 'EUR', 'the switcher marks the chosen currency');

    // The stored order: in EUR, with the rate and the base it was converted from.
    const id = Number(new URL(page.url()).pathname.match(/order-received\/(\d+)\//)[1]);
    const order = storedOrder(id);
    assert.ok(order, `order ${id} is stored`);
    assert.equal(order.currency, 'EUR');
    assert.equal(order.base_currency, 'USD');
    assert.equal(Number(order.currency_rate), EUR_RATE);
    assert.equal(order.payment_method, 'bacs');
    assert.equal(Number(order.items_subtotal), convert(Number(tank.prices.price), EUR_RATE));
    assert.ok(plain(overview).includes(`Total: ${eurText(Number(order.total))}`), 'the page shows the stored total');
  });
});

test('with items in the cart a switch moves the mini cart, the drawer and the cart page to the new currency without a reload', async () => {
  const { bySlug } = await products();
  const tank = bySlug('cotton-tank-top');
  const usd = Number(tank.prices.price);
  const tankEUR = eurText(convert(usd, EUR_RATE));
  const tankGBP = gbpText(usd);
  assert.equal(tankGBP, '£17.99', 'the demo tank top: 22.00 × 0.79 up to .99');
  await withPage(async (page) => {
    await page.goto('/shop/');
    await hydrated(page);
    const added = page.waitForResponse((r) => r.url().includes('wc-ajax=add_to_cart'));
    await page.locator(`a.ajax_add_to_cart[data-product_id="${tank.id}"]`).click();
    await added;
    await waitForText(page, 'a.header-cart .header-cart-total', '$22.00');

    // A switch on the listing: the header total and the mini cart follow.
    await page.evaluate(() => {
      window.__samePage = true;
    });
    await page.getByRole('combobox', { name: 'Currency' }).selectOption('EUR');
    await waitForText(page, 'a.header-cart .header-cart-total', tankEUR);
    await page.waitForFunction(
      (want) => {
        const el = document.querySelector('#mini-cart-panel .widget_shopping_cart_content');
        return !!el && el.textContent.replace(/\u00a0/g, ' ').includes(want) && !el.textContent.includes('$');
      },
      tankEUR,
    );
    assert.equal(await page.evaluate(() => window.__samePage), true, 'no reload');

    // The next page (the stored fragments) keeps euros.
    await page.goto('/product/cotton-tank-top/');
    await hydrated(page);
    await waitForText(page, 'a.header-cart .header-cart-total', tankEUR);

    // The cart page: rendered in euros; a switch to GBP there changes its lines, totals and the header at once.
    await page.goto('/cart/');
    await page.locator('.cart_totals').waitFor();
    await hydrated(page);
    const select = page.getByRole('combobox', { name: 'Currency' });
    assert.equal(await select.inputValue(), 'EUR', 'the cart page marks the currency it shows');
    assert.equal(plain(await page.locator('td.product-subtotal').first().textContent()), tankEUR);
    await page.evaluate(() => {
      window.__samePage = true;
    });
    await select.selectOption('GBP');
    await announced(page, 'GBP');
    await waitForText(page, 'td.product-subtotal', tankGBP);
    await waitForText(page, 'a.header-cart .header-cart-total', tankGBP);
    const totals = plain(await page.locator('.cart_totals').innerText());
    assert.ok(totals.includes(tankGBP), `the totals in pounds: ${totals}`);
    assert.doesNotMatch(totals, /€|\$/);
    assert.equal(await select.inputValue(), 'GBP');
    assert.equal(await page.evaluate(() => window.__samePage), true, 'no reload');
    await assertAccessible(page, 'the cart page in GBP');

    // A phone: the drawer shows pounds; after a switch with the sidebar to JPY it shows yen.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/shop/');
    await hydrated(page);
    const toggle = page.locator('a.header-cart[aria-haspopup="dialog"]');
    await toggle.click();
    const drawer = page.getByRole('dialog', { name: 'Cart' });
    await drawer.locator('.woocommerce-mini-cart-item').waitFor();
    assert.ok(plain(await drawer.textContent()).includes(tankGBP), 'the drawer in pounds');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Currency: GBP' }).click();
    await page.getByRole('list', { name: 'Currency' }).getByRole('button', { name: /^JPY/ }).click();
    await announced(page, 'JPY');
    await page.waitForFunction(() => /¥/.test(document.querySelector('a.header-cart .header-cart-total')?.textContent || ''));
    await toggle.click();
    await drawer.locator('.woocommerce-mini-cart-item').waitFor();
    const inYen = plain(await drawer.locator('.widget_shopping_cart_content').textContent());
    assert.match(inYen, /¥3,460/, `the drawer in yen (22.00 × 157.2 to the nearest 10): ${inYen}`);
    assert.doesNotMatch(inYen, /£|€|\$/);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // On the checkout a switch is kept for the next page: the cookie (the currency the order
    // would be placed in) stays what the review shows; the next page applies the choice.
    await page.setViewportSize({ width: 1280, height: 900 });
    await openCheckout(page);
    const onCheckout = page.getByRole('combobox', { name: 'Currency' });
    assert.equal(await onCheckout.inputValue(), 'JPY', 'the checkout marks the currency of its cart');
    await onCheckout.selectOption('EUR');
    await page.locator('[aria-live="polite"]', { hasText: 'Prices will be shown in EUR on the next page' }).waitFor({ state: 'attached' });
    assert.match(await page.locator('#order_review').innerText(), /¥3,460/);
    const cookieNow = async () => (await page.context().cookies()).find((c) => c.name === 'wmc_current_currency')?.value;
    assert.equal(await cookieNow(), 'JPY', 'the checkout keeps its currency');
    const read = await page.request.get('/wp-json/wc/store/v1/cart');
    assert.equal((await read.json()).totals.currency_code, 'JPY', 'the cart the order would be placed from is still in yen');
    await page.goto('/shop/');
    await hydrated(page);
    await waitForText(page, 'a.header-cart .header-cart-total', tankEUR);
    assert.equal(await cookieNow(), 'EUR');
    await page.waitForFunction(() => [...document.querySelectorAll('.wmc-cache-pid[data-wmc_product_id]')].every((e) => /€/.test(e.textContent)));

    // A switch by link (?wmc-currency=, set by the server): the next page does not reuse the fragments stored in euros.
    await page.goto('/product/cotton-tank-top/?wmc-currency=GBP');
    await hydrated(page);
    assert.equal(await cookieNow(), 'GBP');
    await waitForText(page, 'a.header-cart .header-cart-total', tankGBP);
  });
});

test('at 1280×800 with JPY chosen the price filter says "Prices in JPY": a range around a card\'s yen price finds it, 20–40 (dollar-sized numbers) does not', async () => {
  const { bySlug } = await products();
  const tank = bySlug('cotton-tank-top'); // $22.00: inside 20–40 in dollars
  assert.ok(Number(tank.prices.price) >= 2000 && Number(tank.prices.price) <= 4000, 'the tank top is priced inside 20–40 dollars');
  await withPage(
    async (page) => {
      await page.goto('/shop/');
      await hydrated(page);
      const select = page.getByRole('combobox', { name: 'Currency' });
      await assertUsable(select, 'the currency switcher');
      await select.selectOption('JPY');
      await announced(page, 'JPY');
      const filter = page.locator('form.price-filter');
      await filter.getByText('Prices in JPY', { exact: true }).waitFor();
      await assertUsable(filter.getByText('Prices in JPY', { exact: true }), 'the filter\'s currency note');
      const card = `${WRAPPERS}[data-wmc_product_id="${tank.id}"]`;
      await page.waitForFunction((sel) => /¥/.test(document.querySelector(sel)?.textContent || ''), card);
      const shown = plain(await page.locator(card).first().textContent());
      const yen = Number(shown.replace(/[^0-9]/g, ''));
      assert.ok(yen > 40, `the tank top in yen: ${shown}`);

      /** Types a range into the filter and submits it with the Filter button; waits for the filtered listing. */
      const filterBy = async (min, max) => {
        const minField = page.locator('form.price-filter').getByRole('spinbutton', { name: 'Min price (JPY)' });
        const maxField = page.locator('form.price-filter').getByRole('spinbutton', { name: 'Max price (JPY)' });
        const button = page.locator('form.price-filter').getByRole('button', { name: 'Filter' });
        for (const [el, what] of [[minField, 'Min price'], [maxField, 'Max price'], [button, 'Filter']]) await assertUsable(el, what);
        await minField.fill(String(min));
        await maxField.fill(String(max));
        await Promise.all([page.waitForURL((u) => u.searchParams.get('max_price') === String(max)), button.click()]);
        const url = new URL(page.url());
        assert.equal(url.searchParams.get('min_price'), String(min));
        assert.equal(url.searchParams.get('price_currency'), 'JPY', 'the filter names the currency it was typed in');
        await hydrated(page);
        await page.locator('form.price-filter').getByText('Prices in JPY', { exact: true }).waitFor();
      };

      // Around the shown yen price: the tank top is listed, in yen.
      await filterBy(yen - 100, yen + 100);
      const found = page.locator(`${CARDS} a[href="/product/cotton-tank-top/"]`).first();
      await assertUsable(found, 'the tank top card found by the yen range');
      await page.waitForFunction((sel) => /¥/.test(document.querySelector(sel)?.textContent || ''), card);
      assert.equal(plain(await page.locator(card).first().textContent()), shown);

      // 20–40 read as yen (¥20–¥40): nothing, the tank top neither, though it costs $22.00.
      await filterBy(20, 40);
      await page.getByText('No products were found matching your selection.').waitFor();
      assert.equal(await page.locator(`${CARDS} a[href="/product/cotton-tank-top/"]`).count(), 0, 'the tank top is not in ¥20–¥40');
      assert.equal(await page.locator(CARDS).count(), 0);
    },
    { viewport: { width: 1280, height: 800 } },
  );
});

test('at 1280×800 with GBP chosen the header switcher shows GBP on pages without prices: /contact/ and a 404 page', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 800 } }, async (page, context) => {
    // Errors but the 404 page's own answer (its document is the 404 the browser reports).
    const missing = `${shop.server.baseURL}/no-such-page-for-the-switcher/`;
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && m.location().url !== missing && errors.push(`${m.text()} (${m.location().url})`));
    await page.goto('/shop/');
    await hydrated(page);
    const select = page.getByRole('combobox', { name: 'Currency' });
    await assertUsable(select, 'the currency switcher on the listing');
    await select.selectOption('GBP');
    await announced(page, 'GBP');
    assert.equal((await context.cookies()).find((c) => c.name === 'wmc_current_currency')?.value, 'GBP');

    for (const [url, status] of [
      ['/contact/', 200],
      [missing, 404],
    ]) {
      const res = await page.goto(url);
      assert.equal(res.status(), status, url);
      await hydrated(page);
      assert.equal(await page.locator(WRAPPERS).count(), 0, `${url} has no price on it`);
      const here = page.getByRole('combobox', { name: 'Currency' });
      await assertUsable(here, `the currency switcher on ${url}`);
      // Marked after hydration from the shopper's choice (no price call answers on this page).
      await page.waitForFunction(() => document.querySelector('#currency-switcher-select')?.value === 'GBP');
      assert.equal(await here.inputValue(), 'GBP', `${url}: the switcher shows GBP`);
      assert.equal(await here.evaluate((el) => el.selectedOptions[0]?.textContent ?? ''), await here.locator('option[value="GBP"]').textContent());
    }
    assert.deepEqual(errors, [], 'no console or page errors');
  });
});
