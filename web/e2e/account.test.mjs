// Accounts in a real browser against the real binary (one server for the
// file): register, log out and in (keyboard only), a wrong password,
// two-factor set up from the security page and a login with the code (the
// code computed here from the secret the page shows), "remember this
// device", the registration's "Message to Support" overlay, a guest cart
// merged into the customer's at login, and axe scans of every account
// page and overlay.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { fillLogin, register } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { holdRequests, useShop } from './server.mjs';
import { acceptTerms, addToCart, bankTitle, countryKinds, fillBilling, openCheckout, orderReceived } from './checkout-helpers.mjs';
import { assertUsable, WIDTHS } from './visible.mjs';

// Every test registers from 127.0.0.1: the per-address registration
// limit (internal/server tests cover it) is off here.
const shop = useShop({ args: ['--register-rate-limit', '0'] });
const PASSWORD = 'a long passphrase for the tests';

/** RFC 6238 code (SHA-1, 6 digits, 30 s) for a base32 secret at time t (ms). */
function totp(secret, t = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of secret.replace(/=+$/, '').toUpperCase()) {
    const v = alphabet.indexOf(ch);
    assert.ok(v >= 0, `base32 character ${ch}`);
    bits += v.toString(2).padStart(5, '0');
  }
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(t / 1000 / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const off = mac[mac.length - 1] & 0xf;
  const n = (mac.readUInt32BE(off) & 0x7fffffff) % 1_000_000;
  return String(n).padStart(6, '0');
}

let seq = 0;
function email() {
  seq += 1;
  return `shopper${seq}.${Date.now()}@example.com`;
}

async function logOut(page) {
  await page.goto('/my-account/');
  await Promise.all([
    page.waitForURL(/\/my-account\/$/),
    page.locator('.woocommerce-MyAccount-navigation-link--customer-logout a').click(),
  ]);
  await page.locator('#username').waitFor();
}

test('register, see the dashboard, log out, log in again with the keyboard only', async () => {
  await shop.withPage(async (page, context) => {
    const address = email();
    await page.goto('/my-account/');
    await assertAccessible(page, 'login and registration page');
    await register(page, address, PASSWORD);
    const cookies = await context.cookies();
    const login = cookies.find((c) => c.name.startsWith('wordpress_logged_in_'));
    assert.ok(login, 'a login cookie');
    assert.equal(login.httpOnly, true);
    assert.equal(login.sameSite, 'Lax');
    await assertAccessible(page, 'dashboard');
    await logOut(page);
    assert.equal((await context.cookies()).some((c) => c.name.startsWith('wordpress_logged_in_')), false, 'logged out');

    // Keyboard only: focus the user name, type, Tab to the password, Enter.
    await page.goto('/my-account/');
    await page.locator('#username').focus();
    await page.keyboard.type(address);
    await page.keyboard.press('Tab');
    await expectFocused(page, '#password');
    await page.keyboard.type(PASSWORD);
    await Promise.all([page.waitForURL(/\/my-account\/$/), page.keyboard.press('Enter')]);
    await page.getByText('Hello').waitFor();
  });
});

async function expectFocused(page, selector) {
  const focused = await page.evaluate((sel) => document.activeElement === document.querySelector(sel), selector);
  assert.ok(focused, `${selector} has the focus`);
}

/**
 * expectFocused for a page the server answered: its markup (an aria-invalid
 * field) is there before the app has hydrated, and the focus only after, so
 * wait for the focus (at most 5 s) before asserting it.
 */
async function expectFocusedAfterHydration(page, selector) {
  await page
    .waitForFunction((sel) => document.activeElement === document.querySelector(sel), selector, { timeout: 5000 })
    .catch(() => {});
  await expectFocused(page, selector);
}

for (const [size, viewport] of WIDTHS) {
  test(`at ${size} the login form's fields and button are on screen and uncovered`, async () => {
    await shop.withPage({ viewport }, async (page) => {
      await page.goto('/my-account/');
      // The header's currency control is there (the demo sells in several currencies).
      await page.getByRole(viewport.width < 768 ? 'button' : 'combobox', { name: /^Currency/ }).waitFor();
      const login = page.locator('form.woocommerce-form-login');
      await assertUsable(login.locator('#username'), 'the user name field');
      await assertUsable(login.locator('#password'), 'the password field');
      await assertUsable(login.getByRole('button', { name: 'Log in' }), 'the Log in button');
    });
  });
}

