// The variation form and swatches (spec sections 4, 5, 8, 9) in a real
// browser against the real binary: Everyday Hoodie (variations embedded) and
// Classic Tee (36 variations: get_variation).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { useShop, withoutErrors } from './server.mjs';

const HOODIE = '/product/everyday-hoodie/';
const TEE = '/product/classic-tee/';
const NO_MATCH = 'Sorry, no products matched your selection. Please choose a different combination.';
const RESET = 'Your selection has been reset. Please select some product options before adding this product to your cart.';
const UNAVAILABLE = 'Sorry, this product is unavailable. Please choose a different combination.';
const SELECT = 'Please select some product options before adding this product to your cart.';

const shop = useShop();

/** A page at 1280×900 unless options say otherwise, which must see no console or page error. */
const withPage = (fn, options = {}) => shop.withPage({ viewport: { width: 1280, height: 900 }, ...options }, withoutErrors(fn));

/** Open a product page and wait for the swatches (they appear once the app has hydrated). */
async function open(page, path) {
  await page.goto(path);
  const form = page.locator('form.variations_form');
  await form.getByRole('radiogroup', { name: 'Color' }).waitFor();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' }); // the swatches work once the page has hydrated
  return {
    form,
    color: (name) => form.getByRole('radiogroup', { name: 'Color' }).getByRole('radio', { name, exact: true }),
    size: (name) => form.getByRole('radiogroup', { name: 'Size' }).getByRole('radio', { name: new RegExp(`^${name}( \\(Out of stock\\))?$`) }),
    button: form.locator('button.single_add_to_cart_button'),
  };
}

test('Everyday Hoodie: colour + size show price, SKU, image; the button is enabled', async () => {
  await withPage(async (page) => {
    const { form, color, size, button } = await open(page, HOODIE);
    assert.match(await button.getAttribute('class'), /disabled wc-variation-selection-needed/);
    const mainImg = page.locator('.product-gallery__main img');
    const before = await mainImg.getAttribute('src');
    await color('Black').click();
    // A colour alone switches the main image.
    await page.waitForFunction((b) => document.querySelector('.product-gallery__main img')?.getAttribute('src') !== b, before);
    assert.match(await mainImg.getAttribute('src'), /everyday-hoodie-5/);
    assert.equal((await form.locator('tr').first().locator('th').textContent()).trim(), 'Color: Black');
    await size('M').click();
    await form.locator('.single_variation.is-shown .woocommerce-variation-price .amount').waitFor();
    assert.match(await form.locator('.woocommerce-variation-price').textContent(), /\$68\.00/);
    assert.equal(await page.locator('.product_meta .sku').textContent(), 'HOOD-EVERYDAY-BLACK-M');
    assert.doesNotMatch(await button.getAttribute('class'), /disabled/);
    assert.equal(await form.locator('input.variation_id').inputValue() !== '0', true);
    assert.equal(await form.locator('select[name="attribute_pa_size"]').inputValue(), 'm', 'the hidden select follows');
    assert.equal(new URL(page.url()).search, '?attribute_pa_color=black&attribute_pa_size=m');
  });
});

test('Olive is a pre-order: label "Pre-order now" and the date; another colour restores the label', async () => {
  await withPage(async (page) => {
    const { form, color, size, button } = await open(page, HOODIE);
    await color('Olive').click();
    await size('L').click();
    await page.waitForFunction(() => document.querySelector('.single_add_to_cart_button')?.textContent === 'Pre-order now');
    const time = form.locator('.pre-order-availability time');
    await time.waitFor();
    assert.match(await time.getAttribute('datetime'), /^\d{4}-\d\d-\d\dT/);
    assert.ok((await time.textContent()).length > 5, 'a formatted date');
    await color('Black').click();
    await page.waitForFunction(() => document.querySelector('.single_add_to_cart_button')?.textContent === 'Add to cart');
    assert.equal(await form.locator('.pre-order-availability').count(), 0);
    assert.doesNotMatch(await button.getAttribute('class'), /disabled/);
  });
});

