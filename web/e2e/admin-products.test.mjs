// The admin's products (issue 15) in a real browser against the real
// binary: a shop manager creates a variable product with an image from the
// media library, its colours, generated variations priced in bulk, all
// with the keyboard, publishes it and sees it in the storefront within a
// second; axe scans the products list (with the bulk confirmation open),
// the editor, the categories and the attributes screens; a customer is
// sent away from the admin and refused by its API. An external product
// with a sale that started today is made by keyboard, and its page shows
// the sale price and the partner's link.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { session } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';

const shop = useShop();

const PASSWORD = 'a long passphrase for the admin tests';
const DESKTOP = { width: 1280, height: 900 };
const MANAGER = { email: 'mia.manager@example.com', password: PASSWORD, role: 'shop_manager' };
const CUSTOMER = { email: 'carla@example.com', password: PASSWORD, role: 'customer' };
const manager = () => session(shop, MANAGER);

test('a manager creates a variable product by keyboard, publishes it, and the storefront shows it within a second', async (t) => {
  await shop.withPage({ viewport: DESKTOP, storageState: await manager() }, async (page) => {
    await page.goto('/wp-admin/products/new/');
    const name = page.getByLabel('Product name');
    await name.focus();
    await page.keyboard.type('Aurora Scarf');
    // Type-ahead in the focused drop-downs: "v" for Variable product, "p" for Published.
    await page.getByLabel('Product type').focus();
    await page.keyboard.press('v');
    assert.equal(await page.getByLabel('Product type').inputValue(), 'variable');
    await page.getByLabel('Status', { exact: true }).focus();
    await page.keyboard.press('p');
    assert.equal(await page.getByLabel('Status', { exact: true }).inputValue(), 'publish');
    // An image the catalogue holds, chosen from the media library.
    const picker = page.getByLabel('Add an image from the media library');
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    const image = await picker.inputValue();
    assert.notEqual(image, '', 'an image is chosen');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // Add image
    await page.getByText('(main image)').waitFor();
    // Two colours, with Space.
    for (const colour of ['Navy', 'Rust']) {
      await page.getByRole('checkbox', { name: colour, exact: true }).focus();
      await page.keyboard.press('Space');
    }
    await page.getByRole('button', { name: 'Create product' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Product created as published.').waitFor();
    const id = Number(new URL(page.url()).pathname.match(/products\/(\d+)\//)[1]);
    assert.ok(id > 0, `the editor's address: ${page.url()}`);

    // Variations: generated, then priced in bulk.
    await page.getByRole('button', { name: 'Generate variations' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('2 variations added. Give them prices and save.').waitFor();
    await page.getByRole('checkbox', { name: 'Select all variations' }).focus();
    await page.keyboard.press('Space');
    await page.getByLabel('Bulk edit').focus();
    await page.keyboard.press('s'); // Set regular prices
    assert.equal(await page.getByLabel('Bulk edit').inputValue(), 'regular');
    await page.keyboard.press('Tab');
    await page.keyboard.type('24');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // Apply to 2 selected
    assert.equal(await page.getByLabel('Regular price of Navy').inputValue(), '24');
    await page.getByRole('button', { name: 'Save variations' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('2 variations saved.').waitFor();
    const saved = Date.now();

    // The storefront: the Store API and the product page, within a second.
    let seen = null;
    let last = '';
    while (Date.now() - saved < 1000) {
      const res = await fetch(`${shop.server.baseURL}/wp-json/wc/store/v1/products/${id}`);
      last = `${res.status}`;
      if (res.status === 200) {
        const p = await res.json();
        last += ' ' + JSON.stringify(p.prices);
        if (p.prices?.price === '2400') {
          seen = p;
          break;
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(seen, `the Store API shows the product at its new price within a second (last answer: ${last})`);
    t.diagnostic(`the Store API showed the new price ${Date.now() - saved} ms after the save was confirmed`);
    assert.equal(seen.name, 'Aurora Scarf');
    await assertAccessible(page, 'the product editor with variations');
    assert.equal(seen.images.length, 1);
    await shop.withPage({ viewport: DESKTOP }, async (shopPage) => {
      const res = await shopPage.goto('/product/aurora-scarf/');
      assert.equal(res.status(), 200);
      await shopPage.getByRole('heading', { name: 'Aurora Scarf', level: 1 }).waitFor();
      assert.match(await shopPage.locator('.summary .price').first().innerText(), /24\.00/);
    });
  });
});

test('axe: the products list with the bulk confirmation, categories and attributes; a stale edit is refused', async () => {
  await shop.withPage({ viewport: DESKTOP, storageState: await manager() }, async (page, context) => {
    await page.goto('/wp-admin/products/');
    await page.getByText(/\d+ products found\./).waitFor();
    await assertAccessible(page, 'the products list');
    await page.getByRole('checkbox', { name: 'Select all products on this page' }).check();
    await page.getByLabel('Bulk action').selectOption('draft');
    await page.getByRole('button', { name: /Apply to \d+ selected/ }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement), true);
    await assertAccessible(page, 'the bulk confirmation');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.goto('/wp-admin/categories/');
    await page.getByRole('heading', { name: 'Add a category' }).waitFor();
    await page.getByRole('table').getByRole('link').first().waitFor();
    await assertAccessible(page, 'the categories screen');
    await page.goto('/wp-admin/attributes/');
    await page.getByLabel('How Color shows on product pages').waitFor();
    await assertAccessible(page, 'the attributes screen');

    // Two editors on one product: the second save is refused, and says how to reload.
    await page.goto('/wp-admin/products/?x=1');
    const first = page.getByRole('table').getByRole('link').first();
    const href = await first.getAttribute('href');
    // The storefront's edit link (WordPress's address) opens the same editor.
    await page.goto(`/wp-admin/post.php?post=${href.match(/(\d+)\/$/)[1]}&action=edit`);
    await page.waitForURL((u) => u.pathname === href);
    await page.getByRole('heading', { name: /^Edit “/ }).waitFor();
    const other = await context.newPage();
    await other.goto(href);
    await page.goto(href);
    for (const p of [other, page]) await p.getByLabel('Short description').waitFor();
    await other.getByLabel('Short description').fill('Changed in the other tab.');
    await other.getByRole('button', { name: 'Save product' }).click();
    await other.getByText(/Product saved/).waitFor();
    await page.getByLabel('Short description').fill('Changed here.');
    await page.getByRole('button', { name: 'Save product' }).click();
    await page.getByText('Not saved: someone else changed this product.').waitFor();
    await page.getByRole('button', { name: 'Reload the product' }).click();
    await page.getByText(/Reloaded: the form shows the latest version/).waitFor();
    assert.equal(await page.getByLabel('Short description').inputValue(), 'Changed in the other tab.');
  });
});

/** A day as a date input's value, days from today in the browser's (and this machine's) time zone. */
function day(offset) {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

test('an external product with a scheduled sale, made by keyboard, shows its sale price and partner link', async () => {
  await shop.withPage({ viewport: DESKTOP, storageState: await manager() }, async (page) => {
    await page.goto('/wp-admin/products/new/');
    await page.getByLabel('Product name').focus();
    await page.keyboard.type('Partner Lantern');
    await page.getByLabel('Product type').focus();
    await page.keyboard.press('e'); // External/Affiliate product
    assert.equal(await page.getByLabel('Product type').inputValue(), 'external');
    await page.getByLabel('Status', { exact: true }).focus();
    await page.keyboard.press('p');
    await page.getByLabel('Regular price (USD)').focus();
    await page.keyboard.type('40.00');
    await page.keyboard.press('Tab');
    await page.keyboard.type('30.00'); // Sale price: the schedule's fields appear
    await page.getByLabel('Sale starts on').fill(day(0));
    await page.getByLabel('Sale ends on').fill(day(-1));
    await page.getByLabel('Product URL').focus();
    await page.keyboard.type('ftp://partner.example/lantern');
    await page.getByLabel('Button text').focus();
    await page.keyboard.type('Buy at the partner');
    await page.keyboard.press('Enter');
    // An ftp: URL is refused on its field, which takes the focus.
    const url = page.getByLabel('Product URL');
    await page.waitForFunction(() => document.activeElement?.getAttribute('type') === 'url');
    assert.equal(await url.getAttribute('aria-invalid'), 'true');
    await url.fill('https://partner.example/lantern');
    await page.keyboard.press('Enter');
    // Then the sale's end before its start.
    const ends = page.getByLabel('Sale ends on');
    await page.waitForFunction(() => document.activeElement?.getAttribute('type') === 'date');
    assert.equal(await ends.getAttribute('aria-invalid'), 'true');
    await assertAccessible(page, 'the editor with a refused sale date');
    await ends.fill(day(30));
    await page.keyboard.press('Enter');
    await page.getByText('Product created as published.').waitFor();
    assert.equal(await page.getByLabel('Sale ends on').inputValue(), day(30));
    await assertAccessible(page, 'the external product editor');

    await shop.withPage({ viewport: DESKTOP }, async (shopPage) => {
      const res = await shopPage.goto('/product/partner-lantern/');
      assert.equal(res.status(), 200);
      assert.match(await shopPage.locator('.summary .price').first().innerText(), /30\.00/);
      const link = shopPage.getByRole('link', { name: 'Buy at the partner' });
      assert.equal(await link.getAttribute('href'), 'https://partner.example/lantern');
    });
  });
});

test('purchase rules and an up-sell set in the editor reach the product page', async () => {
  await shop.withPage({ viewport: DESKTOP, storageState: await manager() }, async (page) => {
    await page.goto('/wp-admin/products/new/');
    await page.getByLabel('Product name').fill('Tea Tin');
    await page.getByLabel('Status', { exact: true }).selectOption('publish');
    await page.getByLabel('Regular price (USD)').fill('6.00');
    await page.getByLabel('Minimum quantity').fill('2');
    await page.getByLabel('Maximum quantity').fill('7');
    await page.getByLabel('Sold in multiples of').fill('2');
    // An up-sell found by keyboard.
    await page.getByLabel('Find up-sells to add').fill('market tote');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Add Market Tote to the up-sells' }).click();
    await page.getByRole('button', { name: 'Create product' }).click();
    // The maximum is not a multiple of the step: refused at its field, which takes the focus.
    const max = page.getByLabel('Maximum quantity');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    assert.equal(await max.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.id), await max.getAttribute('id'));
    await assertAccessible(page, 'the editor with a refused quantity rule');
    await max.fill('8');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByText('Product created as published.').waitFor();
    await page.getByRole('list', { name: 'Up-sells of this product' }).getByText('Market Tote').waitFor();
    await assertAccessible(page, 'the editor with purchase rules and an up-sell');

    await shop.withPage({ viewport: DESKTOP }, async (shopPage) => {
      assert.equal((await shopPage.goto('/product/tea-tin/')).status(), 200);
      const qty = shopPage.locator('.summary form.cart').getByRole('spinbutton', { name: 'Quantity' });
      assert.equal(await qty.getAttribute('min'), '2');
      assert.equal(await qty.getAttribute('max'), '8');
      assert.equal(await qty.getAttribute('step'), '2');
      await shopPage.locator('.upsells').getByText('Market Tote').first().waitFor();
    });
  });
});

test('a customer is sent away from the admin and refused by its API', async () => {
  await shop.withPage({ viewport: DESKTOP, storageState: await session(shop, CUSTOMER) }, async (page) => {
    await page.goto('/wp-admin/products/');
    assert.match(new URL(page.url()).pathname, /^\/my-account\/$/);
    const nonce = (await page.content()).match(/"rest_nonce":"([0-9a-f]{10})"/)?.[1];
    assert.ok(nonce, 'the customer has a REST nonce');
    const answer = await page.evaluate(async (n) => {
      const r = await fetch('/wp-json/wc/v3/products', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-WP-Nonce': n },
        body: JSON.stringify({ name: 'Sneaky' }),
      });
      return { status: r.status, body: await r.json() };
    }, nonce);
    assert.equal(answer.status, 403);
    assert.equal(answer.body.code, 'rest_forbidden');
  });
});