for (const [size, viewport] of WIDTHS) {
  test(`at ${size} the logged-out My account page has side margins and its password inputs look like its other inputs`, async () => {
    await shop.withPage({ viewport }, async (page) => {
      await page.goto('/my-account/');
      const vw = await page.evaluate(() => document.documentElement.clientWidth);
      // The page container (ui/PageContainer.tsx): the forms are inset from both edges.
      for (const sel of ['#customer_login', 'form.woocommerce-form-login', 'form.woocommerce-form-register', '#reg_password']) {
        const box = await page.locator(sel).boundingBox();
        assert.ok(box, `${sel} is rendered`);
        assert.ok(box.x >= 12, `${sel} starts ${box.x}px from the left edge (at least 12)`);
        assert.ok(vw - (box.x + box.width) >= 12, `${sel} ends ${vw - (box.x + box.width)}px from the right edge (at least 12)`);
      }
      // The shop's input look (styles/main.css), not the browser's native box.
      const look = (sel) =>
        page.locator(sel).evaluate((el) => {
          const cs = getComputedStyle(el);
          const keys = ['border-top-width', 'border-top-style', 'border-top-color', 'border-left-width', 'border-top-left-radius', 'padding-top', 'padding-left', 'padding-right', 'padding-bottom', 'font-size', 'font-family', 'min-height'];
          return Object.fromEntries(keys.map((k) => [k, cs.getPropertyValue(k)]));
        });
      const email = await look('#reg_email');
      assert.notEqual(email['border-top-left-radius'], '0px', 'the shop input has rounded corners');
      assert.deepEqual(await look('#reg_password'), email, 'the registration password looks like the email input');
      assert.deepEqual(await look('#password'), await look('#username'), 'the login password looks like the user name input');
      assert.deepEqual(await look('#password'), email, 'both forms draw their inputs alike');
    });
  });
}

test('a wrong password shows the error above the form, announced, and logs nobody in', async () => {
  await shop.withPage(async (page, context) => {
    const address = email();
    await register(page, address, PASSWORD);
    await logOut(page);
    await fillLogin(page, address, 'not the password at all');
    await page.locator('button.woocommerce-form-login__submit').click();
    const notice = page.locator('#login-notices');
    await notice.getByText('The username or password you entered is incorrect.').waitFor();
    assert.equal(await notice.getAttribute('role'), 'alert', 'the notice is announced');
    assert.equal(page.url(), `${shop.server.baseURL}/my-account/`);
    assert.equal((await context.cookies()).some((c) => c.name.startsWith('wordpress_logged_in_')), false);
    await assertAccessible(page, 'login page with an error');
  });
});

