// The conversion rate on the dashboard: orders ÷ sessions as a percentage,
// its change in percentage points against the compared range, and "—"
// where a range counted no session (the indicator's value is null).

import { render, screen, waitFor } from '@testing-library/react';
import { AdminApp } from '../AdminApp';
import { adminData, setupAdminTests, stubFetch } from '../test-utils';
import { kpiText, pointsChange } from './kpi';
import { stats } from './fixtures';

const indicator = (stat: string, label: string, format: string, value: number | null) => ({ stat, chart: stat.split('/')[1], label, format, value });

function route(rates: { now: number | null; before: number | null }) {
  return (method: string, url: string) => {
    if (method !== 'GET') return undefined;
    const [path, qs] = url.split('?');
    const q = new URLSearchParams(qs);
    const thisMonth = q.get('after') === '2026-11-01T00:00:00';
    if (path === '/wp-json/wc-analytics/reports/performance-indicators') {
      expect(q.get('stats')?.split(',')).toContain('orders/conversion');
      return { body: [indicator('orders/orders_count', 'Orders', 'number', 3), indicator('orders/conversion', 'Conversion rate', 'percent', thisMonth ? rates.now : rates.before)] };
    }
    if (path === '/wp-json/wc-analytics/reports/revenue/stats') return { body: stats(['2026-11-01', '2026-11-02'], [1, 2]) };
    if (path === '/wp-json/wc-analytics/reports/orders/stats') return { body: { totals: { total_customers: 1 }, intervals: [] } };
    if (path === '/wp-json/wc-analytics/reports/stock/stats') return { body: { totals: { products: 0, lowstock: 0, outofstock: 0 } } };
    if (path === '/wp-json/wc-analytics/leaderboards') return { body: [] };
    if (path === '/wp-json/wc/v3/reports/orders/totals') return { body: [] };
    if (path.endsWith('/counts')) return { body: {} };
    if (path.startsWith('/wp-json/vitrine/v1/admin/audit')) return { body: [] };
    return undefined;
  };
}

setupAdminTests({ path: '/wp-admin/' });
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 2, 9, 0, 0));
});
afterEach(() => vi.useRealTimers());

describe('the conversion rate on the dashboard', { timeout: 30_000 }, () => {
  it('shows the rate against the compared range in percentage points', async () => {
    stubFetch(route({ now: 2.5, before: 2 }));
    render(<AdminApp data={adminData} />);
    const kpi = await screen.findByRole('link', { name: /^Conversion rate/ }, { timeout: 10_000 });
    await waitFor(() => expect(kpi.textContent).toBe('Conversion rate2.5%+0.5 pt (previous year: 2%)'));
    expect(kpi).toHaveAttribute('href', '/wp-admin/analytics/orders/');
  });

  it('says "—" for a range without sessions, never 0%', async () => {
    stubFetch(route({ now: 1.25, before: null }));
    render(<AdminApp data={adminData} />);
    const kpi = await screen.findByRole('link', { name: /^Conversion rate/ }, { timeout: 10_000 });
    await waitFor(() => expect(kpi.textContent).toBe('Conversion rate1.25%— (previous year: —)'));
  });

  it('writes rates and their changes', () => {
    expect(kpiText(null, 'percent', 'USD')).toBe('—');
    expect(kpiText(0, 'percent', 'USD')).toBe('0%');
    expect(kpiText(33.33, 'percent', 'USD')).toBe('33.33%');
    expect(kpiText(3, 'number', 'USD')).toBe('3');
    expect(pointsChange(2, 3.25)).toBe('−1.25 pt');
    expect(pointsChange(1.1, 1.1)).toBe('0 pt');
    expect(pointsChange(1, null)).toBe('—');
  });
});
