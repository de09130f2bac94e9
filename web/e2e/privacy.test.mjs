// Privacy requests in a real browser against the real binary, its mail going
// to the SMTP catcher: a customer asks for a copy of their data from My
// account, follows the mailed confirmation link, and downloads the zip
// through the mailed one-time link (a second use says it was used); another
// customer asks for erasure, confirms by mail, and a manager approves it in
// the admin's Privacy screen, after which the customer's session is gone.
// axe scans every new screen; the controls used are in the viewport and on
// top.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, test } from 'node:test';
import { loggedIn, register } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';
import { mailText, smtpCatcher, waitForMail } from './smtp.mjs';
import { assertUsable } from './visible.mjs';

const catcher = await smtpCatcher();
after(() => catcher.close());
const shop = useShop({ args: ['--smtp-url', `smtp://127.0.0.1:${catcher.port}?tls=none&from=shop@example.com`, '--register-rate-limit', '0'] });

const PASSWORD = 'a long passphrase for the privacy tests';
const MANAGER = { email: 'mia.privacy@example.com', password: 'a long passphrase for the privacy manager', role: 'shop_manager' };

/** The path and query of the mailed link to path (the shop's base URL may name another host). */
function linkIn(mail, path) {
  const m = new RegExp(`https?://[^/\\s]+(${path.replace(/\//g, '\\/')}\\?token=[A-Za-z0-9_-]+)`).exec(mailText(mail.data));
  assert.ok(m, `a ${path} link in the mail:\n${mailText(mail.data)}`);
  return m[1];
}

test('a customer asks for their data, confirms by mail and downloads the zip once', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    const email = `privacy.export.${Date.now()}@example.com`;
    await register(page, email, PASSWORD);
    await page.goto('/my-account/edit-account/');
    const section = page.getByRole('region', { name: 'Your personal data' });
    await section.waitFor();
    await assertAccessible(page, 'account details with the personal data section');
    const ask = section.getByRole('button', { name: 'Request a copy of my data' });
    await assertUsable(ask, 'the request a copy button');
    await Promise.all([page.waitForURL(/\/my-account\/edit-account\/$/), ask.click()]);
    await page.getByText('We have emailed you a link to confirm your request for a copy').waitFor();

    const confirm = linkIn(await waitForMail(catcher, email, /Confirm action/), '/privacy-request/confirm/');
    await page.goto(confirm);
    await page.getByText(`A copy of the personal data this shop keeps about ${email} was requested.`).waitFor();
    await assertAccessible(page, 'the confirmation page', { anyImpact: true });
    const button = page.getByRole('button', { name: 'Confirm request' });
    await assertUsable(button, 'the confirm button');
    await button.click();
    await page.getByRole('heading', { name: 'Thank you for confirming your request' }).waitFor();
    // The link again (a replay): it is spent and says so, with no button.
    await page.goto(confirm);
    await page.getByRole('heading', { name: 'This link was already used or has expired' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Confirm request' }).count(), 0);
    await assertAccessible(page, 'the spent link page', { anyImpact: true });

    const download = linkIn(await waitForMail(catcher, email, /Personal Data Export/), '/privacy-request/download/');
    await page.goto(download);
    await assertAccessible(page, 'the download page', { anyImpact: true });
    const get = page.getByRole('button', { name: 'Download my data' });
    await assertUsable(get, 'the download button');
    const [file] = await Promise.all([page.waitForEvent('download'), get.click()]);
    assert.match(file.suggestedFilename(), /^personal-data-\d+\.zip$/);
    const zip = await readFile(await file.path());
    assert.equal(zip.subarray(0, 2).toString(), 'PK', 'a zip');
    for (const name of ['export.json', 'index.html']) assert.ok(zip.includes(Buffer.from(name)), `the zip holds ${name}`);

    await page.goto(download);
    await page.getByRole('button', { name: 'Download my data' }).click();
    await page.getByRole('heading', { name: 'This link was already used or has expired' }).waitFor();
  });
});

test('a customer asks for erasure, confirms by mail, and a manager approves it in the admin', async () => {
  const customer = await shop.context({ viewport: { width: 1280, height: 900 } });
  let staff;
  try {
    const page = await customer.newPage();
    const email = `privacy.erase.${Date.now()}@example.com`;
    await register(page, email, PASSWORD);
    await page.goto('/my-account/edit-account/');
    await Promise.all([
      page.waitForURL(/\/my-account\/edit-account\/$/),
      page.getByRole('region', { name: 'Your personal data' }).getByRole('button', { name: 'Request erasure of my data' }).click(),
    ]);
    await page.getByText('request to erase your personal data').waitFor();
    await page.goto(linkIn(await waitForMail(catcher, email, /Confirm action/), '/privacy-request/confirm/'));
    await page.getByRole('button', { name: 'Confirm request' }).click();
    await page.getByText(/staff will now erase your personal data/).waitFor();

    staff = await loggedIn(shop, MANAGER, { viewport: { width: 1280, height: 900 } });
    const admin = staff.page;
    await admin.goto('/wp-admin/privacy/');
    const row = admin.getByRole('row').filter({ hasText: email });
    await row.getByText('Confirmed: waiting for your approval').waitFor();
    await assertAccessible(admin, 'the Privacy screen');
    const erase = row.getByRole('button', { name: `Erase data of ${email}` });
    await assertUsable(erase, 'the erase button');
    await erase.click();
    const dialog = admin.getByRole('alertdialog', { name: `Erase the personal data of ${email}?` });
    await dialog.waitFor();
    await assertAccessible(admin, 'the erase confirmation');
    const yes = dialog.getByRole('button', { name: 'Erase personal data' });
    await assertUsable(yes, 'the dialog’s erase button', { scroll: false });
    await yes.click();
    await admin.getByRole('status').getByText(/Personal data erased: .*account deleted/).waitFor();
    assert.equal(await admin.getByText(email).count(), 0, 'the list no longer shows the address');

    // The customer's account and sessions are gone: My account is the login form again.
    await page.goto('/my-account/');
    await page.locator('#username').waitFor();
  } finally {
    await customer.close();
    await staff?.context.close();
  }
});
