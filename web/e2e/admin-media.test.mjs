// The media library (issue 15) in a real browser against the real binary: a
// shop manager (made with the CLI, logged in through the login form)
// uploads a real JPEG through the screen's file input, sees it uploaded and
// its sizes made by the server (and the files served), drops a second one
// on the upload zone, edits its alt text,
// has an SVG refused with the error in the upload's row, and deletes the
// image after the confirmation; axe scans the library, the image's details
// and the confirmation dialog.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { BINARY, newContext, useShop } from './server.mjs';
import { seriousViolations } from './checkout-helpers.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-admin-media-'));
const DB = `sqlite:${path.join(dir, 'media.db')}`;
after(() => rmSync(dir, { recursive: true, force: true }));

// A later --db wins over server.mjs's own: the test knows the store's path and can add the manager.
const shop = useShop({ args: ['--db', DB] });

const MANAGER = 'mia.manager@example.com';
const PASSWORD = 'a long passphrase for the media tests';

async function managerPage() {
  const made = spawnSync(BINARY, ['--db', DB, '--log-level', 'warn', 'user', 'create', '--email', MANAGER, '--role', 'shop_manager', '--password-stdin'], {
    input: `${PASSWORD}\n`,
    encoding: 'utf8',
  });
  assert.equal(made.status, 0, `user create: ${made.stderr}`);
  const context = await newContext(shop.browser, shop.server.baseURL, { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto('/my-account/');
  await page.locator('#username').fill(MANAGER);
  await page.locator('#password').fill(PASSWORD);
  await Promise.all([page.waitForURL(/\/my-account\/$/), page.locator('button.woocommerce-form-login__submit').click()]);
  await page.getByText('Hello').waitFor();
  return { context, page };
}

async function scan(page, label) {
  const results = await new AxeBuilder({ page }).analyze();
  assert.ok(results.passes.length > 0, 'axe ran its rules');
  assert.deepEqual(seriousViolations(results), [], `axe on ${label}`);
}

/** A 1400×700 JPEG drawn by the browser: red on the left, blue on the right. */
async function photo(page) {
  const b64 = await page.evaluate(async () => {
    const c = document.createElement('canvas');
    c.width = 1400;
    c.height = 700;
    const g = c.getContext('2d');
    g.fillStyle = '#dc2626';
    g.fillRect(0, 0, 700, 700);
    g.fillStyle = '#1d4ed8';
    g.fillRect(700, 0, 700, 700);
    const blob = await new Promise((resolve) => c.toBlob(resolve, 'image/jpeg', 0.9));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s);
  });
  return Buffer.from(b64, 'base64');
}

test('upload a photo through the library, see its sizes, edit and delete it', async () => {
  const { context, page } = await managerPage();
  try {
    await page.goto('/wp-admin/media/');
    await page.getByRole('heading', { level: 1, name: 'Media' }).waitFor();
    await page.getByText('images.').or(page.getByText('No images yet')).first().waitFor();
    await scan(page, 'the media library');

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
    await page.evaluate(async () => {
      const c = document.createElement('canvas');
      c.width = 800;
      c.height = 400;
      const g = c.getContext('2d');
      g.fillStyle = '#15803d';
      g.fillRect(0, 0, 400, 400);
      const blob = await new Promise((resolve) => c.toBlob(resolve, 'image/png'));
      const dt = new DataTransfer();
      dt.items.add(new File([blob], 'dropped logo.png', { type: 'image/png' }));
      const zone = document.querySelector('[data-testid="media-drop"]');
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
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
    await scan(page, "an image's details");

    // Alt text, saved and announced.
    await page.getByLabel('Alt text').fill('Two halves, red and blue');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved the details of “Red and blue”.').waitFor();

    // Delete, after the confirmation (whose first focus is Cancel).
    await page.getByRole('button', { name: 'Delete permanently' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete “Red and blue”?' });
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement), true);
    await scan(page, 'the delete confirmation');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').getByText('Deleted “Red and blue”.').waitFor();
    await tile.waitFor({ state: 'detached' });
    assert.equal((await page.request.get(large)).status(), 404, 'the sizes are deleted with the image');
  } finally {
    await context.close();
  }
});
