// Sticky add-to-cart bar: appears once the add-to-cart form is scrolled past,
// leaves when it comes back; hidden from keyboard and assistive technology
// while hidden; its button brings a variable product's shopper to the form.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useShop } from './server.mjs';
import { assertUsable, WIDTHS } from './visible.mjs';

const shop = useShop();

/** A page at 1280×800 unless options say otherwise. */
const withPage = (fn, options = {}) => shop.withPage({ viewport: { width: 1280, height: 800 }, ...options }, fn);

const BAR = 'section.sticky-add-to-cart';

/** Open a product page and wait until the bar is mounted (after hydration). */
async function open(page, path) {
  await page.goto(path);
  await page.locator(BAR).waitFor({ state: 'attached' });
}

async function barState(page) {
  return page.locator(BAR).evaluate((el) => ({
    visible: el.classList.contains('is-visible'),
    inert: el.hasAttribute('inert'),
    ariaHidden: el.getAttribute('aria-hidden'),
  }));
}

async function waitShown(page, shown) {
  await page.waitForFunction(
    ([sel, want]) => {
      const el = document.querySelector(sel);
      return !!el && el.classList.contains('is-visible') === want && el.hasAttribute('inert') === !want;
    },
    [BAR, shown],
  );
}

test('the bar appears after scrolling past the form and leaves when scrolling back', async () => {
  await withPage(async (page) => {
    await open(page, '/product/everyday-crew-socks/');
    assert.deepEqual(await barState(page), { visible: false, inert: true, ariaHidden: 'true' }, 'hidden at the top');
    assert.equal(await page.getByRole('region', { name: /^Add to cart: / }).count(), 0, 'not in the accessibility tree while hidden');

    // Scroll until the form is above the viewport.
    await page.locator('.woocommerce-tabs').scrollIntoViewIfNeeded();
    await page.evaluate(() => {
      const form = document.querySelector('.summary form.cart');
      window.scrollBy(0, form.getBoundingClientRect().bottom + 50);
    });
    await waitShown(page, true);
    const bar = page.getByRole('region', { name: 'Add to cart: Everyday Crew Socks' });
    assert.equal(await bar.isVisible(), true);
    assert.equal(await bar.getByRole('button', { name: 'Add to cart' }).isVisible(), true);
    assert.match(await bar.locator('.price').textContent(), /\$9\.00/);
    assert.equal(await bar.locator('img').count(), 1, 'the product thumbnail');
    // Settled at the bottom of the viewport.
    await page.waitForFunction(
      (sel) => Math.abs(document.querySelector(sel).getBoundingClientRect().bottom - window.innerHeight) < 2,
      BAR,
    );

    await page.evaluate(() => window.scrollTo(0, 0));
    await waitShown(page, false);
    assert.deepEqual(await barState(page), { visible: false, inert: true, ariaHidden: 'true' });
    await page.locator(BAR).waitFor({ state: 'hidden' }); // after its slide-out
  });
});

test('the bar is not shown while the form is still below the fold (small screen)', async () => {
  await withPage(
    async (page) => {
      await open(page, '/product/everyday-crew-socks/');
      await page.evaluate(() => window.scrollTo(0, 10));
      await page.waitForTimeout(200);
      assert.equal((await barState(page)).visible, false);
    },
    { viewport: { width: 375, height: 500 } },
  );
});

test('Tab skips the hidden bar', async () => {
  await withPage(async (page) => {
    await open(page, '/product/everyday-crew-socks/');
    // Its add button and its wishlist heart.
    const buttons = page.locator(`${BAR} button`);
    assert.equal(await buttons.count(), 2);
    for (const button of await buttons.all()) {
      const focusable = await button.evaluate((el) => {
        el.focus();
        return document.activeElement === el;
      });
      assert.equal(focusable, false, 'an inert bar cannot take focus');
    }
  });
});

