// Per-variation stock in the page data (products above the variation
// threshold): the Classic Tee's 36 variations are not embedded, yet choosing
// Navy crosses out XS at once, without a get_variation call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';

const shop = useShop();

test('Classic Tee: Navy crosses out XS at once; no get_variation until a full choice', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    const asked = [];
    page.on('request', (r) => r.url().includes('wc-ajax=get_variation') && asked.push(r.postData()));
    await page.goto('/product/classic-tee/');
    const form = page.locator('form.variations_form');
    assert.equal(await form.getAttribute('data-product_variations'), 'false', 'variations not embedded');
    const colors = form.getByRole('radiogroup', { name: 'Color' });
    const sizes = form.getByRole('radiogroup', { name: 'Size' });
    await colors.waitFor();
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' }); // the swatches work once the page has hydrated
    const xs = sizes.locator('[role="radio"][data-value="xs"]');
    assert.doesNotMatch(await xs.getAttribute('class'), /no-stock/, 'XS is in stock in other colours');

    await colors.getByRole('radio', { name: 'Navy', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('[role="radio"][data-value="xs"]')?.classList.contains('no-stock'));
    assert.equal(await xs.getAttribute('aria-disabled'), 'true');
    // Named XS, described "Out of stock" by its tooltip (ui/Tooltip.tsx).
    const described = await xs.evaluate((el) =>
      (el.getAttribute('aria-describedby') || '').split(' ').map((id) => document.getElementById(id)?.textContent).join(' '),
    );
    assert.equal(described, 'Out of stock');
    assert.equal(await xs.textContent(), 'XS');
    assert.equal(await form.locator('select[name="attribute_pa_size"] option[value="xs"]').isDisabled(), true);
    const s = sizes.locator('[role="radio"][data-value="s"]');
    assert.doesNotMatch(await s.getAttribute('class'), /no-stock|disabled/);
    await xs.click({ force: true }); // not clickable
    assert.equal(await xs.getAttribute('aria-checked'), 'false');
    // A visible line through the crossed-out swatch.
    const crossed = await xs.evaluate((el) => {
      const cs = getComputedStyle(el);
      const after = getComputedStyle(el, '::after');
      return cs.textDecorationLine.includes('line-through') || (after.content !== 'none' && after.content !== '');
    });
    assert.ok(crossed, 'XS is drawn crossed out');

    // Another colour: XS is back.
    await colors.getByRole('radio', { name: 'Rust', exact: true }).click();
    await page.waitForFunction(() => !document.querySelector('[role="radio"][data-value="xs"]')?.classList.contains('no-stock'));
    assert.deepEqual(asked, [], 'no get_variation for a partial choice');
    await s.click();
    await page.waitForFunction(() => document.querySelector('.single_variation.is-shown'));
    assert.equal(asked.length, 1, 'get_variation once the choice is complete');
  });
});
