// Product reviews in a real browser against the real binary (one server for
// the file, started with --review-auto-approve so posts are published at
// once; a text with more than two links is held for moderation whatever
// that flag says, which is how the held case is made): a review with the
// mouse, a review without a rating (the alert, focus on the stars, and no
// request at all), a review with the keyboard only, a held review shown to
// its author (in place, and through the moderation link) and to nobody
// else, comment-page URLs opening the Reviews tab, and axe scans of the
// form with its error shown.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';
import { assertUsable, WIDTHS } from './visible.mjs';

const shop = useShop({ args: ['--review-auto-approve', '--review-rate-limit', '0'] });

let seq = 0;
function email() {
  seq += 1;
  return `reviewer${seq}.${Date.now()}@example.com`;
}

/** Opens a product page on its Reviews tab and waits for the app to hydrate the form. */
async function openReviews(page, slug) {
  await page.goto(`/product/${slug}/#reviews`);
  await page.locator('#tab-reviews').waitFor({ state: 'visible' });
  await page.locator('#commentform').waitFor();
  // Hydrated: the tab reacted to the hash (the server render shows the first tab).
  await page.waitForFunction(() => document.querySelector('#tab-title-reviews')?.getAttribute('aria-selected') === 'true');
}

/** Solves an ALTCHA challenge as the widget does (v1: SHA-256 of salt + number). */
async function solve(baseURL) {
  const c = await (await fetch(`${baseURL}/wp-json/vitrine/v1/botcheck/review`)).json();
  for (let n = 0; n <= c.maxnumber; n++) {
    if (createHash('sha256').update(c.salt + n).digest('hex') === c.challenge) {
      const payload = { algorithm: c.algorithm, challenge: c.challenge, number: n, salt: c.salt, signature: c.signature, took: 1 };
      return Buffer.from(JSON.stringify(payload)).toString('base64');
    }
  }
  throw new Error('no solution');
}

test('a review written with the mouse appears in place', async () => {
  await shop.withPage(async (page) => {
    await openReviews(page, 'classic-tee');
    await page.locator('label[for="rating-4"]').click();
    assert.equal(await page.locator('#rating-4').isChecked(), true);
    await page.locator('#comment').fill('Mouse review: soft and well cut.');
    await page.locator('#author').fill('Mona Mouse');
    await page.locator('#email').fill(email());
    const posted = page.waitForResponse((r) => r.url().endsWith('/wp-comments-post.php'));
    await page.locator('#submit').click();
    const res = await posted;
    assert.equal(res.status(), 201);
    const body = await res.json();
    assert.equal(body.status, 'approved');
    await page.locator('.woocommerce-review-thanks').getByText('Thank you for your review.').waitFor();
    const item = page.locator(`#comment-${body.id}`);
    await item.getByText('Mouse review: soft and well cut.').waitFor();
    assert.equal(await item.evaluate((el) => el === document.activeElement), true, 'focus on the new review');
    assert.equal(await item.getByRole('img', { name: /^Rated 4(\.0+)? out of 5$/ }).count(), 1);
    // Reloaded: the published review is on the shared page.
    await page.goto('/product/classic-tee/#reviews');
    await page.locator(`#comment-${body.id}`).getByText('Mona Mouse').waitFor();
  });
});

test('without a rating the alert shows, focus goes to the stars, and nothing is sent', async () => {
  await shop.withPage(async (page) => {
    await openReviews(page, 'classic-tee');
    const sent = [];
    page.on('request', (r) => {
      if (r.url().includes('/wp-comments-post.php') || r.url().includes('/botcheck/')) sent.push(r.url());
    });
    await page.locator('#comment').fill('No stars from me');
    await page.locator('#author').fill('Nora');
    await page.locator('#email').fill(email());
    await page.locator('#submit').click();
    const alert = page.locator('#review_form_wrapper [role="alert"]');
    await alert.getByText('Please select a rating').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'rating-1');
    assert.equal(await page.locator('#rating-1').getAttribute('aria-invalid'), 'true');
    // Give a stray request the time to leave, then check there was none.
    await page.waitForTimeout(300);
    assert.deepEqual(sent, []);
    await assertAccessible(page, 'review form with the rating error', { include: '#review_form_wrapper' });
    // A server-side refusal shown inline: a bad email.
    await page.locator('label[for="rating-2"]').click();
    await page.locator('#email').fill('nora@example');
    await page.locator('#submit').click();
    await alert.getByText('Please enter a valid email address.').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'email');
    assert.deepEqual(sent, [], 'the email is checked before sending too');
    await assertAccessible(page, 'review form with the email error', { include: '#review_form_wrapper' });
  });
});

