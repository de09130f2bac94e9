import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, retype } from '../../test-utils';
import { editorLists, noViolations, setupEditorTests } from './editor-test-setup';
import { product, variation } from './fixtures';
import { saleDateGMT } from './types';

// The editor's sale schedule, external product and grouped product fields,
// and the variations' sale dates.

setupEditorTests();
const common = (method: string, url: string) => editorLists(method, url);

describe('the product editor, sales and product types', () => {
  it('schedules a sale, shows a refused end date on its field, and clears the dates with the sale price', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/7/');
    let puts = 0;
    const calls = stubFetch((method, url, body) => {
      const c = common(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/7') return { body: product({ sale_price: '8.00' }) };
      if (method === 'PUT') {
        puts++;
        if (puts === 1) return { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): date_on_sale_to', data: { status: 400, params: { date_on_sale_to: 'The sale must end after it starts.' } } } };
        const b = body as Record<string, string>;
        return { body: product({ sale_price: b.sale_price, date_on_sale_from_gmt: b.date_on_sale_from_gmt || null, date_on_sale_to_gmt: b.date_on_sale_to_gmt || null, version: 4 }) };
      }
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    const from = await screen.findByLabelText('Sale starts on', {}, { timeout: 5000 });
    const to = screen.getByLabelText('Sale ends on');
    expect(from).toHaveAttribute('type', 'date');
    await userEvent.type(from, '2026-12-10');
    await userEvent.type(to, '2026-12-01');
    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(to).toHaveAttribute('aria-invalid', 'true'));
    expect(to).toHaveFocus();
    expect(to).toHaveAccessibleDescription(/The sale must end after it starts\./);
    const first = calls.filter((c) => c.method === 'PUT')[0].body as Record<string, string>;
    expect(first.date_on_sale_from_gmt).toBe(saleDateGMT('2026-12-10', false));
    expect(first.date_on_sale_to_gmt).toBe(saleDateGMT('2026-12-01', true));
    await noViolations(container);

    await retype(to, '2026-12-20');
    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    expect(await screen.findByText('Product saved and published.')).toBeInTheDocument();
    expect(screen.getByLabelText('Sale ends on')).toHaveValue('2026-12-20');

    // No sale price, no schedule: the date fields go and the dates are cleared.
    await userEvent.clear(screen.getByLabelText('Sale price (USD)'));
    expect(screen.queryByLabelText('Sale starts on')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(3));
    const third = calls.filter((c) => c.method === 'PUT')[2].body as Record<string, string>;
    expect(third.date_on_sale_from_gmt).toBe('');
    expect(third.date_on_sale_to_gmt).toBe('');
  });

  it('edits an external product and refuses a bad URL on its field', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/7/');
    const calls = stubFetch((method, url, body) => {
      const c = common(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/7') return { body: product({ type: 'external', external_url: 'https://partner.example/a', button_text: '' }) };
      if (method === 'PUT') {
        const b = body as Record<string, string>;
        if (!b.external_url.startsWith('http')) return { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): external_url', data: { status: 400, params: { external_url: 'The product URL must start with http:// or https://.' } } } };
        return { body: product({ type: 'external', external_url: b.external_url, button_text: b.button_text, version: 4 }) };
      }
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    const url = await screen.findByLabelText('Product URL', {}, { timeout: 5000 });
    expect(url).toHaveValue('https://partner.example/a');
    await retype(url, 'javascript:alert(1)');
    await userEvent.type(screen.getByLabelText('Button text'), 'Buy at partner');
    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(url).toHaveAttribute('aria-invalid', 'true'));
    expect(url).toHaveFocus();
    await noViolations(container);
    await retype(url, 'https://partner.example/b{Enter}');
    expect(await screen.findByText('Product saved and published.')).toBeInTheDocument();
    const put = calls.filter((c) => c.method === 'PUT')[1].body as Record<string, string>;
    expect(put.external_url).toBe('https://partner.example/b');
    expect(put.button_text).toBe('Buy at partner');
  });

  it('picks a grouped product’s children by keyboard', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/9/');
    const calls = stubFetch((method, url, body) => {
      const c = common(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/9') return { body: product({ id: 9, name: 'Lamp Kit', type: 'grouped', grouped_products: [7] }) };
      if (method === 'GET' && url === '/wp-json/wc/v3/products/7') return { body: product() };
      if (method === 'GET' && url.startsWith('/wp-json/wc/v3/products?')) {
        return { body: [product({ id: 11, name: 'Lamp Shade' }), product({ id: 12, name: 'Lamp Set', type: 'variable' }), product({ id: 9, name: 'Lamp Kit', type: 'grouped' })] };
      }
      if (method === 'PUT') return { body: product({ id: 9, name: 'Lamp Kit', type: 'grouped', grouped_products: (body as { grouped_products: number[] }).grouped_products, version: 4 }) };
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    const group = await screen.findByRole('list', { name: 'Products in this group' }, { timeout: 5000 });
    expect(await within(group).findByText('Enamel Mug')).toBeInTheDocument();
    expect(screen.queryByText('You have unsaved changes.')).toBeNull();

    const search = screen.getByLabelText('Find products to add');
    search.focus();
    await userEvent.keyboard('lamp{Enter}');
    await waitFor(() => expect(screen.getByText('1 product found.')).toBeInTheDocument());
    expect(calls.some((c) => c.url.includes('search=lamp') && c.url.includes('status=publish'))).toBe(true);
    // Only simple and external products, never the product itself.
    const found = screen.getByRole('list', { name: 'Products found for the group' });
    expect(within(found).getAllByRole('listitem')).toHaveLength(1);
    await userEvent.tab(); // the Search button
    await userEvent.tab(); // the result's Add button
    expect(screen.getByRole('button', { name: 'Add Lamp Shade to the group' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByText('Added Lamp Shade.')).toBeInTheDocument();
    expect(search).toHaveFocus();
    await noViolations(container);

    await userEvent.click(screen.getByRole('button', { name: 'Remove Enamel Mug from the group' }));
    expect(screen.getByText('Removed Enamel Mug.')).toBeInTheDocument();
    expect(search).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    expect(await screen.findByText('Product saved and published.')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT')?.body as Record<string, unknown>;
    expect(put.grouped_products).toEqual([11]);
  });

  it('schedules a variation’s sale in the table', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/8/');
    const beanie = product({ id: 8, name: 'Wool Beanie', type: 'variable', version: 6 });
    const red = { ...variation(81, 'Red', '18.00'), sale_price: '15.00' };
    const calls = stubFetch((method, url) => {
      const c = common(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/8') return { body: beanie };
      if (method === 'GET' && url === '/wp-json/wc/v3/products/8/variations') return { body: [red, variation(82, 'Blue', '18.00')] };
      if (method === 'POST' && url.endsWith('/variations/batch')) return { body: { version: 7, updated: 1, deleted: 0, variations: [red, variation(82, 'Blue', '18.00')] } };
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    const starts = await screen.findByLabelText('Sale of Red starts on', {}, { timeout: 5000 });
    expect(screen.getByLabelText('Sale of Blue starts on')).toBeDisabled();
    await userEvent.type(starts, '2026-12-01');
    await userEvent.type(screen.getByLabelText('Sale of Red ends on'), '2026-12-24');
    await noViolations(container);
    await userEvent.click(screen.getByRole('button', { name: 'Save variations' }));
    expect(await screen.findByText('1 variation saved.')).toBeInTheDocument();
    const batch = calls.find((c) => c.url.endsWith('/batch'))?.body as { update: Record<string, unknown>[] };
    expect(batch.update).toHaveLength(1);
    expect(batch.update[0].date_on_sale_from_gmt).toBe(saleDateGMT('2026-12-01', false));
    expect(batch.update[0].date_on_sale_to_gmt).toBe(saleDateGMT('2026-12-24', true));
  });
});
