// The site chrome (issue 14) in a real browser against the real binary (one
// server for the file, started with --coming-soon, --store-notice and
// --header-hide-on-scroll): the coming-soon page for a visitor against the
// shop for a manager; the sticky header and hide-on-scroll by scrolling at
// 1280 and 390 px; the dropdown menus by pointer and keyboard; the
// off-canvas menu (focus trap, Escape); no sliding under reduced motion;
// the store notice dismissed and absent after a reload with no flash; axe
// scans with a dropdown and the off-canvas menu open. The shop is in coming-soon mode, so the storefront
// is browsed as the manager (the CLI creates one in the server's store).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { session } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';

const NOTICE = 'Free shipping on orders over $50 this week';
const shop = useShop({ args: ['--coming-soon', '--store-notice', NOTICE, '--header-hide-on-scroll'] });

const MANAGER = { email: 'mia.manager@example.com', password: 'a long passphrase for the chrome tests', role: 'shop_manager' };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Context options for the logged-in manager: in coming-soon mode only staff see the shop. */
async function asManager(options) {
  return { ...options, storageState: await session(shop, MANAGER) };
}

/** The header's state as the page shows it. */
function headerState(page) {
  return page.evaluate(() => {
    const h = document.querySelector('header.site-header');
    const bar = h.querySelector('.header-inner');
    const r = h.getBoundingClientRect();
    return {
      stuck: h.classList.contains('is-stuck'),
      hidden: h.classList.contains('is-hidden'),
      position: getComputedStyle(h).position,
      top: Math.round(r.top),
      bottom: Math.round(r.bottom),
      bar: Math.round(bar.getBoundingClientRect().height),
      wrapper: Math.round(document.querySelector('.header-wrapper').getBoundingClientRect().height),
    };
  });
}

