import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../AdminApp';
import { adminData, setupAdminTests, stubFetch } from '../test-utils';
import { PRODUCTS, stats } from './fixtures';
import { RangePicker } from './RangePicker';
import { readRange } from './range';

/** The first render loads the screen's chunk, which takes a while on a busy machine. */
const FIRST = { timeout: 10_000 };
const DAYS = ['2026-11-01', '2026-11-02', '2026-11-03'];

/** Sorts and pages PRODUCTS as the API would, two rows a page for the CSV's paging. */
function route(method: string, url: string) {
  if (method !== 'GET') return undefined;
  const [path, qs] = url.split('?');
  const q = new URLSearchParams(qs);
  if (path === '/wp-json/wc-analytics/reports/products/stats') return { body: stats(DAYS, [10, 0, 5]) };
  if (path === '/wp-json/wc/v3/products/categories') return { body: [{ id: 17, name: 'Tshirts' }] };
  if (path === '/wp-json/wc-analytics/reports/products') {
    const key = q.get('orderby') === 'net_revenue' ? 'net_revenue' : q.get('orderby') === 'product_name' ? 'name' : 'items_sold';
    const val = (r: (typeof PRODUCTS)[number]) => (key === 'name' ? r.extended_info.name : r[key]);
    const rows = [...PRODUCTS].sort((a, b) => (val(a) < val(b) ? -1 : val(a) > val(b) ? 1 : a.product_id - b.product_id) * (q.get('order') === 'asc' ? 1 : -1));
    const per = Number(q.get('per_page'));
    const page = Number(q.get('page') ?? '1');
    const size = per >= 100 ? 100 : 4;
    return { body: rows.slice((page - 1) * size, page * size), headers: { 'X-WP-Total': String(rows.length), 'X-WP-TotalPages': String(Math.ceil(rows.length / size)) } };
  }
  return undefined;
}

setupAdminTests({ path: '/wp-admin/analytics/products/' });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 3, 12, 0, 0)); // Tuesday 3 November 2026
});
afterEach(() => vi.useRealTimers());

const names = () => screen.getAllByRole('rowheader').filter((c) => c.closest('table')?.querySelector('caption')?.textContent === 'Products report').map((c) => c.textContent);
const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });

/** Catches what the page saves: the blob made into a URL and the download's name. */
function catchDownloads() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
    blobs.push(b as Blob);
    return 'blob:csv';
  });
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return {
    blobs,
    names,
    restore: () => {
      create.mockRestore();
      revoke.mockRestore();
      click.mockRestore();
    },
  };
}

