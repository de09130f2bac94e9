// Accounts for the browser tests: registering and logging in through the
// storefront's own forms on /my-account/, and staff or customers made with
// the binary's CLI whose logged-in session a test file reuses.
import { createUser } from './server.mjs';

/** Opens /my-account/ and fills the login form, without sending it. */
export async function fillLogin(page, email, password) {
  await page.goto('/my-account/');
  await page.locator('#username').fill(email);
  await page.locator('#password').fill(password);
}

/** Logs in through the login form on /my-account/ and waits for the dashboard's greeting. */
export async function logIn(page, email, password) {
  await fillLogin(page, email, password);
  await Promise.all([page.waitForURL(/\/my-account\/$/), page.locator('button.woocommerce-form-login__submit').click()]);
  await page.getByText('Hello').waitFor();
}

/**
 * Registers through the registration form, then logs in: new or taken, an
 * address gets the same answer and nobody is logged in by registering.
 */
export async function register(page, email, password) {
  await page.goto('/my-account/');
  await page.locator('#reg_email').fill(email);
  await page.locator('#reg_password').fill(password);
  await Promise.all([page.waitForURL(/\/my-account\/$/), page.locator('button[name=register]').click()]);
  await page.getByText('If you are new here, your account is ready').waitFor();
  await page.locator('#username').fill(email);
  await page.locator('#password').fill(password);
  await page.locator('button[name=login]').click();
  await page.getByText('Hello').waitFor();
}

/**
 * Creates the account ({ email, password, role }) with the CLI and logs it
 * in through the login form in a fresh context of the shop (useShop's) with
 * the given options. Answers the context (the caller closes it) and its page.
 */
export async function loggedIn(shop, account, options = {}) {
  createUser(shop.server, account);
  const context = await shop.context(options);
  try {
    const page = await context.newPage();
    await logIn(page, account.email, account.password);
    return { context, page };
  } catch (err) {
    await context.close();
    throw err;
  }
}

const sessions = new WeakMap(); // shop -> (email -> storage state)

/**
 * The storage state of the account's logged-in session, for newContext's
 * storageState: made once per shop and account by loggedIn, then reused.
 */
export async function session(shop, account) {
  if (!sessions.has(shop)) sessions.set(shop, new Map());
  const known = sessions.get(shop);
  if (!known.has(account.email)) {
    const { context } = await loggedIn(shop, account, { viewport: { width: 1280, height: 900 } });
    try {
      known.set(account.email, await context.storageState());
    } finally {
      await context.close();
    }
  }
  return known.get(account.email);
}
