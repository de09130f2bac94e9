// The admin's moderation queue and contact inbox (issue 15) in a real browser
// against the real binary, with its mail going to an SMTP catcher on
// loopback (a small SMTP server in this file: it speaks the commands the
// shop's client uses and keeps each message): a shopper writes a review
// (held for moderation: the server runs without --review-auto-approve) and
// sends a contact message; the manager, created with the CLI and logged in
// through the login form, approves the review with a reply from the queue
// (both appear on the product page) and answers the message from the inbox
// (the reply mail arrives at the catcher, to the shopper's address). axe
// scans both screens.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, test } from 'node:test';
import { loggedIn } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';
import { smtpCatcher } from './smtp.mjs';

const catcher = await smtpCatcher();
after(() => catcher.close());
const shop = useShop({ args: ['--smtp-url', `smtp://127.0.0.1:${catcher.port}?tls=none&from=shop@example.com`, '--review-rate-limit', '0'] });

const MANAGER = { email: 'mia.inbox@example.com', password: 'a long passphrase for the inbox tests', role: 'shop_manager' };
const SHOPPER = `shopper.${Date.now()}@example.com`;
const REVIEW = 'Inbox e2e: the seams held up after ten washes.';
const REPLY = 'Thank you, we are glad the tee lasts!';
const QUESTION = 'Inbox e2e: do you ship the classic tee to Norway?';
const ANSWER = 'Yes, we ship to Norway within five working days.';
// A PNG's signature and header: the shop types files by their content.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

test('a held review is approved with a reply from the queue, and a contact message is answered by mail from the inbox', async () => {
  // The shopper: a review (held) and a contact message.
  const shopper = await shop.context();
  let staff;
  try {
    const page = await shopper.newPage();
    await page.goto('/product/classic-tee/#reviews');
    await page.locator('#commentform').waitFor();
    await page.waitForFunction(() => document.querySelector('#tab-title-reviews')?.getAttribute('aria-selected') === 'true');
    await page.locator('label[for="rating-5"]').click();
    await page.locator('#comment').fill(REVIEW);
    await page.locator('#author').fill('Sam Shopper');
    await page.locator('#email').fill(SHOPPER);
    const posted = page.waitForResponse((r) => r.url().endsWith('/wp-comments-post.php'));
    await page.locator('#submit').click();
    const res = await posted;
    assert.equal(res.status(), 201);
    assert.equal((await res.json()).status, 'hold', 'held for moderation');

    await page.goto('/contact/');
    const form = page.locator('#wpcf7-f1-o1.js form.wpcf7-form');
    await form.waitFor();
    await page.getByLabel('Your name').fill('Sam Shopper');
    await page.getByLabel('Your email').fill(SHOPPER);
    await page.getByLabel('Subject').fill('Shipping');
    await page.getByLabel('Your message').fill(QUESTION);
    await page.getByLabel(/^Attachment/).setInputFiles({ name: 'parcel.png', mimeType: 'image/png', buffer: PNG });
    await page.getByLabel(/I agree/).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await form.locator('xpath=self::*[@data-status="sent"]').waitFor();

    // Nobody else sees the held review.
    await shop.withPage(async (vp) => {
      await vp.goto('/product/classic-tee/');
      assert.equal(await vp.getByText(REVIEW).count(), 0, 'the held review is not on the shared page');
    });

    // The manager: the moderation queue, held reviews first.
    staff = await loggedIn(shop, MANAGER);
    const admin = staff.page;
    await admin.goto('/wp-admin/reviews/');
    const item = admin.getByRole('article', { name: /Sam Shopper on Classic Tee/ });
    await item.waitFor();
    assert.match(await admin.getByRole('link', { name: /^Pending/ }).textContent(), /Pending \(1\)/);
    assert.equal(await admin.getByRole('link', { name: /^Pending/ }).getAttribute('aria-current'), 'page');
    await assertAccessible(admin, 'the moderation queue');
    // By keyboard: Enter opens the reply box with focus in it, Tab reaches its submit button.
    await item.getByRole('button', { name: 'Approve and reply' }).focus();
    await admin.keyboard.press('Enter');
    const box = admin.getByRole('textbox', { name: /Your reply to Sam Shopper/ });
    await admin.waitForFunction(() => document.activeElement?.tagName === 'TEXTAREA');
    await admin.keyboard.type(REPLY);
    await assertAccessible(admin, 'the moderation queue with a reply box open');
    await box.press('Tab');
    await admin.keyboard.press('Enter');
    await admin.getByRole('status').getByText(/approved and your reply saved/).waitFor();

    // The product page shows the review and the reply within a second or so (the change log).
    await shop.withPage(async (cp) => {
      let shown = false;
      for (let i = 0; i < 50 && !shown; i++) {
        await cp.goto('/product/classic-tee/');
        shown = (await cp.getByText(REVIEW).count()) > 0 && (await cp.getByText(REPLY).count()) > 0;
        if (!shown) await cp.waitForTimeout(100);
      }
      assert.ok(shown, 'the approved review and the reply are on the product page');
    });

    // The inbox: open the message, answer it.
    await admin.goto('/wp-admin/messages/');
    const link = admin.getByRole('link', { name: /Sam Shopper/ });
    await link.waitFor();
    await assertAccessible(admin, 'the inbox');
    await link.click();
    const title = admin.getByRole('heading', { level: 2, name: 'Shipping' });
    await title.waitFor();
    await admin.waitForFunction(() => document.activeElement?.id === 'message-title');
    assert.match(await admin.locator('.inbox-fields').first().textContent(), /do you ship the classic tee to Norway/);
    assert.equal(await admin.getByRole('textbox', { name: 'Subject' }).inputValue(), 'Re: Shipping');
    // The attachment is a download, with its bytes as sent.
    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('link', { name: 'parcel.png' }).click()]);
    assert.equal(download.suggestedFilename(), 'parcel.png');
    assert.deepEqual(await readFile(await download.path()), PNG);
    await admin.getByRole('textbox', { name: /Your reply/ }).fill(ANSWER);
    await assertAccessible(admin, 'the inbox with a message open');
    await admin.getByRole('button', { name: 'Send reply' }).click();
    await admin.getByRole('status').getByText(`Your reply to ${SHOPPER} is on its way.`).waitFor();

    // The reply mail reaches the SMTP catcher, to the shopper.
    let mail;
    for (let i = 0; i < 100 && !mail; i++) {
      mail = catcher.mails.find((m) => m.to.includes(SHOPPER));
      if (!mail) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(mail, `a mail to ${SHOPPER} (got ${catcher.mails.length} mails: ${catcher.mails.map((m) => m.to.join(',')).join(' ')})`);
    assert.match(mail.data, /^Subject: Re: Shipping\r?$/m);
    assert.match(mail.data.replace(/=\r\n/g, ''), /Yes, we ship to Norway within five working days\./);
    // The list says it was answered.
    await admin.getByRole('link', { name: /Sam Shopper/ }).getByText('Replied').waitFor();
  } finally {
    await shopper.close();
    await staff?.context.close();
  }
});
