// Checkout validation and per-country fields in the browser: the spec's
// required-field messages inline and in the notice area that takes focus,
// and the fields following a country without states.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';
import { addToCart, countryKinds, openCheckout } from './checkout-helpers.mjs';

const shop = useShop();

test('Place order on an empty form: messages by the fields and in the notice area, which takes focus', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    await addToCart(page);
    await openCheckout(page);
    let posted = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/wp-json/wc/store/v1/checkout')) posted++;
    });
    await page.locator('#billing_first_name').fill('');
    await page.getByRole('button', { name: 'Place order' }).click();
    const alert = page.locator('.woocommerce-NoticeGroup-checkout [role="alert"]');
    await alert.waitFor();
    const text = await alert.innerText();
    assert.match(text, /Billing First name is a required field\./);
    assert.match(text, /Billing Last name is a required field\./);
    assert.match(text, /Billing Email address is a required field\./);
    if (await page.locator('input#terms').count()) {
      assert.match(text, /Please read and accept the terms and conditions to proceed with your order\./);
    }
    // The notice area gets focus (after the spec's 500 ms delay).
    await page.waitForFunction(() => document.activeElement?.classList.contains('woocommerce-NoticeGroup-checkout'));
    // Each field says it too, linked by aria-describedby.
    const first = page.locator('#billing_first_name');
    assert.equal(await first.getAttribute('aria-invalid'), 'true');
    const described = await first.getAttribute('aria-describedby');
    assert.equal((await page.locator(`#${described}`).innerText()).trim(), 'Billing First name is a required field.');
    // A notice links to its field.
    await alert.getByRole('link', { name: 'Billing Last name is a required field.' }).click();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'billing_last_name');
    // An invalid email and phone are refused by the page before anything is sent.
    await page.locator('#billing_email').fill('ada@x');
    await page.locator('#billing_phone').fill('123');
    await page.locator('#billing_email').blur();
    await page.getByText('Billing Email address is not a valid email address.', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.locator('.woocommerce-NoticeGroup-checkout').getByText('Billing Phone is not a valid phone number.').waitFor();
    assert.equal(posted, 0, 'nothing was posted');
  });
});

test('switching to a country without states swaps the state field and refreshes the review', async () => {
  await shop.withPage({ viewport: { width: 390, height: 844 } }, async (page) => {
    await addToCart(page);
    const data = await openCheckout(page);
    const { withStates, textState, noState } = countryKinds(data);
    assert.ok(withStates, 'the shop sells to a country with states');
    assert.ok(textState || noState, 'the shop sells to a country without a state list');

    await page.selectOption('#billing_country', withStates.code);
    assert.equal(await page.locator('#billing_state').evaluate((el) => el.tagName), 'SELECT');
    await page.selectOption('#billing_state', withStates.states[0].code);

    const target = textState || noState;
    const refresh = page.waitForRequest((r) => r.url().endsWith('/cart/update-customer') && r.method() === 'POST');
    await page.selectOption('#billing_country', target.code);
    const req = await refresh;
    assert.ok(req.headers()['nonce'], 'the review refresh sends the Nonce header');
    assert.equal(req.postDataJSON().billing_address.country, target.code);
    assert.equal(req.postDataJSON().billing_address.state, '', 'the state is cleared with the country');
    const state = page.locator('#billing_state');
    if (target.fields.state.hidden) {
      assert.equal(await state.getAttribute('type'), 'hidden');
      assert.equal(await page.locator('label[for="billing_state"]').count(), 0);
    } else {
      assert.equal(await state.evaluate((el) => el.tagName), 'INPUT');
      const label = await page.locator('label[for="billing_state"]').innerText();
      assert.ok(label.startsWith(target.fields.state.label), `label ${label}`);
      assert.equal(await state.evaluate((el) => el.required), target.fields.state.required);
    }
    const postcodeLabel = await page.locator('label[for="billing_postcode"]').innerText();
    assert.ok(postcodeLabel.startsWith(target.fields.postcode.label), `postcode label ${postcodeLabel}`);
    // The review comes back unblocked with a total.
    await page.waitForSelector('#order_review:not(.is-blocked)');
    assert.match(await page.locator('.order-total td').innerText(), /\d/);

    // Ship to a different address shows the shipping block with its own country.
    if (await page.locator('#ship-to-different-address-checkbox').count()) {
      assert.equal(await page.locator('#shipping_first_name').count(), 0);
      await page.getByRole('checkbox', { name: 'Ship to a different address?' }).check();
      await page.locator('#shipping_first_name').waitFor();
      assert.ok(await page.locator('#shipping_country').isVisible() || (await page.locator('#shipping_country').count()) === 1);
    }
  });
});
