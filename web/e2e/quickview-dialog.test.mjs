// Quick view on product cards: a native modal <dialog>, by keyboard and mouse, with an axe scan while open.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';

const shop = useShop();

async function openShop(page) {
  await page.goto('/shop/');
  await page.locator('ul.products button.quick-view').first().waitFor();
}

test('keyboard: Enter on "Quick view" opens the dialog with focus inside; Escape closes and focus returns', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await openShop(page);
    const card = page.locator('ul.products > li.product').nth(1);
    const name = (await card.locator('.woocommerce-loop-product__title a').textContent()).trim();
    const button = card.getByRole('button', { name: /^Quick view/ });
    await button.focus();
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog', { name });
    await dialog.waitFor();
    assert.equal(await page.evaluate(() => document.querySelector('dialog.quickview-dialog')?.open), true);
    assert.equal(await page.evaluate(() => !!document.activeElement?.closest('dialog')), true, 'focus is inside the dialog');
    await dialog.getByRole('link', { name: 'View full details' }).waitFor();
    assert.ok((await dialog.locator('.price .amount').count()) > 0, 'price shown');
    assert.ok((await dialog.locator('form.cart').count()) === 1, 'cart form shown');
    assert.equal(await dialog.getByRole('button', { name: 'Close' }).count(), 1);

    // The page behind is inert: Tab never reaches it (after the dialog's last
    // control the shop.browser's own UI may take focus, which leaves body active).
    let visitedInside = 0;
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab');
      const where = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return 'shop.browser';
        return el.closest('dialog') ? 'dialog' : 'page:' + el.outerHTML.slice(0, 80);
      });
      assert.ok(where === 'dialog' || where === 'shop.browser', `Tab ${i + 1} stays out of the page behind (${where})`);
      if (where === "dialog") visitedInside++;
    }
    assert.ok(visitedInside >= 10, 'Tab cycles through the dialog');

    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('dialog.quickview-dialog'));
    const back = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.classList.contains('quick-view') ? el.closest('li.product')?.querySelector('.woocommerce-loop-product__title a')?.textContent : null;
    });
    assert.equal(back?.trim(), name, "focus returned to the card's Quick view button");
    assert.deepEqual(problems, []);
  });
});

test('mouse: the slider moves, Close button closes after the removal delay, focus returns', async () => {
  await shop.withPage(async (page) => {
    await openShop(page);
    const card = page.locator('ul.products > li.product').first();
    const button = card.getByRole('button', { name: /^Quick view/ });
    await button.click();
    const dialog = page.locator('dialog.quickview-dialog');
    await dialog.getByRole('link', { name: 'View full details' }).waitFor();
    const next = dialog.getByRole('button', { name: 'Next' });
    if ((await next.count()) > 0) {
      const src = await dialog.locator('.quickview__slide img').getAttribute('src');
      await next.click();
      await page.waitForFunction((s) => document.querySelector('.quickview__slide img')?.getAttribute('src') !== s, src);
      await dialog.getByRole('button', { name: 'Previous' }).click();
      await page.waitForFunction((s) => document.querySelector('.quickview__slide img')?.getAttribute('src') === s, src);
    }
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.waitForFunction(() => !document.querySelector('dialog.quickview-dialog'));
    assert.equal(await button.evaluate((el) => el === document.activeElement), true);
  });
});

test('a variable product shows the variation form', async () => {
  await shop.withPage(async (page) => {
    await openShop(page);
    const card = page.locator('ul.products > li.product.product-type-variable').first();
    await card.getByRole('button', { name: /^Quick view/ }).click();
    const dialog = page.locator('dialog.quickview-dialog');
    await dialog.locator('form.variations_form').waitFor();
    assert.ok((await dialog.locator('table.variations select').count()) > 0);
  });
});

test('axe: no serious or critical violations with the quick view open', async () => {
  await shop.withPage({ viewport: { width: 1280, height: 900 } }, async (page) => {
    await openShop(page);
    await page.locator('ul.products > li.product').first().getByRole('button', { name: /^Quick view/ }).click();
    await page.locator('dialog.quickview-dialog').getByRole('link', { name: 'View full details' }).waitFor();
    await page.waitForTimeout(400); // the opening animation
    await assertAccessible(page, 'the open quick view');
  });
});
