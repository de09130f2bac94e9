// The client bundle hydrates the server HTML cleanly, and the interactive parts work.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';
import { loggedIn } from './accounts.mjs';
import { assertUsable } from './visible.mjs';

const shop = useShop();

const PAGES = [
  '/',
  '/shop/',
  '/product-category/clothing/',
  '/product/classic-tee/',
  '/product/everyday-hoodie/',
  '/product/weekend-set/',
  '/this-page-does-not-exist/',
];

/**
 * Collect console errors/warnings and uncaught page errors of a page.
 * Ignored: a failed favicon request, and, on the 404 page only, Chromium's own
 * "Failed to load resource: … 404" line for the document itself (the 404 status
 * is the point of that page, not a failure of it).
 */
function watch(page, expectedDocument404 = null) {
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error' && msg.type() !== 'warning') return;
    const loc = msg.location();
    const failed = /^Failed to load resource: the server responded with a status of 404/.test(msg.text());
    if (failed && /\/favicon\.ico$/.test(loc?.url || '')) return;
    if (failed && expectedDocument404 && loc?.url === expectedDocument404) return;
    problems.push(`console.${msg.type()}: ${msg.text()}${loc?.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.stack || err.message}`));
  return problems;
}

/** Resolves once the page has hydrated (PageHydrated marks <html> data-hydrated, lib/page-hydration.ts). */
async function waitForHydration(page) {
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
}

for (const path of PAGES) {
  test(`no console errors, warnings or page errors on ${path}`, async () => {
    await shop.withPage(async (page) => {
      const is404 = path.includes('does-not-exist');
      const problems = watch(page, is404 ? new URL(path, shop.server.baseURL).href : null);
      const res = await page.goto(path, { waitUntil: 'load' });
      assert.equal(res.status(), is404 ? 404 : 200);
      await page.waitForLoadState('networkidle');
      await waitForHydration(page);
      assert.deepEqual(problems, [], `problems on ${path}:\n${problems.join('\n')}`);
    });
  });
}

/**
 * Loads path with the entry script held until the server's HTML is parsed,
 * marks every element of #root, lets the script run, and answers the
 * marked elements hydration dropped (replaced instead of adopting them:
 * what a markup mismatch does). Preact reports no mismatch itself.
 */
async function droppedByHydration(page, path) {
  let release;
  const gate = new Promise((r) => (release = r));
  await page.route('**/assets/entry-client-*.js', async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto(path, { waitUntil: 'commit' });
  await page.waitForSelector('#vitrine-data', { state: 'attached' });
  const marked = await page.evaluate(() => {
    const all = [...document.querySelectorAll('#root *')];
    window.__ssrNodes = all;
    return all.length;
  });
  release();
  await waitForHydration(page);
  const dropped = await page.evaluate(() =>
    window.__ssrNodes.filter((el) => !el.isConnected && !el.closest?.('noscript')).map((el) => el.outerHTML.slice(0, 160)),
  );
  return { marked, dropped };
}

test('the app is fetched after the first paint (the stylesheet and pictures come first), then hydrates', async () => {
  await shop.withPage(async (page) => {
    for (const path of ['/product/classic-tee/', '/shop/', '/contact/']) {
      await page.goto(path);
      await waitForHydration(page);
      const t = await page.evaluate(() => {
        const res = performance.getEntriesByType('resource');
        const start = (re) => res.find((r) => re.test(new URL(r.name).pathname))?.startTime;
        return {
          paint: performance.getEntriesByName('first-paint')[0]?.startTime,
          css: start(/\/assets\/entry-client-[^/]+\.css$/),
          entry: start(/\/assets\/entry-client-[^/]+\.js$/),
          preact: start(/\/assets\/preact-[^/]+\.js$/),
        };
      });
      assert.ok(t.paint > 0 && t.css >= 0, `${path}: ${JSON.stringify(t)}`);
      assert.ok(t.entry >= t.paint, `${path}: the entry script was asked for before the first paint: ${JSON.stringify(t)}`);
      assert.ok(t.preact >= t.paint, `${path}: a preloaded chunk was asked for before the first paint: ${JSON.stringify(t)}`);
    }
  });
});

for (const path of ['/', '/shop/', '/product/classic-tee/', '/product/everyday-hoodie/', '/cart/', '/my-account/', '/contact/']) {
  test(`hydration adopts every server-rendered element of ${path}`, async () => {
    await shop.withPage(async (page) => {
      const { marked, dropped } = await droppedByHydration(page, path);
      assert.ok(marked > 100, `${marked} elements in the server HTML`);
      assert.deepEqual(dropped, [], `elements of the server HTML replaced at hydration on ${path}`);
    });
  });
}

test('the sort select navigates on change with JavaScript', async () => {
  await shop.withPage(async (page) => {
    await page.goto('/shop/');
    await waitForHydration(page);
    const form = page.locator('form.woocommerce-ordering');
    assert.equal(await form.getByRole('button', { name: 'Sort' }).count(), 0, 'no noscript button with JavaScript');
    await Promise.all([
      page.waitForURL((u) => u.searchParams.get('orderby') === 'date'),
      form.getByRole('combobox', { name: 'Shop order' }).selectOption({ label: 'Sort by latest' }),
    ]);
    assert.equal(new URL(page.url()).pathname, '/shop/');
    assert.equal(await page.locator('select.orderby').inputValue(), 'date');
  });
});

test('product tabs work by keyboard (ArrowRight, End, Home)', async () => {
  await shop.withPage(async (page) => {
    await page.goto('/product/classic-tee/');
    await waitForHydration(page);
    const tablist = page.getByRole('tablist', { name: 'Product details' });
    const description = tablist.getByRole('tab', { name: 'Description' });
    const additional = tablist.getByRole('tab', { name: 'Additional information' });
    const reviews = tablist.getByRole('tab', { name: /^Reviews/ });
    const panel = (key) => page.locator(`#tab-${key}`);

    const expectSelected = async (tab, key) => {
      assert.equal(await tab.getAttribute('aria-selected'), 'true', `${key} tab is selected`);
      assert.equal(await tab.evaluate((el) => el === document.activeElement), true, `${key} tab has focus`);
      assert.equal(await panel(key).isVisible(), true, `${key} panel is visible`);
      for (const other of ['description', 'additional_information', 'reviews']) {
        if (other !== key) assert.equal(await panel(other).isVisible(), false, `${other} panel is hidden`);
      }
    };

    await description.focus();
    await expectSelected(description, 'description');

    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('#tab-title-additional_information')?.getAttribute('aria-selected') === 'true');
    await expectSelected(additional, 'additional_information');

    await page.keyboard.press('End');
    await page.waitForFunction(() => document.querySelector('#tab-title-reviews')?.getAttribute('aria-selected') === 'true');
    await expectSelected(reviews, 'reviews');

    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('#tab-title-description')?.getAttribute('aria-selected') === 'true');
    await expectSelected(description, 'description');
  });
});

