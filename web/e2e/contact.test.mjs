// The contact page in a real browser against the real binary (one server for
// the file): the Contact Form 7 form's whole state machine. Client validation
// on change, Submit held until the terms box is ticked, a refused submit
// (tips, focus, axe with the errors shown), a message sent (submitting with
// a fresh bot-check proof in a multipart POST → sent → the form's reset →
// the refill call → init after another change), the server's own
// validation (a file that is not what its name says), offline and a body
// that is not JSON (page.route: the network fails or a proxy answers HTML,
// nothing the server itself would do), the keyboard-only path, and the
// page without JavaScript.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { holdRequests, useShop } from './server.mjs';

const shop = useShop();
const UNIT = 'wpcf7-f1-o1';
const FEEDBACK = '/wp-json/contact-form-7/v1/contact-forms/1/feedback';
const REFILL = '/wp-json/contact-form-7/v1/contact-forms/1/refill';

/** Console errors and page errors of a page (a failed favicon request aside). */
function watch(page) {
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error' && msg.type() !== 'warning') return;
    if (/favicon/.test(msg.location()?.url || '')) return;
    problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  return problems;
}

/** Opens /contact/ and waits until React has hydrated the form. */
async function openContact(page) {
  const res = await page.goto('/contact/');
  assert.equal(res.status(), 200);
  await page.locator(`#${UNIT}.js`).waitFor();
  return page.locator(`#${UNIT} form.wpcf7-form`);
}

const status = (form) => form.getAttribute('data-status');
const output = (form) => form.locator('.wpcf7-response-output');

async function expectFocused(page, selector) {
  await page.waitForFunction((sel) => document.activeElement === document.querySelector(sel), selector);
}

async function fill(page, { name = 'Ada Lovelace', email = 'ada@example.com', message = 'Is the hoodie warm enough for winter?' } = {}) {
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Your email').fill(email);
  await page.getByLabel('Your message').fill(message);
  await page.getByLabel(/I agree/).check();
}

test('renders, hydrates without console errors, and passes axe', async () => {
  await shop.withPage(async (page) => {
    const problems = watch(page);
    const form = await openContact(page);
    await page.waitForLoadState('networkidle');
    assert.deepEqual(problems, []);
    assert.equal(await status(form), 'init');
    assert.equal(await page.title(), 'Contact – Vitrine');
    assert.equal(await form.locator('input[name=_wpcf7_unit_tag]').inputValue(), UNIT);
    assert.equal(await page.locator('footer a[href="/contact/"]').count(), 1, 'the footer links here');
    await assertAccessible(page, 'contact page');
  });
});

test('without JavaScript the form shows, Submit is held, and a note says why', async () => {
  await shop.withPage({ javaScriptEnabled: false }, async (page) => {
    await page.goto('/contact/');
    // (Playwright's text queries skip <noscript>: the note is found by its class.)
    const note = page.locator('.contact-noscript');
    await note.waitFor();
    assert.match(await note.textContent(), /^Sending this form needs JavaScript/);
    assert.equal(await page.locator(`#${UNIT}`).getAttribute('class'), 'wpcf7 no-js');
    assert.ok(await page.getByLabel('Your email').isVisible());
    assert.ok(await page.getByRole('button', { name: 'Submit' }).isDisabled());
  });
});

