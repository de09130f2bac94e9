// Server rendering: the pages are complete before (and without) any script.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cardPrices, useShop } from './server.mjs';

const shop = useShop();
const NO_SCRIPT = { javaScriptEnabled: false }; // for every page of this file

/** Lowest current price (major units) across the whole catalogue, from the Store API. */
async function lowestCatalogPrice() {
  const res = await fetch(`${shop.server.baseURL}/wp-json/wc/store/v1/products?per_page=100`);
  assert.equal(res.status, 200);
  const products = await res.json();
  assert.ok(products.length > 24, 'the catalogue has more than one page of products');
  const prices = products
    .map((p) => {
      const raw = p.prices.price_range ? p.prices.price_range.min_amount : p.prices.price;
      return raw === '' || raw == null ? NaN : Number(raw) / 10 ** p.prices.currency_minor_unit;
    })
    .filter((n) => Number.isFinite(n));
  return Math.min(...prices);
}

test('raw HTML of /product/classic-tee/ has the h1 and the formatted price', async () => {
  const res = await fetch(`${shop.server.baseURL}/product/classic-tee/`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^text\/html/);
  const html = await res.text();
  assert.match(html, /<h1[^>]*>Classic Tee<\/h1>/);
  assert.match(html, /<p class="price-wrap">.*?\$28\.00/s, 'the price is in the summary markup');
});

test('raw HTML of /shop/ has product cards', async () => {
  const res = await fetch(`${shop.server.baseURL}/shop/`);
  assert.equal(res.status, 200);
  const html = await res.text();
  const cards = html.match(/<li class="product type-product /g) || [];
  assert.ok(cards.length >= 12, `server-rendered product cards (found ${cards.length})`);
  assert.match(html, /class="woocommerce-loop-product__title"><a href="\/product\/[a-z0-9-]+\/">/);
});

test('product page without JavaScript shows the h1 and $28.00', async () => {
  await shop.withPage(NO_SCRIPT, async (page) => {
    await page.goto('/product/classic-tee/');
    // The page names its client bundle (the head script would load it after
    // the first paint); here no script runs, so it is never fetched.
    assert.match((await page.locator('script[data-entry]').getAttribute('data-entry')) || '', /\.js$/, 'the page names a client script');
    assert.equal(await page.locator('script[src]').count(), 0, 'and nothing loaded it');
    const h1 = page.locator('main h1');
    assert.equal((await h1.textContent()).trim(), 'Classic Tee');
    assert.equal(await h1.isVisible(), true);
    const price = page.locator('.summary .price .amount').first();
    assert.equal((await price.textContent()).trim(), '$28.00');
    assert.equal(await price.isVisible(), true);
  });
});

test('shop page without JavaScript shows product cards', async () => {
  await shop.withPage(NO_SCRIPT, async (page) => {
    await page.goto('/shop/');
    const cards = page.locator('ul.products > li.product.type-product');
    const n = await cards.count();
    assert.ok(n >= 12, `product cards without JavaScript (found ${n})`);
    assert.equal(await cards.first().locator('.woocommerce-loop-product__title a').isVisible(), true);
    assert.ok((await cardPrices(page)).every(Number.isFinite), 'every card shows a price');
  });
});

test('sorting by price works without JavaScript (noscript "Sort" button)', async () => {
  await shop.withPage(NO_SCRIPT, async (page) => {
    await page.goto('/shop/');
    const form = page.locator('form.woocommerce-ordering');
    await form.getByRole('combobox', { name: 'Shop order' }).selectOption({ label: 'Sort by price: low to high' });
    const button = form.getByRole('button', { name: 'Sort' });
    assert.equal(await button.isVisible(), true, 'the noscript Sort button is shown without JavaScript');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('orderby') === 'price'), button.click()]);
    assert.equal(new URL(page.url()).pathname, '/shop/');

    const prices = await cardPrices(page);
    assert.ok(prices.length >= 12 && prices.every(Number.isFinite), `card prices: ${prices}`);
    const sorted = [...prices].sort((a, b) => a - b);
    assert.deepEqual(prices, sorted, 'cards are in ascending price order');
    assert.equal(prices[0], await lowestCatalogPrice(), 'the first card has the lowest price of the catalogue');
    assert.equal(
      await form.getByRole('combobox', { name: 'Shop order' }).inputValue(),
      'price',
      'the select shows the current sort',
    );
  });
});