/** Scrolls to y and waits until the header settled (a frame, then its transition). */
async function scrollTo(page, y) {
  await page.evaluate((top) => window.scrollTo(0, top), y);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function waitHeader(page, want) {
  await page.waitForFunction(
    ([stuck, hidden]) => {
      const h = document.querySelector('header.site-header');
      return h.classList.contains('is-stuck') === stuck && h.classList.contains('is-hidden') === hidden;
    },
    [want.stuck, want.hidden],
  );
  await page.waitForTimeout(400); // past the slide transition (asserting positions, not timing)
}

/** The y of an element's top in the page (document coordinates). */
function pageTop(page, selector) {
  return page.evaluate((sel) => Math.round(document.querySelector(sel).getBoundingClientRect().top + window.scrollY), selector);
}

test('coming soon: a visitor gets the coming-soon page (503, noindex) and can reach the login; the manager sees the shop and the banner', async () => {
  await shop.withPage({ viewport: DESKTOP }, async (page) => {
    for (const target of ['/', '/shop/', '/product/classic-tee/', '/cart/']) {
      const res = await page.goto(target);
      assert.equal(res.status(), 503, target);
      assert.equal(res.headers()['retry-after'], '3600');
      await page.getByRole('heading', { level: 1, name: 'Coming soon' }).waitFor();
      assert.equal(await page.locator('meta[name=robots]').getAttribute('content'), 'noindex, nofollow');
      assert.equal(await page.getByText('Classic Tee').count(), 0, 'no product shows');
    }
    const api = await page.request.get('/wp-json/wc/store/v1/cart');
    assert.equal(api.status(), 503);
    assert.equal((await api.json()).code, 'vitrine_coming_soon');
    await assertAccessible(page, 'the coming-soon page');
    await page.getByRole('link', { name: 'log in' }).click();
    await page.waitForURL(/\/my-account\/$/);
    await page.locator('#username').waitFor();
  });

  await shop.withPage(await asManager({ viewport: DESKTOP }), async (page) => {
    const res = await page.goto('/product/classic-tee/');
    assert.equal(res.status(), 200);
    await page.getByRole('heading', { level: 1, name: 'Classic Tee' }).waitFor();
    const banner = page.getByRole('region', { name: 'Coming soon mode' });
    await banner.waitFor();
    assert.match(await banner.textContent(), /visitors see a coming-soon page/);
    // The banner came in the manager's part of the cached page; its dismissal
    // is a REST call with the nonce from that part, and it holds on the next page.
    const [saved] = await Promise.all([
      page.waitForResponse((r) => /\/wp-json\/wp\/v2\/users\/\d+$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST'),
      banner.getByRole('button', { name: 'Dismiss the coming-soon reminder' }).click(),
    ]);
    assert.equal(saved.status(), 200, 'the dismissal was accepted');
    await banner.waitFor({ state: 'detached' });
    await page.goto('/shop/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const part = JSON.parse(await page.locator('#vitrine-viewer').textContent());
    assert.equal(part.user.coming_soon_banner, undefined, 'dismissed: no banner in the next part');
    assert.equal(await page.getByRole('region', { name: 'Coming soon mode' }).count(), 0);
  });
});

test('sticky header at 1280 px: stuck past its height with nothing shifting, hidden scrolling down, back scrolling up, never while focused', async () => {
  await shop.withPage(await asManager({ viewport: DESKTOP }), async (page) => {
    await page.goto('/shop/');
    await page.waitForLoadState('networkidle');
    const before = await headerState(page);
    assert.equal(before.stuck, false);
    assert.equal(before.position, 'static');
    const mainTop = await pageTop(page, 'main#content');

    // Just above its bottom: still in the flow.
    await scrollTo(page, before.bottom - 5);
    assert.equal((await headerState(page)).stuck, false);

    // Past it, going down: stuck, and (hide-on-scroll) out of sight; the page under it has not moved.
    await scrollTo(page, 900);
    await waitHeader(page, { stuck: true, hidden: true });
    let s = await headerState(page);
    assert.equal(s.position, 'fixed');
    assert.ok(s.bottom <= 0, `hidden above the viewport (${JSON.stringify(s)})`);
    assert.equal(s.wrapper, before.wrapper, 'its place is kept');
    assert.equal(await pageTop(page, 'main#content'), mainTop, 'no layout shift');

    // Up: it slides back in, its bar 70 px tall.
    await scrollTo(page, 700);
    await waitHeader(page, { stuck: true, hidden: false });
    s = await headerState(page);
    assert.equal(s.top, 0);
    assert.equal(s.bar, 70, 'sticky_height 70');

    // Focus inside: scrolling down leaves it shown.
    await page.locator('header .site-title').focus();
    await scrollTo(page, 1200);
    await page.waitForTimeout(400);
    s = await headerState(page);
    assert.equal(s.hidden, false, 'never hidden with focus inside');
    await page.evaluate(() => document.activeElement.blur());
    await scrollTo(page, 1500);
    await waitHeader(page, { stuck: true, hidden: true });

    // Back to the top: in the flow again, where it was.
    await scrollTo(page, 0);
    await waitHeader(page, { stuck: false, hidden: false });
    s = await headerState(page);
    assert.equal(s.position, 'static');
    assert.equal(s.top, before.top);
  });
});

test('sticky header at 390 px: the bar alone, 70 px, hidden and shown by the scroll direction', async () => {
  await shop.withPage(await asManager({ viewport: PHONE, isMobile: true, hasTouch: true }), async (page) => {
    await page.goto('/shop/');
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByRole('button', { name: 'Menu', exact: true }).isVisible(), true, 'the Menu button');
    assert.equal(await page.locator('nav.primary-nav').isVisible(), false, 'the category row is in the Menu');
    const mainTop = await pageTop(page, 'main#content');
    await scrollTo(page, 1200);
    await waitHeader(page, { stuck: true, hidden: true });
    assert.equal(await pageTop(page, 'main#content'), mainTop, 'no layout shift');
    await scrollTo(page, 1000);
    await waitHeader(page, { stuck: true, hidden: false });
    const s = await headerState(page);
    assert.equal(s.top, 0);
    assert.equal(s.bar, 70);
    assert.equal(await page.locator('header .header-search').isVisible(), false, 'search is in the Menu');
    await scrollTo(page, 0);
    await waitHeader(page, { stuck: false, hidden: false });
  });
});

test('reduced motion: the header sticks and hides without sliding; the off-canvas menu opens without its animation', async () => {
  await shop.withPage(await asManager({ viewport: PHONE, isMobile: true, hasTouch: true, reducedMotion: 'reduce' }), async (page) => {
    await page.goto('/shop/');
    await page.waitForLoadState('networkidle');
    await scrollTo(page, 1200);
    await waitHeader(page, { stuck: true, hidden: true });
    await scrollTo(page, 1000);
    await waitHeader(page, { stuck: true, hidden: false });
    const motion = await page.evaluate(() => {
      const s = getComputedStyle(document.querySelector('header.site-header'));
      return { animation: s.animationName, transition: s.transitionDuration };
    });
    assert.equal(motion.animation, 'none', 'no slide-in');
    // main.css cuts every transition to 0.01 ms under reduced motion.
    assert.ok(motion.transition.split(',').every((d) => parseFloat(d) < 0.001), `no transition (${motion.transition})`);
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('dialog', { name: 'Menu' }).waitFor();
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('#mobile-menu')).animationName), 'none');
  });
});

