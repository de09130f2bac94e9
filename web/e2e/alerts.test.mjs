// Back-in-stock alerts in a real browser against the real binary, its mail
// going to the SMTP catcher: staff make a product with no stock through
// the REST API; a guest finds "Notify me when available" on its cached
// page, uses it with the keyboard alone (a bad address is refused in the
// field, a good one answered in the live region after the invisible
// bot-check), confirms from the mailed link, and, once staff restock the
// product, gets one mail with one-click unsubscribe headers. axe scans the
// form and the link pages; the controls used are in the viewport and on
// top.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { session } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';
import { mailText, smtpCatcher, waitForMail } from './smtp.mjs';
import { assertUsable } from './visible.mjs';

const catcher = await smtpCatcher();
after(() => catcher.close());
const shop = useShop({ args: ['--smtp-url', `smtp://127.0.0.1:${catcher.port}?tls=none&from=shop@example.com`] });
const MANAGER = { email: 'mia.alerts@example.com', password: 'a long passphrase for the alerts manager', role: 'shop_manager' };

/** Calls the admin REST API as staff from page (its nonce from the page). */
async function rest(page, method, path, body) {
  const nonce = (await page.content()).match(/"rest_nonce":"([0-9a-f]{10})"/)?.[1];
  assert.ok(nonce, 'staff have a REST nonce');
  return page.evaluate(
    async ([m, p, b, n]) => {
      const r = await fetch(p, { method: m, headers: { 'Content-Type': 'application/json', 'X-WP-Nonce': n }, body: b ? JSON.stringify(b) : undefined });
      return { status: r.status, body: await r.json() };
    },
    [method, path, body, nonce],
  );
}

test('a guest asks to be told when a product is back, confirms by mail, and is mailed once when it is', async () => {
  const staff = await shop.context({ viewport: { width: 1280, height: 900 }, storageState: await session(shop, MANAGER) });
  try {
    const admin = await staff.newPage();
    await admin.goto('/my-account/');
    const made = await rest(admin, 'POST', '/wp-json/wc/v3/products', {
      name: 'Alert Jug', type: 'simple', status: 'publish', regular_price: '30.00', manage_stock: true, stock_quantity: 0,
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.stock_status, 'outofstock');

    await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
      const email = `alert.${Date.now()}@example.com`;
      await page.goto(`/product/${made.body.slug}/`);
      const region = page.getByRole('region', { name: 'Notify me when available' });
      await region.waitFor();
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await assertAccessible(page, 'the out-of-stock product with the notify form');
      const field = region.getByRole('textbox', { name: 'Email address' });
      const button = region.getByRole('button', { name: 'Notify me' });
      await assertUsable(field, 'the email field');
      await assertUsable(button, 'the notify button');

      // Keyboard only: a bad address is refused in the field, focus kept there.
      await field.focus();
      await page.keyboard.type('not-an-address');
      await page.keyboard.press('Tab');
      assert.equal(await button.evaluate((el) => el === document.activeElement), true, 'Tab reaches the button');
      await page.keyboard.press('Enter');
      await region.getByText('Please enter a valid email address.').waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.equal(await field.evaluate((el) => el === document.activeElement), true, 'focus back on the field');
      await assertAccessible(page, 'the notify form with an error');

      await page.keyboard.press('Control+A');
      await page.keyboard.type(email);
      await page.keyboard.press('Enter');
      const status = region.getByRole('status');
      await status.getByText('Please check your inbox').waitFor({ timeout: 30_000 });
      assert.equal(await field.getAttribute('aria-invalid'), null);

      // The mailed link: a page with a button, once.
      const mail = await waitForMail(catcher, email, /Confirm your back-in-stock alert/);
      const link = /https?:\/\/[^/\s]+(\/stock-alerts\/confirm\/\?token=[A-Za-z0-9_%-]+)/.exec(mailText(mail.data))?.[1];
      assert.ok(link, 'a confirmation link');
      await page.goto(link);
      await assertAccessible(page, 'the confirmation page', { anyImpact: true });
      const confirm = page.getByRole('button', { name: 'Confirm alert' });
      await assertUsable(confirm, 'the confirm button');
      await confirm.click();
      await page.getByRole('heading', { name: 'Your alert is confirmed' }).waitFor();
      await page.goto(link);
      await page.getByRole('heading', { name: 'This link was already used or has expired' }).waitFor();

      // Staff restock it: one mail, with the unsubscribe headers.
      const restocked = await rest(admin, 'PUT', `/wp-json/wc/v3/products/${made.body.id}`, { stock_quantity: 4, version: made.body.version });
      assert.equal(restocked.status, 200, JSON.stringify(restocked.body));
      const back = await waitForMail(catcher, email, /is back in stock at/);
      const headers = back.data.split('\r\n\r\n')[0].replace(/\r\n[ \t]+/g, ' ');
      assert.match(headers, /^List-Unsubscribe: <http:\/\/[^>]+\/stock-alerts\/unsubscribe\/\?token=[^>]+>/m);
      assert.match(mailText(back.data), new RegExp(`/product/${made.body.slug}/`));
      await new Promise((r) => setTimeout(r, 3000)); // another worker pass: nothing more
      assert.equal(catcher.mails.filter((m) => m.to.includes(email) && /is back in stock at/.test(mailText(m.data))).length, 1, 'mailed once');

      const unsub = /<https?:\/\/[^/>]+(\/stock-alerts\/unsubscribe\/\?token=[^>]+)>/.exec(headers)[1];
      await page.goto(unsub);
      await assertAccessible(page, 'the unsubscribe page', { anyImpact: true });
      const off = page.getByRole('button', { name: 'Unsubscribe' });
      await assertUsable(off, 'the unsubscribe button');
      await off.click();
      await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    });
  } finally {
    await staff.close();
  }
});

test('a variable product offers its sold-out options behind a disclosure; a customer picks one by keyboard and is answered', async () => {
  const CUSTOMER = { email: 'cleo.alerts@example.com', password: 'a long passphrase for the alerts customer', role: 'customer' };
  const customer = await shop.context({ viewport: { width: 1280, height: 900 }, storageState: await session(shop, CUSTOMER) });
  try {
    const page = await customer.newPage();
    await page.goto('/product/classic-tee/');
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    const summary = page.locator('details.stock-notify-options > summary');
    await assertUsable(summary, 'the sold-out options disclosure');
    const region = page.getByRole('region', { name: 'Notify me when available' });
    assert.equal(await region.isVisible(), false, 'closed until asked for');
    await summary.focus();
    await page.keyboard.press('Enter');
    await region.waitFor();
    await assertAccessible(page, 'the sold-out options form');
    const select = region.getByRole('combobox', { name: 'Sold-out option' });
    const options = await select.locator('option').allTextContents();
    assert.ok(options.length > 0 && options.every((o) => /\S+ \/ \S+/.test(o)), `options named by their values: ${options}`);
    await select.focus();
    await page.keyboard.press('ArrowDown');
    const chosen = await select.inputValue();
    await page.keyboard.press('Tab');
    const button = region.getByRole('button', { name: 'Notify me' });
    assert.equal(await button.evaluate((el) => el === document.activeElement), true, 'Tab reaches the button');
    const posted = page.waitForRequest((r) => r.url().endsWith('/stock-alerts/subscribe/') && r.method() === 'POST');
    await page.keyboard.press('Enter');
    assert.equal(new URLSearchParams((await posted).postData()).get('product_id'), chosen, 'the option chosen is the one asked about');
    await region.getByRole('status').getByText('We will email you once when this item is back in stock.').waitFor();
  } finally {
    await customer.close();
  }
});
