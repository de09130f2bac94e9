// Orders in the shop admin (issue 15), in a real browser against the real
// binary (demo mode: the built-in PayPal sandbox). A customer registers and
// buys with PayPal in the sandbox; a shop manager (made with the CLI) finds
// the order in the admin, completes it, refunds part of it through the
// sandbox with the refund form, then refunds the rest by status; the
// customer's My account shows each new status. axe scans the list and the
// order; the customer is refused the admin's screens and its API.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logIn, register } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { createUser, useShop } from './server.mjs';
import { acceptTerms, addToCart, countryKinds, fillBilling, openCheckout, orderReceived } from './checkout-helpers.mjs';

const shop = useShop();
const PASSWORD = 'a long passphrase for the orders tests';
const MANAGER = { email: 'mia.orders@example.com', password: PASSWORD, role: 'shop_manager' };
const CUSTOMER = `orders.customer.${Date.now()}@example.com`;
const DESKTOP = { width: 1280, height: 900 };

/** The status My account shows for an order. */
async function accountStatus(page, id) {
  await page.goto(`/my-account/view-order/${id}/`);
  return (await page.locator('mark.order-status').innerText()).trim();
}

test('a PayPal order is completed and refunded in the admin; the customer sees each status and is refused the admin', async () => {
  createUser(shop.server, MANAGER);

  const customer = await shop.context({ viewport: DESKTOP });
  const staff = await shop.context({ viewport: DESKTOP });
  try {
    // The customer registers and pays with PayPal in the sandbox.
    const buyer = await customer.newPage();
    await register(buyer, CUSTOMER, PASSWORD);
    await addToCart(buyer);
    const data = await openCheckout(buyer);
    await fillBilling(buyer, countryKinds(data).withStates);
    const wallet = data.payment_methods.find((m) => m.kind === 'wallet');
    assert.ok(wallet, 'the wallet is offered');
    await buyer.getByRole('radio', { name: wallet.title }).check();
    await acceptTerms(buyer);
    await buyer.getByRole('button', { name: 'PayPal', exact: true }).click();
    await buyer.waitForURL(/\/_sandbox\/paypal\/checkoutnow\?token=/);
    await buyer.getByRole('button', { name: 'Pay with PayPal' }).click();
    await orderReceived(buyer);
    const id = Number(/order-received\/(\d+)\//.exec(buyer.url())[1]);
    assert.ok(id > 0, 'the order id');
    assert.equal(await accountStatus(buyer, id), 'Processing');

    // The customer is refused the admin: the screens send them away, the API answers 403.
    await buyer.goto('/wp-admin/orders/');
    assert.match(buyer.url(), /\/my-account\/$/);
    const refused = await buyer.evaluate(async (orderId) => {
      const nonce = await (await fetch('/wp-admin/admin-ajax.php?action=rest-nonce', { credentials: 'same-origin' })).text();
      const list = await fetch('/wp-json/wc/v3/orders', { headers: { 'X-WP-Nonce': nonce } });
      const refund = await fetch(`/wp-json/wc/v3/orders/${orderId}/refunds`, {
        method: 'POST',
        headers: { 'X-WP-Nonce': nonce, 'Content-Type': 'application/json' },
        body: JSON.stringify({ amount: '1.00' }),
      });
      return [list.status, (await list.json()).code, refund.status];
    }, id);
    assert.deepEqual(refused, [403, 'rest_forbidden', 403]);

    // The manager finds the order by its number, with the keyboard.
    const admin = await staff.newPage();
    const problems = [];
    admin.on('pageerror', (e) => problems.push(e.message));
    await logIn(admin, MANAGER.email, MANAGER.password);
    await admin.goto('/wp-admin/orders/');
    const row = admin.getByRole('link', { name: new RegExp(`^#${id} `) });
    await row.waitFor();
    await assertAccessible(admin, 'the order list');
    await admin.getByRole('searchbox', { name: 'Search orders' }).fill(String(id));
    await admin.keyboard.press('Enter');
    await admin.getByText(new RegExp(`^1 order matching “${id}”\\.$`)).waitFor();
    await admin.getByRole('navigation', { name: 'Order statuses' }).getByRole('link', { name: /^Processing/ }).click();
    await admin.waitForURL(/status=processing/);
    await row.focus();
    await admin.keyboard.press('Enter');
    await admin.getByRole('heading', { level: 2, name: new RegExp(`Order #${id}`) }).waitFor();
    assert.match(await admin.locator('.order-detail').innerText(), /Cotton Tank Top/);
    assert.match(await admin.locator('.order-detail').innerText(), /Test order: built-in sandbox/);
    await assertAccessible(admin, 'the order');

    // Completed.
    await admin.getByLabel('New status').selectOption('completed');
    await admin.getByRole('button', { name: 'Change status' }).click();
    await admin.getByRole('status').getByText(`Order #${id} is now completed.`).waitFor();
    assert.equal(await accountStatus(buyer, id), 'Completed');

    // A partial refund through the sandbox, by keyboard: one item's amount.
    const open = admin.getByRole('button', { name: 'Refund…' });
    await open.focus();
    await admin.keyboard.press('Enter');
    await admin.getByRole('spinbutton', { name: /^Quantity of Cotton Tank Top/ }).waitFor();
    await admin.keyboard.type('1');
    const amount = await admin.getByRole('textbox', { name: /^Refund amount/ }).inputValue();
    assert.match(amount, /^\d+\.\d\d$/, 'the line fills the amount');
    await admin.getByRole('textbox', { name: /^Reason/ }).fill('Wrong size');
    await assertAccessible(admin, 'the order with the refund form open');
    await admin.getByRole('button', { name: /^Refund .* through PayPal$/ }).click();
    await admin.getByRole('status').getByText(/^Refunded .* through PayPal\.$/).waitFor();
    const refunds = admin.getByRole('table', { name: new RegExp(`Refunds of order #${id}`) });
    assert.match(await refunds.innerText(), /Wrong size/);
    assert.match(await refunds.innerText(), /Through PayPal \([A-Z0-9]{17}\)/, "PayPal's refund id is recorded");
    assert.equal(await accountStatus(buyer, id), 'Completed', 'a partial refund keeps the status');

    // The rest by status: refunded through the sandbox too.
    await admin.getByLabel('New status').selectOption('refunded');
    await admin.getByRole('button', { name: 'Change status' }).click();
    await admin.getByRole('status').getByText(`Order #${id} is now refunded.`).waitFor();
    assert.equal(await refunds.locator('tbody tr').count(), 2);
    assert.match(await admin.locator('.order-totals').innerText(), /Left to refund\s*\$0\.00/);
    assert.match(await admin.getByRole('list', { name: 'Notes, newest first' }).innerText(), /fully refunded/);
    assert.equal(await accountStatus(buyer, id), 'Refunded');

    // The mail log lists the order's mails.
    assert.match(await admin.getByRole('table', { name: new RegExp(`Mails of order #${id}`) }).innerText(), /Order confirmation/);
    assert.deepEqual(problems, []);
  } finally {
    await customer.close();
    await staff.close();
  }
});
