// How the dashboard writes a performance indicator whose format is not
// money or a count: the conversion rate ("percent", orders ÷ sessions,
// null when no session was counted; decision 0121).

import { cellText } from './reports';

const pct = (n: number) => `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(n)}%`;

/** An indicator's value: a percentage ("2.5%", "—" without one), money or a number. */
export function kpiText(v: number | null | undefined, format: string, currency: string): string {
  if (format === 'percent') return v === null || v === undefined ? '—' : pct(v);
  return cellText(v ?? 0, format === 'currency' ? 'currency' : 'number', currency);
}

/** A rate's change in percentage points ("+0.5 pt", "−1.25 pt", "0 pt"); "—" when either side has no rate. */
export function pointsChange(now: number | null | undefined, before: number | null | undefined): string {
  if (now === null || now === undefined || before === null || before === undefined) return '—';
  const d = Math.round((now - before) * 100) / 100;
  return `${d > 0 ? '+' : d < 0 ? '−' : ''}${Math.abs(d)} pt`;
}