test('"Select options" on a variable product scrolls back and focuses the form', async () => {
  await withPage(async (page) => {
    await open(page, '/product/classic-tee/');
    await page.evaluate(() => {
      const form = document.querySelector('.summary form.cart');
      window.scrollBy(0, form.getBoundingClientRect().bottom + 400);
    });
    await waitShown(page, true);
    await page.getByRole('region', { name: 'Add to cart: Classic Tee' }).getByRole('button', { name: 'Select options' }).click();
    await page.waitForFunction(() => !!document.activeElement?.closest('form.variations_form'));
    // The first colour swatch (the swatches drive the hidden select).
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('role')), 'radio');
    await waitShown(page, false);
  });
});

test('"Add to cart" on a simple product submits the real form with its quantity', async () => {
  await withPage(async (page) => {
    await open(page, '/product/everyday-crew-socks/');
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    // Catch the submission instead of posting it.
    await page.evaluate(() => {
      const form = document.querySelector('.summary form.cart');
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        const fd = new FormData(form, e.submitter);
        window.__submitted = Object.fromEntries(fd.entries());
      });
    });
    await page.evaluate(() => {
      const form = document.querySelector('.summary form.cart');
      window.scrollBy(0, form.getBoundingClientRect().bottom + 400);
    });
    await waitShown(page, true);
    await page.getByRole('region', { name: /^Add to cart: / }).getByRole('button', { name: 'Add to cart' }).click();
    const sent = await page.waitForFunction(() => window.__submitted).then((h) => h.jsonValue());
    assert.equal(sent.quantity, '4');
    assert.ok(sent['add-to-cart'], 'submitted by the real add-to-cart button');
  });
});

// A full choice, then the bar: it adds the chosen variation through the
// form's own button, the mini cart opens with focus inside, and its Checkout
// link is on screen and uncovered; closing gives focus back to the bar.
for (const [size, viewport] of WIDTHS) {
  test(`at ${size} after Black / L the bar adds the variation; the mini cart takes focus and shows Checkout`, async () => {
    await withPage(
      async (page) => {
        const adds = [];
        page.on('request', (r) => r.url().includes('wc-ajax=add_to_cart') && adds.push(new URLSearchParams(r.postData() || '')));
        await open(page, '/product/classic-tee/');
        const choose = async (group, name) => {
          const radio = page.getByRole('radiogroup', { name: group }).getByRole('radio', { name, exact: true });
          await assertUsable(radio, `the ${name} swatch`);
          await radio.click();
        };
        await choose('Color', 'Black');
        await choose('Size', 'L');
        // The Classic Tee has more variations than a page embeds: the match
        // comes from a get_variation call.
        await page
          .waitForFunction(() => {
            const id = document.querySelector('form.variations_form input.variation_id');
            return id && id.value !== '' && id.value !== '0';
          })
          .catch(() => {});
        const variation = await page.locator('form.variations_form input.variation_id').inputValue();
        assert.notEqual(variation, '0', 'the form matched a variation');
        await page.evaluate(() => {
          const form = document.querySelector('.summary form.cart');
          window.scrollBy(0, form.getBoundingClientRect().bottom + 400);
        });
        await waitShown(page, true);
        const bar = page.getByRole('region', { name: 'Add to cart: Classic Tee' });
        const button = bar.getByRole('button', { name: 'Add to cart' });
        await assertUsable(button, 'the sticky bar button', { scroll: false });
        await button.click();
        await page.waitForFunction(() => document.querySelector('.header-cart .cart-count')?.textContent === '1');
        assert.equal(adds.length, 1, 'one ajax add');
        assert.equal(adds[0].get('product_id'), variation, 'the chosen variation was added');

        const narrow = viewport.width < 850;
        const mini = narrow ? page.getByRole('dialog', { name: 'Cart' }) : page.getByRole('region', { name: 'Cart contents' });
        await mini.waitFor();
        await page.waitForFunction(
          (sel) => !!document.activeElement?.closest(sel),
          narrow ? 'dialog.mini-cart-drawer' : '#mini-cart-panel',
        );
        const checkout = mini.getByRole('link', { name: 'Checkout' });
        await assertUsable(checkout, 'the mini cart Checkout link', { scroll: false });
        await page.keyboard.press('Escape');
        await page.waitForFunction(() => document.activeElement?.classList.contains('sticky-add-to-cart__button'));
      },
      { viewport },
    );
  });
}
