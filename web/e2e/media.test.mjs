// Lazy media, content pages, the manifest and layout shift (issue 14, media
// part): lazy images progress lazyload → lazyloading → lazyloaded as they are
// scrolled to (lazyerror for a broken one) and show without scripts; a video's
// player iframe is absent until Play is pressed, then present with the
// wrapper's smush-lazyloaded-video; the player's origin is allowed in the CSP
// of a page with a video only; content pages answer, their footer links show,
// and the terms page feeds the checkout's terms lightbox; the manifest is
// linked and served; CLS under 0.02 on the home, a listing and a product page
// while scrolling through them; axe on a content page with a video.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { BINARY, useShop } from './server.mjs';
import { addToCart, openCheckout } from './checkout-helpers.mjs';

const shop = useShop();

const DESKTOP = { width: 1280, height: 900 };
const MOBILE = { width: 375, height: 812 };
const PLAYER = 'https://www.youtube-nocookie.com';
const VIDEO_PAGE = '/workshop/';
const VIDEO_TITLE = 'Our workshop';

/**
 * Runs `vitrine page …` on the test server's store, stdin as given: the
 * binary's own command, writing through the store as a second process does
 * (the running server follows the change log), never the file by hand.
 */
function pageCommand(args, stdin = '') {
  return new Promise((resolve, reject) => {
    const child = execFile(BINARY, ['--db', `sqlite:${shop.server.db}`, '--log-level', 'warn', 'page', ...args], (err, stdout, stderr) => {
      if (err) reject(new Error(`vitrine page ${args.join(' ')}: ${err.message}\n${stdout}${stderr}`));
      else resolve(stdout);
    });
    child.stdin.end(stdin);
  });
}

/** Waits until a path answers status (the server sees another process's page changes within a poll). */
async function waitForStatus(path, status) {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(shop.server.baseURL + path);
    if (res.status === status) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${path} never answered ${status}`);
}

const withPage = (fn, options = {}) => shop.withPage({ viewport: DESKTOP, ...options }, fn);

// A content page with a YouTube video (a URL alone in its paragraph), set
// once through the command line on the running shop's store (the tests
// below call this first: the shop's own before hook starts the server).
let videoPage;
function withVideoPage() {
  videoPage ??= (async () => {
    const out = await pageCommand(
      ['set', 'workshop', '--title', VIDEO_TITLE, '--file', '-'],
      '<p>How our clothes are cut and sewn.</p>\n<p>https://www.youtube.com/watch?v=dQw4w9WgXcQ</p>\n<p>Come and visit.</p>',
    );
    assert.match(out, /added \/workshop\//);
    await waitForStatus(VIDEO_PAGE, 200);
  })();
  return videoPage;
}

// --- Lazy images ---------------------------------------------------------

/** Records every class an <img data-src> takes, from the server's markup on (before any script runs). */
function recordLazyClasses() {
  window.__lazy = [];
  const note = (img) => window.__lazy.push({ src: img.getAttribute('data-src'), cls: img.className });
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes' && r.target.matches?.('img[data-src]')) note(r.target);
      for (const n of r.addedNodes || []) {
        if (n.nodeType === 1 && n.matches('img[data-src]')) note(n);
        if (n.nodeType === 1) n.querySelectorAll?.('img[data-src]').forEach(note);
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
}

function phase(cls) {
  return (cls.match(/\blazy(load|loading|loaded|error)\b/) || [''])[0];
}

test('listing images: the first row eager, the rest lazyload → lazyloading → lazyloaded as they are scrolled to, lazyerror when broken', async () => {
  await withVideoPage();
  await withPage(async (page) => {
    await page.addInitScript(recordLazyClasses);
    const res = await page.goto('/shop/');
    assert.equal(res.status(), 200);
    // The server's markup: eager cards with src, lazy ones without, and a noscript copy.
    const html = await res.text();
    assert.match(html, /<img[^>]*class="attachment-woocommerce_thumbnail lazyload"/, 'lazy cards are server-rendered with lazyload');
    await page.waitForLoadState('networkidle');

    const cards = page.locator('ul.products > li.product .product-card__media img.attachment-woocommerce_thumbnail');
    assert.ok((await cards.count()) >= 12, 'a full listing page');
    for (let i = 0; i < 4; i++) {
      const img = cards.nth(i);
      // A phone's first row with the document; the next two natively lazy (no script needed).
      assert.equal(await img.getAttribute('loading'), i < 2 ? 'eager' : 'lazy', `card ${i}'s loading`);
      assert.ok(await img.getAttribute('src'), `card ${i} has src`);
    }
    // The last card is far below the fold: not fetched yet.
    const last = cards.last();
    assert.equal(phase(await last.getAttribute('class')), 'lazyload');
    assert.equal(await last.getAttribute('src'), null);
    const lastSrc = await last.getAttribute('data-src');
    assert.ok(lastSrc);
    assert.equal(await last.locator('xpath=following-sibling::noscript').count(), 1, 'a noscript copy follows');

    // One image fails: its request is aborted.
    const brokenSrc = await cards.nth(12).getAttribute('data-src');
    await page.route((url) => url.pathname === new URL(brokenSrc, shop.server.baseURL).pathname, (route) => route.abort());

    // Scroll down through the page, a screen at a time.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y < height; y += 600) {
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(80);
    }
    await page.waitForFunction(
      (src) => {
        const img = document.querySelector(`img[data-src="${src}"]`);
        return img && img.classList.contains('lazyloaded') && img.naturalWidth > 0;
      },
      lastSrc,
    );
    await page.waitForFunction((src) => document.querySelector(`img[data-src="${src}"]`)?.classList.contains('lazyerror'), brokenSrc);

    const log = await page.evaluate(() => window.__lazy);
    const steps = (src) => log.filter((e) => e.src === src).map((e) => phase(e.cls)).filter((p, i, a) => p && p !== a[i - 1]);
    assert.deepEqual(steps(lastSrc), ['lazyload', 'lazyloading', 'lazyloaded'], 'the last card went through the classes in order');
    assert.deepEqual(steps(brokenSrc), ['lazyload', 'lazyloading', 'lazyerror'], 'the broken card ended in lazyerror');
    // Every lazy card of the page scrolled through is loaded by now (the cards infinite scroll
    // appended below may still wait), with its box reserved: width and height throughout.
    const states = await page.$$eval('ul.products > li.product:nth-child(-n+24) img[data-src]', (imgs) =>
      imgs.map((i) => [i.className, i.getAttribute('width'), i.getAttribute('height')]),
    );
    assert.equal(states.length, 20, 'the 20 lazy cards of the first page');
    for (const [cls, w, h] of states) {
      assert.ok(/lazyloaded|lazyerror/.test(cls), `every lazy image settled (${cls})`);
      assert.ok(Number(w) > 0 && Number(h) > 0, 'width and height given');
    }
  });
});