test('two-factor: set up with the QR page, log in with a code, remember the device', async () => {
  await shop.withPage(async (page, context) => {
    const address = email();
    await register(page, address, PASSWORD);

    await page.goto('/my-account/security/');
    await assertAccessible(page, 'security page, two-factor off');
    // The setup starts only with the current password.
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secretEl = page.locator('#wfls-totp-secret');
    await secretEl.waitFor();
    const secret = await secretEl.getAttribute('data-secret');
    assert.match(secret, /^[A-Z2-7]+=*$/);
    assert.ok(await page.locator('img[src^="data:image/png"]').count(), 'the QR code');
    await assertAccessible(page, 'security page, setup');
    await page.locator('#wfls-confirm-code').fill(totp(secret));
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    const codes = page.locator('#wfls-recovery-codes');
    await codes.waitFor();
    assert.equal(await codes.locator('li').count(), 10, 'ten recovery codes');
    const recoveryA = (await codes.locator('li').first().textContent()).trim();
    const recoveryB = (await codes.locator('li').last().textContent()).trim();
    await assertAccessible(page, 'security page, recovery codes');

    // Log in again: the code overlay asks for the code.
    await logOut(page);
    await fillLogin(page, address, PASSWORD);
    await page.locator('button.woocommerce-form-login__submit').click();
    // The plugin's shape, and only once the code is asked for.
    const overlay = page.locator('div#wfls-prompt-overlay');
    await overlay.waitFor({ state: 'visible' });
    assert.equal(await page.locator('#wfls-prompt-overlay').count(), 1);
    assert.equal(await overlay.locator('div#wfls-prompt-wrapper[role=dialog] input#wfls-token-submit[type=submit]').count(), 1);
    const token = page.locator('#wfls-token');
    assert.equal(await token.getAttribute('size'), '6');
    assert.equal(await token.getAttribute('autocomplete'), 'one-time-code');
    await expectFocused(page, '#wfls-token');
    await assertAccessible(page, 'two-factor overlay', { include: 'div#wfls-prompt-overlay' });
    // The code of the next step: the confirming code's step is spent, and
    // the window accepts one step either side.
    await token.fill(totp(secret, Date.now() + 30_000));
    await page.locator('#wfls-remember-device').check();
    await Promise.all([page.waitForURL(/\/my-account\/$/), overlay.getByRole('button', { name: 'Log In' }).click()]);
    await page.getByText('Hello').waitFor();
    assert.ok((await context.cookies()).some((c) => c.name.startsWith('wfls-remembered-')), 'remember-device cookie');

    // The remembered device logs in without the code.
    await logOut(page);
    await fillLogin(page, address, PASSWORD);
    await Promise.all([page.waitForURL(/\/my-account\/$/), page.locator('button.woocommerce-form-login__submit').click()]);
    await page.getByText('Hello').waitFor();
    assert.equal(await overlay.count(), 0, 'no overlay on a remembered device');

    // The security page lists the device; forgetting it asks for the code again.
    await page.goto('/my-account/security/');
    await page.getByRole('button', { name: /^Forget / }).first().waitFor();
    await assertAccessible(page, 'security page, two-factor on with a device');
    await page.getByRole('button', { name: 'Forget all devices' }).click();
    await page.locator('#wfls-no-devices').waitFor();
    await logOut(page);
    assert.equal(await page.locator('#wfls-prompt-overlay').count(), 0, 'no prompt before the code is asked for');
    await fillLogin(page, address, PASSWORD);
    await page.locator('button.woocommerce-form-login__submit').click();
    await page.locator('div#wfls-prompt-overlay').waitFor({ state: 'visible' });
    // Escape closes the overlay and gives the focus back to the form.
    await page.keyboard.press('Escape');
    await page.locator('#wfls-prompt-overlay').waitFor({ state: 'detached' });

    // A recovery code stands in for the app at login.
    await page.locator('button.woocommerce-form-login__submit').click();
    await page.locator('div#wfls-prompt-overlay').waitFor({ state: 'visible' });
    await page.locator('#wfls-token').fill(recoveryA);
    await Promise.all([page.waitForURL(/\/my-account\/$/), page.locator('div#wfls-prompt-overlay').getByRole('button', { name: 'Log In' }).click()]);
    await page.getByText('Hello').waitFor();

    // Turning it off takes the password and a code (here a recovery code):
    // the password alone is refused, the code field marked and focused.
    await page.goto('/my-account/security/');
    let off = page.getByRole('form', { name: 'Turn off two-factor authentication' });
    await off.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await off.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    await page.locator('#wfls-disable-code[aria-invalid=true]').waitFor();
    await expectFocusedAfterHydration(page, '#wfls-disable-code');
    await assertAccessible(page, 'security page, turning off without a code');
    off = page.getByRole('form', { name: 'Turn off two-factor authentication' });
    await off.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await off.getByLabel('Code from your app, or a recovery code').fill(recoveryB);
    await off.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    await page.getByText('Two-factor authentication is off.', { exact: false }).first().waitFor();
  });
});

test('a Register pressed before the app has loaded is held, then sent through the bot-check once the page has hydrated', async () => {
  await shop.withPage(async (page) => {
    // The app's scripts arrive only when the test lets them: the press comes first.
    const release = await holdRequests(page, /\/assets\/.*\.js$/);
    const posts = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/my-account/') posts.push(r.postData() ?? '');
    });
    // A module script holds DOMContentLoaded back: wait for the form itself.
    await page.goto('/my-account/', { waitUntil: 'commit' });
    await page.locator('#reg_email').waitFor();
    await page.locator('#reg_email').fill(email());
    await page.locator('#reg_password').fill(PASSWORD);
    await page.locator('button[name=register]').click();
    await page.locator('form.register[data-held]').waitFor({ state: 'attached' });
    assert.equal(posts.length, 0, 'nothing is posted without the proof');
    release();
    await page.getByText('If you are new here, your account is ready').waitFor();
    assert.equal(posts.length, 1, 'one registration post');
    assert.match(posts[0], /wfls-captcha=[^&]+/, 'the post carries the bot-check proof');
  });
});

