// The date range a report covers, and the range it is compared with. The
// choice lives in the address with WooCommerce Admin's parameter names
// (period, compare, after, before, interval), so a report can be bookmarked
// and reloaded; the dates are computed from "today", which is passed in, so
// the rules can be tested on any day. Dates are calendar days (YYYY-MM-DD)
// in the shop's time, computed in UTC arithmetic so a clock change never
// shifts a day; "today" is the shop's day (dayIn its time zone), not the
// browser's.

export type Period = 'today' | 'yesterday' | 'week' | 'last_week' | 'month' | 'last_month' | 'quarter' | 'year' | 'custom';
export type Compare = 'previous_period' | 'previous_year';
export type Interval = 'hour' | 'day' | 'week' | 'month';

export const PERIODS: { value: Period; label: string }[] = [
  { value: 'today', label: 'Today' },
  { value: 'yesterday', label: 'Yesterday' },
  { value: 'week', label: 'Week to date' },
  { value: 'last_week', label: 'Last week' },
  { value: 'month', label: 'Month to date' },
  { value: 'last_month', label: 'Last month' },
  { value: 'quarter', label: 'Quarter to date' },
  { value: 'year', label: 'Year to date' },
  { value: 'custom', label: 'Custom dates' },
];

export const COMPARES: { value: Compare; label: string }[] = [
  { value: 'previous_period', label: 'Previous period' },
  { value: 'previous_year', label: 'Previous year' },
];

export const INTERVALS: { value: Interval; label: string }[] = [
  { value: 'hour', label: 'By hour' },
  { value: 'day', label: 'By day' },
  { value: 'week', label: 'By week' },
  { value: 'month', label: 'By month' },
];

/** A span of whole days, both ends included. */
export interface Span {
  from: string;
  to: string;
}

export interface RangeState {
  period: Period;
  compare: Compare;
  /** The custom dates, when period is custom. */
  after: string;
  before: string;
  /** The interval asked for in the address, or '' for the one the span suits. */
  interval: Interval | '';
}

const DAY = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function toMs(d: string): number {
  const [y, m, day] = d.split('-').map(Number);
  return Date.UTC(y, m - 1, day);
}

function fromMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(d: string, n: number): string {
  return fromMs(toMs(d) + n * DAY);
}

/** Whether s is a real calendar day written YYYY-MM-DD. */
export function isDay(s: string): boolean {
  return ISO_DAY.test(s) && fromMs(toMs(s)) === s;
}

/** The calendar day of a Date in the browser's time. */
export function dayOf(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/**
 * The calendar day of a Date in the time zone zone (the shop's: the
 * analytics settings' time_zone, where the reports' days begin); the
 * browser's day when zone is empty or unknown.
 */
export function dayIn(now: Date, zone: string): string {
  if (!zone) return dayOf(now);
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
    const part = (t: string) => parts.find((x) => x.type === t)?.value ?? '';
    const d = `${part('year')}-${part('month')}-${part('day')}`;
    return isDay(d) ? d : dayOf(now);
  } catch {
    return dayOf(now);
  }
}

/** The number of days in a span, both ends counted. */
export function spanDays(s: Span): number {
  return Math.round((toMs(s.to) - toMs(s.from)) / DAY) + 1;
}

/** The same day a year earlier (29 February becomes 28 February). */
function yearEarlier(d: string): string {
  const [y, m, day] = d.split('-').map(Number);
  const last = new Date(Date.UTC(y - 1, m, 0)).getUTCDate();
  return fromMs(Date.UTC(y - 1, m - 1, Math.min(day, last)));
}

/** The span a period covers on the day today. Weeks start on Monday. */
export function periodSpan(period: Exclude<Period, 'custom'>, today: string): Span {
  const [y, m] = today.split('-').map(Number);
  const weekday = (new Date(toMs(today)).getUTCDay() + 6) % 7; // Monday 0
  const monday = addDays(today, -weekday);
  const monthStart = fromMs(Date.UTC(y, m - 1, 1));
  switch (period) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const d = addDays(today, -1);
      return { from: d, to: d };
    }
    case 'week':
      return { from: monday, to: today };
    case 'last_week':
      return { from: addDays(monday, -7), to: addDays(monday, -1) };
    case 'month':
      return { from: monthStart, to: today };
    case 'last_month':
      return { from: fromMs(Date.UTC(y, m - 2, 1)), to: addDays(monthStart, -1) };
    case 'quarter':
      return { from: fromMs(Date.UTC(y, Math.floor((m - 1) / 3) * 3, 1)), to: today };
    case 'year':
      return { from: `${y}-01-01`, to: today };
  }
}

/** The span the report covers: the period's, or the custom dates (in order). */
export function currentSpan(r: RangeState, today: string): Span {
  if (r.period === 'custom') {
    return r.after <= r.before ? { from: r.after, to: r.before } : { from: r.before, to: r.after };
  }
  return periodSpan(r.period, today);
}

/** The span compared with: as long, just before; or the same days a year earlier. */
export function comparisonSpan(s: Span, compare: Compare): Span {
  if (compare === 'previous_year') return { from: yearEarlier(s.from), to: yearEarlier(s.to) };
  const n = spanDays(s);
  return { from: addDays(s.from, -n), to: addDays(s.from, -1) };
}

/** The interval a span reads best by: hours for a day, days for a month, weeks for a quarter, else months. */
export function defaultInterval(s: Span): Interval {
  const n = spanDays(s);
  if (n <= 1) return 'hour';
  if (n <= 31) return 'day';
  if (n <= 100) return 'week';
  return 'month';
}

/** The range from the address; anything unknown or malformed falls back to month to date, previous year... */
export function readRange(search: URLSearchParams, today: string): RangeState {
  const p = search.get('period') ?? '';
  let period: Period = PERIODS.some((x) => x.value === p) ? (p as Period) : 'month';
  const c = search.get('compare') ?? '';
  const compare: Compare = c === 'previous_period' ? 'previous_period' : 'previous_year';
  let after = search.get('after') ?? '';
  let before = search.get('before') ?? '';
  if (period === 'custom' && !(isDay(after) && isDay(before))) period = 'month';
  if (period !== 'custom') {
    const s = periodSpan(period, today);
    after = s.from;
    before = s.to;
  }
  const i = search.get('interval') ?? '';
  const interval = INTERVALS.some((x) => x.value === i) ? (i as Interval) : '';
  return { period, compare, after, before, interval };
}

/** The address parameters that say r (the defaults left out: one range, one address). */
export function rangeParams(r: RangeState): Record<string, string | undefined> {
  return {
    period: r.period === 'month' ? undefined : r.period,
    compare: r.compare === 'previous_year' ? undefined : r.compare,
    after: r.period === 'custom' ? r.after : undefined,
    before: r.period === 'custom' ? r.before : undefined,
    interval: r.interval || undefined,
  };
}

/** The API's after/before for a span: the first and the last second of its days. */
export function apiDates(s: Span): { after: string; before: string } {
  return { after: `${s.from}T00:00:00`, before: `${s.to}T23:59:59` };
}

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** "Nov 1, 2026" for a day. */
export function formatDay(d: string): string {
  return dayFormat.format(new Date(toMs(d)));
}

/** "Nov 1 – 29, 2026"-like text for a span (one day: just the day). */
export function formatSpan(s: Span): string {
  return s.from === s.to ? formatDay(s.from) : `${formatDay(s.from)} – ${formatDay(s.to)}`;
}
