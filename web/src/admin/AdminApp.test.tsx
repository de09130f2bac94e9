import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from './AdminApp';
import { legacyTarget } from './router';
import { adminData, stubFetch, setupAdminTests } from './test-utils';

const entries = [
  { id: 2, date: '2026-11-24T10:00:00Z', actor_id: 3, actor_name: 'Mia Manager', action: 'product.update', object: 'product', object_id: 12, summary: 'Price 12.00 → 10.00', client_ip: '' },
  { id: 1, date: '2026-11-24T09:00:00Z', actor_id: 4, actor_name: 'Ada Admin', action: 'order.status', object: 'order', object_id: 5, summary: 'processing → completed', client_ip: '' },
];

setupAdminTests({ path: '/wp-admin/' });

describe('the admin frame', () => {
  it('shows the dashboard with the latest changes, and moves between screens with focus on the heading', async () => {
    const calls = stubFetch((method, url) => {
      if (method !== 'GET') return undefined;
      if (url.startsWith('/wp-json/vitrine/v1/admin/audit')) return { body: entries };
      if (url === '/wp-json/wc/v3/reports/orders/totals') return { body: [{ slug: 'processing', name: 'Processing', total: 3 }, { slug: 'on-hold', name: 'On hold', total: 1 }] };
      if (url === '/wp-json/vitrine/v1/admin/reviews/counts') return { body: { approved: 9, hold: 2, spam: 0, trash: 0 } };
      if (url === '/wp-json/vitrine/v1/admin/messages/counts') return { body: { new: 1, read: 4, replied: 0, trash: 0 } };
      if (url === '/wp-json/vitrine/v1/admin/wishlists/top?per_page=5') return { body: [{ id: 7, name: 'Classic Tee', lists: 2 }] };
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(await screen.findByText(/Price 12\.00 → 10\.00/)).toBeInTheDocument();
    // What waits: each count links to its list.
    expect(await screen.findByRole('link', { name: '3 orders to process' })).toHaveAttribute('href', '/wp-admin/orders/?status=processing');
    expect(screen.getByRole('link', { name: '1 order on hold' })).toHaveAttribute('href', '/wp-admin/orders/?status=on-hold');
    expect(screen.getByRole('link', { name: '2 reviews to moderate' })).toHaveAttribute('href', '/wp-admin/reviews/');
    expect(screen.getByRole('link', { name: '1 new message' })).toHaveAttribute('href', '/wp-admin/messages/');
    // The most wished products, each linked to its editor.
    expect(await screen.findByRole('link', { name: 'Classic Tee' })).toHaveAttribute('href', '/wp-admin/products/7/');
    expect(screen.getByRole('heading', { level: 2, name: 'Most wished for' }).parentElement).toHaveTextContent('Classic Tee: 2 wishlists');
    expect(calls.every((c) => c.headers['X-WP-Nonce'] === 'abcdef0123')).toBe(true);
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Log out' })).toHaveAttribute('href', adminData.logout_url);

    await userEvent.click(screen.getByRole('navigation', { name: 'Shop admin' }).querySelector('a[href="/wp-admin/activity/"]') as HTMLElement);
    const h1 = screen.getByRole('heading', { level: 1, name: 'Activity' });
    await waitFor(() => expect(h1).toHaveFocus());
    expect(window.location.pathname).toBe('/wp-admin/activity/');
    expect(document.title).toBe('Activity ‹ Vitrine — Shop admin');
    expect(await screen.findByRole('cell', { name: 'processing → completed' })).toBeInTheDocument();

    // The filter asks the server again.
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'order');
    await waitFor(() => expect(calls.some((c) => c.url.includes('object=order'))).toBe(true));
    // Keys and webhooks made in Settings > Advanced have their own filters.
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'REST API keys');
    await waitFor(() => expect(calls.some((c) => c.url.includes('object=api_key'))).toBe(true));

    // Back goes back.
    act(() => {
      window.history.back();
    });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument());
  });

  it('says so at an address with no screen, and when the server refuses', async () => {
    stubFetch(() => ({ status: 403, body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } } }));
    window.history.replaceState(null, '', '/wp-admin/nowhere/');
    render(<AdminApp data={adminData} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Not found' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Go to the dashboard' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, you are not allowed to do that.');
  });

  it("sits in the shop's one page container, as every storefront page does", () => {
    window.history.replaceState(null, '', '/wp-admin/nowhere/');
    const { container } = render(<AdminApp data={adminData} />);
    const box = container.querySelector('#admin-main > .container');
    expect(box).not.toBeNull();
    expect(box?.querySelector('h1')).toHaveTextContent('Not found');
  });

  it('has no structural accessibility violations', async () => {
    stubFetch(() => ({ body: entries }));
    window.history.replaceState(null, '', '/wp-admin/activity/');
    const { container } = render(<AdminApp data={adminData} />);
    await screen.findByRole('cell', { name: 'processing → completed' });
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

describe('WordPress edit links', () => {
  const loc = (path: string, q: string) => ({ path, search: new URLSearchParams(q) });
  it('open the screens that edit those objects', () => {
    expect(legacyTarget(loc('post.php', 'post=12&action=edit'))).toBe('/wp-admin/products/12/');
    expect(legacyTarget(loc('post.php', 'post=../x'))).toBe('/wp-admin/products/');
    expect(legacyTarget(loc('term.php', 'taxonomy=product_cat&tag_ID=4'))).toBe('/wp-admin/categories/4/');
    expect(legacyTarget(loc('edit.php', 'post_type=product'))).toBe('/wp-admin/products/');
    expect(legacyTarget(loc('activity', ''))).toBeNull();
  });
});