test('Clear resets the choice and announces it; disabled clicks alert', async () => {
  await withPage(async (page) => {
    const dialogs = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    const { form, color, size, button } = await open(page, HOODIE);
    await button.click({ force: true }); // aria-disabled: Playwright would wait for it to be enabled
    assert.deepEqual(dialogs, [SELECT]);
    await color('Forest').click();
    await size('S').click();
    await form.getByRole('link', { name: 'Clear' }).click();
    await page.waitForFunction((t) => document.querySelector('form.variations_form [role="status"].screen-reader-text')?.textContent === t, RESET);
    assert.match(await button.getAttribute('class'), /wc-variation-selection-needed/);
    assert.equal(await color('Forest').getAttribute('aria-checked'), 'false');
    assert.equal(await form.locator('.single_variation.is-shown').count(), 0);
    assert.equal(new URL(page.url()).search, '');

    // An unavailable variation (Navy XS of the Classic Tee is out of stock).
    // Its swatch is crossed out as soon as Navy is chosen (the page carries
    // each variation's stock status), so a shared link selects it.
    const tee = await open(page, `${TEE}?attribute_pa_color=navy&attribute_pa_size=xs`);
    const xs = tee.size('XS');
    await page.waitForFunction(() => document.querySelector('.single_add_to_cart_button')?.classList.contains('wc-variation-is-unavailable'));
    await tee.button.click({ force: true });
    assert.deepEqual(dialogs, [SELECT, UNAVAILABLE]);
    // Now known: crossed out with a tooltip, and not clickable.
    assert.match(await xs.getAttribute('class'), /no-stock/);
    const tip = await xs.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') || '')?.textContent);
    assert.equal(tip, 'Out of stock');
    assert.equal(await xs.getAttribute('aria-disabled'), 'true');
    assert.match(await tee.form.locator('.woocommerce-variation-availability').textContent(), /Out of stock/i);
  });
});

test('Classic Tee: get_variation is asked only when every attribute has a value', async () => {
  await withPage(async (page) => {
    const bodies = [];
    page.on('request', (r) => {
      if (r.url().includes('wc-ajax=get_variation')) bodies.push(r.postData());
    });
    const { form, color, size, button } = await open(page, TEE);
    await color('Rust').click();
    await page.waitForTimeout(300);
    assert.deepEqual(bodies, [], 'no request with a colour alone');
    const answered = page.waitForResponse((r) => r.url().includes('wc-ajax=get_variation'));
    await size('XXL').click();
    const res = await answered;
    assert.equal(res.request().method(), 'POST');
    assert.deepEqual(bodies, [`product_id=${await form.getAttribute('data-product_id')}&attribute_pa_color=rust&attribute_pa_size=xxl`]);
    await form.locator('.stock-left-hint').waitFor();
    assert.equal(await form.locator('.stock-left-hint').textContent(), 'Only 3 left');
    assert.doesNotMatch(await button.getAttribute('class'), /disabled/);
  });
});

test('no match shows the notice (get_variation answering false)', async () => {
  await withPage(async (page) => {
    await page.route('**/?wc-ajax=get_variation', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json; charset=UTF-8', body: 'false' }),
    );
    const { form, color, size, button } = await open(page, TEE);
    await color('Chalk').click();
    await size('M').click();
    await form.getByText(NO_MATCH).waitFor();
    assert.match(await button.getAttribute('class'), /wc-variation-selection-needed/);
    await size('L').click(); // another answer (also false) keeps it; Clear hides it
    await form.getByRole('link', { name: 'Clear' }).click();
    await form.getByText(NO_MATCH).waitFor({ state: 'detached' });
  });
});

test('keyboard only: Tab to the colour radio group, arrows select, Space selects', async () => {
  await withPage(async (page) => {
    const { form, color, size } = await open(page, HOODIE);
    await page.locator('.summary .product_title').click(); // start just before the form
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.getAttribute('role') === 'radio')) break;
    }
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-value')), 'black', 'the first colour');
    assert.ok(
      await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle !== 'none'),
      'visible focus',
    );
    await page.keyboard.press('ArrowRight');
    assert.equal(await color('Heather grey').getAttribute('aria-checked'), 'true');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await color('Black').getAttribute('aria-checked'), 'true');
    await page.keyboard.press('Tab'); // into the size group
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-value')), 'xs');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press(' ');
    assert.equal(await size('S').getAttribute('aria-checked'), 'true');
    await form.locator('.single_variation.is-shown').waitFor();
  });
});

test('a shared URL opens with that variation selected', async () => {
  await withPage(async (page) => {
    await page.goto(`${TEE}?attribute_pa_color=navy&attribute_pa_size=m`);
    const form = page.locator('form.variations_form');
    await form.locator('.single_variation.is-shown').waitFor();
    const checked = await form.locator('[role="radio"][aria-checked="true"]').evaluateAll((els) => els.map((e) => e.dataset.value));
    assert.deepEqual(checked, ['navy', 'm']);
    assert.equal(await page.locator('.product_meta .sku').textContent(), 'TEE-CLASSIC-NAVY-M');
    assert.equal(new URL(page.url()).search, '?attribute_pa_color=navy&attribute_pa_size=m');
  });
});

test('axe: no serious or critical violations on the product page with a selection', async () => {
  await withPage(async (page) => {
    const { form, color, size } = await open(page, HOODIE);
    await color('Forest').click();
    await size('M').click();
    await form.locator('.single_variation.is-shown').waitFor();
    await page.waitForLoadState('networkidle');
    await assertAccessible(page, 'the variation form with a choice made');
  });
});
