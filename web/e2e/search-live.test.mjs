// Live search in the header: an ARIA combobox fed by
// GET /wp-admin/admin-ajax.php?action=flatsome_ajax_search_products.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';
import { assertUsable, WIDTHS } from './visible.mjs';

const shop = useShop();

const SEARCH = '/wp-admin/admin-ajax.php';

async function ready(page, path = '/shop/') {
  await page.goto(path);
  const input = page.getByRole('combobox', { name: 'Search for products' });
  await input.waitFor();
  return input;
}

function watchSearch(page) {
  const seen = [];
  page.on('request', (req) => {
    const u = new URL(req.url());
    if (u.pathname === SEARCH) seen.push(Object.fromEntries(u.searchParams));
  });
  return seen;
}

const options = (page) => page.locator('.live-search [role="listbox"] [role="option"]');

test('type "hood", ArrowDown, Enter → a product page', async () => {
  await shop.withPage(async (page) => {
    const requests = watchSearch(page);
    const input = await ready(page);
    await input.click();
    await input.pressSequentially('ho', { delay: 30 });
    await page.waitForTimeout(400);
    assert.equal(requests.length, 0, 'nothing is sent under 3 characters');
    await input.pressSequentially('od', { delay: 30 });
    await options(page).first().waitFor();
    assert.equal(await input.getAttribute('aria-expanded'), 'true');
    assert.equal(requests.at(-1).query, 'hood');
    assert.equal(requests.at(-1).action, 'flatsome_ajax_search_products');
    const n = await options(page).count();
    assert.ok(n >= 1);
    await page
      .locator('.live-search [role="status"]')
      .filter({ hasText: n === 1 ? '1 suggestion available' : `${n} suggestions available` })
      .waitFor({ state: 'attached' });
    const first = options(page).first();
    assert.match((await first.textContent()).toLowerCase(), /hood/);
    assert.ok((await first.locator('img').count()) === 1, 'an image');
    assert.ok((await first.locator('.search-suggestion__price').count()) === 1, 'a price');

    await page.keyboard.press('ArrowDown');
    assert.equal(await input.getAttribute('aria-activedescendant'), await first.getAttribute('id'));
    assert.equal(await first.getAttribute('aria-selected'), 'true');
    await Promise.all([page.waitForURL((u) => u.pathname.startsWith('/product/')), page.keyboard.press('Enter')]);
    await page.locator('h1.product_title').waitFor();
  });
});

for (const [size, viewport] of WIDTHS) {
  test(`at ${size} the suggestions show below the field, on top of the page, and ArrowDown walks them`, async () => {
    await shop.withPage({ viewport }, async (page) => {
      await page.goto('/shop/');
      await page.locator('header .site-title').waitFor();
      // The suggestions need the app: a click before its script has even
      // loaded (a slow machine) is a click on a plain button, lost.
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      if (viewport.width < 850) {
        // Under the large breakpoint the search is in the Menu.
        await page.getByRole('button', { name: 'Menu', exact: true }).click();
        await page.getByRole('dialog', { name: 'Menu' }).waitFor();
      }
      const input = page.getByRole('combobox', { name: 'Search for products' });
      await input.waitFor();
      await assertUsable(input, 'the search field');
      await input.fill('tee');
      const list = page.getByRole('listbox', { name: 'Search suggestions' });
      await list.locator('[role="option"][data-url]').first().waitFor();
      await assertUsable(list, 'the suggestions list', { scroll: false });
      const box = await input.boundingBox();
      const below = await list.boundingBox();
      assert.ok(below.y >= box.y + box.height - 1, 'the list opens under the field, not inside it');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const active = page.locator('.search-suggestion.is-active');
      assert.equal(await input.getAttribute('aria-activedescendant'), await active.getAttribute('id'));
      await assertUsable(active, 'the second suggestion', { scroll: false });
      assert.deepEqual(await input.boundingBox(), box, 'the field itself did not scroll or move');
    });
  });
}

