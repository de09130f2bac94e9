import type { ListingPage, StoreProduct } from '../types';
import { pageHref } from './listing-helpers';

/**
 * The next page of a listing: the same URL the pagination's "Next" link
 * carries (base + "page/N+1/" + the kept query), or null on the last page.
 */
export function nextPageUrl(data: Pick<ListingPage, 'base' | 'page_number' | 'total_pages' | 'url'>): string | null {
  if (!data.base || !(data.page_number < data.total_pages)) return null;
  return pageHref(data.base, data.page_number + 1, data.url);
}

/**
 * Infinite scroll states (spec section 4): can-load (idle with a next URL),
 * loading, last page reached (done: no next URL), error (stops).
 */
export type ScrollStatus = 'idle' | 'loading' | 'done' | 'error';

export interface ScrollState {
  status: ScrollStatus;
  /** URL of the page to load next; null once the last page is shown. */
  next: string | null;
  /** Pages appended so far. */
  loaded: number;
}

export type ScrollAction =
  | { type: 'start' }
  | { type: 'loaded'; next: string | null }
  | { type: 'failed' };

export function initialScrollState(next: string | null): ScrollState {
  return { status: next ? 'idle' : 'done', next, loaded: 0 };
}

export function canLoad(s: ScrollState): boolean {
  return s.status === 'idle' && !!s.next;
}

export function scrollReducer(s: ScrollState, a: ScrollAction): ScrollState {
  switch (a.type) {
    case 'start':
      return canLoad(s) ? { ...s, status: 'loading' } : s;
    case 'loaded':
      if (s.status !== 'loading') return s;
      return { status: a.next ? 'idle' : 'done', next: a.next, loaded: s.loaded + 1 };
    case 'failed':
      // Loading stops; `next` is kept for the retry link.
      return s.status === 'loading' ? { ...s, status: 'error' } : s;
    default:
      return s;
  }
}

/** Products of a loaded page not already shown (a catalogue change can shift items between pages). */
export function newProducts(shown: StoreProduct[], loaded: StoreProduct[]): StoreProduct[] {
  const seen = new Set(shown.map((p) => p.id));
  return loaded.filter((p) => !seen.has(p.id));
}

export function loadedText(n: number): string {
  if (n === 0) return 'No more products.';
  return n === 1 ? 'Loaded 1 more product' : `Loaded ${n} more products`;
}

/**
 * Name of the DOM CustomEvent dispatched (bubbling, from the `ul.products`
 * container) after products are appended to a listing. `event.detail.ids`
 * lists the appended product ids, in page order. The currency issue listens to
 * it to refresh the new cards' prices (spec section 3, price cache request).
 */
export const PRODUCTS_APPENDED_EVENT = 'vitrine:products-appended';

export interface ProductsAppendedDetail {
  ids: number[];
}
