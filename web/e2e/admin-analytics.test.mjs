// The admin's analytics screens in a real browser against the real binary:
// a shop manager (made with the CLI) places orders through the shop's REST
// API, then picks a range and a comparison (the choice in the address),
// sorts and pages a report's table, downloads its CSV and finds the table's
// rows in it, walks a chart's points with the arrow keys (each said in the
// live region), and every report screen passes axe. What is clicked is
// hit-tested first. A last test loads the dashboard on a phone at 4× CPU:
// its first links and its chart must come and be usable there; the time
// they took is reported, never asserted.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { session } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { useShop, withoutErrors } from './server.mjs';
import { assertUsable, PHONE } from './visible.mjs';

const shop = useShop();

const STAFF = { email: 'ana.analytics@example.com', password: 'a long passphrase for the analytics tests', role: 'shop_manager' };
const DESKTOP = { width: 1280, height: 900 };
const REPORTS = ['revenue', 'orders', 'products', 'variations', 'categories', 'coupons', 'taxes', 'stock', 'customers'];
const ORDERS = 28; // more than a page (25) of the orders report

function withPage(state, fn, viewport = DESKTOP) {
  return shop.withPage({ viewport, storageState: state }, withoutErrors(fn));
}

/** Places n paid orders, the fewest each product may be bought of, through the REST API with the page's nonce. */
async function placeOrders(page, n) {
  await page.goto('/wp-admin/');
  return page.evaluate(async (count) => {
    const nonce = await (await fetch('/wp-admin/admin-ajax.php?action=rest-nonce')).text();
    const headers = { 'X-WP-Nonce': nonce, 'Content-Type': 'application/json' };
    const products = await (await fetch('/wp-json/wc/store/v1/products?per_page=20&type=simple', { headers })).json();
    const billing = { first_name: 'Ann', last_name: 'Bee', email: 'ann.bee@example.com', country: 'US', state: 'CA', postcode: '95814', city: 'Sacramento', address_1: '1 Main St' };
    const ids = [];
    for (let i = 0; i < count; i++) {
      const p = products[i % products.length];
      const res = await fetch('/wp-json/wc/v3/orders', {
        method: 'POST',
        headers,
        body: JSON.stringify({ payment_method: 'bacs', set_paid: true, billing, line_items: [{ product_id: p.id, quantity: p.add_to_cart?.minimum || 1 }] }),
      });
      if (res.status !== 201) throw new Error(`order ${i}: ${res.status} ${await res.text()}`);
      ids.push((await res.json()).id);
    }
    return ids;
  }, n);
}

/** The text of each cell of each row of the report's table. */
function tableRows(page, name) {
  return page.getByRole('table', { name }).evaluate((t) => [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent.trim())));
}

/** A CSV file's rows (quoted cells may hold commas and quotes). */
function parseCSV(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell), rows.push(row), (row = []), (cell = '');
    } else cell += ch;
  }
  if (cell || row.length) row.push(cell), rows.push(row);
  return rows;
}

const money = (s) => Number(s.replace(/[^0-9.-]/g, ''));

let staff;
let placed = [];

test('staff pick a range and a comparison, kept in the address', async () => {
  staff = await session(shop, STAFF);
  await withPage(staff, async (page) => {
    placed = await placeOrders(page, ORDERS);
    assert.equal(placed.length, ORDERS);
    await page.goto('/wp-admin/analytics/revenue/');
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    const picker = page.getByRole('form', { name: 'Report dates' });
    await assertUsable(picker.getByLabel('Date range'), 'the date range');
    await picker.getByLabel('Date range').selectOption('year');
    await picker.getByLabel('Compare with').selectOption('previous_period');
    const update = picker.getByRole('button', { name: 'Update' });
    await assertUsable(update, 'Update');
    await update.click();
    await page.waitForURL(/period=year&compare=previous_period/);
    const now = await picker.locator('.an-range__now').innerText();
    assert.match(now, /^Jan 1, \d{4} – .+ compared with .+$/);
    // The chart: this year's net sales, the previous period dashed.
    const chart = page.getByRole('group', { name: /^Net sales\. Use the arrow keys/ });
    await chart.waitFor();
    assert.match(await page.locator('.an-chart__summary').innerText(), /^Net sales over \d+ intervals?: \$[\d,.]+ in all/);
    // Reloaded, the report keeps the range.
    await page.reload();
    assert.equal(await page.getByRole('form', { name: 'Report dates' }).getByLabel('Date range').inputValue(), 'year');
    assert.equal(await page.getByRole('form', { name: 'Report dates' }).getByLabel('Compare with').inputValue(), 'previous_period');
    // The totals follow the orders just placed: today's revenue table has their count.
    await page.goto('/wp-admin/analytics/revenue/?period=today&interval=day');
    const rows = await (async () => {
      await page.getByRole('table', { name: 'Revenue report' }).locator('tbody tr th').first().waitFor();
      return tableRows(page, 'Revenue report');
    })();
    assert.equal(rows.length, 1, 'one day');
    assert.equal(rows[0][1], String(ORDERS), 'the orders placed today');
  });
});

