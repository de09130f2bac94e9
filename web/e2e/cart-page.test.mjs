// The cart page: lines, update by keyboard, remove with Undo, the empty state, axe;
// "You may also like" and the free-shipping line; the totals' shipping and tax
// lines adding up to the Total.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { productId } from './checkout-helpers.mjs';
import { useShop } from './server.mjs';
import { assertUsable, WIDTHS } from './visible.mjs';

const shop = useShop();

test('cart page: axe, keyboard update, remove with Undo, empty state', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const tank = await productId(page, 'cotton-tank-top');
    const print = await productId(page, 'limited-print-coastline-no-3');
    // No-script adds fill the cart (and redirect to the cart page).
    await page.goto(`/?add-to-cart=${tank}`);
    assert.equal(new URL(page.url()).pathname, '/cart/');
    await page.goto(`/?add-to-cart=${print}`);
    const form = page.locator('form.woocommerce-cart-form');
    await form.getByRole('button', { name: /Increase quantity/ }).first().waitFor({ state: 'visible' });
    assert.equal(await page.locator('tr.cart_item').count(), 2);

    await assertAccessible(page, 'the cart page');

    // Keyboard: type a quantity, Tab to "Update cart", Enter.
    const qty = form.getByRole('spinbutton', { name: 'Cotton Tank Top quantity' });
    await qty.fill('3');
    await form.getByRole('button', { name: 'Update cart' }).focus();
    const updated = page.waitForRequest((r) => r.url().endsWith('/cart/update-item') && r.method() === 'POST');
    await page.keyboard.press('Enter');
    const req = await updated;
    assert.ok(req.headers()['nonce'], 'the Nonce header is sent');
    await page.getByText('Cart updated.').waitFor();
    await page.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '4');

    // Remove by keyboard, then Undo.
    const remove = page.getByRole('link', { name: 'Remove Cotton Tank Top from cart' });
    await remove.focus();
    await page.keyboard.press('Enter');
    await page.getByText('\u201cCotton Tank Top\u201d removed.').waitFor();
    assert.equal(await page.locator('tr.cart_item').count(), 1);
    await page.getByRole('link', { name: 'Undo?' }).click();
    await page.locator('tr.cart_item', { hasText: 'Cotton Tank Top' }).waitFor();
    assert.equal(await page.locator('tr.cart_item').count(), 2);

    // Remove everything: the empty state.
    await page.getByRole('link', { name: 'Remove Cotton Tank Top from cart' }).click();
    await page.getByText('\u201cCotton Tank Top\u201d removed.').waitFor();
    await page.getByRole('link', { name: /Remove Limited Print/ }).click();
    await page.getByText('Your cart is currently empty.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Return to shop' }).getAttribute('href'), '/shop/');
    await page.reload();
    await page.getByText('Your cart is currently empty.').waitFor();
    assert.deepEqual(problems, []);
  });
});

for (const [size, viewport] of WIDTHS) {
  test(`at ${size} the cart's quantity buttons, Update cart and Proceed to checkout are on screen and uncovered; so is the currency control`, async () => {
    await shop.withPage({ viewport }, async (page) => {
      const tank = await productId(page, 'cotton-tank-top');
      await page.goto(`/?add-to-cart=${tank}`);
      const form = page.locator('form.woocommerce-cart-form');
      await form.getByRole('button', { name: /Increase quantity/ }).first().waitFor({ state: 'visible' });
      await assertUsable(form.getByRole('button', { name: /Reduce quantity/ }).first(), 'the quantity "−"');
      await assertUsable(form.getByRole('spinbutton', { name: 'Cotton Tank Top quantity' }), 'the quantity field');
      await assertUsable(form.getByRole('button', { name: /Increase quantity/ }).first(), 'the quantity "+"');
      await assertUsable(form.getByRole('button', { name: 'Update cart' }), 'Update cart');
      await assertUsable(page.getByRole('link', { name: /Proceed to checkout/ }), 'Proceed to checkout');
      await page.evaluate(() => window.scrollTo(0, 0));
      const currency = page.getByRole(viewport.width < 768 ? 'button' : 'combobox', { name: /^Currency/ });
      await assertUsable(currency, 'the currency control');
      if (viewport.width < 768) {
        await currency.click();
        await assertUsable(page.getByRole('list', { name: 'Currency' }), 'the currency list');
      }
    });
  });
}

/** The cart's free-shipping progress as the Store API answers it (the session's cookies). */
async function freeShipping(page) {
  const cart = await (await page.request.get('/wp-json/wc/store/v1/cart')).json();
  return cart.extensions['vitrine/free-shipping'];
}

const dollars = (minor) => `$${(Number(minor) / 100).toFixed(2)}`;