test('without scripts the lazy images still show (their noscript copies), and the Play button is hidden', async () => {
  await withVideoPage();
  await withPage(
    async (page) => {
      await page.goto('/shop/');
      // The scripted copies are hidden; the noscript images are real images with src and loading=lazy.
      const scripted = page.locator('img.lazyload').first();
      assert.equal(await scripted.isVisible(), false);
      const noscriptImgs = await page.$$eval('li.product noscript', (ns) => ns.length);
      assert.ok(noscriptImgs > 0);
      const last = page.locator('li.product').last();
      await last.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => {
        const imgs = [...document.querySelectorAll('li.product img[loading="lazy"]')];
        return imgs.length > 0 && imgs.at(-1).complete && imgs.at(-1).naturalWidth > 0;
      });
      await page.goto(VIDEO_PAGE);
      assert.equal(await page.locator('button.lazy-video__play').isVisible(), false, 'no dead Play button without scripts');
      assert.equal(await page.getByRole('link', { name: `Watch “${VIDEO_TITLE}” on YouTube` }).isVisible(), true);
    },
    { javaScriptEnabled: false },
  );
});

// --- Lazy video and the CSP ----------------------------------------------

test('a video: no player until Play is pressed; then the iframe, autoplaying, and smush-lazyloaded-video once loaded', async () => {
  await withVideoPage();
  await withPage(async (page) => {
    const playerRequests = [];
    const violations = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to frame/i.test(m.text())) violations.push(m.text());
    });
    // The player is stubbed: no network, and a request reaches here only if the CSP allowed the frame.
    await page.route(`${PLAYER}/**`, (route) => {
      playerRequests.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>player</title><p>player</p>' });
    });
    const res = await page.goto(VIDEO_PAGE);
    assert.equal(res.status(), 200);
    const play = page.getByRole('button', { name: `Play video: ${VIDEO_TITLE}` });
    await play.waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(await page.locator('iframe').count(), 0, 'no iframe before the press');
    assert.deepEqual(playerRequests, [], 'nothing asked of the provider before the press');
    const wrapper = page.locator('.lazy-video');
    assert.equal(await wrapper.evaluate((w) => w.classList.contains('smush-lazyloaded-video')), false);
    // The poster reserves the player's 16:9 box.
    const box = await wrapper.boundingBox();
    assert.ok(Math.abs(box.width / box.height - 16 / 9) < 0.02, `16:9 poster (${box.width}×${box.height})`);

    await play.click();
    const frame = page.locator('iframe.lazy-video__frame');
    await frame.waitFor();
    assert.match(await frame.getAttribute('src'), /^https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ\?rel=0&autoplay=1$/);
    await page.waitForFunction(() => document.querySelector('.lazy-video')?.classList.contains('smush-lazyloaded-video'));
    assert.equal(playerRequests.length, 1, 'the player was fetched once, after the press');
    assert.equal(await frame.evaluate((f) => f === document.activeElement), true, 'focus moved to the player');
    const after = await wrapper.boundingBox();
    assert.equal(Math.round(after.height), Math.round(box.height), 'loading the player moved nothing');
    assert.deepEqual(violations, []);
  });
});

