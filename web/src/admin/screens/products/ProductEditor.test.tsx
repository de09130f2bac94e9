import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, setupAdminTests, retype } from '../../test-utils';
import { attributes, categories, product, variation } from './fixtures';

setupAdminTests({ scroll: true });

const images = [
  { id: 3, src: '/media/demo/mug.jpg', name: 'mug.jpg', alt: 'Mug' },
  { id: 9, src: '/media/demo/beanie.jpg', name: 'beanie.jpg', alt: 'Beanie' },
];

function common(method: string, url: string) {
  if (method !== 'GET') return undefined;
  if (url.startsWith('/wp-json/wc/v3/products/categories')) return { body: categories };
  if (url.startsWith('/wp-json/wc/v3/products/tags')) return { body: [{ id: 20, name: 'Gifts', slug: 'gifts', count: 2 }] };
  if (url.startsWith('/wp-json/wc/v3/products/attributes')) return { body: attributes };
  if (url.startsWith('/wp-json/vitrine/v1/admin/product-images')) return { body: images };
  return undefined;
}

describe('the product editor', () => {
  it('edits by keyboard alone, marks a refused field, and saves with the version it loaded', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/7/');
    let current = product();
    let puts = 0;
    const calls = stubFetch((method, url, body) => {
      const c = common(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/7') return { body: current };
      if (method === 'PUT' && url === '/wp-json/wc/v3/products/7') {
        puts++;
        const b = body as Record<string, unknown>;
        if (puts === 1) return { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): regular_price', data: { status: 400, params: { regular_price: 'abc is not a price.' } } } };
        current = product({ regular_price: String(b.regular_price), version: 4, categories: [categories[0], categories[1]].map(({ id, name, slug }) => ({ id, name, slug })) });
        return { body: current };
      }
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    const price = await screen.findByLabelText('Regular price (USD)', {}, { timeout: 5000 });
    expect(screen.getByRole('heading', { name: 'Edit “Enamel Mug”' })).toBeInTheDocument();

    // Keyboard only: focus moves with Tab, values are typed, Enter saves.
    price.focus();
    await userEvent.keyboard('{Control>}a{/Control}abc{Enter}');
    await waitFor(() => expect(price).toHaveAttribute('aria-invalid', 'true'));
    expect(price).toHaveFocus();
    expect(price).toHaveAccessibleDescription('abc is not a price.');
    expect(screen.getByRole('alert')).toHaveTextContent('Not saved: abc is not a price.');

    await userEvent.keyboard('{Control>}a{/Control}12.50');
    const hoodies = screen.getByRole('checkbox', { name: 'Hoodies' });
    hoodies.focus();
    await userEvent.keyboard(' ');
    const save = screen.getByRole('button', { name: 'Save product' });
    save.focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Product saved and published.')).toBeInTheDocument();
    const put = calls.filter((c) => c.method === 'PUT')[1].body as Record<string, unknown>;
    expect(put.version).toBe(3);
    expect(put.regular_price).toBe('12.50');
    expect(put.categories).toEqual([{ id: 4 }, { id: 5 }]);
    expect(put.images).toEqual([{ id: 3 }]);
  });

  it('refuses to overwrite a newer version, and reloads it on request', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/7/');
    let current = product();
    stubFetch((method, url) => {
      const c = common(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/7') return { body: current };
      if (method === 'PUT') {
        current = product({ name: 'Enamel Mug XL', version: 5 });
        return {
          status: 409,
          body: { code: 'vitrine_product_stale', message: 'This product was changed by someone else after you opened it, so your edit was not saved. Reload the product…', data: { status: 409, version: 5 } },
        };
      }
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    const name = await screen.findByLabelText(/Product name/, {}, { timeout: 5000 });
    await retype(name, 'My name');
    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    const alert = await screen.findByText(/someone else changed this product/);
    const box = alert.closest('[role="alert"]') as HTMLElement;
    await waitFor(() => expect(box).toHaveFocus());
    // My typing is still there until I choose to reload.
    expect(name).toHaveValue('My name');
    await userEvent.click(within(box).getByRole('button', { name: 'Reload the product' }));
    await waitFor(() => expect(screen.getByLabelText(/Product name/)).toHaveValue('Enamel Mug XL'));
    expect(screen.queryByText(/someone else changed this product/)).toBeNull();
    expect(screen.getByText(/Reloaded: the form shows the latest version/)).toBeInTheDocument();
  });

  it('creates a product and opens it', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/new/');
    const calls = stubFetch((method, url) => {
      const c = common(method, url);
      if (c) return c;
      if (method === 'POST' && url === '/wp-json/wc/v3/products') return { status: 201, body: product({ id: 42, name: 'Lamp', status: 'draft', version: 1 }) };
      if (method === 'GET' && url === '/wp-json/wc/v3/products/42') return { body: product({ id: 42, name: 'Lamp', status: 'draft', version: 1 }) };
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    await userEvent.type(await screen.findByLabelText(/Product name/, {}, { timeout: 5000 }), 'Lamp');
    await userEvent.selectOptions(screen.getByLabelText('Add an image from the media library'), '9');
    await userEvent.click(screen.getByRole('button', { name: 'Add image' }));
    expect(screen.getByText(/beanie\.jpg \(main image\)/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create product' }));
    expect(await screen.findByText('Product created as draft.')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/wp-admin/products/42/');
    const post = calls.find((c) => c.method === 'POST')?.body as Record<string, unknown>;
    expect(post.name).toBe('Lamp');
    expect(post.images).toEqual([{ id: 9 }]);
    expect(post.version).toBeUndefined();
  });

  it('generates variations and edits their prices in bulk', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/8/');
    const beanie = product({ id: 8, name: 'Wool Beanie', type: 'variable', version: 6, attributes: [{ id: 1, name: 'Color', slug: 'pa_color', position: 0, visible: true, variation: true, options: ['Red', 'Blue'] }] });
    const calls = stubFetch((method, url, body) => {
      const c = common(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/8') return { body: beanie };
      if (method === 'GET' && url === '/wp-json/wc/v3/products/8/variations') return { body: [] };
      if (method === 'POST' && url.endsWith('/variations/generate')) return { body: { count: 2, version: 7, variations: [variation(81, 'Red'), variation(82, 'Blue')] } };
      if (method === 'POST' && url.endsWith('/variations/batch')) {
        const b = body as { update: { id: number; regular_price: string }[] };
        return { body: { version: 8, updated: 2, deleted: 0, variations: b.update.map((u) => variation(u.id, u.id === 81 ? 'Red' : 'Blue', u.regular_price)) } };
      }
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Generate variations' }, { timeout: 5000 }));
    expect(await screen.findByText('2 variations added. Give them prices and save.')).toBeInTheDocument();
    expect(calls.find((c) => c.url.endsWith('/generate'))?.body).toEqual({ version: 6 });

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all variations' }));
    await userEvent.selectOptions(screen.getByLabelText('Bulk edit'), 'regular');
    await userEvent.type(screen.getByLabelText('Price (USD)'), '18');
    await userEvent.click(screen.getByRole('button', { name: 'Apply to 2 selected' }));
    expect(screen.getByLabelText('Regular price of Red')).toHaveValue('18');
    await userEvent.selectOptions(screen.getByLabelText('Bulk edit'), 'increase');
    await userEvent.clear(screen.getByLabelText('Percent'));
    await userEvent.type(screen.getByLabelText('Percent'), '10');
    await userEvent.click(screen.getByRole('button', { name: 'Apply to 2 selected' }));
    expect(screen.getByLabelText('Regular price of Blue')).toHaveValue('19.80');
    await userEvent.click(screen.getByRole('button', { name: 'Save variations' }));
    expect(await screen.findByText('2 variations saved.')).toBeInTheDocument();
    const batch = calls.find((c) => c.url.endsWith('/batch'))?.body as { version: number; update: { id: number; regular_price: string }[] };
    expect(batch.version).toBe(7);
    expect(batch.update.map((u) => u.regular_price)).toEqual(['19.80', '19.80']);

    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