test('deep link /product/classic-tee/#reviews opens the Reviews tab', async () => {
  await shop.withPage(async (page) => {
    await page.goto('/product/classic-tee/#reviews');
    await page.waitForFunction(() => document.querySelector('#tab-title-reviews')?.getAttribute('aria-selected') === 'true');
    assert.equal(await page.locator('#tab-reviews').isVisible(), true);
    assert.equal(await page.locator('#tab-description').isVisible(), false);
    assert.equal(await page.locator('#tab-title-description').getAttribute('aria-selected'), 'false');
  });
});

test('clicking the second gallery thumbnail changes the main image', async () => {
  await shop.withPage(async (page) => {
    await page.goto('/product/classic-tee/');
    await waitForHydration(page);
    const main = page.locator('.product-gallery__main img');
    const before = await main.getAttribute('src');
    const thumbs = page.locator('.product-gallery__thumbs button');
    assert.ok((await thumbs.count()) >= 2, 'the product has at least two images');
    await thumbs.nth(1).click();
    await page.waitForFunction((src) => document.querySelector('.product-gallery__main img')?.getAttribute('src') !== src, before);
    const afterSrc = await main.getAttribute('src');
    assert.notEqual(afterSrc, before);
    assert.equal(await thumbs.nth(1).getAttribute('aria-pressed'), 'true');
    assert.equal(await thumbs.nth(0).getAttribute('aria-pressed'), 'false');
    // The new main image really loads.
    await page.waitForFunction(() => {
      const img = document.querySelector('.product-gallery__main img');
      return img && img.complete && img.naturalWidth > 0;
    });
  });
});

