// Coupons end to end (issue 15) against the real binary: staff create a
// coupon in the admin (and an expired one), a shopper applies it on the
// cart page (an unknown and an expired code show their errors at the
// field), checks out with the discount and sees it on the order; the
// coupon's usage shows in the admin. axe scans the coupons screens and the
// cart page with a coupon.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loggedIn } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';
import { acceptTerms, addToCart, bankTitle, countryKinds, fillBilling, openCheckout, orderReceived } from './checkout-helpers.mjs';

const shop = useShop();

const MANAGER = { email: 'cora.coupons@example.com', password: 'a long passphrase for the coupon tests', role: 'shop_manager' };
const VIEWPORT = { width: 1280, height: 900 };

/** Fills and submits the admin's coupon form; waits for the edit form the new coupon opens in. */
async function createCoupon(page, { code, type, amount, expires, limit }) {
  await page.getByRole('link', { name: 'Add coupon' }).click();
  await page.getByRole('heading', { name: 'Add coupon' }).waitFor();
  await page.getByLabel('Coupon code').fill(code);
  await page.getByLabel('Discount type').selectOption(type);
  await page.getByLabel(/^Amount/).fill(amount);
  if (expires) await page.getByLabel('Expiry date').fill(expires);
  if (limit) await page.getByLabel('Usage limit per coupon').fill(limit);
  await page.getByRole('button', { name: 'Create coupon' }).click();
  await page.getByRole('status').filter({ hasText: `Coupon ${code.toLowerCase()} created.` }).waitFor();
  await page.waitForURL(/\/wp-admin\/coupons\/\d+\/$/);
}

test('staff create a coupon, a shopper applies it on the cart page and checks out with the discount', async () => {
  const admin = await loggedIn(shop, MANAGER, { viewport: VIEWPORT });
  const shopper = await shop.context({ viewport: VIEWPORT });
  try {
    // --- the admin: list, form, create ---
    const a = admin.page;
    const problems = [];
    a.on('pageerror', (e) => problems.push(e.message));
    await a.goto('/wp-admin/coupons/');
    await a.getByRole('heading', { level: 1, name: 'Coupons' }).waitFor();
    await a.getByText('No coupons yet.').waitFor();
    await assertAccessible(a, 'the coupons list');
    await a.getByRole('link', { name: 'Add coupon' }).click();
    await a.getByLabel('Coupon code').waitFor();
    // A refusal: shown at its field, which gets the focus.
    await a.getByLabel('Coupon code').fill('E2E15');
    await a.getByLabel('Discount type').selectOption('percent');
    await a.getByLabel('Amount (%)').fill('150');
    await a.getByRole('button', { name: 'Create coupon' }).click();
    await a.getByText('A percentage discount cannot be over 100.').waitFor();
    assert.equal(await a.evaluate(() => document.activeElement?.getAttribute('name')), 'amount');
    await assertAccessible(a, 'the coupon form with an error');
    await a.getByRole('link', { name: '← All coupons' }).click();
    await createCoupon(a, { code: 'E2E15', type: 'percent', amount: '15', limit: '5' });
    await a.getByRole('link', { name: '← All coupons' }).click();
    await createCoupon(a, { code: 'OLD5', type: 'fixed_cart', amount: '5', expires: '2020-01-01' });
    await a.getByRole('link', { name: '← All coupons' }).click();
    await a.getByRole('link', { name: 'e2e15' }).waitFor();
    await assertAccessible(a, 'the coupons list with coupons');

    // --- the shopper: the cart page's coupon form ---
    const p = await shopper.newPage();
    p.on('pageerror', (e) => problems.push(e.message));
    await addToCart(p);
    await p.waitForSelector('form.coupon');
    await p.waitForFunction(() => document.documentElement.classList.contains('js'));
    const field = p.getByLabel('Coupon code');
    const before = await p.locator('tr.order-total').innerText();
    for (const [code, message] of [
      ['nope', 'Coupon "nope" cannot be applied because it does not exist.'],
      ['OLD5', 'Coupon "old5" has expired.'],
    ]) {
      await field.fill(code);
      await p.getByRole('button', { name: 'Apply coupon' }).click();
      await p.locator('#coupon_code-error').filter({ hasText: message }).waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.equal(await field.getAttribute('aria-describedby'), 'coupon_code-error');
      assert.equal(await p.evaluate(() => document.activeElement?.id), 'coupon_code', 'focus stays in the field');
    }
    await assertAccessible(p, 'the cart page with a coupon error');
    await field.fill('e2e15');
    await field.press('Enter');
    await p.getByText('Coupon code applied successfully.').waitFor();
    const row = p.getByRole('row', { name: /Coupon: e2e15/ });
    await row.waitFor();
    // Cotton Tank Top is $22.00: 15 % is $3.30.
    assert.match(await row.innerText(), /-\$3\.30/);
    const after = await p.locator('tr.order-total').innerText();
    assert.notEqual(after, before, 'the total changed');
    assert.equal(await field.getAttribute('aria-invalid'), null);
    await assertAccessible(p, 'the cart page with a coupon');
    // The cart as the server has it.
    const cart = await (await p.request.get('/wp-json/wc/store/v1/cart')).json();
    assert.equal(cart.coupons[0].code, 'e2e15');
    assert.equal(cart.totals.total_discount, '330');

    // --- the checkout: the review shows the discount; the order records it ---
    const data = await openCheckout(p);
    assert.equal(data.cart.coupons[0].code, 'e2e15');
    await p.locator('.woocommerce-checkout-review-order-table tr.cart-discount').filter({ hasText: 'Coupon: e2e15' }).waitFor();
    await fillBilling(p, countryKinds(data).withStates);
    await p.getByRole('radio', { name: bankTitle(data) }).check();
    await acceptTerms(p);
    const reviewTotal = await p.locator('.woocommerce-checkout-review-order-table tr.order-total td').innerText();
    await p.getByRole('button', { name: 'Place order' }).click();
    const { details } = await orderReceived(p);
    assert.match(details, /Discount:?\s*-\$3\.30/);
    assert.ok(details.includes(reviewTotal.trim()), `the order's total is the review's (${reviewTotal})`);

    // --- the admin sees the use ---
    await a.reload();
    const used = a.getByRole('row', { name: /e2e15/ });
    await used.waitFor();
    assert.match(await used.innerText(), /1 \/ 5/);
    // The order's page in the admin lists the coupon under its lines.
    const orderId = new URL(p.url()).pathname.match(/order-received\/(\d+)\//)[1];
    await a.goto(`/wp-admin/orders/${orderId}/`);
    await a.locator('.order-totals').getByText('Coupon: e2e15').waitFor();
    assert.match(await a.locator('.order-totals').innerText(), /Coupon: e2e15\s*−\$3\.30/);
    assert.deepEqual(problems, []);
  } finally {
    await shopper.close();
    await admin.context.close();
  }
});
