import { parseUrl, type QueryPair } from '../lib/url';

/**
 * The listing filters' URLs (decision 0103: the URL is the state, in
 * WooCommerce's names). The sidebar's links are built here from the page's
 * normalized URL, in the order the server writes it (storefront's
 * filterParams): the listing's own parameters first (s, post_type,
 * product_cat, orderby, as they came), then filter_<attribute> (each with
 * query_type_<attribute>=or when "any"), min_price, max_price,
 * price_currency, rating_filter, filter_stock_status, on_sale. A filter
 * change goes back to the first page. Runs in QuickJS (no URL API).
 */

export interface FilterState {
  /** Attribute slug → its chosen term slugs (sorted) and whether "any". */
  attributes: Map<string, { terms: string[]; or: boolean }>;
  min: string;
  max: string;
  currency: string;
  ratings: string[];
  stock: string[];
  onSale: boolean;
  /** The parameters that are not filters (nor the page), in their order. */
  rest: QueryPair[];
}

const PAGE = ['page', 'paged', 'product-page'];
const SIMPLE = ['min_price', 'max_price', 'price_currency', 'rating_filter', 'filter_stock_status', 'on_sale'];

function list(v: string): string[] {
  const out = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return Array.from(new Set(out)).sort();
}

function isFilterKey(k: string): boolean {
  return k.startsWith('filter_') || k.startsWith('query_type_') || SIMPLE.indexOf(k) >= 0;
}

/** Reads the filters of a listing URL. */
export function readFilterState(url: string): FilterState {
  const { query } = parseUrl(url);
  const get = (k: string) => query.find(([q]) => q === k)?.[1] ?? '';
  const attributes = new Map<string, { terms: string[]; or: boolean }>();
  for (const [k, v] of query) {
    if (!k.startsWith('filter_') || k === 'filter_stock_status') continue;
    const terms = list(v);
    if (terms.length) attributes.set(k.slice(7), { terms, or: get('query_type_' + k.slice(7)) === 'or' });
  }
  return {
    attributes,
    min: get('min_price'),
    max: get('max_price'),
    currency: get('price_currency'),
    ratings: list(get('rating_filter')),
    stock: list(get('filter_stock_status')),
    onSale: get('on_sale') === '1',
    rest: query.filter(([k]) => !isFilterKey(k) && PAGE.indexOf(k) < 0),
  };
}

function enc(v: string): string {
  // Slugs, ratings and statuses are plain; commas stay commas, as the server writes them.
  return encodeURIComponent(v).replace(/%2C/gi, ',');
}

/** The normalized URL of state on the listing's first page (base: "/shop/", or "/" for search). */
export function filterHref(base: string, s: FilterState): string {
  const q: string[] = s.rest.map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v));
  const slugs = Array.from(s.attributes.keys()).sort();
  for (const slug of slugs) {
    const a = s.attributes.get(slug)!;
    if (!a.terms.length) continue;
    q.push('filter_' + slug + '=' + enc(a.terms.join(',')));
    if (a.or) q.push('query_type_' + slug + '=or');
  }
  if (s.min) q.push('min_price=' + enc(s.min));
  if (s.max) q.push('max_price=' + enc(s.max));
  if ((s.min || s.max) && s.currency) q.push('price_currency=' + enc(s.currency));
  if (s.ratings.length) q.push('rating_filter=' + s.ratings.join(','));
  if (s.stock.length) q.push('filter_stock_status=' + s.stock.join(','));
  if (s.onSale) q.push('on_sale=1');
  return (base || '/') + (q.length ? '?' + q.join('&') : '');
}

function toggled(values: string[], v: string): string[] {
  return values.indexOf(v) >= 0 ? values.filter((x) => x !== v) : [...values, v].sort();
}

function clone(s: FilterState): FilterState {
  return { ...s, attributes: new Map(s.attributes), ratings: [...s.ratings], stock: [...s.stock] };
}

/** What an option's link does: choose or drop it. */
export type FilterTarget =
  | { kind: 'attribute'; slug: string; value: string; queryType: 'or' | 'and' }
  | { kind: 'rating' | 'stock' | 'sale'; value: string }
  | { kind: 'price' };

/** The state with target toggled (a price target clears the price). */
export function toggleFilter(s: FilterState, t: FilterTarget): FilterState {
  const n = clone(s);
  switch (t.kind) {
    case 'attribute': {
      const terms = toggled(n.attributes.get(t.slug)?.terms ?? [], t.value);
      if (terms.length) n.attributes.set(t.slug, { terms, or: t.queryType === 'or' });
      else n.attributes.delete(t.slug);
      break;
    }
    case 'rating':
      n.ratings = toggled(n.ratings, t.value);
      break;
    case 'stock':
      n.stock = toggled(n.stock, t.value);
      break;
    case 'sale':
      n.onSale = !n.onSale;
      break;
    case 'price':
      n.min = '';
      n.max = '';
      n.currency = '';
      break;
  }
  return n;
}

/** The state without any filter (the listing's own parameters kept). */
export function clearFilters(s: FilterState): FilterState {
  return { attributes: new Map(), min: '', max: '', currency: '', ratings: [], stock: [], onSale: false, rest: s.rest };
}

/** A key naming an option across renders (the focus goes back to it after an update). */
export function targetKey(t: FilterTarget): string {
  return t.kind === 'attribute' ? `attribute:${t.slug}:${t.value}` : t.kind === 'price' ? 'price' : `${t.kind}:${t.value}`;
}
