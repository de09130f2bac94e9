// Payment methods end to end (issue 15) against the real binary in demo
// mode: a shopper's checkout offers cash on delivery; staff check wrong
// PayPal credentials (the built-in sandbox refuses them, nothing leaves
// the machine) and turn cash on delivery off; the checkout no longer
// lists it. axe scans the payments screen.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loggedIn } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';
import { addToCart, openCheckout } from './checkout-helpers.mjs';

const shop = useShop();

const MANAGER = { email: 'pia.payments@example.com', password: 'a long passphrase for the payment tests', role: 'shop_manager' };
const VIEWPORT = { width: 1280, height: 900 };

test('staff turn cash on delivery off and the checkout stops offering it', async () => {
  const admin = await loggedIn(shop, MANAGER, { viewport: VIEWPORT });
  const shopper = await shop.context({ viewport: VIEWPORT });
  try {
    const s = await shopper.newPage();
    await addToCart(s);
    let data = await openCheckout(s);
    assert.ok(data.payment_methods.some((m) => m.id === 'cod'), 'cash on delivery is offered at first');

    const a = admin.page;
    const problems = [];
    a.on('pageerror', (e) => problems.push(e.message));
    await a.goto('/wp-admin/payments/');
    await a.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await a.getByLabel('Offer cash on delivery').waitFor();
    await assertAccessible(a, 'the payments screen');

    // Wrong credentials: the built-in sandbox's refusal, announced.
    await a.getByLabel('Secret').fill('not-the-secret');
    await a.getByRole('button', { name: 'Check the credentials' }).click();
    await a.getByRole('alert').filter({ hasText: 'PayPal refused the credentials' }).waitFor();
    await a.getByLabel('Secret').fill('');

    await a.getByLabel('Offer cash on delivery').uncheck();
    await a.getByRole('button', { name: 'Save payment methods' }).click();
    await a.getByRole('status').filter({ hasText: 'Payment methods saved.' }).waitFor();
    assert.deepEqual(problems, []);

    data = await openCheckout(s);
    assert.ok(!data.payment_methods.some((m) => m.id === 'cod'), 'cash on delivery is no longer offered');
    assert.ok(data.payment_methods.some((m) => m.id === 'bacs'), 'bank transfer still is');
    assert.equal(await s.getByLabel('Cash on delivery').count(), 0);
  } finally {
    await admin.context.close();
    await shopper.close();
  }
});