test('the CSP allows the player only on a page with a video', async () => {
  await withVideoPage();
  const withVideo = await fetch(shop.server.baseURL + VIDEO_PAGE);
  const csp = withVideo.headers.get('content-security-policy');
  assert.match(csp, /frame-src 'self' https:\/\/www\.youtube-nocookie\.com/);
  const again = await fetch(shop.server.baseURL + VIDEO_PAGE); // from the page cache
  assert.equal(again.headers.get('x-cache'), 'hit');
  assert.equal(again.headers.get('content-security-policy'), csp, 'the cached page keeps its policy');
  for (const path of ['/about/', '/', '/shop/', '/product/classic-tee/']) {
    const res = await fetch(shop.server.baseURL + path);
    const other = res.headers.get('content-security-policy');
    assert.ok(other && !/frame-src|youtube/.test(other), `${path}: ${other}`);
  }
  // And the browser enforces it: a player frame on a page without a video is refused.
  await withPage(async (page) => {
    await page.goto('/about/');
    const refused = await page.evaluate(
      (src) =>
        new Promise((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true });
          const f = document.createElement('iframe');
          f.src = src;
          document.body.appendChild(f);
          setTimeout(() => resolve('none'), 3000);
        }),
      `${PLAYER}/embed/dQw4w9WgXcQ`,
    );
    assert.equal(refused, 'frame-src');
  });
});

test('axe: no serious or critical violations on a content page with a video', async () => {
  await withVideoPage();
  for (const viewport of [DESKTOP, MOBILE]) {
    await withPage(
      async (page) => {
        await page.goto(VIDEO_PAGE);
        await page.getByRole('button', { name: `Play video: ${VIDEO_TITLE}` }).waitFor();
        await page.waitForLoadState('networkidle');
        await assertAccessible(page, `the video page at ${viewport.width}px`);
      },
      { viewport },
    );
  }
});

// --- Content pages and the checkout's terms ------------------------------

test('the demo pages answer, linked from every footer; /slug redirects; drafts and unknown slugs are 404', async () => {
  await withVideoPage();
  await withPage(async (page) => {
    for (const [path, h1] of [
      ['/about/', 'About us'],
      ['/shipping/', 'Shipping'],
      ['/returns/', 'Returns and refunds'],
      ['/terms/', 'Terms and conditions'],
    ]) {
      const res = await page.goto(path);
      assert.equal(res.status(), 200, path);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), h1);
      const footer = page.getByRole('navigation', { name: 'Footer' });
      assert.equal(await footer.getByRole('link', { name: h1 }).getAttribute('aria-current'), 'page');
    }
    await page.goto('/');
    const footer = page.getByRole('navigation', { name: 'Footer' });
    for (const name of ['About us', 'Shipping', 'Returns and refunds', 'Terms and conditions', VIDEO_TITLE]) {
      assert.equal(await footer.getByRole('link', { name }).count(), 1, `footer links ${name}`);
    }
    await footer.getByRole('link', { name: 'Shipping' }).click();
    await page.waitForURL('**/shipping/');
    const res = await page.goto('/about');
    assert.equal(new URL(page.url()).pathname, '/about/');
    assert.equal(res.status(), 200);
  });
  assert.equal((await fetch(shop.server.baseURL + '/no-such-page/')).status, 404);
  await pageCommand(['set', 'secret-sale', '--title', 'Secret sale', '--file', '-', '--draft'], '<p>Soon.</p>');
  assert.equal((await fetch(shop.server.baseURL + '/secret-sale/')).status, 404);
  await assert.rejects(pageCommand(['set', 'checkout', '--title', 'Mine', '--file', '-'], '<p>x</p>'), /one of the shop's own addresses/);
});

