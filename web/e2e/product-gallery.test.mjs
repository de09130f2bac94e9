// Product gallery: the full-screen lightbox (loaded on first open), its keyboard,
// zoom, counter, focus return, image errors and an axe scan while it is open;
// hover zoom off by default and on with --zoom.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { launchBrowser, startServer, withPage as withPageOn } from './server.mjs';

const PRODUCT = '/product/classic-tee/'; // four images
const DESKTOP = { width: 1280, height: 900 };

let server;
let zoomServer;
let browser;

before(async () => {
  [server, zoomServer] = await Promise.all([startServer(), startServer({ args: ['--zoom'] })]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await Promise.all([server?.stop(), zoomServer?.stop()]);
});

/** Runs fn with a fresh page on baseURL (1280×900 unless options say otherwise). */
const withPage = (baseURL, fn, options = {}) => withPageOn(browser, baseURL, { viewport: DESKTOP, ...options }, fn);

/** Opens the product page and waits for the lightbox trigger (it appears once the app has hydrated). */
async function openProduct(page) {
  await page.goto(PRODUCT);
  const trigger = page.getByRole('button', { name: 'View full-screen' });
  await trigger.waitFor({ state: 'visible' });
  return trigger;
}

const counter = (page) => page.locator('.yarl__counter');
const dialog = (page) => page.getByRole('dialog');

/** Opens the product page and the lightbox with its trigger; answers the trigger. */
async function openLightbox(page) {
  const trigger = await openProduct(page);
  await trigger.click();
  await dialog(page).waitFor({ state: 'visible' });
  return trigger;
}

async function isFocused(locator) {
  return locator.evaluate((el) => el === document.activeElement);
}

test('the lightbox is not loaded until it is opened, and zoom is off by default', async () => {
  await withPage(server.baseURL, async (page) => {
    const requested = [];
    page.on('request', (req) => requested.push(req.url()));
    await openProduct(page);
    await page.waitForLoadState('networkidle');
    assert.deepEqual(
      requested.filter((u) => /GalleryLightbox/.test(u)),
      [],
      'no lightbox chunk before any interaction',
    );
    assert.equal(await page.locator('.product-gallery__zoom').count(), 0, 'no zoom element without --zoom');
    assert.equal(await page.locator('[class*="yarl__"]').count(), 0, 'no lightbox markup');
  });
});

test('trigger opens the lightbox; arrows navigate; zoom in; Escape closes and focus returns to the trigger', async () => {
  await withPage(server.baseURL, async (page) => {
    const trigger = await openLightbox(page);
    assert.equal((await counter(page).textContent()).trim(), '1 / 4');

    const close = dialog(page).getByRole('button', { name: 'Close (Esc)' });
    assert.equal(await close.getAttribute('title'), 'Close (Esc)');
    assert.equal(await dialog(page).getByRole('button', { name: 'Previous' }).isVisible(), true);
    assert.equal(await dialog(page).getByRole('button', { name: 'Next' }).isVisible(), true);

    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('.yarl__counter')?.textContent.trim() === '2 / 4');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('.yarl__counter')?.textContent.trim() === '3 / 4');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.querySelector('.yarl__counter')?.textContent.trim() === '2 / 4');
    await dialog(page).getByRole('button', { name: 'Next' }).click();
    await page.waitForFunction(() => document.querySelector('.yarl__counter')?.textContent.trim() === '3 / 4');
    await dialog(page).getByRole('button', { name: 'Previous' }).click();
    await page.waitForFunction(() => document.querySelector('.yarl__counter')?.textContent.trim() === '2 / 4');

    // Zoom in by its button once the current image has loaded.
    await page.waitForFunction(() => {
      const img = document.querySelector('.yarl__slide_current img');
      return img && img.complete && img.naturalWidth > 0;
    });
    const zoomIn = dialog(page).getByRole('button', { name: 'Zoom in' });
    await page.waitForFunction(() => !document.querySelector('.yarl__button[aria-label="Zoom in"]')?.disabled);
    await zoomIn.click();
    await page.waitForFunction(() => {
      const wrapper = document.querySelector('.yarl__slide_current .yarl__slide_wrapper');
      const m = /scale\(([\d.]+)\)/.exec(wrapper?.style.transform || '');
      return m && Number(m[1]) > 1;
    });
    assert.equal(await dialog(page).getByRole('button', { name: 'Zoom out' }).isEnabled(), true, 'zoom out is possible once zoomed');

    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    assert.equal(await isFocused(trigger), true, 'focus is back on the trigger');
    assert.equal(await page.locator('main').getAttribute('aria-hidden'), null, 'the page is not left hidden');
  });
});

