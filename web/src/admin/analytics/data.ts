// The analytics screens' fetching: the range from the address, a …/stats
// answer for the range and for the one it is compared with, and a report's
// rows for the table (with X-WP-Total's paging).

import { useCallback, useEffect, useMemo, useState } from 'react';
import { adminCall, withQuery, type AdminError } from '../api';
import type { Location } from '../router';
import type { ListData } from '../ui/list';
import { apiDates, comparisonSpan, currentSpan, dayIn, defaultInterval, formatDay, readRange, type Interval, type RangeState, type Span } from './range';
import { ANALYTICS, SETTINGS_PATH, type ReportRow, type StatsAnswer, type StatsInterval } from './types';
import type { Point } from './Chart';

export interface RangeInfo {
  range: RangeState;
  today: string;
  span: Span;
  compared: Span;
  interval: Interval;
}

// The shop's time zone (the analytics settings'), read once a session and
// followed when the settings screen loads or saves it; '' when it could not
// be read (the browser's day is used then).
let shopZone: string | null = null;
let zoneAsked = false;
const zoneListeners = new Set<(zone: string) => void>();

/** Records the shop's time zone (the settings screen calls it with what it loads and saves). */
export function setShopZone(zone: string) {
  shopZone = zone;
  for (const f of zoneListeners) f(zone);
}

/** Forgets the time zone read (for tests). */
export function resetShopZone() {
  shopZone = null;
  zoneAsked = false;
}

/** The shop's time zone, null until it is known. */
export function useShopZone(): string | null {
  const [zone, setZone] = useState(shopZone);
  useEffect(() => {
    const f = (z: string) => setZone(z);
    zoneListeners.add(f);
    if (shopZone !== null) setZone(shopZone);
    else if (!zoneAsked) {
      zoneAsked = true;
      adminCall<{ time_zone?: string }>('GET', SETTINGS_PATH)
        .then((r) => setShopZone(r.ok ? (r.data.time_zone ?? '') : ''))
        .catch(() => setShopZone(''));
    }
    return () => void zoneListeners.delete(f);
  }, []);
  return zone;
}

/**
 * The range from the address, its dates counted from today in the shop's
 * time zone; ready is false until the zone is known (nothing should be
 * fetched for a day that may not be the shop's).
 */
export function useRange(location: Location): RangeInfo & { ready: boolean } {
  const zone = useShopZone();
  const today = dayIn(new Date(), zone ?? '');
  const key = location.search.toString();
  return useMemo(() => {
    const range = readRange(location.search, today);
    const span = currentSpan(range, today);
    return { range, today, span, compared: comparisonSpan(span, range.compare), interval: range.interval || defaultInterval(span), ready: zone !== null };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, today, zone]);
}

/** GETs url (null: nothing to get) and follows it; an older answer arriving late is dropped. */
export function useGet<T>(url: string | null): { data: T | null; error: AdminError | null; loading: boolean; total: number | null; totalPages: number | null; reload: () => void } {
  const [state, setState] = useState<{ data: T | null; error: AdminError | null; loading: boolean; total: number | null; totalPages: number | null }>({ data: null, error: null, loading: url !== null, total: null, totalPages: null });
  const [gen, setGen] = useState(0);
  useEffect(() => {
    if (url === null) return;
    const ctl = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null }));
    adminCall<T>('GET', url, undefined, { signal: ctl.signal })
      .then((r) => {
        if (ctl.signal.aborted) return;
        if (r.ok) setState({ data: r.data, error: null, loading: false, total: r.total, totalPages: r.totalPages });
        else setState({ data: null, error: r.error, loading: false, total: null, totalPages: null });
      })
      .catch(() => {});
    return () => ctl.abort();
  }, [url, gen]);
  const reload = useCallback(() => setGen((g) => g + 1), []);
  return { ...state, reload };
}

/** The …/stats address for a span: every interval on one page, oldest first. */
export function statsURL(path: string, span: Span, interval: Interval, filters: Record<string, string> = {}): string {
  return withQuery(`${ANALYTICS}reports/${path}`, { ...apiDates(span), interval, orderby: 'date', order: 'asc', per_page: 100, ...filters });
}

/** What an interval is called: "Nov 22, 2026", "Nov 22, 2026 14:00", "Week of Nov 16, 2026", "November 2026". */
export function intervalLabel(iv: Pick<StatsInterval, 'date_start'>, interval: Interval): string {
  const day = iv.date_start.slice(0, 10);
  if (interval === 'hour') return `${formatDay(day)} ${iv.date_start.slice(11, 16)}`;
  if (interval === 'week') return `Week of ${formatDay(day)}`;
  if (interval === 'month') {
    const [y, m] = day.split('-').map(Number);
    return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  }
  return formatDay(day);
}

/** The chart's points: metric per interval of current, paired by position with compared's. */
export function toPoints(current: StatsAnswer | null, compared: StatsAnswer | null, metric: string, interval: Interval): Point[] {
  if (!current) return [];
  const asc = (a: StatsInterval[]) => [...a].filter((x) => typeof x === 'object' && x !== null).sort((x, y) => (x.date_start < y.date_start ? -1 : x.date_start > y.date_start ? 1 : 0));
  const cur = asc(current.intervals ?? []);
  const cmp = compared ? asc(compared.intervals ?? []) : [];
  return cur.map((iv, i) => {
    const c = cmp[i];
    const p: Point = { label: intervalLabel(iv, interval), value: Number(iv.subtotals[metric] ?? 0) };
    if (c) p.compare = { label: intervalLabel(c, interval), value: Number(c.subtotals[metric] ?? 0) };
    return p;
  });
}

/** A report's rows for its table, each with the id DataTable keys it by. */
export function useReportRows(url: string | null, intervals: boolean, id: (r: ReportRow, i: number) => number): ListData<ReportRow & { id: number }> {
  const got = useGet<ReportRow[] | StatsAnswer>(url);
  const rows = useMemo(() => {
    const raw = got.data ? (intervals ? ((got.data as StatsAnswer).intervals ?? []) : (got.data as ReportRow[])) : [];
    return (raw as ReportRow[]).filter((r) => typeof r === 'object' && r !== null).map((r, i) => ({ ...r, id: id(r, i) }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [got.data, intervals]);
  return { rows, total: got.total ?? rows.length, totalPages: got.totalPages ?? 1, loading: got.loading || url === null, error: got.error, reload: got.reload };
}

