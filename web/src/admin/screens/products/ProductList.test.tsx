import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, setupAdminTests } from '../../test-utils';
import { categories, product } from './fixtures';

const list = [product(), product({ id: 8, name: 'Wool Beanie', type: 'variable', sku: '', status: 'draft', images: [] })];

setupAdminTests({ path: '/wp-admin/products/' });

function route(method: string, url: string) {
  if (method === 'GET' && url.startsWith('/wp-json/wc/v3/products/categories')) return { body: categories };
  if (method === 'GET' && url.startsWith('/wp-json/vitrine/v1/admin/products/counts')) return { body: { all: 2, publish: 1, draft: 1, trash: 4 } };
  if (method === 'GET' && url.startsWith('/wp-json/wc/v3/products')) return { body: list, headers: { 'X-WP-Total': '2', 'X-WP-TotalPages': '1' } };
  if (method === 'POST' && url === '/wp-json/vitrine/v1/admin/products/bulk') return { body: { action: 'trash', changed: 1 } };
  return undefined;
}

describe('the products list', () => {
  it('lists, searches and filters', async () => {
    const calls = stubFetch(route);
    render(<AdminApp data={adminData} />);
    expect(await screen.findByRole('link', { name: 'Wool Beanie' }, { timeout: 5000 })).toHaveAttribute('href', '/wp-admin/products/8/');
    expect(screen.getByText('2 products found.')).toBeInTheDocument();
    const views = screen.getByRole('navigation', { name: 'Show products by status' });
    expect(within(views).getByRole('link', { name: 'All (2)' })).toHaveAttribute('aria-current', 'page');
    expect(within(views).getByRole('link', { name: 'Trash (4)' })).not.toHaveAttribute('aria-current');

    await userEvent.type(screen.getByLabelText('Search products'), 'beanie{Enter}');
    await waitFor(() => expect(calls.some((c) => c.url.includes('search=beanie'))).toBe(true));
    await userEvent.selectOptions(screen.getByLabelText('Product type'), 'variable');
    await waitFor(() => expect(calls.some((c) => c.url.includes('type=variable') && c.url.includes('search=beanie'))).toBe(true));
    await userEvent.selectOptions(screen.getByLabelText('Category'), '5');
    await waitFor(() => expect(calls.some((c) => c.url.includes('category=5'))).toBe(true));
    await userEvent.selectOptions(screen.getByLabelText('Stock status'), 'outofstock');
    await waitFor(() => expect(calls.some((c) => c.url.includes('stock_status=outofstock'))).toBe(true));
    await userEvent.click(within(views).getByRole('link', { name: 'Drafts (1)' }));
    await waitFor(() => expect(calls.some((c) => c.url.includes('status=draft'))).toBe(true));
    expect(within(views).getByRole('link', { name: 'Drafts (1)' })).toHaveAttribute('aria-current', 'page');
  });

  it('asks before a bulk action, by keyboard, and says what changed', async () => {
    const calls = stubFetch(route);
    render(<AdminApp data={adminData} />);
    const box = await screen.findByRole('checkbox', { name: 'Select Enamel Mug' });
    box.focus();
    await userEvent.keyboard(' ');
    await userEvent.selectOptions(screen.getByLabelText('Bulk action'), 'trash');
    const apply = screen.getByRole('button', { name: 'Apply to 1 selected' });
    apply.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = screen.getByRole('alertdialog', { name: 'Move to the trash: 1 product?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(dialog).toHaveTextContent('Enamel Mug');
    // Escape cancels, and focus is back on the button.
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(apply).toHaveFocus();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.keyboard('{Enter}');
    await userEvent.tab();
    expect(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Move to the trash' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('1 product moved to the trash.')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ action: 'trash', ids: [7] });
  });

  it('has no structural accessibility violations, dialog open or not', async () => {
    stubFetch(route);
    const { container } = render(<AdminApp data={adminData} />);
    await screen.findByRole('link', { name: 'Wool Beanie' });
    const rules = { rules: { 'color-contrast': { enabled: false } } };
    let res = await axe.run(container, rules);
    expect(res.violations.map((v) => v.id)).toEqual([]);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all products on this page' }));
    await userEvent.selectOptions(screen.getByLabelText('Bulk action'), 'publish');
    await userEvent.click(screen.getByRole('button', { name: 'Apply to 2 selected' }));
    screen.getByRole('alertdialog');
    res = await axe.run(container, rules);
    expect(res.violations.map((v) => v.id)).toEqual([]);
  });
});
