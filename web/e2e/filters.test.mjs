// The listing filters against the real binary and its demo shop: choosing a
// filter by keyboard alone updates the listing in place (focus kept, "N
// results" in the live region, no shift around the grid), Back and Forward
// restore filters and listing, the phone drawer with "Show N results", and
// the same filters without scripts (plain links, a GET form). axe on every
// state; every control is hit-tested before it is used.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop, withoutErrors } from './server.mjs';
import { assertUsable } from './visible.mjs';
import { assertAccessible } from './axe.mjs';

const shop = useShop();
const CARDS = 'ul.products > li.product.type-product';
const SIDEBAR = 'aside.shop-sidebar .listing-filters';
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** The shop's listing data as the server inlines it. */
async function pageData(path) {
  const html = await (await fetch(shop.server.baseURL + path)).text();
  const m = html.match(/<script id="vitrine-data" type="application\/json">([\s\S]*?)<\/script>/);
  assert.ok(m, `page data of ${path}`);
  return JSON.parse(m[1]);
}

async function hydrated(page) {
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
}

/** Records layout shifts from now on, with whether each came after recent input and where its sources are. */
async function watchShifts(page) {
  await page.evaluate(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__shifts.push({
          value: e.value,
          recent: e.hadRecentInput,
          sources: (e.sources || []).map((s) => {
            const n = s.node;
            if (!n || !n.closest) return 'unknown';
            if (n.closest('ul.products')) return 'grid';
            if (n.closest('.listing-filters, .filter-drawer')) return 'filters';
            return (n.className && String(n.className)) || n.nodeName;
          }),
        });
      }
    }).observe({ type: 'layout-shift', buffered: false });
  });
}

/** Tabs (keyboard only) until the focused element is the one matching selector; fails after max presses. */
async function tabTo(page, selector, max = 200) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  assert.fail(`Tab never reached ${selector}`);
}