test('a registration the bot-check refuses offers the "Message to Support" overlay', async () => {
  await shop.withPage(async (page) => {
    // A bot's submit: the proof is stripped on its way to the server.
    await page.route('**/my-account/', async (route) => {
      const req = route.request();
      if (req.method() === 'POST' && (req.postData() || '').includes('register')) {
        const form = new URLSearchParams(req.postData());
        form.delete('wfls-captcha');
        await route.continue({ postData: form.toString() });
        return;
      }
      await route.continue();
    });
    await page.goto('/my-account/');
    // The submit held before hydration has its own test above.
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'));
    await page.locator('#reg_email').fill(email());
    await page.locator('#reg_password').fill(PASSWORD);
    await page.locator('button[name=register]').click();
    const contact = page.locator('a.wfls-registration-captcha-contact');
    await contact.waitFor({ timeout: 45_000 }); // the bot-check's proof is computed first, slow on a loaded machine
    // The refusal is a new page: the press may come before it hydrates,
    // and the overlay opens either way.
    await contact.click();
    const dialog = page.locator('dialog#wfls-support-overlay');
    await dialog.waitFor({ state: 'visible' });
    await assertAccessible(page, 'support overlay', { include: 'dialog#wfls-support-overlay' });
    await page.locator('#wfls-message').fill('I could not register; please help.');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await page.locator('#wfls-support-notices').getByText(/sent/i).waitFor();
    assert.equal(await page.locator('#wfls-message').isDisabled(), true, 'the message box is disabled after sending');
    assert.equal(await dialog.getByRole('button', { name: 'Send' }).isDisabled(), true, 'Send is disabled after sending');
  });
});

test("a guest's cart joins the customer's cart at login", async () => {
  await shop.withPage(async (page) => {
    const address = email();
    await register(page, address, PASSWORD);
    await logOut(page);
    // As a guest, add a product through the Store API the storefront uses.
    await page.goto('/shop/');
    const added = await page.evaluate(async () => {
      const products = await (await fetch('/wp-json/wc/store/v1/products?per_page=50')).json();
      const simple = products.find((p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock);
      const cart = await fetch('/wp-json/wc/store/v1/cart');
      const nonce = cart.headers.get('Nonce');
      const res = await fetch('/wp-json/wc/store/v1/cart/add-item', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Nonce: nonce },
        body: JSON.stringify({ id: simple.id, quantity: 2 }),
      });
      return { status: res.status, id: simple.id };
    });
    assert.equal(added.status, 201);
    await fillLogin(page, address, PASSWORD);
    await Promise.all([page.waitForURL(/\/my-account\/$/), page.locator('button.woocommerce-form-login__submit').click()]);
    const items = await page.evaluate(async () => (await (await fetch('/wp-json/wc/store/v1/cart')).json()).items);
    assert.deepEqual(
      items.map((i) => [i.id, i.quantity]),
      [[added.id, 2]],
      "the customer's cart holds the guest's lines",
    );
  });
});

test('axe: orders, addresses, account details, lost password, on a phone too', async () => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 812 },
  ]) {
    await shop.withPage({ viewport }, async (page) => {
      await page.goto('/my-account/lost-password/');
      await assertAccessible(page, `lost password at ${viewport.width}px`);
      await register(page, email(), PASSWORD);
      for (const path of ['/my-account/orders/', '/my-account/edit-address/', '/my-account/edit-address/billing/', '/my-account/edit-account/']) {
        await page.goto(path);
        await page.locator('.woocommerce-MyAccount-navigation').waitFor();
        await assertAccessible(page, `${path} at ${viewport.width}px`);
      }
      // The address form refuses bad input with messages tied to the fields.
      await page.goto('/my-account/edit-address/billing/');
      await page.locator('#billing_first_name').fill('');
      await page.locator('form').getByRole('button', { name: /save/i }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
      await assertAccessible(page, `address form with errors at ${viewport.width}px`);
    });
  }
});

test("a customer's order shows in the orders table and opens; axe on the order, verify-email and log-out pages", async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    await register(page, email(), PASSWORD);
    await page.goto('/my-account/verify-email/');
    await page.locator('h1').waitFor();
    await assertAccessible(page, 'verify-email page, pending');

    await addToCart(page);
    const data = await openCheckout(page);
    assert.equal(await page.locator('#createaccount').count(), 0, 'no "create an account" for a customer');
    await fillBilling(page, countryKinds(data).withStates);
    await page.getByRole('radio', { name: bankTitle(data) }).check();
    await acceptTerms(page);
    await page.getByRole('button', { name: 'Place order' }).click();
    await orderReceived(page);

    await page.goto('/my-account/orders/');
    const table = page.locator('.account-orders-scroll table');
    await table.waitFor();
    assert.equal(await table.locator('tbody tr').count(), 1, 'the order is listed');
    await assertAccessible(page, 'orders with an order');
    await Promise.all([page.waitForURL(/\/my-account\/view-order\/\d+\/$/), table.locator('a.view').first().click()]);
    await page.locator('.woocommerce-order-details').waitFor();
    await assertAccessible(page, 'one order');

    // A log-out link without its nonce asks first.
    await page.goto('/my-account/customer-logout/');
    await page.getByText('Are you sure you want to log out?').waitFor();
    await assertAccessible(page, 'log-out confirmation');
  });
});
