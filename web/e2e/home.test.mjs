// Issue 14 (home and page furniture): the hero carousel's autoplay states and
// labels, the product tabs as an accordion on a phone, tooltips' delays and
// Escape, the listing's sticky sidebar, the page loader, no layout shift,
// and the product page not loading the home's code. One server, started with
// --page-loader so every page here also shows the loader never gets in the way.
//
// Timers run on Playwright's clock where the spec gives a timing (autoplay
// 3000 ms, tooltip delays): the clock is paused and moved by hand, so the
// checks are exact and never wait on real time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { holdRequests, useShop } from './server.mjs';

const shop = useShop({ args: ['--page-loader'] });

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Pause the page's (installed) clock now: from here time moves only by runFor. */
async function pauseClock(page) {
  for (let tries = 0; ; tries++) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + 100);
      return;
    } catch (err) {
      // The clock ran past that point meanwhile (a slow machine): again.
      if (tries > 5 || !/past/.test(String(err))) throw err;
    }
  }
}

/**
 * With the page's clock paused, lets the app in: the head script adds it on a
 * timer after the first paint, and a paused clock fires no timer by itself.
 * Moves the clock a millisecond at a time until the app's script is in.
 */
async function letTheAppIn(page) {
  for (let tries = 0; tries < 200; tries++) {
    if ((await page.locator('head script[type="module"][src]').count()) > 0) return;
    await page.clock.runFor(1);
    await page.waitForTimeout(20);
  }
  throw new Error('the head script never added the app');
}

const carouselOf = (page) => page.getByRole('region', { name: 'Featured collections' });
const autoplay = (page) => carouselOf(page).getAttribute('data-autoplay');
const currentDot = (page) =>
  page.locator('.hero-carousel__dot[aria-current="true"]').evaluate((el) => el.getAttribute('aria-label'));

/** Open the home and wait for the carousel to be live (its chunk and Embla loaded). */
async function openHome(page) {
  await page.goto('/');
  await page.locator('.hero-carousel.is-ready').waitFor();
}

test('home: the carousel is server-rendered with its first image eager and high priority, the rest lazy', async () => {
  const html = await (await fetch(shop.server.baseURL + '/')).text();
  const carousel = html.slice(html.indexOf('aria-roledescription="carousel"'));
  const imgs = [...carousel.matchAll(/<img [^>]*>/g)].map((m) => m[0]).filter((t) => t.includes('category-'));
  assert.ok(imgs.length >= 2, `slides' images in the server HTML (${imgs.length})`);
  assert.match(imgs[0], /loading="eager"/);
  assert.match(imgs[0], /fetchpriority="high"/i);
  assert.match(imgs[0], /width="\d+"/);
  assert.match(imgs[0], /height="\d+"/);
  // Later slides load lazily; the category tiles below use LazyImage (lazyload class, data-src).
  for (const img of imgs.slice(1)) assert.match(img, /loading="lazy"|class="[^"]*\blazyload\b/);
  assert.match(html, /<div (?=[^>]*class="page-loader")(?=[^>]*aria-hidden="true")/, 'the loader is in the page (--page-loader)');

  // A page streams in: with only the first slide's picture parsed (its text
  // not yet), the picture is already in its column, so nothing moves later.
  const cut = html.indexOf('<div class="hero-slide__text">');
  assert.ok(cut > 0);
  const partial = html.slice(0, cut).replace(/ data-entry="[^"]*"/, ''); // no app: the head script loads it
  await shop.withPage({ viewport: DESKTOP }, async (page) => {
    await page.route('**/', (route) =>
      new URL(route.request().url()).pathname === '/' ? route.fulfill({ body: partial, contentType: 'text/html' }) : route.continue(),
    );
    await page.goto('/');
    const x = await page.locator('.hero-slide__media').first().evaluate((el) => el.getBoundingClientRect().x);
    assert.ok(x > DESKTOP.width / 2 - 60, `the first picture is in the right-hand column before its text arrives (x ${x})`);
  });
});

