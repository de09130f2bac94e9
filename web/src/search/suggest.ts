import type { NavCategory, SearchSuggestion } from '../types';

export const SEARCH_ENDPOINT = '/wp-admin/admin-ajax.php';
export const SEARCH_DEBOUNCE_MS = 200;

/** The live-search URL (protocol-notes section 6). */
export function suggestUrl(query: string, category = ''): string {
  let u = `${SEARCH_ENDPOINT}?action=flatsome_ajax_search_products&query=${encodeURIComponent(query)}`;
  if (category) u += `&product_cat=${encodeURIComponent(category)}`;
  return u;
}

/** Keeps well-formed suggestions of an answer `{"suggestions": [...]}`. */
export function readSuggestions(body: unknown): SearchSuggestion[] {
  const list = (body as { suggestions?: unknown })?.suggestions;
  if (!Array.isArray(list)) return [];
  return list
    .filter((s): s is SearchSuggestion => !!s && typeof s === 'object' && typeof (s as SearchSuggestion).id === 'number')
    .map((s) => ({
      type: s.type,
      id: s.id,
      value: String(s.value ?? ''),
      url: typeof s.url === 'string' ? s.url : '',
      img: typeof s.img === 'string' ? s.img : '',
      price: typeof s.price === 'string' ? s.price : '',
    }));
}

export async function fetchSuggestions(query: string, category: string, signal: AbortSignal): Promise<SearchSuggestion[]> {
  const res = await fetch(suggestUrl(query, category), {
    headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    credentials: 'same-origin',
    signal,
  });
  if (!res.ok) throw new Error('search: status ' + res.status);
  return readSuggestions(await res.json());
}

export type Fetcher = (query: string, category: string, signal: AbortSignal) => Promise<SearchSuggestion[]>;

/**
 * Debounced suggestion requests: each update cancels the pending timer and
 * aborts the request in flight, so only the latest text's answer arrives.
 * Below minChars (trimmed) nothing is sent and onClear runs.
 */
export function createSuggester(opts: {
  minChars: number;
  delay?: number;
  fetcher?: Fetcher;
  onResults: (items: SearchSuggestion[], query: string) => void;
  onClear: () => void;
  onError?: (err: unknown) => void;
}) {
  const delay = opts.delay ?? SEARCH_DEBOUNCE_MS;
  const fetcher = opts.fetcher ?? fetchSuggestions;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ctrl: AbortController | null = null;

  const cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    ctrl?.abort();
    ctrl = null;
  };

  const update = (query: string, category = '') => {
    cancel();
    const q = query.trim();
    if (q.length < opts.minChars) {
      opts.onClear();
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      const c = new AbortController();
      ctrl = c;
      fetcher(q, category, c.signal).then(
        (items) => {
          if (c.signal.aborted) return;
          ctrl = null;
          opts.onResults(items, q);
        },
        (err) => {
          if (c.signal.aborted) return;
          ctrl = null;
          opts.onError?.(err);
        },
      );
    }, delay);
  };

  return { update, cancel };
}

/** Category choices for the search select: top-level categories, each followed by its children (indented). */
export function categoryOptions(nav: NavCategory[] | undefined): { id: number; label: string }[] {
  const out: { id: number; label: string }[] = [];
  for (const c of nav || []) {
    out.push({ id: c.id, label: c.name });
    for (const ch of c.children || []) out.push({ id: ch.id, label: '\u00a0\u00a0\u00a0' + ch.name });
  }
  return out;
}
