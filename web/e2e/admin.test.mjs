// The shop admin's frame and settings (issue 15) in a real browser against
// the real binary: staff only (a customer is sent to My account); the
// frame by keyboard (skip link, the menu, focus on each screen's heading);
// the Settings screen saving the shop's name and store notice, which every
// storefront page shows within a few seconds; the change in the Activity
// log; storefront pages never fetching the admin's files; axe scans of the
// dashboard, Settings and Activity.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { BINARY, newContext, useShop } from './server.mjs';
import { seriousViolations } from './checkout-helpers.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-admin-'));
const DB = `sqlite:${path.join(dir, 'admin.db')}`;
after(() => rmSync(dir, { recursive: true, force: true }));
// A later --db wins over server.mjs's own: the test adds accounts to the store with the CLI.
const shop = useShop({ args: ['--db', DB] });

const PASSWORD = 'a long passphrase for the admin tests';
const sessions = new Map();

/** Creates an account with the CLI (once) and logs in through the login form; answers the session's storage state. */
async function session(email, role) {
  if (sessions.has(email)) return sessions.get(email);
  const made = spawnSync(BINARY, ['--db', DB, '--log-level', 'warn', 'user', 'create', '--email', email, '--role', role, '--password-stdin'], {
    input: `${PASSWORD}\n`,
    encoding: 'utf8',
  });
  assert.equal(made.status, 0, `user create: ${made.stderr}`);
  const context = await newContext(shop.browser, shop.server.baseURL, { viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto('/my-account/');
    await page.locator('#username').fill(email);
    await page.locator('#password').fill(PASSWORD);
    await Promise.all([page.waitForURL(/\/my-account\/$/), page.locator('button.woocommerce-form-login__submit').click()]);
    await page.getByText('Hello').waitFor();
    const state = await context.storageState();
    sessions.set(email, state);
    return state;
  } finally {
    await context.close();
  }
}

async function withPage(state, fn, viewport = { width: 1280, height: 900 }) {
  const context = await newContext(shop.browser, shop.server.baseURL, { viewport, storageState: state });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The browser logs every 4xx answer; the refusals the tests ask for are expected.
    page.on('console', (m) => m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4(00|03|09) /.test(m.text()) && errors.push(m.text()));
    await fn(page);
    assert.deepEqual(errors, [], 'no console or page errors');
  } finally {
    await context.close();
  }
}

async function scan(page, label) {
  const results = await new AxeBuilder({ page }).analyze();
  assert.ok(results.passes.length > 0, 'axe ran its rules');
  assert.deepEqual(seriousViolations(results), [], `axe on ${label}`);
}

test('a customer who opens the admin is sent to My account', async () => {
  await withPage(await session('carla@example.com', 'customer'), async (page) => {
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
  const staff = await session('mia@example.com', 'shop_manager');
  await withPage(staff, async (page) => {
    await page.goto('/wp-admin/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    assert.match(await page.title(), /^Dashboard ‹ Vitrine — Shop admin$/);
    await scan(page, 'the dashboard');

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
    await scan(page, 'the settings');
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
    await scan(page, 'the activity log');
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
  const staff = await session('mia@example.com', 'shop_manager');
  await withPage(staff, async (page) => {
    await page.goto('/wp-admin/currencies/');
    const edit = page.getByRole('button', { name: 'Edit EUR' });
    await edit.waitFor();
    await scan(page, 'the currencies');
    await edit.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Edit EUR');
    const rate = page.getByRole('textbox', { name: 'Rate' });
    await rate.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('2');
    await scan(page, 'the currency form');
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