// The page hydrates in parts (lib/hydrate-later.tsx): the gallery is one,
// hydrated in a task of its own after the page's first pass. A shopper's
// click on it in between (here: in the very task of the first pass, the
// moment the app starts holding clicks) is held and made again once every
// part is live, so it still changes the picture; the page's elements are
// the server's (nothing re-rendered) and nothing is reported.
test('a click on a part of the page before it has hydrated still takes effect', async () => {
  await shop.withPage(async (page) => {
    const problems = watch(page);
    await page.addInitScript(() => {
      const add = Document.prototype.addEventListener;
      Document.prototype.addEventListener = function (type, fn, opts) {
        add.call(this, type, fn, opts);
        // The app's click holder is added right before the first pass.
        if (type !== 'click' || opts !== true || window.__early) return;
        window.__early = { state: 'armed' };
        queueMicrotask(() => {
          const thumb = document.querySelectorAll('.product-gallery__thumbs button')[1];
          const main = document.querySelector('.product-gallery__main img');
          const ev = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
          window.__early = {
            state: 'clicked',
            src: main?.getAttribute('src'),
            hydrated: document.documentElement.hasAttribute('data-hydrated'),
            thumb,
          };
          thumb.dispatchEvent(ev);
          window.__early.held = ev.defaultPrevented;
        });
      };
    });
    await page.goto('/product/classic-tee/');
    await waitForHydration(page);
    const early = await page.evaluate(() => ({ ...window.__early, thumb: undefined, same: window.__early.thumb === document.querySelectorAll('.product-gallery__thumbs button')[1] }));
    assert.equal(early.state, 'clicked', 'the click was made during hydration');
    assert.equal(early.hydrated, false, 'before the page was live');
    assert.equal(early.held, true, 'the click was held');
    assert.equal(early.same, true, 'the thumbnail is the server-rendered one');
    await page.waitForFunction((src) => document.querySelector('.product-gallery__main img')?.getAttribute('src') !== src, early.src);
    const thumbs = page.locator('.product-gallery__thumbs button');
    assert.equal(await thumbs.nth(1).getAttribute('aria-pressed'), 'true');
    assert.equal(await thumbs.nth(0).getAttribute('aria-pressed'), 'false');
    assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  });
});

// A logged-in viewer gets the cached page every visitor gets, with their own
// part (#vitrine-viewer) added as it is sent: the app hydrates the shared
// page without a mismatch, then shows their name, a manager's edit links, and
// calls the REST API with the nonce from their part.
for (const who of [
  { role: 'customer', email: 'cached.customer@example.com', staff: false },
  { role: 'shop_manager', email: 'cached.manager@example.com', staff: true },
]) {
  test(`a logged-in ${who.role} gets the cached product page with their own part, hydrated cleanly`, async () => {
    const target = '/product/classic-tee/';
    await shop.withPage(async (page) => {
      await page.goto(target); // a visitor has the page cached
    });
    const { context, page } = await loggedIn(shop, { email: who.email, password: 'a long passphrase for the cached pages', role: who.role }, { viewport: { width: 1280, height: 900 } });
    try {
      const problems = watch(page);
      const rest = [];
      page.on('response', (r) => {
        const u = new URL(r.url());
        if (u.pathname.startsWith('/wp-json/') || u.searchParams.get('action') === 'rest-nonce') rest.push(`${r.status()} ${u.pathname}${u.search}`);
      });
      const res = await page.goto(target, { waitUntil: 'load' });
      assert.equal(res.headers()['x-cache'], 'hit', 'the cached page');
      assert.equal(res.headers()['cache-control'], 'no-store, private');
      const body = await res.text();
      const part = JSON.parse(await page.locator('#vitrine-viewer').textContent());
      const name = part.user.display_name;
      assert.ok(part.user.logged_in && name && /^[0-9a-f]{10}$/.test(part.user.rest_nonce), JSON.stringify(part.user));
      // The page around the part is the shared one: the viewer is only in the part.
      const shared = body.replace(/<script id="vitrine-viewer"[^]*?<\/script>\n/, '');
      assert.ok(!shared.includes(part.user.rest_nonce) && !shared.includes('/wp-admin/post.php'), 'viewer data outside their part');
      await waitForHydration(page);

      const account = page.getByRole('navigation', { name: 'Account' });
      const me = account.getByRole('link', { name: `My account: ${name}` });
      await assertUsable(me, 'the header link with their name');
      await assertUsable(account.getByRole('link', { name: 'Log out' }), 'the Log out link');
      const edit = page.getByRole('link', { name: 'Edit Classic Tee in the backend editor' });
      if (who.staff) {
        await assertUsable(edit, 'the edit link');
        assert.match(await edit.getAttribute('href'), /^\/wp-admin\/post\.php\?post=\d+&action=edit$/);
      } else {
        assert.equal(await edit.count(), 0, 'a customer sees no edit link');
      }
      // The app's own REST calls so far passed with the nonce from the part.
      const appRest = [...rest];
      assert.ok(!appRest.some((r) => r.startsWith('403 ') || r.includes('rest-nonce')), `the app's REST calls: ${appRest.join(', ')}`);
      assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
      // Their nonce works: the REST API knows them by it, and refuses a wrong one.
      const seen = await page.evaluate(async (nonce) => {
        const ok = await fetch('/wp-json/wc/store/v1/cart', { headers: { 'X-WP-Nonce': nonce } });
        const bad = await fetch('/wp-json/wc/store/v1/cart', { headers: { 'X-WP-Nonce': '0123456789' } });
        return { ok: ok.status, user: ok.headers.get('User-ID'), bad: bad.status };
      }, part.user.rest_nonce);
      assert.equal(seen.ok, 200);
      assert.ok(Number(seen.user) > 0, `User-ID ${seen.user}`);
      assert.equal(seen.bad, 403);
    } finally {
      await context.close();
    }
  });
}