for (const [size, viewport] of WIDTHS) {
  test(`at ${size} a cross-sell card's add button puts it in the cart, and the free-shipping line follows`, async () => {
    await shop.withPage({ viewport }, async (page) => {
      const problems = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto('/');
      // A Classic Tee (its cross-sells: socks, cap, bandana) through the Store API.
      const tee = await (await page.request.get('/wp-json/wc/store/v1/products/classic-tee')).json();
      const bandana = await productId(page, 'printed-bandana');
      let nonce = (await page.request.get('/wp-json/wc/store/v1/cart')).headers()['nonce'];
      let added = false;
      for (const v of tee.variations) {
        const res = await page.request.post('/wp-json/wc/store/v1/cart/add-item', { data: { id: v.id, quantity: 1 }, headers: { Nonce: nonce } });
        nonce = res.headers()['nonce'] || nonce;
        if (res.status() === 201) {
          added = true;
          break;
        }
      }
      assert.ok(added, 'a Classic Tee variation is in the cart');
      await page.goto('/cart/');
      const before = await freeShipping(page);
      assert.equal(before.reached, false);
      const line = page.locator('.free-shipping-progress__text');
      await line.getByText(`Add ${dollars(before.remaining)} more for free shipping`).waitFor();
      await assertUsable(page.getByRole('progressbar', { name: `Add ${dollars(before.remaining)} more for free shipping` }), 'the free-shipping bar');
      await assertAccessible(page, `the cart page with its free-shipping bar at ${size}`);

      const section = page.getByRole('region', { name: 'You may also like…' });
      const add = section.locator(`a.ajax_add_to_cart[data-product_id="${bandana}"]`);
      await assertUsable(add, "the bandana card's add button");
      await add.click();
      await page.locator('tr.cart_item', { hasText: 'Printed Bandana' }).waitFor();
      const after = await freeShipping(page);
      assert.equal(Number(after.remaining), Number(before.remaining) - (Number(after.amount) - Number(before.amount)));
      assert.ok(Number(after.amount) > Number(before.amount));
      const text = after.reached ? 'You get free shipping' : `Add ${dollars(after.remaining)} more for free shipping`;
      await line.getByText(text).waitFor();
      // The card left the list (the bandana is in the cart); the line is on screen, uncovered (no mini cart over it).
      await add.waitFor({ state: 'detached' });
      await assertUsable(line, 'the updated free-shipping line');
      await page.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '2');
      assert.deepEqual(problems, []);
    });
  });
}

/** An amount as the page shows it ("$1,234.56") in cents. */
function cents(text) {
  const m = String(text).replace(/\u00a0/g, ' ').match(/\$([\d,]+)\.(\d{2})/);
  assert.ok(m, `an amount in dollars: ${text}`);
  return Number(m[1].replace(/,/g, '')) * 100 + Number(m[2]);
}

test('at 1280×800 with a Californian address the cart totals show Subtotal, the shipping rate, the tax line and Total, which is their sum as read from the page', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 800 } }, async (page) => {
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const tank = await productId(page, 'cotton-tank-top');
    await page.goto(`/?add-to-cart=${tank}`);
    // The shopper's address, as the checkout sends it (the session's cookies): San Jose, CA (flat rate and CA tax).
    const nonce = (await page.request.get('/wp-json/wc/store/v1/cart')).headers()['nonce'];
    const res = await page.request.post('/wp-json/wc/store/v1/cart/update-customer', {
      data: { shipping_address: { country: 'US', state: 'CA', city: 'San Jose', postcode: '95131', address_1: '2211 North First Street', first_name: 'Ada', last_name: 'Lovelace' } },
      headers: { Nonce: nonce },
    });
    assert.equal(res.status(), 200, await res.text());
    const api = (await res.json()).totals;
    assert.ok(Number(api.total_shipping) > 0 && Number(api.total_tax) > 0, `the address has shipping and tax: ${JSON.stringify(api)}`);

    await page.goto('/cart/');
    const table = page.locator('.cart_totals table');
    await table.locator('tr.order-total').waitFor();
    const subtotal = table.locator('tr.cart-subtotal');
    const shipping = table.locator('tr.shipping');
    const taxes = table.locator('tr.tax-rate, tr.tax-total');
    const total = table.locator('tr.order-total');
    assert.equal(await shipping.count(), 1, 'one shipping line');
    assert.ok((await taxes.count()) >= 1, 'a tax line');
    const rows = [subtotal, shipping, ...(await taxes.all()), total];
    for (const row of rows) await assertUsable(row.locator('td'), `the totals' ${await row.locator('th').innerText()} amount`);

    assert.equal((await subtotal.locator('th').innerText()).trim(), 'Subtotal');
    assert.match(await shipping.locator('td').innerText(), /^Flat rate: \$/);
    assert.equal((await taxes.first().locator('th').innerText()).trim(), 'CA Tax');
    assert.equal((await total.locator('th').innerText()).trim(), 'Total');
    const sub = cents(await subtotal.locator('td').innerText());
    const ship = cents(await shipping.locator('td').innerText());
    let tax = 0;
    for (const row of await taxes.all()) tax += cents(await row.locator('td').innerText());
    const sum = cents(await total.locator('td').innerText());
    assert.ok(sub > 0 && ship > 0 && tax > 0, `subtotal ${sub}, shipping ${ship}, tax ${tax}`);
    assert.equal(sub + ship + tax, sum, `Subtotal ${sub} + shipping ${ship} + tax ${tax} is the Total ${sum}`);
    assert.equal(sum, Number(api.total_price), 'the page shows the cart total');
    assert.deepEqual(problems, []);
  });
});