test('a report table sorts and pages, and its CSV download holds the table', async () => {
  await withPage(staff, async (page) => {
    await page.goto('/wp-admin/analytics/orders/?period=today');
    const table = page.getByRole('table', { name: 'Orders report' });
    await table.locator('tbody tr th').first().waitFor();
    assert.equal((await tableRows(page, 'Orders report')).length, 25);
    await page.getByText(`${ORDERS} orders.`).waitFor();

    // Sort by net sales, largest first, then smallest first.
    const sort = table.getByRole('button', { name: /^Net sales/ });
    await assertUsable(sort, 'the Net sales sort');
    await sort.click();
    await page.waitForURL(/orderby=net_total&order=desc/);
    await page.waitForFunction(() => document.querySelector('th[aria-sort="descending"]')?.textContent?.startsWith('Net sales'));
    await page.waitForFunction(() => !document.querySelector('tbody[aria-busy]'));
    const desc = (await tableRows(page, 'Orders report')).map((r) => money(r.at(-1)));
    assert.deepEqual(desc, [...desc].sort((a, b) => b - a), 'largest first');
    await sort.click();
    await page.waitForURL(/orderby=net_total&order=asc/);
    await page.waitForFunction(() => document.querySelector('th[aria-sort="ascending"]')?.textContent?.startsWith('Net sales'));
    await page.waitForFunction(() => !document.querySelector('tbody[aria-busy]'));
    const asc = await tableRows(page, 'Orders report');
    assert.deepEqual(asc.map((r) => money(r.at(-1))), [...asc.map((r) => money(r.at(-1)))].sort((a, b) => a - b), 'smallest first');

    // The second page has the rest.
    const next = page.getByRole('button', { name: 'Next page' });
    await assertUsable(next, 'Next page');
    await next.click();
    await page.waitForURL(/paged=2/);
    await page.getByText('Page 2 of 2').waitFor();
    await page.waitForFunction(() => !document.querySelector('tbody[aria-busy]'));
    const second = await tableRows(page, 'Orders report');
    assert.equal(second.length, ORDERS - 25);

    // The CSV: every order, in the table's order (page 1, then page 2).
    const download = page.getByRole('button', { name: 'Download CSV' });
    await assertUsable(download, 'Download CSV');
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    await page.getByText(`Downloaded ${ORDERS} orders as CSV.`).waitFor();
    assert.match(file.suggestedFilename(), /\.csv$/);
    const csv = parseCSV(await readFile(await file.path(), 'utf8'));
    const head = csv[0];
    const number = head.indexOf('order_number');
    const net = head.indexOf('net_total');
    assert.ok(number >= 0 && net >= 0, `the CSV's columns: ${head.join(',')}`);
    const body = csv.slice(1);
    assert.equal(body.length, ORDERS);
    const shown = [...asc, ...second];
    assert.deepEqual(
      body.map((r) => [r[number], Number(r[net])]),
      shown.map((r) => [r[1], money(r.at(-1))]),
      'the CSV has the table’s orders and amounts, in its order',
    );
  });
});