test('dropdown menus: hover opens and leaving closes; by keyboard the button opens, Tab walks in, Escape closes and returns focus; axe with one open', async () => {
  await shop.withPage(await asManager({ viewport: DESKTOP }), async (page) => {
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    const nav = page.getByRole('navigation', { name: 'Product categories' });
    const button = nav.getByRole('button', { name: 'Clothing submenu' });
    const sub = page.locator(`#${await button.getAttribute('aria-controls')}`);
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    assert.equal(await sub.isVisible(), false);

    // Pointer: resting on the parent opens it; leaving closes it after the delay.
    await nav.getByRole('link', { name: 'Clothing', exact: true }).hover();
    await sub.waitFor({ state: 'visible' });
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    await page.mouse.move(640, 700);
    await sub.waitFor({ state: 'hidden' });

    // A click pins it open; outside closes.
    await button.click();
    await sub.waitFor({ state: 'visible' });
    await page.mouse.move(640, 700);
    await page.waitForTimeout(500);
    assert.equal(await sub.isVisible(), true, 'a clicked menu stays open when the pointer leaves');
    await assertAccessible(page, 'header with a dropdown open', { include: 'header.site-header' });
    await page.mouse.click(640, 700);
    await sub.waitFor({ state: 'hidden' });

    // Keyboard.
    await button.focus();
    await page.keyboard.press('Enter');
    await sub.waitFor({ state: 'visible' });
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.closest('.sub-menu') !== null), true, 'Tab moves into the sub-menu');
    await page.keyboard.press('Escape');
    await sub.waitFor({ state: 'hidden' });
    assert.equal(await button.evaluate((b) => b === document.activeElement), true, 'focus back on the button');
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    // Tab out of an open menu closes it.
    await page.keyboard.press('Space');
    await sub.waitFor({ state: 'visible' });
    const links = await sub.locator('a').count();
    for (let i = 0; i <= links; i++) await page.keyboard.press('Tab');
    await sub.waitFor({ state: 'hidden' });
  });
});