test("the checkout's terms lightbox shows the terms page, and its change on the next checkout", async () => {
  await withVideoPage();
  await withPage(async (page) => {
    await addToCart(page);
    const data = await openCheckout(page);
    assert.equal(data.terms.title, 'Terms and conditions');
    await page.getByRole('link', { name: 'Read the terms and conditions' }).click();
    const dialog = page.locator('dialog.terms-dialog[open]');
    await dialog.waitFor();
    assert.match(await dialog.textContent(), /This is a demonstration shop:/);
    assert.match(await dialog.textContent(), /Terms and conditions/);
    await page.keyboard.press('Escape');

    await pageCommand(['set', 'terms', '--title', 'Terms of sale', '--file', '-'], '<p>Every order ships within a week.</p>');
    await openCheckout(page);
    await page.getByRole('link', { name: 'Read the terms and conditions' }).click();
    await dialog.waitFor();
    assert.match(await dialog.textContent(), /Every order ships within a week\./);
    assert.match(await dialog.textContent(), /Terms of sale/);
  });
});

// --- Manifest ------------------------------------------------------------

test('every page links the web app manifest, served as application/manifest+json with loadable icons', async () => {
  await withVideoPage();
  await withPage(async (page) => {
    for (const path of ['/', '/product/classic-tee/', '/about/']) {
      await page.goto(path);
      assert.equal(await page.locator('head link[rel="manifest"]').getAttribute('href'), '/manifest.webmanifest', path);
    }
    const res = await page.request.get('/manifest.webmanifest');
    assert.equal(res.status(), 200);
    assert.equal(res.headers()['content-type'], 'application/manifest+json');
    assert.match(res.headers()['cache-control'], /max-age=\d+/);
    const m = await res.json();
    assert.equal(m.name, 'Vitrine');
    assert.equal(m.start_url, '/');
    assert.equal(m.display, 'standalone');
    for (const icon of m.icons) {
      const r = await page.request.get(icon.src);
      assert.equal(r.status(), 200, icon.src);
      assert.equal(r.headers()['content-type'], icon.type, icon.src);
    }
    const ico = await page.request.get('/favicon.ico');
    assert.equal(ico.headers()['content-type'], 'image/x-icon');
    const b = await ico.body();
    assert.deepEqual([...b.subarray(0, 4)], [0, 0, 1, 0], 'an ICO header');
  });
});

// --- Layout shift --------------------------------------------------------

/**
 * Cumulative Layout Shift as web-vitals defines it: layout-shift entries not
 * caused by recent input, grouped in session windows (a gap of more than 1 s
 * or a window longer than 5 s starts a new one); CLS is the largest window.
 * The plain sum of every shift is kept too, for the record.
 */
function observeShifts() {
  window.__layout = { cls: 0, sum: 0, shifts: [] };
  let win = 0;
  let first = 0;
  let last = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      const L = window.__layout;
      if (win > 0 && e.startTime - last < 1000 && e.startTime - first < 5000) {
        win += e.value;
      } else {
        win = e.value;
        first = e.startTime;
      }
      last = e.startTime;
      L.cls = Math.max(L.cls, win);
      L.sum += e.value;
      L.shifts.push({ at: Math.round(e.startTime), value: e.value, sources: (e.sources || []).map((s) => s.node?.className || s.node?.nodeName || '') });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

const CLS_PAGES = ['/', '/shop/', '/product/classic-tee/'];
const CLS_LIMIT = 0.02;

for (const viewport of [DESKTOP, MOBILE]) {
  test(`CLS under ${CLS_LIMIT} on the home, a listing and a product page at ${viewport.width}px, scrolling through`, async (t) => {
    await withVideoPage();
    for (const path of CLS_PAGES) {
      await withPage(
        async (page) => {
          await page.addInitScript(observeShifts);
          await page.goto(path);
          await page.waitForLoadState('networkidle');
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          for (let y = 0; y < height; y += 300) {
            await page.evaluate(() => window.scrollBy(0, 300));
            await page.waitForTimeout(50);
          }
          await page.waitForLoadState('networkidle');
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          const { cls, sum, shifts } = await page.evaluate(() => window.__layout);
          t.diagnostic(`CLS ${path} at ${viewport.width}px: ${cls.toFixed(4)} (all shifts: ${sum.toFixed(4)})`);
          assert.ok(cls < CLS_LIMIT, `CLS ${cls} on ${path} at ${viewport.width}px: ${JSON.stringify(shifts)}`);
        },
        { viewport },
      );
    }
  });
}
