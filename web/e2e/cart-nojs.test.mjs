// The cart without JavaScript: the cart page's form (update quantities,
// refusals with WooCommerce's message), remove links, the grouped product
// form; then the styled cart page (stacked on a phone) passes axe.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { productId } from './checkout-helpers.mjs';
import { useShop } from './server.mjs';

const shop = useShop();

test('no scripts: update a quantity, a refused update keeps the cart, remove, grouped add', async () => {
  await shop.withPage({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } }, async (page, context) => {
    const tank = await productId(page, 'cotton-tank-top');
    const print = await productId(page, 'limited-print-coastline-no-3');
    await page.goto(`/?add-to-cart=${tank}`);
    await page.goto(`/?add-to-cart=${print}`);
    assert.equal(new URL(page.url()).pathname, '/cart/');
    assert.equal(await page.locator('tr.cart_item').count(), 2);

    // Update: type a quantity and press the button; the server answers 303 back to /cart/.
    const tankQty = page.getByRole('spinbutton', { name: 'Cotton Tank Top quantity' });
    await tankQty.fill('3');
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/cart/') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Update cart' }).click(),
    ]);
    assert.equal(res.status(), 303);
    await page.waitForURL('**/cart/');
    await page.getByText('Cart updated.').waitFor();
    assert.equal(await page.getByRole('spinbutton', { name: 'Cotton Tank Top quantity' }).inputValue(), '3');
    assert.match(await page.locator('.cart_totals .order-total').textContent(), /\$186\.00/); // 3 × 22 + 120

    // Refused: the print is sold individually (its line shows no field, so
    // the browser cannot send 2; post the form's fields as a tampered form
    // would, with the context's cookies). The cart is unchanged and the page
    // shows WooCommerce's message.
    const printKey = await page.locator('input[type="hidden"][name^="cart["]').getAttribute('name');
    const tankKey = await page.getByRole('spinbutton', { name: 'Cotton Tank Top quantity' }).getAttribute('name');
    const refused = await page.request.post('/cart/', {
      form: { [printKey]: '2', [tankKey]: '3', update_cart: 'Update cart' },
      maxRedirects: 0,
    });
    assert.equal(refused.status(), 303);
    await page.goto('/cart/');
    await page.locator('.woocommerce-error', { hasText: 'The maximum quantity of' }).waitFor();
    assert.equal(await page.locator(`input[name="${printKey}"]`).inputValue(), '1');
    assert.equal(await page.getByRole('spinbutton', { name: 'Cotton Tank Top quantity' }).inputValue(), '3');

    // Enter in a quantity field submits the form too.
    const qty = page.getByRole('spinbutton', { name: 'Cotton Tank Top quantity' });
    await qty.fill('4');
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/cart/') && r.request().method() === 'POST'), qty.press('Enter')]);
    await page.getByText('Cart updated.').waitFor();
    assert.equal(await page.getByRole('spinbutton', { name: 'Cotton Tank Top quantity' }).inputValue(), '4');

    // Remove: the link removes the line.
    await page.getByRole('link', { name: 'Remove Cotton Tank Top from cart' }).click();
    await page.getByText('\u201cCotton Tank Top\u201d removed.').waitFor();
    assert.equal(await page.locator('tr.cart_item').count(), 1);

    // Grouped product: several lines at once.
    await page.goto('/product/weekend-set/');
    const form = page.locator('form.grouped_form');
    await form.getByRole('spinbutton', { name: 'Drawstring Linen Trousers quantity' }).fill('2');
    await form.getByRole('spinbutton', { name: 'Striped Lightweight Scarf quantity' }).fill('1');
    await form.locator('button.single_add_to_cart_button').click();
    await page.waitForURL('**/cart/');
    assert.equal(await page.locator('tr.cart_item').count(), 3);
    assert.equal(await page.getByRole('spinbutton', { name: 'Drawstring Linen Trousers quantity' }).inputValue(), '2');

    // 0 removes; emptying shows the empty state.
    for (const name of ['Drawstring Linen Trousers', 'Striped Lightweight Scarf']) {
      await page.getByRole('spinbutton', { name: `${name} quantity` }).fill('0');
    }
    await page.getByRole('button', { name: 'Update cart' }).click();
    await page.getByText('Cart updated.').waitFor();
    assert.equal(await page.locator('tr.cart_item').count(), 1, 'only the print is left');
    await page.getByRole('link', { name: /Remove Limited Print/ }).click();
    await page.getByText('Your cart is currently empty.').waitFor();
  });
});

test('the cart page: stacked rows on a phone, a table on a large screen; axe', async () => {
  await shop.withPage({ viewport: { width: 390, height: 800 } }, async (page) => {
    const tank = await productId(page, 'cotton-tank-top');
    await page.goto(`/?add-to-cart=${tank}&quantity=2`);
    await page.locator('form.woocommerce-cart-form .quantity--buttons').first().waitFor();
    const row = page.locator('tr.cart_item').first();
    assert.equal(await row.evaluate((el) => getComputedStyle(el).display), 'block', 'stacked on a phone');
    const head = await page.locator('table.woocommerce-cart-form__contents thead').boundingBox();
    assert.ok(!head || head.height <= 1, 'the column heads are left to screen readers');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no sideways scroll (${width}px)`);
    await assertAccessible(page, 'the cart page at 390px');

    await page.setViewportSize({ width: 1280, height: 900 });
    assert.equal(await row.evaluate((el) => getComputedStyle(el).display), 'table-row', 'a table on a large screen');
    await assertAccessible(page, 'the cart page at 1280px');
  });
});
