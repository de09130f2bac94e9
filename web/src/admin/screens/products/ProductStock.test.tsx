import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, retype } from '../../test-utils';
import { editorLists, setupEditorTests } from './editor-test-setup';
import { product, variation } from './fixtures';

// The editor's stock against orders: a save sends the count the form was
// loaded with (original_stock_quantity), so the server applies the
// difference and the units sold meanwhile stay sold.

setupEditorTests();

describe('the product editor, stock', () => {
  it('sends the stock it loaded with the new one, and says when orders moved it meanwhile', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/7/');
    const calls = stubFetch((method, url, body) => {
      const c = editorLists(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/7') return { body: product({ manage_stock: true, stock_quantity: 5 }) };
      if (method === 'PUT') {
        // Three units sold since the form was loaded: 5 → 2, then +3.
        const b = body as { stock_quantity: number; original_stock_quantity: number };
        return { body: product({ manage_stock: true, stock_quantity: 2 + b.stock_quantity - b.original_stock_quantity, version: 4 }) };
      }
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    const stock = await screen.findByLabelText('Stock quantity', {}, { timeout: 5000 });
    expect(stock).toHaveValue(5);
    await retype(stock, '8');
    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    expect(await screen.findByText(/Orders changed the stock while you edited: .* the stock is now 5\./)).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT')?.body as Record<string, unknown>;
    expect(put.stock_quantity).toBe(8);
    expect(put.original_stock_quantity).toBe(5);
    expect(put.version).toBe(3);
    expect(screen.getByLabelText('Stock quantity')).toHaveValue(5);
  });

  it('shows a stock refusal in the alert that takes focus, with the reload', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/7/');
    let current = product({ manage_stock: true, stock_quantity: 5 });
    stubFetch((method, url) => {
      const c = editorLists(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/7') return { body: current };
      if (method === 'PUT') {
        current = product({ manage_stock: true, stock_quantity: 2 });
        return {
          status: 409,
          body: {
            code: 'vitrine_stock_changed',
            message: 'Orders changed this stock after the form was loaded, so the stock quantity was not saved (and nothing else was).',
            data: { status: 409, id: 7, field: 'stock_quantity', stock_quantity: 2 },
          },
        };
      }
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    const stock = await screen.findByLabelText('Stock quantity', {}, { timeout: 5000 });
    await retype(stock, '9');
    await userEvent.click(screen.getByRole('button', { name: 'Save product' }));
    const title = await screen.findByText('Not saved: orders changed the stock.');
    const box = title.closest('[role="alert"]') as HTMLElement;
    await waitFor(() => expect(box).toHaveFocus());
    expect(box).toHaveTextContent(/the stock quantity was not saved/);
    await userEvent.click(within(box).getByRole('button', { name: 'Reload the product' }));
    await waitFor(() => expect(screen.getByLabelText('Stock quantity')).toHaveValue(2));
  });

  it('sends each variation the stock its row was loaded with', async () => {
    window.history.replaceState(null, '', '/wp-admin/products/8/');
    const beanie = product({ id: 8, name: 'Wool Beanie', type: 'variable', version: 6 });
    const red = { ...variation(81, 'Red', '18.00'), manage_stock: true, stock_quantity: 4 };
    const calls = stubFetch((method, url, body) => {
      const c = editorLists(method, url);
      if (c) return c;
      if (method === 'GET' && url === '/wp-json/wc/v3/products/8') return { body: beanie };
      if (method === 'GET' && url === '/wp-json/wc/v3/products/8/variations') return { body: [red] };
      if (method === 'POST' && url.endsWith('/variations/batch')) {
        const b = body as { update: { stock_quantity: number; original_stock_quantity: number }[] };
        return { body: { version: 7, updated: 1, deleted: 0, variations: [{ ...red, stock_quantity: 3 + b.update[0].stock_quantity - b.update[0].original_stock_quantity }] } };
      }
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    const qty = await screen.findByLabelText('Stock quantity of Red', {}, { timeout: 5000 });
    await retype(qty, '10');
    await userEvent.click(screen.getByRole('button', { name: 'Save variations' }));
    expect(await screen.findByText('1 variation saved.')).toBeInTheDocument();
    const batch = calls.find((c) => c.url.endsWith('/batch'))?.body as { update: Record<string, unknown>[] };
    expect(batch.update[0]).toMatchObject({ id: 81, stock_quantity: 10, original_stock_quantity: 4 });
    expect(screen.getByLabelText('Stock quantity of Red')).toHaveValue(9);
  });
});
