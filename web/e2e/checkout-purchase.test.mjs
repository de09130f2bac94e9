// A full guest purchase with bank transfer: add a product, go through the
// cart to the checkout, fill it in, place the order (Store API checkout with an
// Idempotency-Key), and land on the order-received page with the bank details.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';
import { acceptTerms, addToCart, bankTitle, BUYER, BUYER_EMAIL, countryKinds, expectEmptyCart, fillBilling, openCheckout, orderReceived } from './checkout-helpers.mjs';

const shop = useShop();

test('guest purchase with bank transfer ends on the order-received page with the bank instructions', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await addToCart(page);
    await page.getByRole('link', { name: 'Proceed to checkout' }).click();
    // Should the link not lead on, say what the page saw (its errors, where it is).
    await page.waitForURL('**/checkout/').catch((e) => {
      throw new Error(`${e.message}\nat ${page.url()}; page errors: ${JSON.stringify(problems)}`);
    });
    await page.waitForSelector('form[name="checkout"][novalidate]');
    const data = await openCheckout(page);
    assert.ok(data.cart.items.length > 0, 'the checkout shows the cart');
    assert.ok(data.payment_methods.some((m) => m.id === 'bacs'), 'bank transfer is offered');

    const { withStates } = countryKinds(data);
    await fillBilling(page, withStates);
    await page.getByRole('textbox', { name: /Order notes/ }).fill('Please knock.');
    await page.getByRole('radio', { name: bankTitle(data) }).check();
    // The chosen method's description shows.
    assert.ok(await page.locator('.payment_box.payment_method_bacs').isVisible());
    await acceptTerms(page);

    const request = page.waitForRequest((r) => r.url().endsWith('/wp-json/wc/store/v1/checkout') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Place order' }).click();
    const req = await request;
    assert.match(req.headers()['idempotency-key'] || '', /^[0-9a-f-]{36}$/, 'an Idempotency-Key is sent');
    assert.ok(req.headers()['nonce'], 'the Nonce header is sent');
    const body = req.postDataJSON();
    assert.equal(body.payment_method, 'bacs');
    assert.equal(body.billing_address.email, BUYER.email);
    assert.equal(body.customer_note, 'Please knock.');

    const { overview, details } = await orderReceived(page);
    assert.match(overview, /Order number:\s*\S+/);
    assert.match(overview, BUYER_EMAIL);
    assert.ok(overview.includes(bankTitle(data)), 'the payment method is shown');
    assert.match(details, /Cotton Tank Top/);
    const bank = page.getByRole('region', { name: 'Our bank details' });
    await bank.waitFor();
    assert.ok((await bank.innerText()).trim().length > 20, 'the bank instructions are shown');
    assert.match(await page.locator('.woocommerce-column--billing-address').innerText(), /12 Analytical Row/);

    // The order page needs its key: without it nothing of the order shows.
    const url = new URL(page.url());
    await page.goto(url.pathname + '?key=wrong');
    await page.getByText('This order cannot be shown').waitFor();
    assert.equal(await page.getByText('12 Analytical Row').count(), 0);

    // The cart is empty after the order.
    await expectEmptyCart(page);
    assert.deepEqual(problems, []);
  });
});

test('the no-script checkout form posts to /checkout/ and places the order too', async () => {
  await shop.withPage({ javaScriptEnabled: false }, async (page) => {
    await addToCart(page);
    const res = await page.goto('/checkout/');
    assert.equal(res.status(), 200);
    const data = JSON.parse(await page.locator('#vitrine-data').textContent());
    // Without scripts the state stays the field the page was rendered with (fillBilling types the code into a text field).
    await fillBilling(page, countryKinds(data).withStates);
    await page.locator('input[name="payment_method"][value="bacs"]').check();
    await acceptTerms(page);
    await Promise.all([orderReceived(page), page.locator('#place_order').click()]);
  });
});
