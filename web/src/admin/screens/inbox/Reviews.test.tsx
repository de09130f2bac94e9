import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, setupAdminTests } from '../../test-utils';
import type { AdminReview } from './Reviews';

const review = (id: number, over: Partial<AdminReview> = {}): AdminReview => ({
  id,
  date_created: '2026-11-24T10:00:00',
  product_id: 12,
  product_name: 'Classic Tee',
  product_permalink: 'http://localhost:8080/product/classic-tee/',
  status: 'hold',
  reviewer: `Reviewer ${id}`,
  reviewer_email: `r${id}@example.com`,
  review: `<p>Text of review ${id}</p>\n`,
  rating: 4,
  verified: false,
  reply: null,
  ...over,
});

const counts = { hold: 2, approved: 5, spam: 1, trash: 0 };

setupAdminTests({ path: '/wp-admin/reviews/' });

function api(list: AdminReview[]) {
  return stubFetch((method, url, body) => {
    if (method === 'GET' && url.startsWith('/wp-json/vitrine/v1/admin/reviews/counts')) return { body: counts };
    if (method === 'GET' && url.startsWith('/wp-json/wc/v3/products/reviews')) return { body: list, headers: { 'X-WP-Total': String(list.length), 'X-WP-TotalPages': '1' } };
    const m = url.match(/\/reviews\/(\d+)(\/reply)?/);
    if (!m) return undefined;
    const r = list.find((x) => x.id === Number(m[1]))!;
    if (m[2]) {
      const text = (body as { text: string }).text;
      if (!text.trim()) return { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): reply', data: { status: 400, params: { reply: 'Please type your reply.' } } } };
      return { body: { ...r, status: 'approved', reply: { text, author: 'Mia Manager', date: '2026-11-24T11:00:00Z' } } };
    }
    return { body: { ...r, status: (body as { status: string }).status } };
  });
}

describe('the moderation queue', () => {
  it('lists held reviews first with the counts, approves one and moves focus to the next', async () => {
    const calls = api([review(1), review(2)]);
    render(<AdminApp data={adminData} />);
    expect(await screen.findByRole('heading', { level: 3, name: /Reviewer 1 on Classic Tee/ })).toBeInTheDocument();
    expect(calls.some((c) => c.url.includes('status=hold'))).toBe(true);
    const tabs = await screen.findByRole('navigation', { name: 'Reviews by status' });
    await waitFor(() => expect(within(tabs).getByRole('link', { name: /^Pending/ })).toHaveTextContent('Pending (2)'));
    expect(within(tabs).getByRole('link', { name: /^Pending/ })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: /^All/ })).toHaveTextContent('All (7)');
    expect(screen.getAllByText('Rated 4 of 5')).toHaveLength(2);

    const actions = screen.getByRole('group', { name: 'Actions for the review by Reviewer 1' });
    await userEvent.click(within(actions).getByRole('button', { name: 'Approve' }));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/wp-json/wc/v3/products/reviews/1');
    expect(put.body).toEqual({ status: 'approved' });
    expect(await screen.findByText('The review by Reviewer 1 was approved.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('The review by Reviewer 1 was approved.');
    await waitFor(() => expect(screen.queryByRole('heading', { level: 3, name: /Reviewer 1 on/ })).toBeNull());
    await waitFor(() => expect(screen.getByRole('article', { name: /Reviewer 2 on Classic Tee/ })).toHaveFocus());
  });

  it('replies by keyboard: the box takes focus, an empty reply is refused in place, a reply approves the review', async () => {
    const calls = api([review(1)]);
    render(<AdminApp data={adminData} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Approve and reply' }));
    const box = screen.getByRole('textbox', { name: /Your reply to Reviewer 1/ });
    expect(box).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Approve and reply' }));
    expect(await screen.findByText('Please type your reply.')).toBeInTheDocument();
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveFocus();

    await userEvent.type(box, 'Thank you!');
    await userEvent.click(screen.getByRole('button', { name: 'Approve and reply' }));
    expect(await screen.findByText(/was approved and your reply saved/)).toBeInTheDocument();
    const sent = calls.filter((c) => c.method === 'PUT' && c.url.endsWith('/reviews/1/reply'));
    expect(sent.at(-1)!.body).toEqual({ text: 'Thank you!' });
    // Approved while the queue shows pending reviews: it leaves the list, focus goes to its status line.
    await waitFor(() => expect(screen.getByText('0 reviews.')).toHaveFocus());
  });

  it("shows one product's reviews from ?product=, with a way back to every product's", async () => {
    const calls = api([review(1)]);
    window.history.replaceState(null, '', '/wp-admin/reviews/?product=12&status=all');
    render(<AdminApp data={adminData} />);
    expect(await screen.findByText(/Showing the reviews of one product \(Classic Tee\)/)).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/wp-json/wc/v3/products/reviews?') && c.url.includes('product=12') && c.url.includes('status=all'))).toBe(true);
    await userEvent.click(screen.getByRole('link', { name: "Show the reviews of every product" }));
    await waitFor(() => expect(window.location.search).toBe('?status=all'));
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/wp-json/wc/v3/products/reviews?')).at(-1)!.url).not.toContain('product='));
  });

  it('has no structural accessibility violations, with a reply box open', async () => {
    api([review(1), review(2, { status: 'approved', reply: { text: 'Thanks', author: 'Mia', date: '2026-11-24T11:00:00Z' } })]);
    window.history.replaceState(null, '', '/wp-admin/reviews/?status=all');
    const { container } = render(<AdminApp data={adminData} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit reply' }));
    expect(screen.getByRole('textbox', { name: /Your reply to Reviewer 2/ })).toHaveValue('Thanks');
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('article', { name: /Reviewer 2 on Classic Tee/ })).toHaveFocus());
  });
});
