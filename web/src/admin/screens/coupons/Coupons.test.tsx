import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { setRestNonce } from '../../../lib/rest';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, retype } from '../../test-utils';
import type { Coupon } from './Coupons';

const summer: Coupon = {
  id: 7,
  code: 'summer10',
  amount: '10.00',
  discount_type: 'percent',
  description: 'Summer sale',
  date_expires: '2030-06-30T00:00:00',
  usage_count: 3,
  individual_use: false,
  product_ids: [],
  excluded_product_ids: [],
  usage_limit: 100,
  usage_limit_per_user: null,
  product_categories: [2],
  excluded_product_categories: [],
  minimum_amount: '0.00',
};
const five: Coupon = { ...summer, id: 8, code: 'five', amount: '5.00', discount_type: 'fixed_cart', description: '', date_expires: null, usage_limit: null };
const categories = [
  { id: 2, name: 'Clothing' },
  { id: 3, name: 'Accessories' },
];

function api(extra?: (method: string, url: string, body: unknown) => { status?: number; body: unknown; headers?: Record<string, string> } | undefined) {
  return stubFetch((method, url, body) => {
    const a = extra?.(method, url, body);
    if (a) return a;
    if (url.startsWith('/wp-json/wc/store/v1/products/categories')) return { body: categories };
    if (method === 'GET' && url.startsWith('/wp-json/wc/v3/coupons?')) {
      const list = url.includes('search=five') ? [five] : [summer, five];
      return { body: list, headers: { 'X-WP-Total': String(list.length), 'X-WP-TotalPages': '1' } };
    }
    if (method === 'GET' && url === '/wp-json/wc/v3/coupons/7') return { body: summer };
    return undefined;
  });
}

