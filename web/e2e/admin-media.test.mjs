// The media library (issue 15) in a real browser against the real binary: a
// shop manager (made with the CLI, logged in through the login form)
// uploads a real JPEG through the screen's file input, sees it uploaded and
// its sizes made by the server (and the files served), drops a second one
// on the upload zone, edits its alt text,
// has an SVG refused with the error in the upload's row, and deletes the
// image after the confirmation; axe scans the library, the image's details
// and the confirmation dialog.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loggedIn } from './accounts.mjs';
import { assertAccessible } from './axe.mjs';
import { useShop } from './server.mjs';

const shop = useShop();

const MANAGER = { email: 'mia.manager@example.com', password: 'a long passphrase for the media tests', role: 'shop_manager' };

/**
 * An image drawn by the browser's canvas, width×height, with full-height
 * bands of colour ([left, width, colour]; the rest stays transparent),
 * encoded as type; answers its bytes.
 */
async function drawImage(page, { width, height, bands, type, quality }) {
  const b64 = await page.evaluate(
    async ({ width, height, bands, type, quality }) => {
      const c = document.createElement('canvas');
      c.width = width;
      c.height = height;
      const g = c.getContext('2d');
      for (const [left, w, colour] of bands) {
        g.fillStyle = colour;
        g.fillRect(left, 0, w, height);
      }
      const blob = await new Promise((resolve) => c.toBlob(resolve, type, quality));
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    },
    { width, height, bands, type, quality },
  );
  return Buffer.from(b64, 'base64');
}

/** A 1400×700 JPEG: red on the left, blue on the right. */
const photo = (page) =>
  drawImage(page, { width: 1400, height: 700, bands: [[0, 700, '#dc2626'], [700, 700, '#1d4ed8']], type: 'image/jpeg', quality: 0.9 });

test('upload a photo through the library, see its sizes, edit and delete it', async () => {
  const { context, page } = await loggedIn(shop, MANAGER, { viewport: { width: 1280, height: 900 } });
  try {
    await page.goto('/wp-admin/media/');
    await page.getByRole('heading', { level: 1, name: 'Media' }).waitFor();
    await page.getByText('images.').or(page.getByText('No images yet')).first().waitFor();
    await assertAccessible(page, 'the media library');

    // The file input is the keyboard's way in: it is labelled and focusable.
    const input = page.getByLabel('Upload images');
    await input.focus();
    assert.equal(await input.evaluate((el) => el === document.activeElement), true, 'the file input takes focus');
    await input.setInputFiles([
      { name: 'Red and blue.jpg', mimeType: 'image/jpeg', buffer: await photo(page) },
      // Named and typed as an image; its content is markup: refused by the server.
      { name: 'kitten.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>') },
    ]);
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await uploads.getByText('Uploaded.').waitFor();
    await uploads.getByText(/file type is not permitted/).waitFor();

    // Dropped files take the same way: a transparent PNG, dropped on the zone.
    const logo = await drawImage(page, { width: 800, height: 400, bands: [[0, 400, '#15803d']], type: 'image/png' });
    await page.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'dropped logo.png', { type: 'image/png' }));
      const zone = document.querySelector('[data-testid="media-drop"]');
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, logo.toString('base64'));
    await uploads.getByRole('listitem').filter({ hasText: 'dropped logo.png' }).getByText('Uploaded.').waitFor();
    await page.getByRole('button', { name: /dropped logo/ }).waitFor();

    // The new image is in the library; its details list the sizes the server made.
    const tile = page.getByRole('button', { name: /Red and blue/ });
    await tile.click();
    const heading = page.getByRole('heading', { name: 'Image: Red and blue' });
    await heading.waitFor();
    assert.equal(await heading.evaluate((el) => el === document.activeElement), true, 'focus on the details');
    const sizes = page.getByRole('list', { name: 'Sizes' });
    for (const [name, dims] of [['medium', '300×150'], ['woocommerce_single', '600×300'], ['large', '1200×600'], ['full', '1400×700']]) {
      await sizes.getByRole('listitem').filter({ hasText: name }).filter({ hasText: dims }).waitFor();
    }
    const large = await sizes.getByRole('link', { name: /^large/ }).getAttribute('href');
    const res = await page.request.get(large);
    assert.equal(res.status(), 200);
    assert.equal(res.headers()['content-type'], 'image/jpeg');
    assert.equal(res.headers()['x-content-type-options'], 'nosniff');
    const body = await res.body();
    assert.equal(body.includes(Buffer.from('Exif')), false, 'no metadata in the served size');
    // The preview is served with a srcset of the sizes and has loaded.
    const preview = page.locator('.media-details__preview img');
    assert.match(await preview.getAttribute('srcset'), /-1200x600\.jpg 1200w/);
    await page.waitForFunction(() => document.querySelector('.media-details__preview img')?.naturalWidth > 0);
    await assertAccessible(page, "an image's details");

    // Alt text, saved and announced.
    await page.getByLabel('Alt text').fill('Two halves, red and blue');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved the details of “Red and blue”.').waitFor();

    // Delete, after the confirmation (whose first focus is Cancel).
    await page.getByRole('button', { name: 'Delete permanently' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete “Red and blue”?' });
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement), true);
    await assertAccessible(page, 'the delete confirmation');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').getByText('Deleted “Red and blue”.').waitFor();
    await tile.waitFor({ state: 'detached' });
    assert.equal((await page.request.get(large)).status(), 404, 'the sizes are deleted with the image');
  } finally {
    await context.close();
  }
});
