// The consent banner in the browser, against the real binary started with
// --consent-banner: operated by keyboard alone, on top and in the viewport,
// accessible, moving nothing on the page; order attribution's sbjs_* cookies
// only after Accept; Global Privacy Control means no banner and no cookies;
// the footer's "Cookie settings" opens it again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';
import { assertAccessible } from './axe.mjs';
import { assertUsable, DESKTOP, PHONE } from './visible.mjs';

const shop = useShop({ args: ['--consent-banner'] });

const LANDING = '/shop/?utm_source=e2e-news&utm_medium=email&utm_campaign=consent';
const banner = (page) => page.getByRole('region', { name: 'Cookie consent' });
const attributionCookies = async (context) => (await context.cookies()).filter((c) => c.name.startsWith('sbjs_')).map((c) => c.name);
const consentCookie = async (context) => (await context.cookies()).find((c) => c.name === 'vitrine_consent')?.value;

/** Presses Tab until the focused element is the banner's button named name (a keyboard user's way there). */
async function tabTo(page, name) {
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.closest('.consent-banner') && el.tagName === 'BUTTON' ? el.textContent.trim() : '';
    });
    if (focused === name) return;
  }
  assert.fail(`Tab never reached the banner's ${name} button`);
}

/** Where the page's main parts are. */
const layout = (page) =>
  page.evaluate(() => {
    const box = (sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      return [r.top + window.scrollY, r.left, r.width, r.height].map(Math.round);
    };
    return { header: box('.site-header'), main: box('#content'), footer: box('.site-footer'), height: document.documentElement.scrollHeight };
  });

test('the banner: in no server HTML, no focus taken, Tab then Enter on Reject; nothing stored, nothing moved', async () => {
  await shop.withPage({ viewport: DESKTOP }, async (page, context) => {
    const res = await page.goto(LANDING);
    assert.ok(!(await res.text()).includes('consent-banner'), 'the cached page has no banner: the browser adds it');
    await banner(page).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true, 'the banner takes no focus on load');
    assert.deepEqual(await attributionCookies(context), [], 'no attribution cookie before a choice');
    const withBanner = await layout(page);

    await tabTo(page, 'Reject');
    await page.keyboard.press('Enter');
    await banner(page).waitFor({ state: 'detached' });
    assert.equal(await consentCookie(context), 'denied');
    assert.deepEqual(await attributionCookies(context), [], 'no attribution cookie after Reject');
    await page.getByRole('status').filter({ hasText: 'only essential cookies' }).waitFor({ state: 'attached' });
    // The banner overlaid the page: nothing moved when it went.
    assert.deepEqual(await layout(page), withBanner, 'the page laid out the same with and without the banner');

    // The next page remembers the refusal: no banner, no cookies.
    await page.goto('/');
    await page.locator('.consent-status').waitFor({ state: 'attached' });
    assert.equal(await banner(page).count(), 0);
    assert.deepEqual(await attributionCookies(context), []);
  });
});

test('Accept by keyboard sets the attribution cookies from this visit', async () => {
  await shop.withPage({ viewport: DESKTOP }, async (page, context) => {
    await page.goto(LANDING);
    await banner(page).waitFor();
    await tabTo(page, 'Accept');
    await page.keyboard.press('Enter');
    await banner(page).waitFor({ state: 'detached' });
    assert.equal(await consentCookie(context), 'granted');
    await page.waitForFunction(() => document.cookie.includes('sbjs_current='));
    const current = (await context.cookies()).find((c) => c.name === 'sbjs_current');
    assert.match(decodeURIComponent(current.value), /src=e2e-news/);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'content', 'focus goes to the page after the choice');
  });
});

for (const [label, viewport] of [
  ['1280×800', DESKTOP],
  ['375×812', PHONE],
]) {
  test(`the banner's buttons are in the viewport and on top, and it passes axe (${label})`, async () => {
    await shop.withPage({ viewport }, async (page) => {
      await page.goto('/product/classic-tee/');
      await banner(page).waitFor();
      for (const name of ['Accept', 'Reject']) {
        await assertUsable(banner(page).getByRole('button', { name }), `the banner's ${name}`, { scroll: false });
      }
      await assertUsable(banner(page).getByRole('link', { name: 'Privacy policy' }), 'the privacy policy link', { scroll: false });
      await assertAccessible(page, `a product page with the consent banner (${label})`);
    });
  });
}

test('Global Privacy Control: no banner and no attribution cookie', async () => {
  await shop.withPage({ viewport: DESKTOP, extraHTTPHeaders: { 'Sec-GPC': '1' } }, async (page, context) => {
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
    await page.goto(LANDING);
    await page.locator('.consent-status').waitFor({ state: 'attached' }); // the banner's part has run
    assert.equal(await banner(page).count(), 0);
    assert.deepEqual(await attributionCookies(context), []);
    assert.equal(await consentCookie(context), undefined, 'nothing was asked, nothing remembered');
  });
});

test('"Cookie settings" in the footer opens the banner again, with the focus in it, and goes back there', async () => {
  await shop.withPage({ viewport: DESKTOP }, async (page, context) => {
    await context.addCookies([{ name: 'vitrine_consent', value: 'denied', url: shop.server.baseURL }]);
    await page.goto('/');
    await page.locator('.consent-status').waitFor({ state: 'attached' });
    assert.equal(await banner(page).count(), 0);
    const settings = page.getByRole('button', { name: 'Cookie settings' });
    await settings.focus();
    await page.keyboard.press('Enter');
    await banner(page).waitFor();
    assert.equal(await page.evaluate(() => !!document.activeElement?.closest('.consent-banner')), true, 'focus moved into the banner');
    await tabTo(page, 'Accept');
    await page.keyboard.press('Enter');
    await banner(page).waitFor({ state: 'detached' });
    assert.equal(await consentCookie(context), 'granted');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cookie settings', 'focus went back to the link');
    await page.waitForFunction(() => document.cookie.includes('sbjs_current='));
  });
});
