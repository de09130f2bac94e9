import { render, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { AdminApp } from '../AdminApp';
import { adminData, setupAdminTests, stubFetch } from '../test-utils';
import { change } from './Overview';
import { resetShopZone } from './data';
import { stats } from './fixtures';

const indicator = (stat: string, label: string, format: string, value: number) => ({ stat, chart: stat.split('/')[1], label, format, value });

function route(method: string, url: string) {
  if (method !== 'GET') return undefined;
  const [path, qs] = url.split('?');
  const q = new URLSearchParams(qs);
  const thisMonth = q.get('after') === '2026-11-01T00:00:00';
  if (path === '/wp-json/wc-analytics/reports/performance-indicators')
    return { body: [indicator('revenue/net_revenue', 'Net sales', 'currency', thisMonth ? 150 : 100), indicator('orders/orders_count', 'Orders', 'number', thisMonth ? 3 : 0)] };
  if (path === '/wp-json/wc-analytics/reports/revenue/stats') return { body: stats(['2026-11-01', '2026-11-02'], thisMonth ? [100, 50] : [60, 40]) };
  if (path === '/wp-json/wc-analytics/reports/orders/stats') return { body: { totals: { total_customers: q.get('customer_type') === 'new' ? 2 : 1 }, intervals: [] } };
  if (path === '/wp-json/wc-analytics/reports/stock/stats') return { body: { totals: { products: 9, lowstock: 2, instock: 6, outofstock: 1, onbackorder: 0 } } };
  if (path === '/wp-json/wc-analytics/leaderboards')
    return {
      body: [
        {
          id: 'products',
          label: 'Top products - Items sold',
          headers: [{ label: 'Product' }, { label: 'Items sold' }, { label: 'Net sales' }],
          rows: [[{ display: "<a href='x'>Bench Tee</a>", value: 'Bench Tee' }, { display: '3', value: 3, format: 'number' }, { display: '$56.00', value: 56, format: 'currency' }]],
        },
      ],
    };
  if (path === '/wp-json/wc/v3/reports/orders/totals') return { body: [{ slug: 'processing', total: 3 }] };
  if (path.endsWith('/counts')) return { body: {} };
  if (path.startsWith('/wp-json/vitrine/v1/admin/audit')) return { body: [] };
  return undefined;
}

setupAdminTests({ path: '/wp-admin/' });
beforeEach(() => {
  resetShopZone();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 2, 9, 0, 0));
});
afterEach(() => vi.useRealTimers());

// The whole admin renders here: on a busy machine that takes seconds.
describe('the overview on the dashboard', { timeout: 30_000 }, () => {
  it('shows the indicators against last year, the chart, the stock and the leaderboards', async () => {
    const calls = stubFetch(route);
    const { container } = render(<AdminApp data={adminData} />);
    const net = await screen.findByRole('link', { name: /^Net sales/ }, { timeout: 10_000 });
    await waitFor(() => expect(net.textContent).toBe('Net sales$150.00+50% (previous year: $100.00)'));
    expect(screen.getByRole('link', { name: /^Orders3/ }).textContent).toBe('Orders3new (previous year: 0)');
    expect(net).toHaveAttribute('href', '/wp-admin/analytics/revenue/');
    await waitFor(() => expect(screen.getByRole('link', { name: /New \/ returning customers/ }).textContent).toContain('2 / 1'));
    expect(calls.some((c) => c.url.includes('performance-indicators?after=2025-11-01T00%3A00%3A00&before=2025-11-02T23%3A59%3A59'))).toBe(true);
    await screen.findByRole('group', { name: /^Net sales\. Use the arrow keys/ });
    expect(screen.getByText('Net sales over 2 intervals: $150.00 in all, highest $100.00 on Nov 1, 2026.')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: '1 out of stock' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '2 low in stock' })).toBeInTheDocument();
    const board = screen.getByRole('table', { name: 'Top products - Items sold' });
    expect(within(board).getByRole('rowheader').textContent).toBe('Bench Tee');
    expect(within(board).getAllByRole('cell').map((c) => c.textContent)).toEqual(['3', '$56.00']);
    // The leaderboard's HTML is never put in the page.
    expect(board.querySelector('a')).toBeNull();
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  it("counts the range from the shop's day (its analytics time zone), not the browser's", async () => {
    // 23:30 UTC on 30 November is already 1 December in Tokyo, the shop's zone.
    vi.setSystemTime(new Date(Date.UTC(2026, 10, 30, 23, 30, 0)));
    const calls = stubFetch((method, url) =>
      url === '/wp-json/wc-analytics/vitrine/settings' ? { body: { time_zone: 'Asia/Tokyo', excluded_statuses: [], version: 1 } } : route(method, url),
    );
    render(<AdminApp data={adminData} />);
    await screen.findByRole('link', { name: /^Net sales/ }, { timeout: 10_000 });
    const dated = calls.filter((c) => c.url.includes('after='));
    expect(dated.length).toBeGreaterThan(0);
    // Month to date in Tokyo is 1 December alone, against 1 December a year before; nothing asked for 30 November.
    expect(calls.some((c) => c.url.includes('performance-indicators?after=2026-12-01T00%3A00%3A00&before=2026-12-01T23%3A59%3A59'))).toBe(true);
    expect(calls.some((c) => c.url.includes('performance-indicators?after=2025-12-01T00%3A00%3A00&before=2025-12-01T23%3A59%3A59'))).toBe(true);
    expect(dated.filter((c) => c.url.includes('2026-11-'))).toEqual([]);
    // The settings were asked for before anything dated.
    expect(calls.findIndex((c) => c.url === '/wp-json/wc-analytics/vitrine/settings')).toBeLessThan(calls.indexOf(dated[0]));
  });

  it('says a change in percent, and "new" when there was nothing', () => {
    expect(change(150, 100)).toBe('+50%');
    expect(change(50, 100)).toBe('−50%');
    expect(change(0, 0)).toBe('0%');
    expect(change(5, 0)).toBe('new');
  });
});