test('a click on the main image opens the lightbox at that image; the close button closes it', async () => {
  await withPage(server.baseURL, async (page) => {
    const trigger = await openProduct(page);
    await page.getByRole('button', { name: 'Show image 3 of 4' }).click();
    await page.locator('.product-gallery__main img').click();
    await dialog(page).waitFor({ state: 'visible' });
    assert.equal((await counter(page).textContent()).trim(), '3 / 4');
    await dialog(page).getByRole('button', { name: 'Close (Esc)' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    assert.equal(await isFocused(trigger), true, 'focus goes to the trigger after an image click too');
  });
});

test('swipe moves to the next image', async () => {
  await withPage(
    server.baseURL,
    async (page) => {
      await openLightbox(page);
      const box = await page.locator('.yarl__container').boundingBox();
      const y = box.y + box.height / 2;
      // A pointer drag from right to left (the library listens to pointer events).
      await page.mouse.move(box.x + box.width * 0.8, y);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width * (0.8 - i * 0.06), y);
      await page.mouse.up();
      await page.waitForFunction(() => document.querySelector('.yarl__counter')?.textContent.trim() === '2 / 4');
    },
  );
});

test('an image that fails to load shows the spec message', async () => {
  await withPage(server.baseURL, async (page) => {
    await page.route(/classic-tee-2\.svg/, (route) => route.abort());
    await openLightbox(page);
    await page.keyboard.press('ArrowRight');
    const msg = dialog(page).locator('.product-lightbox__error');
    await msg.waitFor({ state: 'visible' });
    assert.equal((await msg.textContent()).trim(), 'The image #2 could not be loaded.');
    assert.match(await msg.getByRole('link').getAttribute('href'), /classic-tee-2\.svg$/);
  });
});

test('axe: no serious or critical violations with the lightbox open', async () => {
  for (const viewport of [DESKTOP, { width: 375, height: 812 }]) {
    await withPage(
      server.baseURL,
      async (page) => {
        await openLightbox(page);
        await page.waitForFunction(() => document.querySelector('.yarl__portal_open[role="dialog"]'));
        await page.waitForTimeout(300); // the fade-in
        await assertAccessible(page, `the lightbox open at ${viewport.width}px`);
      },
      { viewport },
    );
  }
});

test('with --zoom, hovering the main image shows a magnified view that follows the pointer', async () => {
  await withPage(zoomServer.baseURL, async (page) => {
    await openProduct(page);
    const pane = page.locator('.product-gallery__zoom');
    assert.equal(await pane.count(), 1, 'the zoom pane is there with --zoom');
    assert.equal(await pane.isVisible(), false, 'hidden until hovered');
    const box = await page.locator('.product-gallery__main').boundingBox();
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.75);
    await page.mouse.move(box.x + box.width * 0.25 + 1, box.y + box.height * 0.75);
    await page.waitForFunction(() => document.querySelector('.product-gallery__zoom')?.classList.contains('is-active'));
    const pos = await pane.evaluate((el) => el.style.backgroundPosition);
    const [x, y] = pos.split(' ').map((v) => parseFloat(v));
    assert.ok(Math.abs(x - 25) < 2 && Math.abs(y - 75) < 2, `background follows the pointer (${pos})`);
    assert.match(await pane.evaluate((el) => el.style.backgroundImage), /classic-tee-1\.svg/);
    await page.mouse.move(box.x + box.width + 200, box.y - 50);
    await page.waitForFunction(() => !document.querySelector('.product-gallery__zoom')?.classList.contains('is-active'));
  });
});
