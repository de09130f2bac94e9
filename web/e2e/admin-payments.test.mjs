// Payment methods end to end (issue 15) against the real binary in demo
// mode: a shopper's checkout offers cash on delivery; staff check wrong
// PayPal credentials (the built-in sandbox refuses them, nothing leaves
// the machine) and turn cash on delivery off; the checkout no longer
// lists it. axe scans the payments screen.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { BINARY, newContext, useShop } from './server.mjs';
import { addToCart, openCheckout, seriousViolations } from './checkout-helpers.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-payments-'));
const DB = `sqlite:${path.join(dir, 'payments.db')}`;
after(() => rmSync(dir, { recursive: true, force: true }));

// A later --db wins over server.mjs's own: the test adds the manager to this store.
const shop = useShop({ args: ['--db', DB] });

const MANAGER = 'pia.payments@example.com';
const PASSWORD = 'a long passphrase for the payment tests';
const VIEWPORT = { width: 1280, height: 900 };

async function managerContext() {
  const made = spawnSync(BINARY, ['--db', DB, '--log-level', 'warn', 'user', 'create', '--email', MANAGER, '--role', 'shop_manager', '--password-stdin'], {
    input: `${PASSWORD}\n`,
    encoding: 'utf8',
  });
  assert.equal(made.status, 0, `user create: ${made.stderr}`);
  const context = await newContext(shop.browser, shop.server.baseURL, { viewport: VIEWPORT });
  const page = await context.newPage();
  await page.goto('/my-account/');
  await page.locator('#username').fill(MANAGER);
  await page.locator('#password').fill(PASSWORD);
  await Promise.all([page.waitForURL(/\/my-account\/$/), page.locator('button.woocommerce-form-login__submit').click()]);
  await page.getByText('Hello').waitFor();
  return { context, page };
}

test('staff turn cash on delivery off and the checkout stops offering it', async () => {
  const admin = await managerContext();
  const shopper = await newContext(shop.browser, shop.server.baseURL, { viewport: VIEWPORT });
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
    const results = await new AxeBuilder({ page: a }).analyze();
    assert.ok(results.passes.length > 0, 'axe ran its rules');
    assert.deepEqual(seriousViolations(results), [], 'axe on the payments screen');

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
