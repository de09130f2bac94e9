// One analytics report: the range picker, the filters, the chart (a metric
// over the range, with the compared range dashed), the sortable paged
// table and its CSV download. Everything it shows is in the address.

import { useMemo, useRef, useState } from 'react';
import { decodeEntities, NETWORK_ERROR, withQuery } from '../api';
import { restFetch } from '../../lib/rest';
import { BASE, useRouter, type Location } from '../router';
import { DataTable, type Column } from '../ui/DataTable';
import { Field } from '../ui/Field';
import { useListQuery } from '../ui/list';
import { Chart, type Point } from './Chart';
import { statsURL, toPoints, useGet, useRange, useReportRows } from './data';
import { apiDates, COMPARES, rangeParams, type RangeState } from './range';
import { RangePicker } from './RangePicker';
import { cellText, parseCSV, type FilterName, type ReportConfig } from './reports';
import { ANALYTICS, type ReportRow, type Stats, type StatsAnswer } from './types';

const RANGE_KEYS = ['period', 'compare', 'after', 'before', 'interval'];
export const PER_PAGE = 25;

export function money(currency: string) {
  return (n: number) => cellText(n, 'currency', currency);
}
const count = (n: number) => cellText(n, 'number', '');

export function Report({ config, location, currency }: { config: ReportConfig; location: Location; currency: string }) {
  const { navigate } = useRouter();
  const info = useRange(location);
  const { span, compared, interval } = info;
  const t = config.table;
  const query = useListQuery(location, {
    base: `${BASE}analytics/${config.slug}/`,
    sorts: { keys: t.sorts, initial: t.initial },
    filters: [...RANGE_KEYS, 'chart', ...config.filters],
  });
  const filterValues: Record<string, string> = {};
  for (const f of config.filters) if (query.filter(f)) filterValues[f] = query.filter(f);

  // The chart: the chosen metric, this range and the compared one.
  const metric = config.metrics.find((m) => m.key === query.filter('chart')) ?? config.metrics[0];
  // Nothing dated is asked for before the shop's day is known.
  const cur = useGet<StatsAnswer>(config.stats && info.ready ? statsURL(config.stats, span, interval, filterValues) : null);
  const cmp = useGet<StatsAnswer>(config.stats && info.ready ? statsURL(config.stats, compared, interval, filterValues) : null);
  const bars = useGet<{ totals: Stats }>(config.bars ? `${ANALYTICS}reports/${config.bars.path}` : null);
  const compareName = COMPARES.find((c) => c.value === info.range.compare)!.label;
  const points: Point[] = useMemo(() => {
    if (config.bars) return bars.data ? config.bars.items.map((it) => ({ label: it.label, value: Number(bars.data!.totals[it.key] ?? 0) })) : [];
    return metric ? toPoints(cur.data, cmp.data, metric.key, interval) : [];
  }, [cur.data, cmp.data, bars.data, metric?.key, interval]);
  const format = metric?.format === 'currency' ? money(currency) : count;

  // The table.
  const tableQuery = {
    ...apiDates(span),
    ...(t.intervals ? { interval } : {}),
    orderby: query.sort?.orderby,
    order: query.sort?.order,
    extended_info: t.intervals ? undefined : 'true',
    ...filterValues,
  };
  const url = withQuery(`${ANALYTICS}reports/${t.path}`, { ...tableQuery, page: query.page, per_page: PER_PAGE });
  const data = useReportRows(info.ready ? url : null, !!t.intervals, t.id);
  const columns: Column<ReportRow & { id: number }>[] = t.columns
    .filter((c) => !c.optional || data.rows.some((r) => c.value(r)))
    .map((c) => ({
    key: c.key,
    header: c.header,
    rowHeader: c.rowHeader,
    sort: c.sort,
    firstOrder: c.format === 'text' ? 'asc' : 'desc',
    cell: (r) => cellText(c.value(r), c.format, currency),
  }));

  const setRange = (r: RangeState) => navigate(query.href(rangeParams(r)), { keepScroll: true });

  const chartError = cur.error ?? bars.error;
  return (
    <div className="an-report">
      <RangePicker range={info.range} today={info.today} onChange={setRange} />
      {config.metrics.length > 1 ? (
        <div className="admin-toolbar">
          <Field label="Chart">
            {(p) => (
              <select {...p} value={metric.key} onChange={(e) => query.go({ chart: e.target.value === config.metrics[0].key ? undefined : e.target.value, paged: query.page }, { replace: true })}>
                {config.metrics.map((m) => (
                  <option key={m.key} value={m.key}>
                    {m.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      ) : null}
      {chartError ? (
        <div role="alert" className="admin-notice admin-notice--error">
          <p>{chartError.message}</p>
        </div>
      ) : cur.loading || bars.loading ? (
        <p className="an-chart an-chart--loading">Loading the chart…</p>
      ) : (
        <Chart title={config.bars ? config.bars.title : metric.label} points={points} format={format} kind={config.bars ? 'bar' : 'line'} compareName={config.bars ? undefined : compareName} />
      )}
      <h2>{config.title} in detail</h2>
      <Export config={config} query={tableQuery} fileName={`${config.slug}-${span.from}-${span.to}.csv`} />
      <DataTable
        noun={t.noun}
        label={`${config.title} report`}
        query={query}
        data={data}
        columns={columns}
        filters={config.filters.length ? <Filters names={config.filters} value={query.filter} go={(patch) => query.go(patch)} /> : undefined}
        empty="Nothing in this range."
        pagerLabel={`${config.title} pages`}
      />
    </div>
  );
}

/**
 * Downloads the report as CSV: the server's export of the table's query
 * (?_format=csv: every row, in the table's order), fetched with the nonce
 * in its header so it never sits in an address, saved under the name the
 * server gives.
 */
function Export({ config, query, fileName }: { config: ReportConfig; query: Record<string, string | number | undefined>; fileName: string }) {
  const [state, setState] = useState<{ busy: boolean; text: string; error: boolean }>({ busy: false, text: '', error: false });
  const link = useRef<HTMLAnchorElement>(null);
  const noun = config.table.noun;
  const fail = (text: string) => setState({ busy: false, text, error: true });
  const run = async () => {
    setState({ busy: true, text: 'Preparing the download…', error: false });
    let res: Response;
    try {
      res = await restFetch(withQuery(`${ANALYTICS}reports/${config.table.path}`, { ...query, _format: 'csv' }), { headers: { Accept: 'text/csv' } });
    } catch {
      return fail(NETWORK_ERROR);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok || !/csv/.test(res.headers.get('Content-Type') ?? '')) {
      let message = `The download failed (${res.status}). Try again.`;
      try {
        const e = JSON.parse(text) as { message?: string };
        if (e.message) message = decodeEntities(e.message);
      } catch {
        // not JSON: the generic message
      }
      return fail(message);
    }
    const named = /filename="?([^";]+)"?/.exec(res.headers.get('Content-Disposition') ?? '')?.[1];
    const href = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
    const a = link.current!;
    a.href = href;
    a.download = named ?? fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
    const n = Math.max(0, parseCSV(text).length - 1);
    setState({ busy: false, text: `Downloaded ${n} ${n === 1 ? noun.one : noun.many} as CSV.`, error: false });
  };
  return (
    <div className="admin-toolbar an-export">
      <button type="button" onClick={() => void run()} disabled={state.busy}>
        Download CSV
      </button>
      {/* The download's anchor: clicked from code, never shown. */}
      <a ref={link} hidden aria-hidden="true" tabIndex={-1} />
      <p aria-live="polite" className={state.error ? 'admin-field__error' : 'admin-list-status'}>
        {state.text}
      </p>
    </div>
  );
}

const STATUSES: [string, string][] = [
  ['pending', 'Pending payment'],
  ['processing', 'Processing'],
  ['on-hold', 'On hold'],
  ['completed', 'Completed'],
  ['cancelled', 'Cancelled'],
  ['refunded', 'Refunded'],
  ['failed', 'Failed'],
];

const FILTERS: Record<FilterName, { label: string; any: string; options?: [string, string][]; source?: { path: string; name: (x: Record<string, unknown>) => string } }> = {
  status_is: { label: 'Order status', any: 'Any status', options: STATUSES },
  type: { label: 'Stock status', any: 'Any stock status', options: [['lowstock', 'Low stock'], ['instock', 'In stock'], ['outofstock', 'Out of stock'], ['onbackorder', 'On backorder']] },
  customer_type: { label: 'Customer type', any: 'Any customer', options: [['new', 'New'], ['returning', 'Returning']] },
  product_includes: { label: 'Product', any: 'Any product', source: { path: '/wp-json/wc/v3/products?per_page=100&orderby=title&order=asc', name: (x) => String(x.name) } },
  category_includes: { label: 'Category', any: 'Any category', source: { path: '/wp-json/wc/v3/products/categories?per_page=100', name: (x) => String(x.name) } },
  coupon_includes: { label: 'Coupon', any: 'Any coupon', source: { path: '/wp-json/wc/v3/coupons?per_page=100', name: (x) => String(x.code) } },
};

function Filters({ names, value, go }: { names: FilterName[]; value: (n: string) => string; go: (patch: Record<string, string | undefined>) => void }) {
  return (
    <>
      {names.map((n) => (
        <FilterSelect key={n} name={n} value={value(n)} onChange={(v) => go({ [n]: v || undefined })} />
      ))}
    </>
  );
}

function FilterSelect({ name, value, onChange }: { name: FilterName; value: string; onChange: (v: string) => void }) {
  const f = FILTERS[name];
  const loaded = useGet<Record<string, unknown>[]>(f.source ? f.source.path : null);
  const options: [string, string][] = f.options ?? (loaded.data ?? []).map((x) => [String(x.id), f.source!.name(x)]);
  // A value from the address that is not (yet) among the options still shows.
  if (value && !options.some(([v]) => v === value)) options.push([value, `#${value}`]);
  return (
    <Field label={f.label}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{f.any}</option>
          {options.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
