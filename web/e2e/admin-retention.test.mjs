// Data retention end to end against the real binary: a shop manager opens
// the Data retention screen from the admin menu, sets guest orders to be
// anonymised after six months by keyboard, saves, and reloads to find it
// kept; a period the shop cannot take is refused on its field. axe scans
// the screen.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loggedIn } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';
import { assertUsable } from './visible.mjs';

const shop = useShop();

const MANAGER = { email: 'rita.retention@example.com', password: 'a long passphrase for the retention tests', role: 'shop_manager' };
const VIEWPORT = { width: 1280, height: 900 };

test('staff set how long guest orders keep personal data', async () => {
  const admin = await loggedIn(shop, MANAGER, { viewport: VIEWPORT });
  try {
    const a = admin.page;
    const problems = [];
    a.on('pageerror', (e) => problems.push(e.message));
    await a.goto('/wp-admin/');
    await a.getByRole('navigation', { name: 'Shop admin' }).getByRole('link', { name: 'Data retention' }).click();
    await a.getByRole('heading', { level: 1, name: 'Data retention' }).waitFor();
    const guest = a.getByLabel(/^Remove personal data from guest orders after/);
    await guest.waitFor();
    assert.equal(await guest.inputValue(), '0', 'off by default');
    await a.getByText('No run yet').waitFor();
    await assertAccessible(a, 'the data retention screen');

    // A period the shop cannot take: refused on its field, which gets the keyboard.
    const inactive = a.getByLabel(/^Delete inactive customer accounts after/);
    await inactive.fill('5000');
    await a.getByRole('button', { name: 'Save data retention' }).click();
    await a.getByText('Use a number of months from 0 (keep for ever) to 1200.').first().waitFor();
    assert.equal(await inactive.evaluate((el) => el === document.activeElement), true, 'the refused field has the focus');
    await inactive.fill('0');

    // By keyboard: into the guest orders' field, a period, Enter saves.
    await guest.focus();
    await a.keyboard.press('Control+A');
    await a.keyboard.type('6');
    await a.keyboard.press('Enter');
    await a.getByRole('status').filter({ hasText: 'Data retention saved.' }).waitFor();
    await assertUsable(a.getByRole('button', { name: 'Save data retention' }), 'the save button');

    await a.reload();
    await a.getByRole('heading', { level: 1, name: 'Data retention' }).waitFor();
    assert.equal(await a.getByLabel(/^Remove personal data from guest orders after/).inputValue(), '6', 'the period is kept');
    assert.equal(await a.getByLabel(/^Delete cancelled and failed orders after/).inputValue(), '0');
    assert.deepEqual(problems, []);
  } finally {
    await admin.context.close();
  }
});
