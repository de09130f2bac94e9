import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, setupAdminTests } from '../../test-utils';
import { summary } from './fixtures';

const totals = [
  { slug: 'pending', name: 'Pending payment', total: 0 },
  { slug: 'processing', name: 'Processing', total: 1 },
  { slug: 'on-hold', name: 'On hold', total: 1 },
];

function route(method: string, url: string) {
  if (method !== 'GET') return undefined;
  if (url.startsWith('/wp-json/wc/v3/reports/orders/totals')) return { body: totals };
  if (url.startsWith('/wp-json/wc/v3/orders?')) {
    const q = new URLSearchParams(url.split('?')[1]);
    let rows = [summary(12, 'processing', 'Ada', '95.00'), summary(11, 'on-hold', 'Grace', '12.00')];
    if (q.get('status')) rows = rows.filter((r) => r.status === q.get('status'));
    if (q.get('search')) rows = rows.filter((r) => r.billing.first_name.toLowerCase().includes(q.get('search')!.toLowerCase()));
    const page = Number(q.get('page') ?? '1');
    return { body: page > 1 ? [] : rows, headers: { 'X-WP-Total': String(rows.length), 'X-WP-TotalPages': q.get('status') ? '1' : '2' } };
  }
  return undefined;
}

setupAdminTests({ path: '/wp-admin/orders/' });

describe('the order list', () => {
  it('lists orders with the status tabs, filters, searches by keyboard and pages, announcing the results', async () => {
    const calls = stubFetch(route);
    render(<AdminApp data={adminData} />);
    expect(await screen.findByRole('link', { name: '#12 Ada Lovelace' }, { timeout: 5000 })).toHaveAttribute('href', '/wp-admin/orders/12/');
    const status = screen.getByText(/orders\.$/, { selector: '[aria-live="polite"]' });
    expect(status).toHaveTextContent('2 orders.');
    const tabs = screen.getByRole('navigation', { name: 'Order statuses' });
    expect(within(tabs).getByRole('link', { name: 'All (2)' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: 'Processing (1)' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '$95.00' })).toBeInTheDocument();

    // A status tab.
    await userEvent.click(within(tabs).getByRole('link', { name: 'Processing (1)' }));
    await waitFor(() => expect(status).toHaveTextContent('1 processing order.'));
    expect(window.location.search).toBe('?status=processing');
    expect(calls.some((c) => c.url.includes('status=processing'))).toBe(true);
    expect(within(tabs).getByRole('link', { name: 'Processing (1)' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('link', { name: '#11 Grace Lovelace' })).toBeNull();

    // Search with the keyboard only: focus the box, type, Enter.
    await userEvent.click(within(tabs).getByRole('link', { name: 'All (2)' }));
    const box = screen.getByRole('searchbox', { name: 'Search orders' });
    box.focus();
    await userEvent.keyboard('grace{Enter}');
    await waitFor(() => expect(status).toHaveTextContent('1 order matching “grace”.'));
    expect(window.location.search).toBe('?search=grace');
    expect(screen.getByRole('link', { name: '#11 Grace Lovelace' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Clear the search' }));
    await waitFor(() => expect(status).toHaveTextContent('2 orders.'));

    // Pages.
    await userEvent.click(screen.getByRole('button', { name: /^Next/ }));
    await waitFor(() => expect(calls.some((c) => c.url.includes('page=2'))).toBe(true));
    expect(window.location.search).toBe('?paged=2');
  });

  it('says when nothing matches, and when the server refuses', async () => {
    stubFetch((m, u) => (u.startsWith('/wp-json/wc/v3/orders?') ? { status: 403, body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } } } : route(m, u)));
    render(<AdminApp data={adminData} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, you are not allowed to do that.');
  });

  it('has no structural accessibility violations', async () => {
    stubFetch(route);
    const { container } = render(<AdminApp data={adminData} />);
    await screen.findByRole('link', { name: '#12 Ada Lovelace' }, { timeout: 5000 });
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