test('validates a field on change, holds Submit until the box is ticked, refuses a submit with errors (tips, focus, axe)', async () => {
  await shop.withPage(async (page) => {
    const posts = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    const form = await openContact(page);
    const email = page.getByLabel('Your email');
    await email.fill('ada@');
    await email.blur();
    const tip = page.locator(`#${UNIT}-ve-your-email`);
    await tip.waitFor();
    assert.equal(await tip.textContent(), 'Please enter an email address.');
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    assert.equal(await email.getAttribute('aria-describedby'), `${UNIT}-ve-your-email`);
    assert.equal(await page.getByLabel('Your name').getAttribute('aria-invalid'), 'false', 'only the changed field is checked');
    await email.fill('ada@example.com');
    await email.blur();
    await tip.waitFor({ state: 'detached' });

    const submit = page.getByRole('button', { name: 'Submit' });
    assert.ok(await submit.isDisabled(), 'held until the terms box is ticked');
    await page.getByLabel(/I agree/).check();
    assert.ok(await submit.isEnabled());
    await submit.click();
    await form.locator('xpath=self::*[@data-status="invalid"]').waitFor();
    assert.match(await form.getAttribute('class'), /\binvalid\b/);
    assert.equal(await output(form).textContent(), 'One or more fields have an error. Please check and try again.');
    await expectFocused(page, `#${UNIT}-your-name`);
    assert.equal(await page.locator(`#${UNIT}-ve-your-name`).textContent(), 'Please fill out this field.');
    assert.equal(await page.locator(`#${UNIT}-ve-your-message`).textContent(), 'Please fill out this field.');
    await assertAccessible(page, 'contact page with errors shown');
    assert.deepEqual(posts.filter((u) => u.includes(FEEDBACK)), [], 'a refused submit sends nothing');

    // The counter follows the message.
    await page.getByLabel('Your message').fill('Hello 😀');
    const counter = page.locator('.wpcf7-character-count[data-target-name="your-message"]');
    assert.equal(await counter.textContent(), String(2000 - 8), 'UTF-16 code units: the emoji counts two');
  });
});

test('sends a message: submitting, sent, the reset and refill, then init after another change', async () => {
  await shop.withPage(async (page) => {
    const problems = watch(page);
    const form = await openContact(page);
    await fill(page);
    // Hold the POST on its way to see the submitting state, then let it through.
    const release = await holdRequests(page, `**${FEEDBACK}`);
    const sentRequest = page.waitForRequest((r) => r.url().endsWith(FEEDBACK) && r.method() === 'POST');
    const refillRequest = page.waitForRequest((r) => r.url().endsWith(REFILL) && r.method() === 'GET');
    const submit = page.getByRole('button', { name: 'Submit' });
    await submit.click();
    await form.locator('xpath=self::*[@data-status="submitting"]').waitFor();
    assert.ok(await submit.isDisabled(), 'Submit is disabled while submitting');
    assert.equal(await form.getAttribute('aria-busy'), 'true');
    const req = await sentRequest;
    release();
    assert.match(req.headers()['content-type'], /^multipart\/form-data; boundary=/);
    const body = req.postData() ?? '';
    assert.match(body, /name="_wpcf7_unit_tag"\r\n\r\nwpcf7-f1-o1\r\n/);
    assert.match(body, /name="your-email"\r\n\r\nada@example.com\r\n/);
    const token = /name="_wpcf7_recaptcha_response"\r\n\r\n([^\r]*)\r\n/.exec(body);
    assert.ok(token && token[1].length > 20, 'a bot-check proof goes with the message');

    await refillRequest;
    await form.locator('xpath=self::*[@data-status="sent"]').waitFor();
    assert.equal(await output(form).textContent(), 'Thank you for your message. It has been sent.');
    // The answer is announced once, from CF7's screen-reader response (the
    // wrapper's first child); the visible output is hidden from screen readers.
    const sr = page.locator(`#${UNIT} > .screen-reader-response:first-child > p[role=status][aria-live=polite][aria-atomic=true]`);
    assert.equal(await sr.textContent(), 'Thank you for your message. It has been sent.');
    assert.equal(await output(form).getAttribute('aria-hidden'), 'true');
    assert.equal(await page.locator(`#${UNIT} [aria-live]`).count(), 1);
    assert.equal(await page.locator(`#${UNIT} .wpcf7-spinner`).count(), 0, 'no spinner element of our own: CF7 inserts its own');
    assert.equal(await page.getByLabel('Your name').inputValue(), '', 'the form was reset');
    assert.equal(await page.getByLabel(/I agree/).isChecked(), false);
    const hash = await form.locator('input[name=_wpcf7_posted_data_hash]').inputValue();
    assert.ok(hash.length > 0, 'the posted data hash was written back');
    await assertAccessible(page, 'contact page after sending');

    // Another change: a new message begins.
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Your name').blur();
    await form.locator('xpath=self::*[@data-status="init"]').waitFor();
    assert.equal(await output(form).textContent(), '');

    // The second message carries a new proof and the hash.
    await page.unroute(`**${FEEDBACK}`);
    await fill(page, { message: 'And a second question.' });
    const second = page.waitForRequest((r) => r.url().endsWith(FEEDBACK) && r.method() === 'POST');
    await submit.click();
    const body2 = (await second).postData() ?? '';
    const token2 = /name="_wpcf7_recaptcha_response"\r\n\r\n([^\r]*)\r\n/.exec(body2);
    assert.ok(token2 && token2[1] !== token[1], 'every submit has its own proof');
    assert.match(body2, new RegExp(`name="_wpcf7_posted_data_hash"\\r\\n\\r\\n${hash}\\r\\n`));
    await form.locator('xpath=self::*[@data-status="sent"]').waitFor();
    assert.deepEqual(problems, []);
  });
});

