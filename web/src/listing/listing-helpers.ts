import type { OrderBy } from '../types';
import { buildQuery, PAGE_PARAMS, parseUrl, type QueryPair } from '../lib/url';

export const SORT_OPTIONS: { value: OrderBy; label: string }[] = [
  { value: 'menu_order', label: 'Default sorting' },
  { value: 'popularity', label: 'Sort by popularity' },
  { value: 'rating', label: 'Sort by average rating' },
  { value: 'date', label: 'Sort by latest' },
  { value: 'price', label: 'Sort by price: low to high' },
  { value: 'price-desc', label: 'Sort by price: high to low' },
];

/** Query pairs of the listing URL that pagination links keep (everything but the page). */
export function keptQuery(url: string): QueryPair[] {
  return parseUrl(url).query.filter(([k]) => PAGE_PARAMS.indexOf(k) < 0);
}

export function pageHref(base: string, n: number, url: string): string {
  const b = base.endsWith('/') ? base : base + '/';
  // Search results live on "/" (?s=…), which has no /page/N/ route: page with ?page=N.
  if (b === '/') return b + buildQuery(n <= 1 ? keptQuery(url) : [...keptQuery(url), ['page', String(n)]]);
  return (n <= 1 ? b : `${b}page/${n}/`) + buildQuery(keptQuery(url));
}

/** "Showing 1–24 of 40 results" and friends (WooCommerce wording). */
export function resultCountText(total: number, page: number, totalPages: number, onPage: number): string {
  if (total === 1) return 'Showing the single result';
  if (totalPages <= 1 || total <= onPage) return `Showing all ${total} results`;
  let first: number;
  let last: number;
  if (page >= totalPages) {
    last = total;
    first = total - onPage + 1;
  } else {
    first = (page - 1) * onPage + 1;
    last = first + onPage - 1;
  }
  return `Showing ${first}\u2013${last} of ${total} results`;
}

/** Page numbers with gaps (0 = ellipsis), WooCommerce-like: 1 … 4 5 6 … 10. */
export function pageList(current: number, total: number): number[] {
  const out: number[] = [];
  for (let i = 1; i <= total; i++) {
    if (i === 1 || i === total || Math.abs(i - current) <= 2) out.push(i);
    else if (out[out.length - 1] !== 0) out.push(0);
  }
  return out;
}

/**
 * The count once infinite scroll has appended pages: the range runs from the
 * first product of the server-rendered page over every product shown.
 */
export function shownCountText(total: number, page: number, totalPages: number, onFirstPage: number, shown: number): string {
  if (shown >= total) return total === 1 ? 'Showing the single result' : `Showing all ${total} results`;
  // Pages before the last are full, so the first page's size is the page size.
  const first = page >= totalPages ? total - onFirstPage + 1 : (page - 1) * onFirstPage + 1;
  const last = Math.min(total, first + shown - 1);
  return `Showing ${first}\u2013${last} of ${total} results`;
}