test('home: autoplay plays, pauses on hover and on focus, is stopped and started by its button; the labels', async () => {
  await shop.withPage({ viewport: DESKTOP }, async (page) => {
    await page.clock.install();
    await openHome(page);
    await pauseClock(page);
    const carousel = carouselOf(page);
    assert.equal(await carousel.getAttribute('aria-roledescription'), 'carousel');
    const slides = page.locator('[aria-roledescription="slide"]');
    const n = await slides.count();
    assert.ok(n >= 2, `${n} slides`);
    assert.equal(await slides.first().getAttribute('aria-label'), `1 of ${n}`);
    for (const name of ['Previous', 'Next', 'Stop automatic slide show', 'Page dot 1', `Page dot ${n}`]) {
      assert.equal(await carousel.getByRole('button', { name, exact: true }).count(), 1, `button "${name}"`);
    }
    const live = carousel.locator('[aria-live]');

    // Playing: a slide every 3000 ms, not announced.
    await page.mouse.move(5, 5);
    assert.equal(await autoplay(page), 'playing');
    assert.equal(await live.getAttribute('aria-live'), 'off');
    const dotNumber = async () => Number((await currentDot(page)).replace('Page dot ', ''));
    const start = await dotNumber();
    await page.clock.runFor(3000);
    assert.equal(await dotNumber(), (start % n) + 1, 'moved on after 3 s');
    const shown = await page.locator('[aria-roledescription="slide"]:not([inert])').getAttribute('aria-label');
    assert.equal(shown, `${(start % n) + 1} of ${n}`, 'only the current slide is reachable');

    // Paused while hovered, announced; playing again when the pointer leaves.
    await carousel.hover();
    assert.equal(await autoplay(page), 'paused');
    assert.equal(await live.getAttribute('aria-live'), 'polite');
    const held = await dotNumber();
    await page.clock.runFor(9000);
    assert.equal(await dotNumber(), held, 'no move while hovered');
    await page.mouse.move(5, 5);
    assert.equal(await autoplay(page), 'playing');
    await page.clock.runFor(3000);
    assert.equal(await dotNumber(), (held % n) + 1);

    // Paused while focus is inside (keyboard), playing when it leaves.
    await carousel.getByRole('button', { name: 'Page dot 1', exact: true }).focus();
    assert.equal(await autoplay(page), 'paused');
    const focusedAt = await dotNumber();
    await page.clock.runFor(9000);
    assert.equal(await dotNumber(), focusedAt, 'no move while focused');
    await page.keyboard.press('Enter'); // the dot moves to slide 1
    assert.equal(await currentDot(page), 'Page dot 1');
    await page.locator('a.site-title').focus();
    assert.equal(await autoplay(page), 'playing');

    // Stopped by the rotation button: stays stopped when pointer and focus leave.
    await carousel.getByRole('button', { name: 'Stop automatic slide show' }).click();
    const rotation = carousel.getByRole('button', { name: 'Start automatic slide show' });
    assert.equal(await rotation.count(), 1, 'the button now offers to start');
    await page.mouse.move(5, 5);
    await page.locator('a.site-title').focus();
    assert.equal(await autoplay(page), 'stopped');
    assert.equal(await live.getAttribute('aria-live'), 'polite');
    const stoppedAt = await dotNumber();
    await page.clock.runFor(12000);
    assert.equal(await dotNumber(), stoppedAt, 'no move while stopped');
    // Next and Previous still move it.
    await carousel.getByRole('button', { name: 'Next', exact: true }).click();
    assert.equal(await dotNumber(), (stoppedAt % n) + 1);
    await carousel.getByRole('button', { name: 'Previous', exact: true }).click();
    assert.equal(await dotNumber(), stoppedAt);
    // Started again.
    await rotation.click();
    await page.mouse.move(5, 5);
    await page.locator('a.site-title').focus();
    assert.equal(await autoplay(page), 'playing');
    await page.clock.runFor(3000);
    assert.equal(await dotNumber(), (stoppedAt % n) + 1);
  });
});

