// WooCommerce Admin's analytics answers (/wp-json/wc-analytics/...), as the
// admin reads them. Only the fields the screens use are typed; the shapes
// follow WooCommerce's own answers.

/** One interval's numbers, or the totals, of a …/stats answer: the metrics by name. */
export type Stats = Record<string, number | unknown[] | null | undefined>;

export interface StatsInterval {
  interval: string;
  date_start: string;
  date_start_gmt: string;
  date_end: string;
  date_end_gmt: string;
  subtotals: Stats;
}

export interface StatsAnswer {
  totals: Stats;
  intervals: StatsInterval[];
}

export interface Indicator {
  stat: string;
  chart: string;
  label: string;
  format: 'currency' | 'number' | string;
  value: number | null;
}

export interface LeaderboardCell {
  display: string;
  value: string | number;
  format?: 'currency' | 'number' | string;
}

export interface Leaderboard {
  id: string;
  label: string;
  headers: { label: string }[];
  rows: LeaderboardCell[][];
}

/** A report's row: its numbers and extended_info (names, when asked for with extended_info=true). */
export type ReportRow = Record<string, unknown> & { extended_info?: Record<string, unknown> };

export const ANALYTICS = '/wp-json/wc-analytics/';

/** The analytics settings (the shop's time zone, the statuses left out). */
export const SETTINGS_PATH = `${ANALYTICS}vitrine/settings`;
