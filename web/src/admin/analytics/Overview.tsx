// The shop's numbers at a glance, on the admin's home: the performance
// indicators for the range against the compared range, net sales over the
// range, new and returning customers, the leaderboards and the stock that
// needs attention. The range is in the address, as on the reports.

import { useMemo } from 'react';
import { withQuery } from '../api';
import { BASE, Link, useRouter, type Location } from '../router';
import { Chart } from './Chart';
import { statsURL, toPoints, useGet, useRange } from './data';
import { apiDates, COMPARES, rangeParams, type RangeState, type Span } from './range';
import { RangePicker } from './RangePicker';
import { kpiText, pointsChange } from './kpi';
import { cellText } from './reports';
import { ANALYTICS, type Indicator, type Leaderboard, type Stats, type StatsAnswer } from './types';
import './analytics.css';

const INDICATORS = ['revenue/net_revenue', 'orders/orders_count', 'orders/avg_order_value', 'products/items_sold', 'revenue/refunds', 'orders/conversion'];

function indicatorsURL(span: Span): string {
  return withQuery(`${ANALYTICS}reports/performance-indicators`, { ...apiDates(span), stats: INDICATORS.join(',') });
}

/** "+12%" / "−5%" / "new" (nothing before) / "0%". */
export function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? '0%' : 'new';
  const pct = Math.round(((now - before) / Math.abs(before)) * 100);
  return `${pct > 0 ? '+' : pct < 0 ? '−' : ''}${Math.abs(pct)}%`;
}

export default function Overview({ location, currency }: { location: Location; currency: string }) {
  const { navigate } = useRouter();
  const info = useRange(location);
  const { span, compared, interval } = info;
  const compareName = COMPARES.find((c) => c.value === info.range.compare)!.label;
  // Nothing dated is asked for before the shop's day is known.
  const when = (url: string) => (info.ready ? url : null);
  const now = useGet<Indicator[]>(when(indicatorsURL(span)));
  const before = useGet<Indicator[]>(when(indicatorsURL(compared)));
  const rev = useGet<StatsAnswer>(when(statsURL('revenue/stats', span, interval)));
  const revBefore = useGet<StatsAnswer>(when(statsURL('revenue/stats', compared, interval)));
  const fresh = useGet<StatsAnswer>(when(withQuery(`${ANALYTICS}reports/orders/stats`, { ...apiDates(span), customer_type: 'new', per_page: 1 })));
  const back = useGet<StatsAnswer>(when(withQuery(`${ANALYTICS}reports/orders/stats`, { ...apiDates(span), customer_type: 'returning', per_page: 1 })));
  const boards = useGet<Leaderboard[]>(when(withQuery(`${ANALYTICS}leaderboards`, { ...apiDates(span), per_page: 5 })));
  const stock = useGet<{ totals: Stats }>(`${ANALYTICS}reports/stock/stats`);
  const money = (n: number) => cellText(n, 'currency', currency);
  const points = useMemo(() => toPoints(rev.data, revBefore.data, 'net_revenue', interval), [rev.data, revBefore.data, interval]);

  const here = location.path ? `${BASE}${location.path}/` : BASE;
  const setRange = (r: RangeState) => navigate(withQuery(here, rangeParams(r)), { keepScroll: true });
  const reportLink = (slug: string) => withQuery(`${BASE}analytics/${slug}/`, rangeParams(info.range));
  const customers = (s: StatsAnswer | null) => (s ? Number(s.totals.total_customers ?? 0) : null);

  return (
    <div className="an-overview">
      <RangePicker range={info.range} today={info.today} onChange={setRange} />
      <section aria-labelledby="an-perf">
        <h2 id="an-perf">Performance</h2>
        {/* Quiet on the dashboard: what waits for staff stays the page's news. */}
        {now.error ? <p>The indicators could not be loaded: {now.error.message}</p> : null}
        {now.loading && !now.data ? <p>Loading…</p> : null}
        {now.data ? (
          <ul className="an-kpis">
            {now.data.map((k) => {
              const prev = before.data?.find((b) => b.stat === k.stat);
              const fmt = (v: number | null) => kpiText(v, k.format, currency);
              return (
                <li key={k.stat}>
                  <Link to={reportLink(k.stat.split('/')[0])} className="an-kpi">
                    <span className="an-kpi__label">{k.label}</span>
                    <span className="an-kpi__value">{fmt(k.value)}</span>
                    {prev ? (
                      <span className="an-kpi__change">
                        {k.format === 'percent' ? pointsChange(k.value, prev.value) : change(k.value ?? 0, prev.value ?? 0)} <span className="an-kpi__was">({compareName.toLowerCase()}: {fmt(prev.value)})</span>
                      </span>
                    ) : null}
                  </Link>
                </li>
              );
            })}
            <li>
              <Link to={reportLink('customers')} className="an-kpi">
                <span className="an-kpi__label">New / returning customers</span>
                <span className="an-kpi__value">
                  {customers(fresh.data) ?? '…'} / {customers(back.data) ?? '…'}
                </span>
              </Link>
            </li>
          </ul>
        ) : null}
      </section>
      <section aria-labelledby="an-rev">
        <h2 id="an-rev">Net sales</h2>
        {rev.error ? <p>The chart could not be loaded: {rev.error.message}</p> : rev.loading && !rev.data ? <p>Loading the chart…</p> : <Chart title="Net sales" points={points} format={money} compareName={compareName} />}
        <p>
          <Link to={reportLink('revenue')}>The revenue report</Link>
        </p>
      </section>
      <section aria-labelledby="an-stock">
        <h2 id="an-stock">Stock</h2>
        {stock.data ? (
          <ul className="admin-tiles">
            <li>
              <Link to={`${BASE}analytics/stock/?type=lowstock`}>{Number(stock.data.totals.lowstock ?? 0)} low in stock</Link>
            </li>
            <li>
              <Link to={`${BASE}analytics/stock/?type=outofstock`}>{Number(stock.data.totals.outofstock ?? 0)} out of stock</Link>
            </li>
          </ul>
        ) : stock.error ? (
          <p>The stock counts could not be loaded.</p>
        ) : (
          <p>Loading…</p>
        )}
      </section>
      <section aria-labelledby="an-boards">
        <h2 id="an-boards">Leaderboards</h2>
        {boards.error ? <p>The leaderboards could not be loaded: {boards.error.message}</p> : null}
        <div className="an-boards">
          {(boards.data ?? []).map((b) => (
            <table key={b.id} className="admin-table an-board">
              <caption>{b.label}</caption>
              <thead>
                <tr>
                  {b.headers.map((h) => (
                    <th key={h.label} scope="col">
                      {h.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {b.rows.length === 0 ? (
                  <tr>
                    <td colSpan={b.headers.length}>Nothing in this range.</td>
                  </tr>
                ) : (
                  b.rows.map((r, i) => (
                    <tr key={i}>
                      {r.map((c, j) =>
                        j === 0 ? (
                          <th key={j} scope="row">
                            {String(c.value)}
                          </th>
                        ) : (
                          <td key={j}>{cellText(c.value, c.format === 'currency' ? 'currency' : c.format === 'number' ? 'number' : 'text', currency)}</td>
                        ),
                      )}
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          ))}
        </div>
      </section>
    </div>
  );
}