test('home: under reduced motion the carousel never plays by itself, and there is no page loader', async () => {
  await shop.withPage({ viewport: DESKTOP, reducedMotion: 'reduce' }, async (page) => {
    await page.clock.install();
    await openHome(page);
    await pauseClock(page);
    assert.equal(await autoplay(page), 'stopped');
    assert.equal(await carouselOf(page).locator('[aria-live]').getAttribute('aria-live'), 'polite');
    await page.mouse.move(5, 5);
    await page.clock.runFor(15000);
    assert.equal(await currentDot(page), 'Page dot 1');
    await carouselOf(page).getByRole('button', { name: 'Next', exact: true }).click();
    assert.equal(await currentDot(page), 'Page dot 2');
    const loader = await page.evaluate(() => {
      const el = document.querySelector('.page-loader');
      return el ? getComputedStyle(el).display : 'absent';
    });
    assert.ok(loader === 'none' || loader === 'absent', `loader display ${loader}`);
  });
});

test('home: axe finds nothing serious with the carousel stopped; the product page never loads the home chunk or Embla', async () => {
  await shop.withPage({ viewport: DESKTOP }, async (page) => {
    await openHome(page);
    await carouselOf(page).getByRole('button', { name: 'Stop automatic slide show' }).click();
    await assertAccessible(page, 'the home');

    const scripts = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    await page.goto('/product/classic-tee/');
    await page.waitForLoadState('networkidle');
    assert.ok(scripts.some((s) => /entry-client/.test(s)), `scripts: ${scripts.join(' ')}`);
    assert.deepEqual(scripts.filter((s) => /HomePage|embla/i.test(s)), [], 'no home code on the product page');
  });
});

test('product details: an accordion at 390 px (one item open at a time), tabs at 1280 px', async () => {
  await shop.withPage({ viewport: PHONE }, async (page) => {
    await page.goto('/product/classic-tee/');
    await page.locator('.woocommerce-tabs.is-accordion').waitFor();
    assert.equal(await page.getByRole('tablist').count(), 0, 'no tablist on a phone');
    const desc = page.getByRole('button', { name: 'Description', exact: true });
    const info = page.getByRole('button', { name: 'Additional information', exact: true });
    const reviews = page.getByRole('button', { name: /^Reviews \(\d+\)$/ });
    assert.equal(await desc.getAttribute('aria-expanded'), 'true');
    assert.equal(await desc.getAttribute('aria-controls'), 'tab-description');
    await reviews.click();
    assert.equal(await reviews.getAttribute('aria-expanded'), 'true');
    assert.equal(await desc.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator('#tab-reviews').isVisible(), true);
    assert.equal(await page.locator('#tab-description').isVisible(), false);
    await info.click();
    const open = await page.locator('.accordion-title__button[aria-expanded="true"]').count();
    assert.equal(open, 1, 'one item open at a time');
    assert.equal(await page.locator('#tab-additional_information').isVisible(), true);
    await info.click();
    assert.equal(await info.getAttribute('aria-expanded'), 'false', 'the open item closes on its button');
    assert.equal(await page.locator('.woocommerce-Tabs-panel:visible').count(), 0);
    // By keyboard: Enter on a heading button opens it.
    await desc.focus();
    await page.keyboard.press('Enter');
    assert.equal(await desc.getAttribute('aria-expanded'), 'true');
    await assertAccessible(page, 'the product page accordion at 390 px');
    // The reviews deep link opens its item.
    await page.goto('/product/classic-tee/#reviews');
    await page.locator('.woocommerce-tabs.is-accordion').waitFor();
    await page.waitForFunction(() => document.querySelector('#accordion-title-reviews')?.getAttribute('aria-expanded') === 'true');
  });
  await shop.withPage({ viewport: DESKTOP }, async (page) => {
    await page.goto('/product/classic-tee/');
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByRole('tablist', { name: 'Product details' }).isVisible(), true);
    assert.equal(await page.locator('.accordion-title').first().isVisible(), false);
    await page.getByRole('tab', { name: 'Additional information' }).click();
    assert.equal(await page.getByRole('tabpanel').getAttribute('id'), 'tab-additional_information');
    assert.equal(await page.locator('.woocommerce-tabs.is-accordion').count(), 0);
  });
});

