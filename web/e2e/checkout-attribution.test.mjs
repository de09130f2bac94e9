// Order attribution in the browser: a visit with UTM parameters sets the
// sbjs_* cookies, pages count within the session, and the checkout sends the
// values as wc_order_attribution_* inputs and as Store API extension data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';
import { acceptTerms, addToCart, bankTitle, countryKinds, fillBilling, openCheckout } from './checkout-helpers.mjs';

const shop = useShop();

function cookieRecord(cookies, name) {
  const c = cookies.find((x) => x.name === name);
  if (!c) return null;
  return Object.fromEntries(
    c.value.split('|||').map((part) => {
      const eq = part.indexOf('=');
      return [part.slice(0, eq), decodeURIComponent(part.slice(eq + 1))];
    }),
  );
}

test('a visit with UTM parameters is recorded in cookies and sent with the order', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page, context) => {
    await page.goto('/shop/?utm_source=e2e-news&utm_medium=email&utm_campaign=spring-launch&utm_content=hero');
    await page.waitForFunction(() => document.cookie.includes('sbjs_current='));
    let cookies = await context.cookies();
    assert.deepEqual(
      { ...cookieRecord(cookies, 'sbjs_current') },
      {
        typ: 'utm',
        src: 'e2e-news',
        mdm: 'email',
        cmp: 'spring-launch',
        cnt: 'hero',
        trm: '(none)',
        id: '(none)',
        plt: '(none)',
        fmt: '(none)',
        tct: '(none)',
      },
    );
    assert.equal(cookieRecord(cookies, 'sbjs_session').pgs, '1');
    assert.equal(cookieRecord(cookies, 'sbjs_udata').vst, '1');
    const session = cookies.find((c) => c.name === 'sbjs_session');
    const inMinutes = (session.expires * 1000 - Date.now()) / 60000;
    assert.ok(inMinutes > 25 && inMinutes <= 30.5, `the session cookie lasts 30 minutes (${inMinutes})`);
    for (const name of ['sbjs_current', 'sbjs_current_add', 'sbjs_first', 'sbjs_first_add', 'sbjs_udata']) {
      assert.ok(cookies.some((c) => c.name === name && c.path === '/'), name);
    }

    await addToCart(page);
    const data = await openCheckout(page);
    // The hidden classic-form inputs are filled from the cookies.
    await page.waitForFunction(() => document.querySelector('input[name="wc_order_attribution_source_type"]')?.value === 'utm');
    const inputs = await page.$$eval('input[name^="wc_order_attribution_"]', (els) => Object.fromEntries(els.map((e) => [e.name, e.value])));
    assert.equal(Object.keys(inputs).length, 16);
    assert.equal(inputs.wc_order_attribution_utm_source, 'e2e-news');
    assert.equal(inputs.wc_order_attribution_utm_campaign, 'spring-launch');
    assert.match(inputs.wc_order_attribution_session_entry, /\/shop\/\?utm_source=e2e-news/);
    assert.match(inputs.wc_order_attribution_session_start_time, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // /shop/ and /checkout/ at least (the cart page between may be left before its scripts ran).
    assert.ok(Number(inputs.wc_order_attribution_session_pages) >= 2, `pages ${inputs.wc_order_attribution_session_pages}`);
    assert.equal(inputs.wc_order_attribution_session_count, '1');
    assert.ok(inputs.wc_order_attribution_user_agent.length > 0);
    cookies = await context.cookies();
    assert.equal(cookieRecord(cookies, 'sbjs_first').src, 'e2e-news');

    await fillBilling(page, countryKinds(data).withStates);
    await page.getByRole('radio', { name: bankTitle(data) }).check();
    await acceptTerms(page);
    const request = page.waitForRequest((r) => r.url().endsWith('/wp-json/wc/store/v1/checkout') && r.method() === 'POST');
    const response = page.waitForResponse((r) => r.url().endsWith('/wp-json/wc/store/v1/checkout') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Place order' }).click();
    const ext = (await request).postDataJSON().extensions['woocommerce/order-attribution'];
    assert.equal(ext.source_type, 'utm');
    assert.equal(ext.utm_source, 'e2e-news');
    assert.equal(ext.utm_medium, 'email');
    assert.equal(ext.utm_campaign, 'spring-launch');
    assert.equal(ext.session_count, '1');
    assert.equal((await response).status(), 200, 'the order with its attribution is accepted');
    await page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/);
  });
});

test('with no UTM and no referrer the source is typein', async () => {
  await shop.withPage(async (page, context) => {
    await page.goto('/');
    await page.waitForFunction(() => document.cookie.includes('sbjs_current='));
    const cur = cookieRecord(await context.cookies(), 'sbjs_current');
    assert.equal(cur.typ, 'typein');
    assert.equal(cur.src, '(direct)');
  });
});
