// The shop admin's frame and settings (issue 15) in a real browser against
// the real binary: staff only (a customer is sent to My account); the
// frame by keyboard (skip link, the menu, focus on each screen's heading);
// the Settings screen saving the shop's name and store notice, which every
// storefront page shows within a few seconds; the change in the Activity
// log; storefront pages never fetching the admin's files; axe scans of the
// dashboard, Settings and Activity.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { session } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { useShop, withoutErrors } from './server.mjs';

const shop = useShop();

const PASSWORD = 'a long passphrase for the admin tests';
const STAFF = { email: 'mia@example.com', password: PASSWORD, role: 'shop_manager' };
const CUSTOMER = { email: 'carla@example.com', password: PASSWORD, role: 'customer' };

// The browser logs every 4xx answer; the refusals the tests ask for are expected.
const REFUSALS = /^Failed to load resource: the server responded with a status of 4(00|03|09) /;

/** A page logged in with the storage state (none: a visitor), which must see no console or page error. */
function withPage(state, fn, viewport = { width: 1280, height: 900 }) {
  return shop.withPage({ viewport, storageState: state }, withoutErrors(fn, { ignore: REFUSALS }));
}

test('a customer who opens the admin is sent to My account', async () => {
  await withPage(await session(shop, CUSTOMER), async (page) => {
    await page.goto('/wp-admin/');
    assert.equal(new URL(page.url()).pathname, '/my-account/');
    // And the admin API refuses the customer's own nonce.
    const nonce = await page.evaluate(() => fetch('/wp-admin/admin-ajax.php?action=rest-nonce').then((r) => r.text()));
    const res = await page.evaluate(
      (n) => fetch('/wp-json/vitrine/v1/admin/settings', { headers: { 'X-WP-Nonce': n } }).then(async (r) => ({ status: r.status, body: await r.json() })),
      nonce,
    );
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'rest_forbidden');
  });
});