test('desktop, keyboard only: an option by Tab and Enter, another by Space; the listing in place, focus kept, live region, no shift around the grid; Back and Forward restore', async () => {
  const first = await pageData('/shop/');
  const navy = first.filters.attributes.find((a) => a.slug === 'color').options.find((o) => o.value === 'navy');
  const navyData = await pageData('/shop/?filter_color=navy&query_type_color=or');
  assert.ok(navy.count > 0 && navy.count < first.total, `navy narrows the shop (${navy.count} of ${first.total})`);
  assert.equal(navyData.total, navy.count, "the option's count is what choosing it leaves");

  await shop.withPage(
    DESKTOP,
    withoutErrors(async (page) => {
      await page.goto('/shop/');
      await hydrated(page);
      await assertAccessible(page, 'the shop with its filters');
      const navyLink = page.locator(`${SIDEBAR} a[data-filter="attribute:color:navy"]`);
      assert.match(await navyLink.getAttribute('href'), /^\/shop\/\?filter_color=navy&query_type_color=or$/);
      // A disabled option stays, says so, and is no link target.
      const disabled = page.locator(`${SIDEBAR} a[aria-disabled="true"]`).first();
      assert.match(await disabled.textContent(), /no products/);
      assert.equal(await disabled.getAttribute('href'), null);

      // The grid's box in the document (the page scrolls as the focus moves).
      const gridBox = () =>
        page.evaluate(() => {
          const r = document.querySelector('ul.products').getBoundingClientRect();
          return [r.left + window.scrollX, r.top + window.scrollY, r.width];
        });
      const before = await gridBox();
      await page.evaluate(() => {
        window.__sameDocument = true;
        window.__grid = document.querySelector('ul.products');
      });
      await watchShifts(page);

      // Start from the price filter's button (the widget above the colours), then the keyboard only.
      await page.locator(`${SIDEBAR} button[type="submit"]`).focus();
      await tabTo(page, `${SIDEBAR} a[data-filter="attribute:color:navy"]`);
      await assertUsable(navyLink, 'the Navy option', { scroll: false });
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.search === '?filter_color=navy&query_type_color=or');
      await page.waitForFunction((n) => document.querySelectorAll('ul.products > li.product.type-product').length === Math.min(n, 24), navy.count);
      await page.locator(`${SIDEBAR} [role="status"]`).filter({ hasText: `${navy.count} results` }).waitFor({ state: 'attached' });
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-filter')), 'attribute:color:navy', 'the focus stays on the option');
      assert.match(await navyLink.textContent(), /selected/);
      assert.ok(await page.evaluate(() => window.__sameDocument && window.__grid === document.querySelector('ul.products')), 'no reload; the same grid element');
      const after = await gridBox();
      // Within a pixel: the scroll position is fractional.
      assert.ok(after.every((v, i) => Math.abs(v - before[i]) < 1), `the grid keeps its place and width: ${after} vs ${before}`);
      const shifts = await page.evaluate(() => window.__shifts);
      const around = shifts.filter((s) => !s.recent && s.sources.some((src) => src !== 'grid' && src !== 'filters'));
      assert.deepEqual(around, [], 'nothing around the grid and the filters shifts');
      await assertAccessible(page, 'the shop filtered by navy');

      // A chip removes it; Space on a link works as Enter does (a toggle).
      const chip = page.locator(`${SIDEBAR} a[data-filter="chip:attribute:color:navy"]`);
      await assertUsable(chip, 'the Navy chip');
      const sizeM = page.locator(`${SIDEBAR} a[data-filter="attribute:size:m"]`);
      await sizeM.focus();
      await assertUsable(sizeM, 'the size M option');
      await page.keyboard.press('Space');
      await page.waitForURL((u) => u.search === '?filter_color=navy&query_type_color=or&filter_size=m&query_type_size=or');
      const both = await pageData('/shop/?filter_color=navy&query_type_color=or&filter_size=m&query_type_size=or');
      await page.locator(`${SIDEBAR} [role="status"]`).filter({ hasText: `${both.total} results` }).waitFor({ state: 'attached' });
      assert.equal(await page.locator(CARDS).count(), Math.min(both.total, 24));
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-filter')), 'attribute:size:m');

      // Back: navy alone; Back again: the whole shop; Forward: navy again. No reload.
      await page.goBack();
      await page.waitForURL((u) => u.search === '?filter_color=navy&query_type_color=or');
      await page.waitForFunction((n) => document.querySelectorAll('ul.products > li.product.type-product').length === Math.min(n, 24), navy.count);
      assert.equal(await page.locator(`${SIDEBAR} a[data-filter="chip:attribute:size:m"]`).count(), 0);
      await page.goBack();
      await page.waitForURL((u) => u.pathname === '/shop/' && u.search === '');
      await page.locator(`${SIDEBAR} a[data-filter^="chip:"]`).first().waitFor({ state: 'detached' });
      assert.equal(await page.locator(CARDS).count(), Math.min(first.total, 24));
      assert.doesNotMatch(await navyLink.textContent(), /selected/);
      await page.goForward();
      await page.waitForURL((u) => u.search === '?filter_color=navy&query_type_color=or');
      await page.waitForFunction((n) => document.querySelectorAll('ul.products > li.product.type-product').length === Math.min(n, 24), navy.count);
      assert.match(await navyLink.textContent(), /selected/);
      assert.ok(await page.evaluate(() => window.__sameDocument === true), 'Back and Forward did not reload the page');

      // Clear all.
      const clear = page.locator(`${SIDEBAR} a[data-filter="clear-all"]`);
      await assertUsable(clear, 'Clear all');
      await clear.click();
      await page.waitForURL((u) => u.pathname === '/shop/' && u.search === '');
      await page.locator(`${SIDEBAR} [role="status"]`).filter({ hasText: `${first.total} results` }).waitFor({ state: 'attached' });
    }),
  );
});

test('the price slider by keyboard: arrows move the min field and, once they pause, the listing follows', async () => {
  const first = await pageData('/shop/');
  const lo = Math.floor(first.filters.price_range.min / 100);
  await shop.withPage(
    DESKTOP,
    withoutErrors(async (page) => {
      await page.goto('/shop/');
      await hydrated(page);
      const slider = page.locator(`${SIDEBAR} input[type="range"][data-filter="price-range-min"]`);
      await assertUsable(slider, 'the minimum price slider');
      await slider.focus();
      for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
      const want = String(lo + 20);
      assert.equal(await page.locator(`${SIDEBAR} input[name="min_price"]`).inputValue(), want, 'the field follows the slider');
      await page.waitForURL((u) => u.search === `?min_price=${want}`);
      const data = await pageData(`/shop/?min_price=${want}`);
      await page.locator(`${SIDEBAR} [role="status"]`).filter({ hasText: `${data.total} results` }).waitFor({ state: 'attached' });
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-filter')), 'price-range-min', 'the focus stays on the slider');
      await assertAccessible(page, 'the shop filtered by the slider');
    }),
  );
});

