// The wishlist in the browser, on the real binary: a cached product page
// costs a visitor with an empty list no wishlist request; the heart toggles
// from the keyboard and is announced politely; a guest's list survives the
// login; /wishlist/ passes axe; without scripts the heart is a form that
// comes back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { productId } from './checkout-helpers.mjs';
import { logIn } from './accounts.mjs';
import { createUser, useShop, withoutErrors } from './server.mjs';
import { assertUsable, DESKTOP } from './visible.mjs';

const shop = useShop();
const PRODUCT = '/product/cotton-tank-top/';
const wishlistRequest = (url) => /\/wishlist\/|admin-ajax\.php/.test(new URL(url).pathname);

/** The product page's own heart (the summary's), once hydrated. */
const summaryHeart = (page) => page.locator('.summary form.product-wishlist button.wishlist-heart');

test('a visitor with an empty wishlist makes no wishlist request on a cached product page', async () => {
  await shop.withPage(
    { viewport: DESKTOP },
    withoutErrors(async (page) => {
      const asked = [];
      page.on('request', (r) => wishlistRequest(r.url()) && asked.push(r.url()));
      let cached = '';
      for (const _ of [1, 2]) {
        const res = await page.goto(PRODUCT);
        cached = res.headers()['x-cache'] ?? '';
        // Hydrated: the heart says its state.
        await page.waitForFunction(() => document.querySelector('.summary .wishlist-heart')?.getAttribute('aria-pressed') === 'false');
        await page.waitForTimeout(300);
      }
      assert.equal(cached, 'hit', 'the second load is the shared cached page');
      assert.deepEqual(asked, [], 'no wishlist request');
      // YITH's localised script ran (the policy allows it by its hash).
      const nonce = await page.evaluate(() => window.yith_wcwl_l10n?.nonce?.add_to_wishlist_nonce);
      assert.match(nonce ?? '', /^[0-9a-f]{10}$/);
    }),
  );
});

test('keyboard only: the heart toggles, is announced, and the badge follows; a guest keeps the list after logging in', async () => {
  await shop.withPage(
    { viewport: DESKTOP },
    withoutErrors(async (page) => {
      await page.goto(PRODUCT);
      const heart = summaryHeart(page);
      await page.waitForFunction(() => document.querySelector('.summary .wishlist-heart')?.getAttribute('aria-pressed') === 'false');
      await assertUsable(heart, 'the heart');
      const live = page.locator('.wishlist-live');
      // Reach the heart with Tab from the add-to-cart button.
      await page.locator('.summary button.single_add_to_cart_button').focus();
      for (let i = 0; i < 10 && !(await heart.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
      assert.ok(await heart.evaluate((el) => el === document.activeElement), 'the heart is reached with Tab');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('.summary .wishlist-heart')?.getAttribute('aria-pressed') === 'true');
      await live.filter({ hasText: 'Added to your wishlist' }).waitFor({ state: 'attached' });
      assert.equal(await live.getAttribute('aria-live'), 'polite');
      assert.equal(await page.locator('.header-wishlist-count').textContent(), '1');
      await page.keyboard.press('Space');
      await page.waitForFunction(() => document.querySelector('.summary .wishlist-heart')?.getAttribute('aria-pressed') === 'false');
      await live.filter({ hasText: 'Removed from your wishlist' }).waitFor({ state: 'attached' });
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('.summary .wishlist-heart')?.getAttribute('aria-pressed') === 'true');

      // The guest logs in: the list is the account's now.
      createUser(shop.server, { email: 'wisher@example.com', role: 'customer', password: 'a long enough password 42' });
      await logIn(page, 'wisher@example.com', 'a long enough password 42');
      await page.goto('/wishlist/');
      await page.getByRole('heading', { level: 1, name: 'Wishlist' }).waitFor();
      assert.equal(await page.locator('tbody tr.wishlist-item').count(), 1);
      assert.match(await page.locator('tbody tr.wishlist-item .product-name').textContent(), /Cotton Tank Top/);
      await assertAccessible(page, '/wishlist/');
      // And the product page says so after load.
      await page.goto(PRODUCT);
      await page.waitForFunction(() => document.querySelector('.summary .wishlist-heart')?.getAttribute('aria-pressed') === 'true');
    }),
  );
});

test('no scripts: the heart is a form that comes back, the page lists and removes', async () => {
  await shop.withPage({ javaScriptEnabled: false, viewport: DESKTOP }, async (page) => {
    const tank = await productId(page, 'cotton-tank-top');
    await page.goto(PRODUCT);
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/wishlist/') && r.request().method() === 'POST'),
      page.locator(`.summary form.product-wishlist button[data-product-id="${tank}"]`).click({ timeout: 10000 }),
    ]);
    assert.equal(res.status(), 303);
    await page.waitForURL(`**${PRODUCT}`, { timeout: 10000 });
    await page.goto('/wishlist/');
    assert.equal(await page.locator('tbody tr.wishlist-item').count(), 1);
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/wishlist/' && u.search === '?wishlist_notice=removed', { timeout: 10000 }),
      page.getByRole('button', { name: /^Remove/ }).click({ timeout: 10000 }),
    ]);
    await page.getByText('Removed from your wishlist.').waitFor();
    await page.getByText('Your wishlist is empty.').waitFor();
    // (axe runs in the page, so it checks /wishlist/ in the scripted test above.)
  });
});
