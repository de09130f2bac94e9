// A full guest purchase with the wallet through the binary's built-in PayPal
// sandbox: the checkout's PayPal button validates early, creates the order
// and goes to the sandbox's approval page; approving returns to the shop,
// which captures and shows the order received, and the next page's header
// counts no item (the cart cookies cleared). Also: the product page's
// PayPal button, and a declined card sending the buyer back with a notice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';
import { assertUsable } from './visible.mjs';
import { acceptTerms, addToCart, BUYER_EMAIL, countryKinds, expectEmptyCart, fillBilling, openCheckout, orderReceived } from './checkout-helpers.mjs';

const shop = useShop();

async function chooseWallet(page) {
  const data = await openCheckout(page);
  const wallet = data.payment_methods.find((m) => m.kind === 'wallet');
  assert.ok(wallet, 'the wallet is offered');
  assert.ok(data.wallet && data.wallet.nonces['ppc-create-order'], 'the page carries the wallet nonces');
  await fillBilling(page, countryKinds(data).withStates);
  await page.getByRole('radio', { name: wallet.title }).check();
  await acceptTerms(page);
  return data;
}

test('guest purchase with PayPal through the sandbox approval page; the next page has no phantom cart', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 800 } }, async (page, context) => {
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await addToCart(page);
    // The header counts the item (the fragments the next pages read are stored).
    await page.waitForFunction(() => document.querySelector('a.header-cart .cart-count')?.textContent === '1');
    await chooseWallet(page);

    const validate = page.waitForRequest((r) => r.url().includes('wc-ajax=ppc-validate-checkout'));
    const create = page.waitForRequest((r) => r.url().includes('wc-ajax=ppc-create-order'));
    await page.getByRole('button', { name: 'PayPal', exact: true }).click();
    await validate;
    const body = (await create).postDataJSON();
    assert.equal(body.context, 'checkout');
    assert.equal(body.funding_source, 'paypal');
    assert.ok(!('amount' in body) && !('total' in body), 'no amount is sent');

    await page.waitForURL(/\/_sandbox\/paypal\/checkoutnow\?token=/);
    const total = await page.locator('body').innerText();
    assert.match(total, /\$\d+\.\d\d/, 'the approval page shows the amount');
    await page.getByRole('button', { name: 'Pay with PayPal' }).click();

    const { overview, details } = await orderReceived(page);
    assert.match(overview, BUYER_EMAIL);
    assert.match(overview, /PayPal/);
    assert.match(details, /Cotton Tank Top/);
    // Paid in the built-in sandbox (demo mode): a visible test-order notice.
    assert.match(await page.getByRole('note').innerText(), /Test order: paid in the built-in sandbox, no money was taken/);

    // No phantom cart: the paid order emptied the cart, and the return cleared the
    // browser's cart cookies (woocommerce_items_in_cart deleted, woocommerce_cart_hash
    // empty, as for an empty cart), so the next page's header counts 0, not the stored 1.
    const cookies = await context.cookies();
    const cookieValue = (name) => cookies.find((c) => c.name === name)?.value;
    assert.equal(cookieValue('woocommerce_items_in_cart'), undefined, 'woocommerce_items_in_cart is deleted');
    assert.ok(!cookieValue('woocommerce_cart_hash'), `woocommerce_cart_hash is empty: ${cookieValue('woocommerce_cart_hash')}`);
    await page.goto('/shop/');
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    const badge = page.locator('a.header-cart');
    await assertUsable(badge, 'the header cart');
    assert.equal((await badge.locator('.cart-count').textContent()).trim(), '0', 'the header counts no item');
    assert.equal((await badge.locator('.header-cart-total').textContent()).trim(), '', 'the header shows no cart total');

    // Reloading the return page does not pay twice; the cart is empty.
    await expectEmptyCart(page);
    assert.deepEqual(problems, []);
  });
});

test('a declined card returns to the checkout with a notice, and Pay Later then pays', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    await addToCart(page);
    await chooseWallet(page);
    await page.getByRole('button', { name: 'PayPal', exact: true }).click();
    await page.waitForURL(/\/_sandbox\/paypal\/checkoutnow\?token=/);
    await page.getByRole('button', { name: 'Pay with a card that will be declined' }).click();
    await page.waitForURL(/\/checkout\/\?wallet=declined/);
    await page.getByText('Your payment was declined by PayPal').first().waitFor();

    // The cart is still there: pay again with Pay Later.
    await page.waitForSelector('form[name="checkout"][novalidate]');
    await chooseWallet(page);
    await page.getByRole('button', { name: 'Pay Later', exact: true }).click();
    await page.waitForURL(/\/_sandbox\/paypal\/checkoutnow\?token=/);
    await page.getByRole('button', { name: 'Pay Later' }).click();
    await orderReceived(page);
  });
});

test('the product page PayPal button buys the product shown', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    await page.goto('/product/cotton-tank-top/');
    const button = page.getByRole('group', { name: 'Pay with a wallet' }).getByRole('button', { name: 'PayPal' });
    await button.waitFor();
    // The buttons are in the server HTML, disabled until the app runs.
    await page.waitForFunction(() => {
      const buttons = [...document.querySelectorAll('.express-wallet__button')];
      return buttons.length > 0 && buttons.every((b) => !b.disabled);
    });
    await button.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/_sandbox\/paypal\/checkoutnow\?token=/);
    await page.getByRole('button', { name: 'Pay with PayPal' }).click();
    // The sandbox buyer lives in San Jose, CA: CA tax changes the total, so
    // nothing is charged and the checkout shows the new total to confirm.
    await page.waitForURL(/\/checkout\/\?wallet=total/);
    await page.getByText('changes the taxes or shipping of your order').first().waitFor();
    await page.locator('.woocommerce-checkout-review-order-table').getByText('CA Tax').waitFor();
    await page.waitForSelector('form[name="checkout"][novalidate]');
    // The form holds PayPal's address; the checkout asks for a phone.
    assert.equal(await page.locator('#billing_city').inputValue(), 'San Jose');
    await page.locator('#billing_phone').fill('+1 555 010 0200');
    await page.getByRole('radio', { name: 'PayPal' }).check();
    await acceptTerms(page);
    await page.getByRole('button', { name: 'PayPal', exact: true }).click();
    await page.waitForURL(/\/_sandbox\/paypal\/checkoutnow\?token=/);
    await page.getByRole('button', { name: 'Pay with PayPal' }).click();
    const { details } = await orderReceived(page);
    assert.match(details, /Cotton Tank Top/);
    assert.match(details, /CA Tax/);
  });
});