test('tooltips: the product tooltip after 200 ms with a 350 ms fade, others after 100 ms; Escape hides; axe with one open', async () => {
  await shop.withPage({ viewport: DESKTOP }, async (page) => {
    await page.clock.install();
    await page.goto('/product/classic-tee/');
    const form = page.locator('form.variations_form');
    const navy = form.getByRole('radiogroup', { name: 'Color' }).getByRole('radio', { name: 'Navy', exact: true });
    await navy.waitFor();
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' }); // the swatches work once the page has hydrated
    await pauseClock(page);
    const tipOf = (el) => el.evaluate((node) => node.parentElement.querySelector('[role="tooltip"]').getAttribute('data-state'));

    // A colour swatch: its name, 200 ms after the pointer rests on it.
    await navy.hover();
    await page.clock.runFor(199);
    assert.equal(await tipOf(navy), 'hidden');
    await page.clock.runFor(1);
    assert.equal(await tipOf(navy), 'appearing');
    await page.clock.runFor(349);
    assert.equal(await tipOf(navy), 'appearing');
    await page.clock.runFor(1);
    assert.equal(await tipOf(navy), 'shown');
    const tip = navy.locator('xpath=..').getByRole('tooltip', { includeHidden: true });
    assert.equal(await tip.textContent(), 'Navy');
    const style = await tip.evaluate((el) => ({ maxWidth: getComputedStyle(el).maxWidth, opacity: getComputedStyle(el).opacity }));
    assert.deepEqual(style, { maxWidth: '250px', opacity: '0.95' });
    // Hoverable: the pointer moves onto the tooltip and it stays.
    await tip.hover();
    await page.clock.runFor(2000);
    assert.equal(await tipOf(navy), 'shown');
    // Escape hides it without moving the pointer.
    await page.keyboard.press('Escape');
    assert.equal(await tipOf(navy), 'hidden');
    await page.clock.runFor(2000);
    assert.equal(await tipOf(navy), 'hidden', 'stays dismissed while hovered');

    // An out-of-stock size: described by its tooltip.
    await navy.click();
    const xs = form.locator('[role="radio"][data-value="xs"]');
    await page.waitForFunction(() => document.querySelector('[role="radio"][data-value="xs"]')?.classList.contains('no-stock'));
    const described = await xs.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby'))?.textContent);
    assert.equal(described, 'Out of stock');
    await xs.hover();
    await page.clock.runFor(200 + 350);
    assert.equal(await tipOf(xs), 'shown');
    await page.clock.resume(); // axe keeps its own timers
    await assertAccessible(page, 'the product page with a tooltip open');
    await pauseClock(page);
    await page.mouse.move(5, 5);

    // The gallery's full-screen button: the other tooltips, 100 ms, on focus too.
    const full = page.getByRole('button', { name: 'View full-screen' });
    await full.focus();
    await page.clock.runFor(99);
    assert.equal(await tipOf(full), 'hidden');
    await page.clock.runFor(1);
    assert.equal(await tipOf(full), 'appearing');
    await page.clock.runFor(150);
    assert.equal(await tipOf(full), 'shown');
    await page.locator('a.site-title').focus();
    await page.clock.runFor(99);
    assert.equal(await tipOf(full), 'shown', 'waits 100 ms before hiding');
    await page.clock.runFor(1 + 150);
    assert.equal(await tipOf(full), 'hidden');
  });
});