async function axeClean(container: HTMLElement) {
  const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

beforeEach(() => {
  setRestNonce(adminData.nonce);
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  window.requestAnimationFrame = ((cb: FrameRequestCallback) => setTimeout(() => cb(0), 0)) as typeof window.requestAnimationFrame;
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the coupons list', () => {
  it('lists coupons, searches, and deletes with focus back on the list', async () => {
    let deleted = false;
    const calls = api((method, url) => {
      if (method === 'DELETE' && url === '/wp-json/wc/v3/coupons/8?force=true') {
        deleted = true;
        return { body: five };
      }
      if (deleted && method === 'GET' && url.startsWith('/wp-json/wc/v3/coupons?')) return { body: [summer], headers: { 'X-WP-Total': '1', 'X-WP-TotalPages': '1' } };
      return undefined;
    });
    window.history.replaceState(null, '', '/wp-admin/coupons/');
    const { container } = render(<AdminApp data={adminData} />);
    const link = await screen.findByRole('link', { name: 'summer10' }, { timeout: 5000 });
    expect(link).toHaveAttribute('href', '/wp-admin/coupons/7/');
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('10%')).toBeInTheDocument();
    expect(within(row).getByText('3 / 100')).toBeInTheDocument();
    expect(within(row).getByText('2030-06-30')).toBeInTheDocument();
    expect(screen.getByText('$5.00')).toBeInTheDocument();
    expect(screen.getByText('2 coupons.')).toBeInTheDocument();
    await axeClean(container);

    await userEvent.type(screen.getByLabelText('Search coupons'), 'five{Enter}');
    await waitFor(() => expect(calls.some((c) => c.url.includes('search=five'))).toBe(true));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'summer10' })).not.toBeInTheDocument());

    vi.spyOn(window, 'confirm').mockReturnValue(true);
    await userEvent.click(screen.getByRole('button', { name: 'Delete coupon five' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Coupon five deleted.');
    expect(screen.getByRole('heading', { name: 'All coupons' })).toHaveFocus();
    expect(deleted).toBe(true);
  });

  it('asks before deleting, and keeps the coupon when the answer is no', async () => {
    const calls = api();
    window.history.replaceState(null, '', '/wp-admin/coupons/');
    render(<AdminApp data={adminData} />);
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    await screen.findByRole('link', { name: 'summer10' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete coupon summer10' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });
});

describe('the coupon form', () => {
  it('creates a coupon: the server refusal is shown at its field and focused, then the saved coupon opens', async () => {
    let attempt = 0;
    const calls = api((method, url, body) => {
      if (method === 'POST' && url === '/wp-json/wc/v3/coupons') {
        attempt++;
        if (attempt === 1)
          return {
            status: 400,
            body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): amount', data: { status: 400, params: { amount: 'A percentage discount cannot be over 100.' } } },
          };
        return { status: 201, body: { ...summer, id: 9, code: (body as { code: string }).code, amount: '15.00', usage_count: 0 } };
      }
      if (method === 'GET' && url === '/wp-json/wc/v3/coupons/9') return { body: { ...summer, id: 9, code: 'welcome', amount: '15.00', usage_count: 0 } };
      return undefined;
    });
    window.history.replaceState(null, '', '/wp-admin/coupons/new/');
    const { container } = render(<AdminApp data={adminData} />);
    const code = await screen.findByLabelText(/Coupon code/, {}, { timeout: 5000 });
    await screen.findAllByRole('option', { name: 'Clothing' });
    await axeClean(container);

    // Nothing is sent without a code.
    await userEvent.click(screen.getByRole('button', { name: 'Create coupon' }));
    expect(await screen.findByText('A coupon needs a code.')).toBeInTheDocument();
    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.type(code, 'WELCOME');
    await userEvent.type(screen.getByLabelText('Amount (%)'), '150');
    await userEvent.type(screen.getByLabelText('Expiry date'), '2031-01-31');
    await userEvent.selectOptions(screen.getByLabelText('Product categories'), ['3']);
    await userEvent.type(screen.getByLabelText('Usage limit per coupon'), '1');
    await userEvent.click(screen.getByRole('button', { name: 'Create coupon' }));
    const amount = screen.getByLabelText('Amount (%)');
    expect(await screen.findByText('A percentage discount cannot be over 100.')).toBeInTheDocument();
    await waitFor(() => expect(amount).toHaveFocus());
    expect(amount.getAttribute('aria-describedby')).toContain(screen.getByText('A percentage discount cannot be over 100.').id);
    expect(screen.getByRole('alert')).toHaveTextContent('The coupon was not saved');

    await retype(amount, '15');
    await userEvent.click(screen.getByRole('button', { name: 'Create coupon' }));
    await waitFor(() => expect(window.location.pathname).toBe('/wp-admin/coupons/9/'));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Coupon WELCOME created.'));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Edit coupon welcome' })).toHaveFocus());
    const sent = calls.filter((c) => c.method === 'POST').pop()!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      code: 'WELCOME',
      discount_type: 'percent',
      amount: '15',
      date_expires: '2031-01-31',
      usage_limit: 1,
      usage_limit_per_user: null,
      product_categories: [3],
      product_ids: [],
    });
  });

  it('edits a coupon, and a coupon that no longer exists says so', async () => {
    const calls = api((method, url) => {
      if (method === 'PUT' && url === '/wp-json/wc/v3/coupons/7') return { body: { ...summer, amount: '12.50' } };
      if (url === '/wp-json/wc/v3/coupons/99') return { status: 404, body: { code: 'woocommerce_rest_shop_coupon_invalid_id', message: 'Invalid ID.', data: { status: 404 } } };
      return undefined;
    });
    window.history.replaceState(null, '', '/wp-admin/coupons/7/');
    const { container, unmount } = render(<AdminApp data={adminData} />);
    const amount = await screen.findByDisplayValue('10.00');
    expect(screen.getByText('Used 3 times.')).toBeInTheDocument();
    expect(screen.getByLabelText('Expiry date')).toHaveValue('2030-06-30');
    await axeClean(container);
    await retype(amount, '12.5');
    await userEvent.click(screen.getByRole('button', { name: 'Save coupon' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Coupon summer10 saved.');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Edit coupon summer10' })).toHaveFocus());
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ amount: '12.5', code: 'summer10', usage_limit: 100 });
    unmount();

    window.history.replaceState(null, '', '/wp-admin/coupons/99/');
    render(<AdminApp data={adminData} />);
    expect(await screen.findByText(/This coupon does not exist/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the coupons' })).toHaveAttribute('href', '/wp-admin/coupons/');
  });
});
