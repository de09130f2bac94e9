// A shopper's path through the real binary: home → shop → product.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';

const shop = useShop();

test('home → "Shop now" → product card → product page', async () => {
  await shop.withPage(async (page) => {
    await page.goto('/');
    assert.equal(new URL(page.url()).pathname, '/');

    await Promise.all([page.waitForURL((u) => u.pathname === '/shop/'), page.getByRole('link', { name: 'Shop now' }).click()]);
    await page.locator('main h1').waitFor();

    const titles = page.locator('ul.products > li.product.type-product .woocommerce-loop-product__title a');
    await titles.first().waitFor();
    const count = await titles.count();
    assert.ok(count >= 3, `the shop lists product cards (found ${count})`);
    assert.equal(await page.locator('ul.products > li.product.type-product .price .amount').first().isVisible(), true);

    const second = titles.nth(1);
    const name = (await second.textContent()).trim();
    const href = await second.getAttribute('href');
    assert.ok(name.length > 0, 'the card has a product name');
    assert.match(href, /^\/product\/[a-z0-9-]+\/$/);

    await Promise.all([page.waitForURL((u) => u.pathname === href), second.click()]);
    assert.match(new URL(page.url()).pathname, /^\/product\/[a-z0-9-]+\/$/);
    const h1 = page.locator('main h1');
    assert.equal((await h1.textContent()).trim(), name, 'the product page h1 is the clicked product');
    const price = await page.locator('.summary .price .amount').first().textContent();
    assert.match(price.trim(), /^\$\d{1,3}(,\d{3})*\.\d{2}$/, `the product page shows a price (got ${JSON.stringify(price)})`);
  });
});

test('home → category tile → category listing → product page', async () => {
  await shop.withPage(async (page) => {
    await page.goto('/');
    const tile = page.locator('main .category-tiles a.category-tile').first();
    const tileHref = await tile.getAttribute('href');
    assert.match(tileHref, /^\/product-category\/[a-z0-9-]+(\/[a-z0-9-]+)*\/$/);

    await Promise.all([page.waitForURL((u) => u.pathname === tileHref), tile.click()]);
    const cards = page.locator('ul.products > li.product.type-product');
    await cards.first().waitFor();
    assert.ok((await cards.count()) >= 1, 'the category lists product cards');

    const link = cards.first().locator('.woocommerce-loop-product__title a');
    const name = (await link.textContent()).trim();
    const href = await link.getAttribute('href');
    await Promise.all([page.waitForURL((u) => u.pathname === href), link.click()]);
    assert.match(new URL(page.url()).pathname, /^\/product\/[a-z0-9-]+\/$/);
    assert.equal((await page.locator('main h1').textContent()).trim(), name);
    assert.match((await page.locator('.summary .price').textContent()).trim(), /\$\d+\.\d{2}/);
  });
});

test('product page → a tag link → the tag archive', async () => {
  await shop.withPage(async (page) => {
    await page.goto('/product/classic-tee/');
    const tag = page.locator('.product_meta .tagged_as a[rel="tag"]').first();
    const label = (await tag.textContent()).trim();
    await Promise.all([page.waitForURL((u) => u.pathname.startsWith('/product-tag/')), tag.click()]);
    const path = new URL(page.url()).pathname;
    assert.match(path, /^\/product-tag\/[a-z0-9-]+\/$/);
    assert.equal((await page.locator('main h1').textContent()).trim(), `Products tagged “${label}”`);
    const cards = page.locator('ul.products > li.product.type-product');
    await cards.first().waitFor();
    assert.ok((await cards.count()) >= 1, 'the tag archive lists product cards');
    assert.equal(await page.locator('link[rel="canonical"]').getAttribute('href'), new URL(path, shop.server.baseURL).href);
  });
});

test('phone header: the search button opens the search box (375×812)', async () => {
  await shop.withPage({ viewport: { width: 375, height: 812 } }, async (page) => {
    await page.goto('/shop/');
    const button = page.getByRole('button', { name: 'Search products' });
    await button.waitFor({ state: 'visible' });
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' }); // the button works once the page has hydrated
    const box = await button.boundingBox();
    assert.ok(box && box.width >= 24 && box.height >= 24, 'the button is visible and large enough');
    const onTop = await page.evaluate(([x, y]) => {
      const el = document.elementFromPoint(x, y);
      return !!el && !!el.closest('button.search-toggle');
    }, [box.x + box.width / 2, box.y + box.height / 2]);
    assert.ok(onTop, 'nothing covers the search button');
    await button.click();
    const field = page.locator('#mobile-search input[name="s"]');
    await field.waitFor({ state: 'visible' });
    assert.equal(await field.evaluate((el) => el === document.activeElement), true, 'the focus is in the search field');
    await page.keyboard.press('Escape');
    await field.waitFor({ state: 'hidden' });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
  });
});