test('listing: the sidebar stays in view while scrolling at 1280 px, and is static under 850 px', async () => {
  await shop.withPage({ viewport: DESKTOP }, async (page) => {
    await page.goto('/shop/');
    await page.waitForLoadState('networkidle');
    const aside = page.getByRole('complementary', { name: 'Shop filters' });
    await page.waitForFunction(() => document.querySelector('.shop-sidebar')?.dataset.sticky === 'static');
    // In the page: the sidebar's box, the header's bottom when it stays in
    // view (the stuck header, else 0), the position, and whether it settled
    // (no header animation running, and under the header when at the top).
    const measure = () => {
      const el = document.querySelector('.shop-sidebar__inner');
      const r = el.getBoundingClientRect();
      let header = 0;
      for (const h of document.querySelectorAll('.site-header, .site-header > *')) {
        const pos = getComputedStyle(h).position;
        if (pos === 'fixed' || pos === 'sticky') header = Math.max(header, h.getBoundingClientRect().bottom);
      }
      const b = { top: Math.round(r.top), bottom: Math.round(r.bottom), vh: innerHeight, header: Math.round(header), pos: el.closest('.shop-sidebar').dataset.sticky };
      const animating = document.querySelector('.site-header')?.getAnimations().length > 0;
      const settled = b.pos !== 'static' && !animating && (b.pos !== 'viewport-top' || Math.abs(b.top - b.header - 15) <= 1);
      return settled ? b : null;
    };
    // The sidebar (categories, then the filters) may be taller than the
    // viewport: it then scrolls with the page until its end comes into
    // view, and sticks there. Scrolled past its end, it stays in the
    // column: wholly in view when it fits, else its end in view.
    const { end, room } = await page.evaluate(() => ({
      end: Math.round(document.querySelector('.shop-sidebar__inner').getBoundingClientRect().bottom + scrollY),
      room: document.documentElement.scrollHeight - innerHeight,
    }));
    const ys = [end - DESKTOP.height + 400, end - DESKTOP.height + 900, end - DESKTOP.height + 1400].map((y) => Math.max(900, Math.min(y, room - 100)));
    for (const y of ys) {
      await page.evaluate((to) => window.scrollTo(0, to), y);
      const box = await (await page.waitForFunction(measure)).jsonValue();
      const tall = box.bottom - box.top > box.vh - box.header - 30;
      assert.ok((tall || box.top >= 0) && box.bottom <= box.vh, `at ${y}: sidebar ${JSON.stringify(box)} in view`);
      assert.ok(['viewport-top', 'viewport-bottom', 'viewport-unbottom', 'container-bottom'].includes(box.pos), box.pos);
      if (box.pos === 'viewport-top') assert.ok(Math.abs(box.top - (box.header + 15)) <= 1, `header bottom + 15 px: ${JSON.stringify(box)}`);
      if (box.pos === 'viewport-bottom') assert.equal(box.bottom, box.vh - 15, '15 px above the bottom');
    }
    // Back to the top: static again.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => document.querySelector('.shop-sidebar')?.dataset.sticky === 'static');
    // The price filter narrows the listing.
    await aside.getByRole('spinbutton', { name: /Min price/ }).fill('50');
    await aside.getByRole('spinbutton', { name: /Max price/ }).fill('90');
    await Promise.all([page.waitForURL(/min_price=50/), aside.getByRole('button', { name: 'Filter' }).click()]);
    const prices = await page.$$eval('ul.products > li.product .price', (els) =>
      els.map((el) => Number(((el.querySelector('ins .amount') || el.querySelector('.amount'))?.textContent || '').replace(/[^0-9.]/g, ''))),
    );
    assert.ok(prices.length > 0, 'some products');
    for (const p of prices) assert.ok(p >= 50 && p <= 90, `price ${p} within 50–90`);
    await assertAccessible(page, 'the filtered shop with its sidebar');
  });
  await shop.withPage({ viewport: { width: 800, height: 900 } }, async (page) => {
    await page.goto('/shop/');
    await page.waitForLoadState('networkidle');
    const inner = page.locator('.shop-sidebar__inner');
    const before = await inner.evaluate((el) => el.getBoundingClientRect().top);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))); // the handler's frame
    const after = await inner.evaluate((el) => ({
      top: el.getBoundingClientRect().top,
      position: getComputedStyle(el).position,
      inline: el.getAttribute('style') || '',
      sticky: el.closest('.shop-sidebar').dataset.sticky,
    }));
    assert.deepEqual({ position: after.position, inline: after.inline, sticky: after.sticky }, { position: 'static', inline: '', sticky: 'static' });
    assert.ok(after.top < before - 1000, `it scrolls with the page (${before} -> ${after.top})`);
  });
});