test('the off-canvas menu at 390 px: a modal dialog, focus trapped, Escape closes and returns focus; axe with it open', async () => {
  await shop.withPage(await asManager({ viewport: PHONE, isMobile: true, hasTouch: true }), async (page) => {
    await page.goto('/product/classic-tee/');
    await page.waitForLoadState('networkidle');
    const button = page.getByRole('button', { name: 'Menu', exact: true });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await dialog.waitFor();
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    assert.equal(await page.evaluate(() => document.querySelector('#mobile-menu').matches(':modal')), true, 'modal: the page behind is inert');
    assert.equal(await dialog.getByRole('button', { name: 'Close menu' }).evaluate((b) => b === document.activeElement), true, 'focus on the close button');
    await dialog.getByRole('search', { name: 'Search products' }).waitFor();
    await dialog.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Hoodies' }).waitFor();
    await dialog.getByRole('link', { name: /My account/ }).waitFor();
    await assertAccessible(page, 'the off-canvas menu open');

    // Tab through everything: focus never leaves the dialog, and comes back round.
    const count = await dialog.locator('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled])').count();
    for (let i = 0; i < count + 2; i++) {
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => !!document.activeElement.closest('#mobile-menu')), true, `Tab ${i + 1} stays in the menu`);
    }
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => !!document.activeElement.closest('#mobile-menu')), true, 'Shift+Tab stays in the menu');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await button.evaluate((b) => b === document.activeElement), true, 'focus back on the Menu button');
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
  });
});

test('store notice: shown, dismissed with its cookie, then absent from the first paint of every later page', async () => {
  // The login page is a storefront page visitors may see in coming-soon mode.
  await shop.withPage({ viewport: DESKTOP }, async (page, context) => {
    // What the notice looks like when the DOM is first parsed (before any app script runs).
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const n = document.querySelector('.woocommerce-store-notice');
        window.__noticeAtFirstParse = n ? getComputedStyle(n).display : 'missing';
      });
    });
    await page.goto('/my-account/');
    const region = page.getByRole('region', { name: 'Store notice' });
    await region.getByText(NOTICE).waitFor();
    assert.notEqual(await page.evaluate(() => window.__noticeAtFirstParse), 'none', 'shown before the dismissal');
    const id = await region.getAttribute('data-notice-id');
    assert.match(id, /^[0-9a-f]{32}$/);
    await assertAccessible(page, 'page with the store notice');

    await region.getByRole('button', { name: 'Dismiss the store notice' }).click();
    await region.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('site-title')), true, 'focus moves to the header');
    const cookie = (await context.cookies()).find((c) => c.name === `store_notice${id}`);
    assert.ok(cookie, 'the dismiss cookie');
    assert.equal(cookie.value, 'hidden');
    assert.equal(cookie.path, '/');
    assert.equal(cookie.sameSite, 'Lax');
    assert.ok(cookie.expires > Date.now() / 1000 + 300 * 24 * 3600, 'long-lived');

    for (const target of ['/my-account/', '/my-account/lost-password/']) {
      await page.goto(target);
      assert.equal(await page.evaluate(() => window.__noticeAtFirstParse), 'none', `${target}: hidden at first parse, before paint`);
      assert.equal(await page.locator('.woocommerce-store-notice').isVisible(), false, `${target}: hidden after load`);
      assert.equal(await page.evaluate(() => document.documentElement.classList.contains('store-notice-hidden')), true);
    }

    // Without the app at all (its script refused), the head script alone hides it: nothing waits for hydration.
    await page.route('**/assets/entry-client-*.js', (route) => route.abort());
    await page.goto('/my-account/');
    assert.equal(await page.evaluate(() => window.__noticeAtFirstParse), 'none', 'hidden without the app script');
    assert.equal(await page.locator('.woocommerce-store-notice').count(), 1, 'the notice is in the HTML');
    assert.equal(await page.locator('.woocommerce-store-notice').isVisible(), false);
    await page.unroute('**/assets/entry-client-*.js');
  });

  // The manager's shop pages carry it too, and no CSP violation blocked the head script.
  await shop.withPage(await asManager({ viewport: DESKTOP }), async (page) => {
    const violations = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto('/shop/');
    await page.getByRole('region', { name: 'Store notice' }).getByText(NOTICE).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('js')), true, 'the head script ran');
    assert.deepEqual(violations, []);
  });
});