// The whole admin renders here: on a busy machine that takes seconds.
describe('a report', { timeout: 30_000 }, () => {
  it('sorts and pages its table through the address and the API', async () => {
    const calls = stubFetch(route);
    render(<AdminApp data={adminData} />);
    // Items sold, most first (a tie: the API's order).
    await waitFor(() => expect(names()).toEqual(['Bench Tee', 'Beanie', 'Long Sleeve Tee', 'T-Shirt']), FIRST);
    const first = calls.find((c) => c.url.startsWith('/wp-json/wc-analytics/reports/products?'))!;
    expect(Object.fromEntries(new URL(first.url, 'http://x').searchParams)).toMatchObject({ after: '2026-11-01T00:00:00', before: '2026-11-03T23:59:59', orderby: 'items_sold', order: 'desc', page: '1', per_page: '25', extended_info: 'true' });
    expect(first.headers['X-WP-Nonce']).toBe(adminData.nonce);
    expect(header('Items sold')).toHaveAttribute('aria-sort', 'descending');

    await userEvent.click(within(header('Net sales')).getByRole('button'));
    expect(window.location.search).toBe('?orderby=net_revenue&order=desc');
    await waitFor(() => expect(calls.at(-1)!.url).toContain('orderby=net_revenue&order=desc'));
    await waitFor(() => expect(names()).toEqual(['Bench Tee', 'Beanie', 'Long Sleeve Tee', 'T-Shirt']));
    expect(header('Net sales')).toHaveAttribute('aria-sort', 'descending');
    await userEvent.click(within(header('Net sales')).getByRole('button'));
    await waitFor(() => expect(header('Net sales')).toHaveAttribute('aria-sort', 'ascending'));
    expect(window.location.search).toBe('?orderby=net_revenue&order=asc');
    await waitFor(() => expect(names()).toEqual(['Belt, "leather"', 'Cap', 'T-Shirt', 'Long Sleeve Tee']));

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.getByText('Page 2 of 2')).toBeInTheDocument());
    expect(window.location.search).toBe('?orderby=net_revenue&order=asc&paged=2');
    await waitFor(() => expect(names()).toEqual(['Beanie', 'Bench Tee']));
    expect(calls.at(-1)!.url).toContain('page=2');
  });

  it('keeps the range and the filters in the address, and a change goes back to page 1', async () => {
    window.history.replaceState(null, '', '/wp-admin/analytics/products/?paged=2');
    const calls = stubFetch(route);
    render(<AdminApp data={adminData} />);
    await screen.findByText('Page 2 of 2', {}, FIRST);
    await userEvent.selectOptions(screen.getByLabelText('Date range'), 'last_week');
    await userEvent.selectOptions(screen.getByLabelText('Compare with'), 'previous_period');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(window.location.search).toBe('?period=last_week&compare=previous_period'));
    await waitFor(() => expect(calls.some((c) => c.url.includes('after=2026-10-26T00%3A00%3A00&before=2026-11-01T23%3A59%3A59'))).toBe(true));
    // The comparison's chart data: the week before.
    expect(calls.some((c) => c.url.startsWith('/wp-json/wc-analytics/reports/products/stats?after=2026-10-19T00%3A00%3A00&before=2026-10-25T23%3A59%3A59'))).toBe(true);
    expect(screen.getByText(/compared with/).textContent).toMatch(/Oct 26, 2026 – Nov 1, 2026 compared with Oct 19, 2026 – Oct 25, 2026/);

    await userEvent.selectOptions(await screen.findByLabelText('Category'), '17');
    await waitFor(() => expect(window.location.search).toBe('?period=last_week&compare=previous_period&category_includes=17'));
    await waitFor(() => expect(calls.at(-1)!.url).toContain('category_includes=17'));
  });

  it("downloads a list report as the server writes it, asked for with the table's sort and the nonce", async () => {
    window.history.replaceState(null, '', '/wp-admin/analytics/products/?orderby=net_revenue&order=desc');
    const calls = stubFetch(route);
    const inner = globalThis.fetch;
    const csv = 'id,name,sku,items_sold,net_revenue,orders_count\r\n59,Bench Tee,SKU-59,3,56,2\r\n17,"Belt, ""leather""",SKU-17,0,0,1\r\n';
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!String(input).includes('_format=csv')) return inner(input, init);
      calls.push({ method: 'GET', url: String(input), body: undefined, headers: (init?.headers ?? {}) as Record<string, string> });
      return new Response(csv, { headers: { 'Content-Type': 'text/csv; charset=UTF-8', 'Content-Disposition': 'attachment; filename="products.csv"' } });
    });
    const saved = catchDownloads();
    render(<AdminApp data={adminData} />);
    await waitFor(() => expect(names()).toHaveLength(4), FIRST);
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await screen.findByText('Downloaded 2 products as CSV.');
    const asked = calls.find((c) => c.url.includes('_format=csv'))!;
    const q = new URL(asked.url, 'http://x').searchParams;
    expect(Object.fromEntries(q)).toMatchObject({ after: '2026-11-01T00:00:00', before: '2026-11-03T23:59:59', orderby: 'net_revenue', order: 'desc', _format: 'csv' });
    expect(q.has('page')).toBe(false);
    expect(asked.headers['X-WP-Nonce']).toBe(adminData.nonce);
    expect(saved.names).toEqual(['products.csv']);
    expect(await saved.blobs[0].text()).toBe(csv);
    saved.restore();
  });

  it("exports the revenue report's intervals, and says so when the server refuses the export", async () => {
    window.history.replaceState(null, '', '/wp-admin/analytics/revenue/?interval=day');
    const calls = stubFetch((_m, url) => {
      if (url.includes('_format=csv')) return { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): interval &amp; more', data: { status: 400 } } };
      if (url.startsWith('/wp-json/wc-analytics/reports/revenue/stats?')) return { body: stats(DAYS, [1, 2, 3]), headers: { 'X-WP-Total': '3', 'X-WP-TotalPages': '1' } };
      return undefined;
    });
    const saved = catchDownloads();
    render(<AdminApp data={adminData} />);
    const table = await screen.findByRole('table', { name: 'Revenue report' }, FIRST);
    await waitFor(() => expect(table.querySelectorAll('tbody tr')).toHaveLength(3));
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await screen.findByText('Invalid parameter(s): interval & more');
    const asked = new URL(calls.find((c) => c.url.includes('_format=csv'))!.url, 'http://x');
    expect(asked.pathname).toBe('/wp-json/wc-analytics/reports/revenue/stats');
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({ interval: 'day', orderby: 'date', order: 'desc' });
    expect(saved.names).toEqual([]);
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
    saved.restore();
  });

  it('filters orders by status and shows where they came from only when the API says', async () => {
    window.history.replaceState(null, '', '/wp-admin/analytics/orders/');
    const order = (id: number, attribution?: Record<string, string>) => ({
      order_id: id, order_number: String(id), date_created: '2026-11-02T10:00:00', status: 'processing', customer_type: 'new', num_items_sold: 1, net_total: 10,
      extended_info: attribution ? { attribution } : {},
    });
    let withSource = false;
    const calls = stubFetch((_m, url) => {
      if (url.startsWith('/wp-json/wc-analytics/reports/orders/stats')) return { body: stats(DAYS, [10, 0, 0]) };
      if (url.startsWith('/wp-json/wc-analytics/reports/orders?')) return { body: [order(7, withSource ? { source: 'google', medium: 'organic' } : undefined)], headers: { 'X-WP-Total': '1', 'X-WP-TotalPages': '1' } };
      if (url.startsWith('/wp-json/wc/v3/')) return { body: [] };
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    const table = await screen.findByRole('table', { name: 'Orders report' }, FIRST);
    await waitFor(() => expect(within(table).getByRole('rowheader').textContent).toBe('7'));
    expect(within(table).queryByRole('columnheader', { name: 'Source' })).toBeNull();
    withSource = true;
    await userEvent.selectOptions(screen.getByLabelText('Order status'), 'processing');
    await waitFor(() => expect(window.location.search).toBe('?status_is=processing'));
    await waitFor(() => expect(within(table).getByRole('columnheader', { name: 'Source' })).toBeInTheDocument());
    expect(within(table).getByRole('cell', { name: 'google' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'organic' })).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/wp-json/wc-analytics/reports/orders?') && c.url.includes('status_is=processing'))).toBe(true);
    expect(calls.some((c) => c.url.startsWith('/wp-json/wc-analytics/reports/orders/stats?') && c.url.includes('status_is=processing'))).toBe(true);
  });

  it('has no accessibility violation, chart and table shown', async () => {
    stubFetch(route);
    const { container } = render(<AdminApp data={adminData} />);
    await waitFor(() => expect(names()).toHaveLength(4), FIRST);
    await screen.findByRole('group', { name: /^Items sold\. Use the arrow keys/ });
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

describe('the range picker', { timeout: 30_000 }, () => {
  const today = '2026-11-30';
  it('changes nothing until Update, then gives the chosen range', async () => {
    const onChange = vi.fn();
    render(<RangePicker range={readRange(new URLSearchParams(), today)} today={today} onChange={onChange} />);
    expect(screen.getByText('Nov 1, 2026 – Nov 30, 2026 compared with Nov 1, 2025 – Nov 30, 2025')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Date range'), 'quarter');
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'week');
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(onChange).toHaveBeenCalledWith({ period: 'quarter', compare: 'previous_year', after: '2026-11-01', before: '2026-11-30', interval: 'week' });
  });

  it('refuses custom dates that are reversed, missing or in the future, next to the field, with focus there', async () => {
    const onChange = vi.fn();
    const { container } = render(<RangePicker range={readRange(new URLSearchParams(), today)} today={today} onChange={onChange} />);
    await userEvent.selectOptions(screen.getByLabelText('Date range'), 'custom');
    // Custom starts from the dates shown.
    expect(screen.getByLabelText('From')).toHaveValue('2026-11-01');
    expect(screen.getByLabelText('To')).toHaveValue('2026-11-30');
    await userEvent.clear(screen.getByLabelText('To'));
    await userEvent.type(screen.getByLabelText('To'), '2026-10-01');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(screen.getByLabelText('To')).toHaveFocus();
    expect(screen.getByLabelText('To')).toHaveAccessibleDescription('The last day is before the first day.');
    expect(screen.getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(screen.getByLabelText('From'));
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(screen.getByLabelText('From')).toHaveFocus();
    expect(screen.getByLabelText('From')).toHaveAccessibleDescription('Enter the first day of the range.');
    await userEvent.type(screen.getByLabelText('From'), '2026-11-02');
    await userEvent.clear(screen.getByLabelText('To'));
    await userEvent.type(screen.getByLabelText('To'), '2026-12-02');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(screen.getByLabelText('To')).toHaveAccessibleDescription('The last day is in the future.');
    expect(onChange).not.toHaveBeenCalled();
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => v.id)).toEqual([]);
    await userEvent.clear(screen.getByLabelText('To'));
    await userEvent.type(screen.getByLabelText('To'), '2026-11-20');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(onChange).toHaveBeenCalledWith({ period: 'custom', compare: 'previous_year', after: '2026-11-02', before: '2026-11-20', interval: '' });
  });
});
