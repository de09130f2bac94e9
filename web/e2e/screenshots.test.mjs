// Screenshot comparisons of the main storefront pages at 1280×800 and
// 375×812, so a layout regression fails the build: home, shop, a simple
// product, a variable product (swatches), the cart with one line, the
// checkout, my account (logged out) and contact. One server and one browser
// for the whole file; each picture is the viewport (what a shopper sees first,
// the stable part of a page) compared with its baseline under
// e2e/__screenshots__/ by screenshot-compare.mjs (pixelmatch, threshold 0.1,
// at most 0.2 % of the pixels may differ). A failure leaves the actual capture
// and a diff under e2e/__screenshots__/failed/ and prints their paths.
//
// Change the layout on purpose? Rewrite the baselines with one command:
//   make screenshots            (or: cd web && npm run screenshots)
// which runs this file with UPDATE_SCREENSHOTS=1, then look at the pictures
// and commit them.
//
// Determinism: a fresh context per picture (no cookies, no recently viewed),
// UTC, en-US, light scheme, reduced motion (no carousel autoplay), animations,
// transitions and the caret off; the picture is taken once the app has
// hydrated, the network is idle, the fonts are ready and every image in the
// viewport has loaded. The demo is seeded relative to the real clock, so what
// shows a date (<time>: pre-order dates, review dates; the footer's © year)
// and what depends on history (recently viewed, the store notice) is hidden,
// keeping its room.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareImages, decodePNG, matchScreenshot, MAX_DIFF_RATIO } from './screenshot-compare.mjs';
import { useShop } from './server.mjs';
import { WIDTHS } from './visible.mjs';

const shop = useShop();

/** Hidden while capturing (keeps its room): what shows the date or the shopper's history. */
const VOLATILE = ['time', '.footer-copyright', '.recently-viewed', '.woocommerce-store-notice', '.store-notice'];

/** No motion and no caret from the first paint on. */
const STILL = `*, *::before, *::after {
  animation-duration: 0s !important; animation-delay: 0s !important; animation-iteration-count: 1 !important;
  transition: none !important; scroll-behavior: auto !important; caret-color: transparent !important;
}`;

async function productId(request, slug) {
  const res = await request.get(`/wp-json/wc/store/v1/products/${slug}`);
  assert.equal(res.status(), 200, `product ${slug}`);
  return (await res.json()).id;
}

/** Puts one Cotton Tank Top in the context's cart (the no-script add; it lands on the cart page). */
async function oneItemInCart(page) {
  const id = await productId(page.request, 'cotton-tank-top');
  await page.goto(`/?add-to-cart=${id}`);
  assert.equal(new URL(page.url()).pathname, '/cart/');
}

/** The pages, each with how to reach it and what to wait for before the picture. */
const PAGES = [
  { name: 'home', path: '/', ready: '.hero-carousel.is-ready' },
  { name: 'shop', path: '/shop/', ready: 'ul.products > li.product' },
  { name: 'product-simple', path: '/product/cotton-tank-top/', ready: 'form.cart' },
  { name: 'product-variable', path: '/product/classic-tee/', ready: 'form.variations_form [role="radiogroup"]' },
  { name: 'cart', path: '/cart/', before: oneItemInCart, ready: 'form.woocommerce-cart-form tr.cart_item' },
  { name: 'checkout', path: '/checkout/', before: oneItemInCart, ready: 'form[name="checkout"][novalidate]' },
  { name: 'my-account', path: '/my-account/', ready: 'form.woocommerce-form-login' },
  { name: 'contact', path: '/contact/', ready: 'form.wpcf7-form' },
];

/** Resolves when every image that shows in the viewport has loaded (lazy ones included). */
async function imagesLoaded(page) {
  try {
    await page.waitForFunction(
      () => {
        const vw = document.documentElement.clientWidth;
        const vh = document.documentElement.clientHeight;
        for (const img of document.images) {
          const r = img.getBoundingClientRect();
          if (r.width < 1 || r.height < 1 || r.bottom <= 0 || r.right <= 0 || r.top >= vh || r.left >= vw) continue;
          if (getComputedStyle(img).visibility === 'hidden') continue;
          if (img.classList.contains('lazyload') || img.classList.contains('lazyloading')) return false;
          if (!img.complete || (img.currentSrc && img.naturalWidth === 0)) return false;
        }
        return true;
      },
      undefined,
      { timeout: 15_000, polling: 100 },
    );
  } catch (err) {
    const pending = await page.evaluate(() =>
      [...document.images].filter((i) => !i.complete || /lazyload(ing)?\b/.test(i.className)).map((i) => i.getAttribute('data-src') || i.src),
    );
    throw new Error(`images in the viewport still loading: ${pending.join(', ')}\n${err.message}`);
  }
}

/**
 * Opens a page in a fresh context at a viewport and returns its settled
 * viewport capture (PNG bytes); extraStyle is CSS applied while capturing.
 */
async function capture({ path, before, ready }, viewport, extraStyle = '') {
  const options = { viewport, deviceScaleFactor: 1, reducedMotion: 'reduce', colorScheme: 'light', locale: 'en-US', timezoneId: 'UTC' };
  return shop.withPage(options, async (page) => {
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript((css) => {
      const add = () => {
        const style = document.createElement('style');
        style.setAttribute('data-screenshot', '');
        style.textContent = css;
        document.head.appendChild(style);
      };
      if (document.head) add();
      else document.addEventListener('DOMContentLoaded', add, { once: true });
    }, STILL);
    if (before) await before(page);
    await page.goto(path);
    await page.locator(ready).first().waitFor();
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => document.fonts.ready);
    await page.evaluate(() => window.scrollTo(0, 0));
    await imagesLoaded(page);
    // Two frames: whatever the last image or font changed is painted.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const png = await page.screenshot({
      animations: 'disabled',
      caret: 'hide',
      scale: 'css',
      style: `${VOLATILE.join(', ')} { visibility: hidden !important; }\n${extraStyle}`,
    });
    assert.deepEqual(errors, [], 'no page errors');
    return png;
  });
}

for (const [size, viewport] of WIDTHS) {
  for (const pageDef of PAGES) {
    const name = `${pageDef.name}-${viewport.width}x${viewport.height}`;
    test(`screenshot: ${pageDef.name} at ${size} matches e2e/__screenshots__/${name}.png`, async (t) => {
      const { outcome, differing } = matchScreenshot(name, await capture(pageDef, viewport));
      if (outcome !== 'match') t.diagnostic(`${outcome} e2e/__screenshots__/${name}.png`);
      else if (differing > 0) t.diagnostic(`${differing} pixels differ, within the tolerance`);
    });
  }
}

test('screenshot comparison: the same page twice is within the tolerance; its content 8 px lower is over it', async () => {
  const contact = PAGES.find((p) => p.name === 'contact');
  const [, viewport] = WIDTHS[0];
  const first = decodePNG(await capture(contact, viewport));
  const again = decodePNG(await capture(contact, viewport));
  const same = compareImages(first, again);
  assert.ok(same.sameSize && same.ratio <= MAX_DIFF_RATIO, `the same page twice differs in ${same.differing} pixels`);

  // A layout regression: the page's main content 8 px lower.
  const shifted = decodePNG(await capture(contact, viewport, 'main { padding-top: 8px !important; }'));
  const moved = compareImages(first, shifted);
  assert.ok(moved.sameSize);
  assert.ok(moved.ratio > MAX_DIFF_RATIO, `an 8 px shift changes ${moved.differing} pixels (${(moved.ratio * 100).toFixed(3)} %), over the tolerance`);
});
