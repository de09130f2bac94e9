import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, retype } from '../../test-utils';
import { editorLists, noViolations, setupEditorTests } from './editor-test-setup';
import { product, variation } from './fixtures';

// The editor's purchase rules (low-stock threshold, quantity rules, sold
// individually, tax), up-sells and cross-sells, and a variation's rules
// and pre-order in the variations table.

setupEditorTests();
const common = (method: string, url: string) => editorLists(method, url);

describe('the product editor, purchase rules and linked products', () => {
  it('edits the rules, refuses a typo before sending and a server refusal at its field, and saves', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/7/');
    let puts = 0;
    const calls = stubFetch((method, url, body) => {
      const c = common(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/7') {
        return { body: product({ manage_stock: true, stock_quantity: 9, low_stock_amount: 4, quantity_rules: { minimum: 2, maximum: 0, multiple_of: 0 } }) };
      }
      if (method === 'PUT') {
        puts++;
        if (puts === 1) {
          return {
            status: 400,
            body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): quantity_rules.maximum', data: { status: 400, params: { 'quantity_rules.maximum': 'The maximum cannot be below the minimum (2).' } } },
          };
        }
        const b = body as { quantity_rules: { minimum: number; maximum: number; multiple_of: number }; tax_status: 'none'; tax_class: 'zero-rate'; low_stock_amount: number | null };
        return { body: product({ manage_stock: true, stock_quantity: 9, quantity_rules: b.quantity_rules, tax_status: b.tax_status, tax_class: b.tax_class, low_stock_amount: b.low_stock_amount, version: 4 }) };
      }
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    const low = await screen.findByLabelText('Low stock threshold', {}, { timeout: 5000 });
    expect(low).toHaveValue('4');
    const min = screen.getByLabelText('Minimum quantity');
    const max = screen.getByLabelText('Maximum quantity');
    expect(min).toHaveValue('2');
    expect(max).toHaveValue('');
    await noViolations(container);

    // A typo is refused in the form: nothing is sent.
    await userEvent.type(max, '1x');
    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(max).toHaveAttribute('aria-invalid', 'true'));
    expect(max).toHaveFocus();
    expect(max).toHaveAccessibleDescription(/Enter a whole number, or leave it empty\./);
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    // The server's refusal shows at its field, which takes the focus.
    await retype(max, '1');
    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(max).toHaveAccessibleDescription(/The maximum cannot be below the minimum \(2\)\./));
    expect(max).toHaveFocus();
    expect((calls.find((c) => c.method === 'PUT')?.body as { quantity_rules: unknown }).quantity_rules).toEqual({ minimum: 2, maximum: 1, multiple_of: 0 });

    await retype(max, '12');
    await userEvent.type(screen.getByLabelText('Sold in multiples of'), '2');
    await userEvent.clear(low);
    await userEvent.selectOptions(screen.getByLabelText('Tax status'), 'none');
    await userEvent.selectOptions(screen.getByLabelText('Tax class'), 'zero-rate');
    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    expect(await screen.findByText('Product saved and published.')).toBeInTheDocument();
    const put = calls.filter((c) => c.method === 'PUT')[1].body as Record<string, unknown>;
    expect(put.quantity_rules).toEqual({ minimum: 2, maximum: 12, multiple_of: 2 });
    // An emptied threshold goes back to the shop's: null, not 0.
    expect(put.low_stock_amount).toBeNull();
    expect(put.tax_status).toBe('none');
    expect(put.tax_class).toBe('zero-rate');
    expect(put.sold_individually).toBe(false);

    // Sold individually replaces the quantity rules.
    await userEvent.click(screen.getByLabelText(/Sold individually/));
    expect(screen.queryByLabelText('Minimum quantity')).toBeNull();
  });

  it('adds an up-sell and a cross-sell by keyboard and sends their ids', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/7/');
    const calls = stubFetch((method, url, body) => {
      const c = common(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/7') return { body: product({ upsell_ids: [12] }) };
      if (method === 'GET' && url === '/wp-json/wc/v3/products/12') return { body: product({ id: 12, name: 'Lamp Set', type: 'variable' }) };
      if (method === 'GET' && url.startsWith('/wp-json/wc/v3/products?')) {
        return { body: [product({ id: 11, name: 'Lamp Shade' }), product({ id: 12, name: 'Lamp Set', type: 'variable' }), product({ id: 7, name: 'Enamel Mug' })] };
      }
      if (method === 'PUT') {
        const b = body as { upsell_ids: number[]; cross_sell_ids: number[] };
        return { body: product({ upsell_ids: b.upsell_ids, cross_sell_ids: b.cross_sell_ids, version: 4 }) };
      }
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    const ups = await screen.findByRole('list', { name: 'Up-sells of this product' }, { timeout: 5000 });
    expect(await within(ups).findByText('Lamp Set')).toBeInTheDocument();
    expect(screen.queryByText('You have unsaved changes.')).toBeNull();

    const search = screen.getByLabelText('Find up-sells to add');
    search.focus();
    await userEvent.keyboard('lamp{Enter}');
    // Any published product but the product itself and those already chosen.
    await waitFor(() => expect(screen.getByText('2 products found.')).toBeInTheDocument());
    const found = screen.getByRole('list', { name: 'Products found for the up-sells' });
    expect(within(found).getAllByRole('listitem')).toHaveLength(1);
    await userEvent.click(within(found).getByRole('button', { name: 'Add Lamp Shade to the up-sells' }));
    expect(search).toHaveFocus();

    const cross = screen.getByLabelText('Find cross-sells to add');
    cross.focus();
    await userEvent.keyboard('lamp{Enter}');
    await userEvent.click(await screen.findByRole('button', { name: 'Add Lamp Set to the cross-sells' }));
    expect(screen.getByText('Added Lamp Set.')).toBeInTheDocument();
    await noViolations(container);

    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    expect(await screen.findByText('Product saved and published.')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT')?.body as Record<string, unknown>;
    expect(put.upsell_ids).toEqual([12, 11]);
    expect(put.cross_sell_ids).toEqual([12]);
  });

  it('sets a variation’s pre-order and quantity rules in its details row', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/8/');
    const beanie = product({ id: 8, name: 'Wool Beanie', type: 'variable', version: 6 });
    const red = variation(81, 'Red', '18.00');
    const calls = stubFetch((method, url, body) => {
      const c = common(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/8') return { body: beanie };
      if (method === 'GET' && url === '/wp-json/wc/v3/products/8/variations') return { body: [red, variation(82, 'Blue', '18.00')] };
      if (method === 'POST' && url.endsWith('/variations/batch')) {
        const u = (body as { update: Record<string, unknown>[] }).update[0];
        const saved = { ...red, pre_order: true, pre_order_date_gmt: u.pre_order_date_gmt as string, pre_order_label: 'Pre-order now', quantity_rules: { minimum: 0, maximum: 2, multiple_of: 0 } };
        return { body: { version: 7, updated: 1, deleted: 0, variations: [saved, variation(82, 'Blue', '18.00')] } };
      }
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    const more = await screen.findByRole('button', { name: 'More of Red' }, { timeout: 5000 });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    const details = screen.getByRole('group', { name: 'Red: quantity rules and pre-order' });
    expect(more).toHaveAttribute('aria-controls', details.closest('tr')?.id);

    // A typo is named with its variation, and nothing is sent.
    await userEvent.type(within(details).getByLabelText('Maximum quantity'), 'two');
    await userEvent.click(screen.getByRole('button', { name: 'Save variations' }));
    expect(await screen.findByText('Red: the maximum quantity must be a whole number, or empty.', { selector: '.admin-field__error' })).toBeInTheDocument();
    expect(calls.some((c) => c.url.endsWith('/batch'))).toBe(false);

    await userEvent.clear(within(details).getByLabelText('Maximum quantity'));
    await userEvent.type(within(details).getByLabelText('Maximum quantity'), '2');
    await userEvent.click(within(details).getByLabelText('Pre-order'));
    await userEvent.type(within(details).getByLabelText('Available from'), '2031-03-01T09:00');
    await noViolations(container);
    await userEvent.click(screen.getByRole('button', { name: 'Save variations' }));
    expect(await screen.findByText('1 variation saved.')).toBeInTheDocument();
    const batch = calls.find((c) => c.url.endsWith('/batch'))?.body as { update: Record<string, unknown>[] };
    expect(batch.update).toHaveLength(1);
    expect(batch.update[0]).toMatchObject({ id: 81, pre_order: true, pre_order_label: '', quantity_rules: { minimum: 0, maximum: 2, multiple_of: 0 }, low_stock_amount: null });
    expect(batch.update[0].pre_order_date_gmt).toBe(new Date('2031-03-01T09:00').toISOString().slice(0, 19));
    // The saved row says it is a pre-order.
    expect(screen.getByRole('button', { name: 'More of Red' })).toHaveTextContent('More (pre-order)');
  });
});