test('no results: "zzzz" shows "No results"; Enter goes to the results page', async () => {
  await shop.withPage(async (page) => {
    const input = await ready(page);
    await input.fill('zzzz');
    const none = options(page).filter({ hasText: 'No results' });
    await none.waitFor();
    assert.equal(await options(page).count(), 1);
    assert.equal(await none.getAttribute('aria-disabled'), 'true');
    await page.keyboard.press('ArrowDown');
    assert.equal(await input.getAttribute('aria-activedescendant'), null, '"No results" never becomes active');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('s') === 'zzzz'), page.keyboard.press('Enter')]);
    const u = new URL(page.url());
    assert.equal(u.pathname, '/');
    assert.equal(u.searchParams.get('post_type'), 'product');
    assert.equal(u.searchParams.has('product_cat'), false, 'no empty category parameter');
  });
});

test('Escape closes the panel, a second Escape clears the field', async () => {
  await shop.withPage(async (page) => {
    const input = await ready(page);
    await input.fill('hood');
    await options(page).first().waitFor();
    await page.keyboard.press('Escape');
    assert.equal(await input.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator('.search-suggestions').isVisible(), false);
    assert.equal(await input.inputValue(), 'hood');
    await page.keyboard.press('Escape');
    assert.equal(await input.inputValue(), '');
  });
});

test('the category select limits suggestions to that category (product_cat)', async () => {
  await shop.withPage(async (page) => {
    const requests = watchSearch(page);
    const input = await ready(page);
    const select = page.getByRole('combobox', { name: 'Category' });
    assert.equal(await select.locator('option').first().textContent(), 'All categories');
    // Hats (a child of Accessories): the id comes from the option itself.
    await select.selectOption({ label: '\u00a0\u00a0\u00a0Hats' });
    const catId = await select.inputValue();
    assert.match(catId, /^\d+$/);
    const inCategory = await (await fetch(`${shop.server.baseURL}/wp-json/wc/store/v1/products?category=${catId}&per_page=100`)).json();
    const allowed = new Set(inCategory.map((p) => new URL(p.permalink, shop.server.baseURL).pathname));
    assert.ok(allowed.size > 0);

    // A query matching products inside and outside the category.
    await input.fill('cotton');
    await page.waitForFunction(() => document.querySelectorAll('.live-search [role="option"][data-url]').length > 0);
    const last = requests.at(-1);
    assert.equal(last.product_cat, catId);
    assert.equal(last.query, 'cotton');
    const urls = await options(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-url')));
    assert.ok(urls.length >= 1, 'some suggestions');
    for (const u of urls) assert.ok(allowed.has(new URL(u, shop.server.baseURL).pathname), `${u} is in the category`);

    // Back to all categories: no product_cat, and products from other categories come back.
    await select.selectOption({ label: 'All categories' });
    await page.waitForFunction(
      (n) => document.querySelectorAll('.live-search [role="option"][data-url]').length > n,
      urls.length,
    );
    assert.equal(requests.at(-1).product_cat, undefined);
    const all = await options(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-url')));
    assert.ok(
      all.some((u) => !allowed.has(new URL(u, shop.server.baseURL).pathname)),
      'without the category, suggestions include other categories',
    );
  });
});

test('axe: no serious or critical violations with suggestions open', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    const input = await ready(page, '/');
    await input.fill('tee');
    await options(page).first().waitFor();
    await page.keyboard.press('ArrowDown');
    await assertAccessible(page, 'the open suggestions');
  });
});

test('without scripts the header search is a plain form to /?s=…&post_type=product', async () => {
  await shop.withPage({ javaScriptEnabled: false }, async (page) => {
    await page.goto('/shop/');
    const input = page.getByRole('searchbox', { name: 'Search for products' });
    await input.fill('tee');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('s') === 'tee'), input.press('Enter')]);
    assert.equal(new URL(page.url()).searchParams.get('post_type'), 'product');
  });
});