test("the server's own validation: a file that is not what its name says gets a tip and the focus", async () => {
  await shop.withPage(async (page) => {
    const form = await openContact(page);
    await fill(page);
    // Named .png, holding text: the browser cannot tell, the server sniffs it.
    await page.getByLabel(/Attachment/).setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('just some text, not an image') });
    await page.getByRole('button', { name: 'Submit' }).click();
    await form.locator('xpath=self::*[@data-status="invalid"]').waitFor();
    await expectFocused(page, `#${UNIT}-your-file`);
    assert.equal(await page.locator(`#${UNIT}-ve-your-file`).textContent(), 'You are not allowed to upload files of this type.');
    assert.equal(await page.getByLabel(/Attachment/).getAttribute('aria-invalid'), 'true');
    assert.equal(await output(form).textContent(), 'One or more fields have an error. Please check and try again.');
    await assertAccessible(page, 'contact page with a server-side error');
  });
});

test('offline: "You are probably offline."', async () => {
  await shop.withPage(async (page) => {
    const form = await openContact(page);
    await fill(page);
    await page.route(`**${FEEDBACK}`, (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Submit' }).click();
    await form.locator('xpath=self::*[@data-status="failed"]').waitFor();
    assert.equal(await output(form).textContent(), 'You are probably offline.');
    assert.equal(await page.getByLabel('Your name').inputValue(), 'Ada Lovelace', 'nothing is lost');
    assert.ok(await page.getByRole('button', { name: 'Submit' }).isEnabled(), 'the visitor can try again');
  });
});

test('a body that is not JSON: "The response is not a valid JSON response."', async () => {
  await shop.withPage(async (page) => {
    const form = await openContact(page);
    await fill(page);
    await page.route(`**${FEEDBACK}`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<html><body>Maintenance</body></html>' }));
    await page.getByRole('button', { name: 'Submit' }).click();
    await form.locator('xpath=self::*[@data-status="failed"]').waitFor();
    assert.equal(await output(form).textContent(), 'The response is not a valid JSON response.');
  });
});

test('keyboard only: fill, tick the box with Space, send with Enter', async () => {
  await shop.withPage(async (page) => {
    const form = await openContact(page);
    await page.getByLabel('Your name').focus();
    await page.keyboard.type('Grace Hopper');
    await page.keyboard.press('Tab');
    await expectFocused(page, `#${UNIT}-your-email`);
    await page.keyboard.type('grace@example.com');
    await page.keyboard.press('Tab');
    await expectFocused(page, `#${UNIT}-your-subject`);
    await page.keyboard.type('Sizes');
    await page.keyboard.press('Tab');
    await expectFocused(page, `#${UNIT}-your-message`);
    await page.keyboard.type('Do the tees run small?');
    await page.keyboard.press('Tab');
    await expectFocused(page, `#${UNIT}-your-file`);
    await page.keyboard.press('Tab');
    await expectFocused(page, `#${UNIT}-your-consent`);
    await page.keyboard.press('Space');
    assert.ok(await page.getByLabel(/I agree/).isChecked());
    // The consent line links the published privacy policy: one stop on
    // the way to Submit.
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => document.activeElement?.getAttribute('href') === '/privacy-policy/');
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => document.activeElement?.classList.contains('wpcf7-submit'));
    await page.keyboard.press('Enter');
    await form.locator('xpath=self::*[@data-status="sent"]').waitFor();
    assert.equal(await output(form).textContent(), 'Thank you for your message. It has been sent.');
  });
});
