// Shared steps of the checkout browser tests (checkout-*.test.mjs): fill a
// cart, open the checkout, read its page data, fill the form.
import assert from 'node:assert/strict';

export const PRODUCT = 'cotton-tank-top';

export async function productId(page, slug = PRODUCT) {
  const res = await page.request.get(`/wp-json/wc/store/v1/products/${slug}`);
  assert.equal(res.status(), 200, `product ${slug}`);
  return (await res.json()).id;
}

/** Adds a product with the no-script link (the server redirects to the cart). */
export async function addToCart(page, slug = PRODUCT) {
  const id = await productId(page, slug);
  await page.goto(`/?add-to-cart=${id}`);
  assert.equal(new URL(page.url()).pathname, '/cart/');
}

/** The page data the server inlined. */
export async function pageData(page) {
  return page.evaluate(() => JSON.parse(document.getElementById('vitrine-data').textContent));
}

/** Opens /checkout/ and waits until the app has hydrated (the form turns off native validation then). */
export async function openCheckout(page, path = '/checkout/') {
  const res = await page.goto(path);
  assert.equal(res.status(), 200);
  await page.waitForSelector('form[name="checkout"][novalidate]');
  const data = await pageData(page);
  assert.equal(data.page, 'checkout');
  return data;
}

/** Countries of the page data by state rule: with a state list, with a free-text state, with no state. */
export function countryKinds(data) {
  const withStates = data.countries.find((c) => c.code === 'US' && c.states.length > 0) || data.countries.find((c) => c.states.length > 0);
  const textState = data.countries.find((c) => c.states.length === 0 && !c.fields.state.hidden);
  const noState = data.countries.find((c) => c.states.length === 0 && c.fields.state.hidden);
  return { withStates, textState, noState };
}

export const BUYER = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  address_1: '12 Analytical Row',
  city: 'Albany',
  postcode: '12207',
  phone: '+1 518 555 0100',
  email: 'ada@example.com',
};

/** BUYER's e-mail as a pattern for page text. */
export const BUYER_EMAIL = new RegExp(BUYER.email.replace('.', '\\.'));

/** Fills the billing block for a country (with a state list when it has one). */
export async function fillBilling(page, country) {
  if (await page.locator('select#billing_country').count()) await page.selectOption('#billing_country', country.code);
  for (const [k, v] of Object.entries(BUYER)) {
    const el = page.locator(`#billing_${k}`);
    if ((await el.count()) && (await el.getAttribute('type')) !== 'hidden') await el.fill(v);
  }
  const state = page.locator('#billing_state');
  const tag = (await state.count()) ? await state.evaluate((el) => (el.type === 'hidden' ? 'hidden' : el.tagName)) : 'none';
  if (tag === 'SELECT') await state.selectOption(country.states[0].code);
  // Without scripts the field stays what the page was rendered with: a text field takes the state's code.
  else if (tag === 'INPUT') await state.fill(country.states.length > 0 ? country.states[0].code : 'Somewhere');
}

/** The bank-transfer method's title as the page names it. */
export function bankTitle(data) {
  const m = data.payment_methods.find((x) => x.id === 'bacs');
  assert.ok(m, 'bank transfer is offered');
  return m.title;
}

/** Ticks the terms checkbox when the shop has terms. */
export async function acceptTerms(page) {
  const terms = page.locator('input#terms');
  if (await terms.count()) await terms.check();
}

/** Waits for the order-received page after an order is placed; returns the text of its overview and its order details. */
export async function orderReceived(page) {
  await page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/);
  await page.getByText('Thank you. Your order has been received.').waitFor();
  return {
    overview: await page.locator('.woocommerce-order-overview').innerText(),
    details: await page.locator('.woocommerce-order-details').innerText(),
  };
}

/** Opens the cart and waits for its empty state (as after an order). */
export async function expectEmptyCart(page) {
  await page.goto('/cart/');
  await page.getByText('Your cart is currently empty.').waitFor();
}