test('a review written with the keyboard only', async () => {
  await shop.withPage(async (page) => {
    await openReviews(page, 'everyday-hoodie');
    await page.locator('#tab-reviews').focus();
    let onStars = false;
    for (let i = 0; i < 40 && !onStars; i++) {
      await page.keyboard.press('Tab');
      onStars = await page.evaluate(() => (document.activeElement)?.getAttribute('name') === 'rating');
    }
    assert.ok(onStars, 'Tab reaches the stars');
    // The focus ring is visible on the focused star.
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement.nextElementSibling).boxShadow);
    assert.notEqual(ring, 'none');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    const checked = await page.evaluate(() => document.querySelector('input[name=rating]:checked')?.value);
    assert.equal(checked, '3', 'Tab lands on the first star; three steps right and one left pick the third');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'comment');
    await page.keyboard.type('Keyboard review: warm and roomy.');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Kim Keys');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email());
    const posted = page.waitForResponse((r) => r.url().endsWith('/wp-comments-post.php'));
    await page.keyboard.press('Enter');
    const body = await (await posted).json();
    assert.equal(body.review.rating, Number(checked));
    await page.locator(`#comment-${body.id}`).getByText('Keyboard review: warm and roomy.').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), `comment-${body.id}`);
  });
});

test('a held review is shown to its author only', async () => {
  await shop.withPage(async (page) => {
    await openReviews(page, 'everyday-crew-socks');
    const text = 'See https://a.example and https://b.example and https://c.example';
    await page.locator('label[for="rating-5"]').click();
    await page.locator('#comment').fill(text);
    await page.locator('#author').fill('Hal Held');
    await page.locator('#email').fill(email());
    const posted = page.waitForResponse((r) => r.url().endsWith('/wp-comments-post.php'));
    await page.locator('#submit').click();
    const body = await (await posted).json();
    assert.equal(body.status, 'hold');
    const item = page.locator(`#li-comment-${body.id}`);
    await item.getByText('Your review is awaiting approval').first().waitFor();
    assert.match(body.redirect, /\?unapproved=\d+&moderation-hash=[0-9a-f]+#comment-\d+$/);
    // The moderation link shows it to the author, rendered on the server.
    const res = await page.goto(body.redirect);
    assert.equal(res.headers()['cache-control'], 'no-store, private');
    await page.locator(`#li-comment-${body.id}`).getByText('Your review is awaiting approval').waitFor();
    await page.locator(`#li-comment-${body.id}`).getByText('Hal Held').waitFor();
    // Another visitor, plain page: not there.
    await shop.withPage(async (p2) => {
      await p2.goto('/product/everyday-crew-socks/#reviews');
      await p2.locator('#commentform').waitFor();
      assert.equal(await p2.locator(`#li-comment-${body.id}`).count(), 0);
      assert.equal(await p2.getByText('Hal Held').count(), 0);
    });
  });
});

test('comment-page URLs open the Reviews tab and scroll to it', async () => {
  const base = shop.server.baseURL;
  const html = await (await fetch(`${base}/product/cotton-tank-top/`)).text();
  const id = html.match(/name="comment_post_ID" value="(\d+)"/)?.[1];
  assert.ok(id, 'product id in the form');
  for (let i = 0; i < 11; i++) {
    const form = new URLSearchParams({ comment_post_ID: id, rating: String(1 + (i % 5)), comment: `Tank review ${i}`, author: `Tank ${i}`,
      email: `tank${i}.${Date.now()}@example.com`, altcha: await solve(base) });
    const r = await fetch(`${base}/wp-comments-post.php`, { method: 'POST', body: form, redirect: 'manual' });
    assert.equal(r.status, 302, `review ${i}`);
  }
  await shop.withPage(async (page) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    for (const url of ['/product/cotton-tank-top/comment-page-2/', '/product/cotton-tank-top/?cpage=2']) {
      await page.goto(url);
      assert.match(page.url(), /\/product\/cotton-tank-top\/comment-page-2\/(#comments)?$/);
      await page.waitForFunction(() => document.querySelector('#tab-title-reviews')?.getAttribute('aria-selected') === 'true');
      assert.equal(await page.locator('#tab-reviews').isVisible(), true);
      const top = await page.locator('.woocommerce-tabs').evaluate((el) => el.getBoundingClientRect().top);
      assert.ok(top < 700 && top > -50, `tabs scrolled into view (top ${top})`);
      const nav = page.getByRole('navigation', { name: 'Reviews pages' });
      await nav.locator('[aria-current="page"]').getByText('2').waitFor();
      assert.equal(await nav.locator('a[rel="prev"]').getAttribute('href'), '/product/cotton-tank-top/#comments');
    }
    // The rating histogram's text is there for assistive technology.
    await page.getByText(/^5 stars: \d+ reviews? \(\d+%\)$/).waitFor({ state: 'attached' });
  });
});

for (const [size, viewport] of WIDTHS) {
  test(`at ${size} a #reviews deep link opens the tab with its heading below the sticky header, not under it`, async () => {
    await shop.withPage({ viewport }, async (page) => {
      await openReviews(page, 'classic-tee');
      const heading = page.locator('#tab-reviews h2.woocommerce-Reviews-title');
      // Where the page put it: no scrolling by the check itself.
      await assertUsable(heading, 'the Reviews heading', { scroll: false });
      await page.waitForFunction(() => document.querySelector('.site-header')?.classList.contains('is-stuck'));
      await assertUsable(heading, 'the Reviews heading with the header stuck', { scroll: false });
    });
  });
}