test('phone 390×844: the Filter button opens a modal drawer (focus inside, Escape, focus back), "Show N results" closes it on the listing', async () => {
  const sizeM = await pageData('/shop/?filter_size=m&query_type_size=or');
  await shop.withPage(
    PHONE,
    withoutErrors(async (page) => {
      await page.goto('/shop/');
      await hydrated(page);
      // The sidebar's filters are in the drawer on phones.
      assert.equal(await page.locator(SIDEBAR).isVisible(), false);
      const button = page.locator('button.listing-filter-toggle__button');
      await assertUsable(button, 'the Filter button');
      await button.click();
      const drawer = page.getByRole('dialog', { name: 'Filter' });
      await drawer.waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.closest('dialog')?.id), 'listing-filter-drawer', 'the focus is in the drawer');
      await assertAccessible(page, 'the filter drawer', { include: '#listing-filter-drawer' });
      // Tab stays inside.
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        assert.equal(await page.evaluate(() => document.activeElement?.closest('dialog')?.id), 'listing-filter-drawer', `Tab ${i + 1} stays in the drawer`);
      }
      const m = drawer.locator('a[data-filter="attribute:size:m"]');
      await assertUsable(m, 'size M in the drawer');
      await m.click();
      await page.waitForURL((u) => u.search === '?filter_size=m&query_type_size=or');
      await drawer.locator('[role="status"]').filter({ hasText: `${sizeM.total} results` }).waitFor({ state: 'attached' });
      const show = drawer.getByRole('button', { name: `Show ${sizeM.total} results` });
      await assertUsable(show, 'Show N results');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-filter')), 'attribute:size:m', 'the focus stays on the option in the drawer');
      await assertAccessible(page, 'the drawer after a filter', { include: '#listing-filter-drawer' });
      await show.click();
      await drawer.waitFor({ state: 'hidden' });
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('listing-filter-toggle__button')), true, 'the focus is back on the Filter button');
      assert.equal(await page.locator(CARDS).count(), Math.min(sizeM.total, 24));
      assert.match(await button.textContent(), /\(1 chosen\)/);
      await assertAccessible(page, 'the phone listing filtered');

      // Escape closes it too, and the focus goes back.
      await button.click();
      await drawer.waitFor();
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('listing-filter-toggle__button')), true);
    }),
  );
});

test('without scripts: options are links to the normalized URL and the price is a GET form', async () => {
  await shop.withPage({ ...DESKTOP, javaScriptEnabled: false }, async (page) => {
    await page.goto('/shop/');
    assert.equal(await page.locator('button.listing-filter-toggle__button').isVisible(), false, 'no Filter button without scripts');
    const sale = page.locator(`${SIDEBAR} a[data-filter="sale:1"]`);
    await assertUsable(sale, 'On sale');
    await sale.click();
    await page.waitForURL((u) => u.search === '?on_sale=1');
    const data = await pageData('/shop/?on_sale=1');
    assert.equal(await page.locator(CARDS).count(), Math.min(data.total, 24));
    const min = page.locator(`${SIDEBAR} input[name="min_price"]`);
    await assertUsable(min, 'the min price field');
    await min.fill('20');
    const submit = page.locator(`${SIDEBAR} button[type="submit"]`);
    await assertUsable(submit, 'the price Filter button');
    await submit.click();
    await page.waitForURL((u) => u.searchParams.get('min_price') === '20' && u.searchParams.get('on_sale') === '1');
    assert.ok((await page.locator(`${SIDEBAR} a[data-filter="chip:price"]`).count()) === 1, 'the price shows as a chosen filter');

    // Search results filter the same way, their own parameters first.
    await page.goto('/?s=tee&post_type=product');
    const option = page.locator(`${SIDEBAR} a[data-filter^="attribute:size:"][href]`).first();
    const href = await option.getAttribute('href');
    assert.match(href, /^\/\?s=tee&post_type=product&filter_size=[a-z0-9-]+&query_type_size=or$/);
    await option.click();
    await page.waitForURL((u) => u.search === href.slice(1));
    assert.ok((await page.locator(`${SIDEBAR} a[data-filter^="chip:attribute:size:"]`).count()) === 1, 'the size shows as a chosen filter on search');
  });
});