test('staff run the frame by keyboard, save the settings, and the storefront follows', async () => {
  const staff = await session(shop, STAFF);
  await withPage(staff, async (page) => {
    await page.goto('/wp-admin/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    assert.match(await page.title(), /^Dashboard ‹ Vitrine — Shop admin$/);
    await assertAccessible(page, 'the dashboard');

    // The skip link is the first stop, and goes to the content.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    // The menu by keyboard: focus the Settings link and follow it with Enter.
    const nav = page.getByRole('navigation', { name: 'Shop admin' });
    await nav.getByRole('link', { name: 'Settings' }).focus();
    await page.keyboard.press('Enter');
    const h1 = page.getByRole('heading', { level: 1, name: 'Settings' });
    await h1.waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1', null, { timeout: 5000 });
    assert.equal(new URL(page.url()).pathname, '/wp-admin/settings/');
    assert.equal(await nav.getByRole('link', { name: 'Settings' }).getAttribute('aria-current'), 'page');

    // Edit by keyboard and save.
    const name = page.getByLabel('Shop name');
    await name.waitFor();
    await name.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Maison Vitrine');
    await page.getByLabel('Store notice').focus();
    await page.keyboard.type('Free returns for 30 days');
    await assertAccessible(page, 'the settings');
    await page.getByRole('button', { name: 'Save settings' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Settings saved.').waitFor();

    // A bad value is refused next to its field, with focus there.
    await page.getByLabel('Country code').fill('Narnia');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('alert').getByText(/Invalid parameter/).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), await page.getByLabel('Country code').getAttribute('id'));

    // The change is in the activity log.
    await nav.getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('cell', { name: /Changed name, store notice/ }).waitFor();
    await assertAccessible(page, 'the activity log');
  });

  // A visitor's storefront shows the new name and the notice within a few seconds (the change poll, then the purge).
  await withPage(undefined, async (page) => {
    const requests = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    const deadline = Date.now() + 5000;
    for (;;) {
      await page.goto('/shop/');
      const title = await page.title();
      if (title.includes('Maison Vitrine')) break;
      assert.ok(Date.now() < deadline, `the shop still shows its old name: ${title}`);
      await page.waitForTimeout(200);
    }
    await page.getByText('Free returns for 30 days').waitFor();
    await page.goto('/product/cotton-tank-top/');
    await page.getByText('Free returns for 30 days').waitFor();
    // Storefront pages never fetch the admin's entry, screens or styles.
    const adminFiles = requests.filter((p) => /\/assets\/(main|Dashboard|Settings|Activity)-/.test(p));
    assert.deepEqual(adminFiles, [], 'no admin file on storefront pages');
  });
});

test('staff change a currency’s rate by keyboard and the storefront’s prices follow', async () => {
  const staff = await session(shop, STAFF);
  await withPage(staff, async (page) => {
    await page.goto('/wp-admin/currencies/');
    const edit = page.getByRole('button', { name: 'Edit EUR' });
    await edit.waitFor();
    await assertAccessible(page, 'the currencies');
    await edit.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Edit EUR');
    const rate = page.getByRole('textbox', { name: 'Rate' });
    await rate.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('2');
    await assertAccessible(page, 'the currency form');
    await page.keyboard.press('Enter'); // submits the form
    await page.getByRole('status').getByText('EUR saved.').waitFor();
    // Focus returns to the row's button.
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Edit EUR');
    await page.getByRole('cell', { name: '2', exact: true }).waitFor();
  });
  // A shopper in euros sees the tank top (22.00 USD) at the new rate: 44,00 € (the change log reaches the currency cache at once).
  await withPage(undefined, async (page) => {
    const deadline = Date.now() + 5000;
    for (;;) {
      await page.goto('/product/cotton-tank-top/?wmc-currency=EUR');
      const shown = await page
        .waitForFunction(() => /44,00/.test(document.querySelector('.summary')?.textContent || ''), null, { timeout: 2000 })
        .then(() => true)
        .catch(() => false);
      if (shown) break;
      assert.ok(Date.now() < deadline, 'the product page does not show the price at the new rate');
    }
  });
});

test('staff change a shipping cost and a shopper’s cart is priced with it', async () => {
  const staff = await session(shop, STAFF);
  await withPage(staff, async (page) => {
    await page.goto('/wp-admin/shipping-tax/');
    const cost = page.getByLabel('Cost').first();
    await cost.waitFor();
    await assertAccessible(page, 'shipping and tax');
    assert.equal(await cost.inputValue(), '5.00');
    await cost.fill('7.50');
    await page.getByRole('button', { name: 'Save shipping and tax' }).click();
    await page.getByRole('status').getByText(/Shipping and tax saved\./).waitFor();
  });
  await withPage(undefined, async (page) => {
    await page.goto('/');
    const id = (await (await page.request.get('/wp-json/wc/store/v1/products/cotton-tank-top')).json()).id;
    const first = await page.request.get('/wp-json/wc/store/v1/cart');
    const nonce = first.headers()['nonce'];
    const added = await page.request.post('/wp-json/wc/store/v1/cart/add-item', { data: { id, quantity: 1 }, headers: { Nonce: nonce } });
    assert.equal(added.status(), 201, await added.text());
    const res = await page.request.post('/wp-json/wc/store/v1/cart/update-customer', {
      data: { shipping_address: { country: 'US', state: 'NY', city: 'Albany', postcode: '12207', address_1: 'x', first_name: 'a', last_name: 'b' } },
      headers: { Nonce: added.headers()['nonce'] },
    });
    const body = await res.json();
    assert.equal(res.status(), 200, JSON.stringify(body));
    const rates = body.shipping_rates[0].shipping_rates;
    assert.equal(rates.find((r) => r.rate_id === 'flat_rate:1')?.price, '750', JSON.stringify(rates));
  });
});