test('a chart is walked with the arrow keys, each point said', async () => {
  await withPage(staff, async (page) => {
    // The last seven days by day, whatever day today is.
    const day = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const today = new Date();
    const from = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 6);
    await page.goto(`/wp-admin/analytics/revenue/?period=custom&after=${day(from)}&before=${day(today)}&interval=day`);
    const chart = page.getByRole('group', { name: /^Net sales\. Use the arrow keys/ });
    await chart.waitFor();
    // Settled: the report's table loaded and no chart loading again (a
    // reload shows "Loading the chart…" in its place, and Tab would pass it).
    await page.waitForFunction(() => !document.querySelector('tbody[aria-busy]') && !/Loading/.test(document.querySelector('.admin-list-status')?.textContent ?? '') && !document.querySelector('.an-chart--loading'));
    // Tab from the Chart select reaches the chart.
    await page.getByLabel('Chart', { exact: true }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await chart.evaluate((el) => el === document.activeElement), true, 'the chart has focus');
    const said = page.locator('[data-chart-announce]');
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.querySelector('[data-chart-announce]')?.textContent !== '');
    const last = await said.innerText();
    assert.match(last, /^[A-Z][a-z]{2} \d{1,2}, \d{4}: \$[\d,.]+; previous year [A-Z][a-z]{2} \d{1,2}, \d{4}: \$[\d,.]+$/);
    // Today is the last point, with today's sales.
    assert.ok(money(last.split(';')[0].split(': ')[1]) > 0, `today's sales: ${last}`);
    // The point's label is shown too, inside the chart (it lets the pointer through, so it is not hit-tested).
    const tip = page.locator('.an-chart__tip');
    assert.equal(await tip.innerText(), last);
    const [tipBox, plotBox] = [await tip.boundingBox(), await chart.boundingBox()];
    assert.ok(tipBox.x >= plotBox.x - 0.5 && tipBox.x + tipBox.width <= plotBox.x + plotBox.width + 0.5, `the label ${JSON.stringify(tipBox)} inside the chart ${JSON.stringify(plotBox)}`);
    await page.keyboard.press('Home');
    await page.waitForFunction((t) => document.querySelector('[data-chart-announce]')?.textContent !== t, last);
    const first = await said.innerText();
    const points = await page.locator('.an-chart__data tbody tr').count();
    assert.equal(points, 7);
    assert.notEqual(first, last);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((t) => document.querySelector('[data-chart-announce]')?.textContent !== t, first);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((t) => document.querySelector('[data-chart-announce]')?.textContent === t, first);
    // The numbers are there as a table, too.
    await page.getByText('Net sales: the numbers').click();
    assert.equal(await page.getByRole('table', { name: 'Net sales' }).locator('tbody tr').count(), points);
  });
});

test('every analytics screen passes axe', async () => {
  await withPage(staff, async (page) => {
    await page.goto('/wp-admin/');
    await page.getByRole('group', { name: /^Net sales\. Use the arrow keys/ }).waitFor();
    await page.getByRole('heading', { name: 'Leaderboards' }).waitFor();
    await assertAccessible(page, 'the dashboard with its numbers');
    await page.goto('/wp-admin/analytics/');
    await page.getByRole('heading', { name: 'Performance' }).waitFor();
    await assertAccessible(page, 'the analytics overview');
    for (const r of REPORTS) {
      await page.goto(`/wp-admin/analytics/${r}/`);
      await page.getByRole('heading', { name: / in detail$/ }).waitFor();
      await page.locator('.an-chart__plot').waitFor();
      await page.waitForFunction(() => !document.querySelector('tbody[aria-busy]') && !/Loading/.test(document.querySelector('.admin-list-status')?.textContent ?? ''));
      await assertAccessible(page, `the ${r} report`);
    }
    await page.goto('/wp-admin/analytics/settings/');
    await page.getByLabel('Time zone').waitFor();
    await assertAccessible(page, 'the analytics settings');
  });
});

test('the dashboard on a phone at 4x CPU: its links and chart come and are usable (time reported, not asserted)', async (t) => {
  staff ??= await session(shop, STAFF);
  await withPage(
    staff,
    async (page) => {
      const cdp = await page.context().newCDPSession(page);
      await page.goto('/wp-admin/'); // warm: the files cached, as on a second visit
      await page.getByRole('group', { name: /^Net sales/ }).waitFor();
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const times = [];
      for (let i = 0; i < 3; i++) {
        const t0 = Date.now();
        await page.goto('/wp-admin/', { waitUntil: 'commit' });
        // Interactive: the dashboard's own links answer (its first screen), and then the numbers' chart.
        await page.getByRole('link', { name: /orders? to process$/ }).waitFor();
        const todo = Date.now() - t0;
        await page.getByRole('group', { name: /^Net sales/ }).waitFor();
        times.push({ todo, chart: Date.now() - t0 });
      }
      const nav = await page.evaluate(() => {
        const e = performance.getEntriesByType('navigation')[0];
        return { domInteractive: Math.round(e.domInteractive), domContentLoaded: Math.round(e.domContentLoadedEventEnd) };
      });
      t.diagnostic(`dashboard at 4x CPU, 375×812: ${JSON.stringify(times)} ${JSON.stringify(nav)}`);
      console.log(`# dashboard at 4x CPU, 375×812: ${JSON.stringify(times)} navigation ${JSON.stringify(nav)}`);
      await assertUsable(page.getByRole('link', { name: /orders? to process$/ }), 'the first dashboard link on a phone');
      const chart = page.getByRole('group', { name: /^Net sales/ });
      const box = await chart.boundingBox();
      assert.ok(box && box.width > 0 && box.width <= 375, `the chart fits the phone: ${JSON.stringify(box)}`);
    },
    PHONE,
  );
});
