// Quantity field (spec section 5) through the UI, on the sold-in-pairs socks
// (min 2, max 10, step 2), and the input alone without JavaScript.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';

const SOCKS = '/product/everyday-crew-socks/';

const shop = useShop();

const withPage = (fn, options = {}) => shop.withPage(options, fn);

/** The socks page once the quantity buttons are there (they appear when the app has hydrated). */
async function openSocks(page) {
  await page.goto(SOCKS);
  const form = page.locator('.summary form.cart');
  const qty = form.getByRole('spinbutton', { name: 'Quantity' });
  const plus = form.getByRole('button', { name: 'Increase quantity' });
  const minus = form.getByRole('button', { name: 'Decrease quantity' });
  await plus.waitFor({ state: 'visible' });
  return { form, qty, plus, minus };
}

test('the input keeps its label and min/max/step; it starts at min 2', async () => {
  await withPage(async (page) => {
    const { qty } = await openSocks(page);
    assert.equal(await qty.getAttribute('min'), '2');
    assert.equal(await qty.getAttribute('max'), '10');
    assert.equal(await qty.getAttribute('step'), '2');
    assert.equal(await qty.inputValue(), '2');
  });
});

test('plus adds the step up to max and stays at max', async () => {
  await withPage(async (page) => {
    const { qty, plus } = await openSocks(page);
    const seen = [];
    for (let i = 0; i < 6; i++) {
      await plus.click();
      seen.push(await qty.inputValue());
    }
    assert.deepEqual(seen, ['4', '6', '8', '10', '10', '10']);
  });
});

test('minus at min stays at min; from 6 it steps down to 2', async () => {
  await withPage(async (page) => {
    const { qty, plus, minus } = await openSocks(page);
    await minus.click();
    assert.equal(await qty.inputValue(), '2', 'minus at min stays min');
    await plus.click();
    await plus.click();
    assert.equal(await qty.inputValue(), '6');
    await minus.click();
    assert.equal(await qty.inputValue(), '4');
    await minus.click();
    await minus.click();
    assert.equal(await qty.inputValue(), '2');
  });
});

test('typing 3 then plus and minus follow the rules', async () => {
  await withPage(async (page) => {
    const { qty, plus, minus } = await openSocks(page);
    await qty.fill('3');
    await plus.click();
    assert.equal(await qty.inputValue(), '5', '3 + step 2 (below max: add step)');
    await minus.click();
    assert.equal(await qty.inputValue(), '3', '5 - 2');
    await minus.click();
    assert.equal(await qty.inputValue(), '2', '3 - 2 = 1 is below min: raised to 2');
    await qty.fill('12');
    await plus.click();
    assert.equal(await qty.inputValue(), '10', 'above max: plus sets max');
    // Empty counts as 0: leaving the field for the button raises it to min 2 (a
    // change below min), then plus adds the step.
    await qty.fill('');
    await plus.click();
    assert.equal(await qty.inputValue(), '4', 'empty: raised to 2 on leaving the field, then plus');
  });
});

test('a value below min is raised to min when leaving the field', async () => {
  await withPage(async (page) => {
    const { qty } = await openSocks(page);
    await qty.fill('1');
    await page.keyboard.press('Tab');
    assert.equal(await qty.inputValue(), '2');
  });
});

test('the buttons work by keyboard and submit the chosen quantity with the form', async () => {
  await withPage(async (page) => {
    const { form, qty, plus } = await openSocks(page);
    await plus.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space');
    assert.equal(await qty.inputValue(), '6');
    const body = await page.evaluate(() => {
      const f = document.querySelector('.summary form.cart');
      const fd = new FormData(f, f.querySelector('button[name="add-to-cart"]'));
      return Object.fromEntries(fd.entries());
    });
    assert.equal(body.quantity, '6');
    assert.ok(body['add-to-cart'], 'the add-to-cart button names the product');
    assert.equal(await form.locator('button[name="quantity"]').count(), 0, 'the +/- buttons are not form fields');
  });
});

test('without JavaScript the input alone is there and works', async () => {
  await withPage(
    async (page) => {
      await page.goto(SOCKS);
      const qty = page.locator('.summary form.cart').getByRole('spinbutton', { name: 'Quantity' });
      assert.equal(await qty.isVisible(), true);
      assert.equal(await qty.inputValue(), '2');
      assert.equal(await page.getByRole('button', { name: 'Increase quantity' }).count(), 0, 'no dead buttons');
      await qty.fill('8');
      assert.equal(await qty.inputValue(), '8');
    },
    { javaScriptEnabled: false },
  );
});