test('page loader: in the way of nothing, gone after load, and after 1000 ms even without load', async () => {
  // The clock is paused from the start: the loader's own timers wait for runFor.
  // It starts at this machine's now, as the shop's (a fixed day would put the
  // page's cookies' dates behind the shop's on a later calendar).
  const T0 = Date.now();
  await shop.withPage({ viewport: DESKTOP }, async (page) => {
    await page.clock.install({ time: T0 });
    await page.clock.pauseAt(T0 + 5000); // ahead of any slowness: no page is loaded yet, so nothing fires
    // Hold the pictures so the load event waits.
    const release = await holdRequests(page, '**/media/**');
    await page.goto('/shop/', { waitUntil: 'domcontentloaded' });
    await letTheAppIn(page);
    await page.locator('.shop-sidebar[data-sticky]').waitFor({ state: 'attached' }); // hydrated
    const loader = page.locator('.page-loader');
    assert.equal(await loader.count(), 1, 'shown while the page loads');
    const style = await loader.evaluate((el) => ({ pe: getComputedStyle(el).pointerEvents, hidden: el.getAttribute('aria-hidden') }));
    assert.deepEqual(style, { pe: 'none', hidden: 'true' });
    // Pointer and keyboard go through it.
    const hit = await page.evaluate(() => {
      const r = document.querySelector('a.site-title').getBoundingClientRect();
      return document.elementFromPoint(r.left + 5, r.top + 5)?.closest('a')?.className;
    });
    assert.equal(hit, 'site-title', 'the header link is under the pointer, not the loader');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    release();
    await page.waitForFunction(() => document.readyState === 'complete');
    await page.locator('.page-loader.is-leaving').waitFor({ state: 'attached' });
    await page.clock.runFor(300);
    assert.equal(await loader.count(), 0, 'removed after load');
  });
  await shop.withPage({ viewport: DESKTOP }, async (page) => {
    await page.clock.install({ time: T0 });
    await page.clock.pauseAt(T0 + 5000); // ahead of any slowness: no page is loaded yet, so nothing fires
    await page.route('**/media/**', () => {}); // never answered: no load event
    await page.goto('/shop/', { waitUntil: 'domcontentloaded' });
    await letTheAppIn(page);
    await page.locator('.shop-sidebar[data-sticky]').waitFor({ state: 'attached' }); // hydrated
    assert.equal(await page.locator('.page-loader').count(), 1);
    await page.clock.runFor(1000);
    assert.equal(await page.locator('.page-loader').count(), 0, 'gone within 1000 ms without load');
    assert.notEqual(await page.evaluate(() => document.readyState), 'complete');
  });
});

test('no layout shift on the home, listing and product pages (CLS under 0.02)', async () => {
  const figures = [];
  for (const viewport of [DESKTOP, PHONE]) {
    for (const path of ['/', '/shop/', '/product/classic-tee/']) {
      await shop.withPage({ viewport }, async (page) => {
        await page.addInitScript(() => {
          window.__cls = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        if (path === '/') await page.locator('.hero-carousel.is-ready').waitFor();
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const cls = await page.evaluate(() => window.__cls);
        figures.push(`${path} ${viewport.width}px: ${cls.toFixed(4)}`);
        assert.ok(cls < 0.02, `CLS ${cls} on ${path} at ${viewport.width}px`);
      });
    }
  }
  console.log(`CLS: ${figures.join('; ')}`);
});
