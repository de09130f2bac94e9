// What an admin list shows, and the rows it shows. The query (status,
// search, page, sort and the screen's own filters) lives in the address,
// so a filtered list can be bookmarked, shared, reloaded, and Back returns
// to it; the rows are server state, fetched for that address.

import { useCallback, useEffect, useRef, useState } from 'react';
import { adminCall, withQuery, type AdminError } from '../api';
import { useRouter, type Location } from '../router';

export type SortOrder = 'asc' | 'desc';

export interface Sort {
  orderby: string;
  order: SortOrder;
}

export interface ListOptions {
  /** The list's address, e.g. `${BASE}orders/`. */
  base: string;
  /** The status tabs' values; the first is the default and stays out of the address. */
  statuses?: string[];
  /** The orderby values the list accepts, and the sort when the address names none. */
  sorts?: { keys: string[]; initial: Sort };
  /** The screen's own filters (query parameters): changing one goes back to page 1. */
  filters?: string[];
}

/** A change to the query: a value, or null/undefined/'' to drop the parameter. */
export type QueryPatch = Record<string, string | number | null | undefined>;

export interface ListQuery {
  status: string;
  search: string;
  page: number;
  /** The sort in effect (the initial one when the address names none); null: the list does not sort. */
  sort: Sort | null;
  /** A filter's value from the address ('' when unset). */
  filter: (name: string) => string;
  /**
   * The address of the list with patch applied. A patch that changes what
   * is listed (anything but paged) starts again at page 1; parameters that
   * are not the list's (an open message) are kept only when patched in.
   */
  href: (patch?: QueryPatch) => string;
  /**
   * Goes to href(patch), keeping the scroll position (the list stays where
   * it is). replace: the change does not add a step to Back.
   */
  go: (patch?: QueryPatch, opts?: { replace?: boolean }) => void;
}

const LIST_KEYS = ['status', 'search', 'orderby', 'order', 'paged'];

/** A positive page number from the address, else 1. */
export function pageOf(search: URLSearchParams): number {
  const n = Number.parseInt(search.get('paged') ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

function sortOf(search: URLSearchParams, sorts: ListOptions['sorts']): Sort | null {
  if (!sorts) return null;
  const orderby = search.get('orderby') ?? '';
  if (!sorts.keys.includes(orderby)) return sorts.initial;
  return { orderby, order: search.get('order') === 'asc' ? 'asc' : 'desc' };
}

export function useListQuery(location: Location, opts: ListOptions): ListQuery {
  const { navigate } = useRouter();
  const { base, statuses, sorts, filters = [] } = opts;
  const params = location.search;
  const s = params.get('status') ?? '';
  const status = statuses ? (statuses.includes(s) ? s : statuses[0]) : '';
  const search = params.get('search') ?? '';
  const page = pageOf(params);
  const sort = sortOf(params, sorts);

  const href = (patch: QueryPatch = {}) => {
    const current: QueryPatch = { status, search, orderby: sort?.orderby, order: sort?.order, paged: page };
    for (const k of filters) current[k] = params.get(k);
    const listChanged = Object.keys(patch).some((k) => k !== 'paged' && (LIST_KEYS.includes(k) || filters.includes(k)));
    const next: QueryPatch = { ...current, ...(listChanged ? { paged: 1 } : {}), ...patch };
    // The defaults stay out of the address: one list, one address.
    if (statuses && next.status === statuses[0]) next.status = undefined;
    if (sorts && next.orderby === sorts.initial.orderby && next.order === sorts.initial.order) {
      next.orderby = undefined;
      next.order = undefined;
    }
    if (Number(next.paged) <= 1) next.paged = undefined;
    const { status: st, search: se, orderby, order, paged, ...rest } = next;
    return withQuery(base, { status: st, search: se, ...rest, orderby, order, paged });
  };

  return {
    status,
    search,
    page,
    sort,
    filter: (name) => params.get(name) ?? '',
    href,
    go: (patch, o) => navigate(href(patch), { keepScroll: true, replace: o?.replace }),
  };
}

export interface ListData<Row> {
  rows: Row[];
  /** The number of rows in all pages (X-WP-Total), or the rows shown when the API does not say. */
  total: number;
  /** The number of pages (X-WP-TotalPages); undefined: the list is not paged. */
  totalPages?: number;
  loading: boolean;
  error: AdminError | null;
  reload: () => void;
}

export interface FetchedList<Row> extends ListData<Row> {
  /** The address the rows came from. */
  url: string;
  /** For a screen that changes a row in place (a review approved) or takes it out. */
  setRows: (f: (rows: Row[]) => Row[]) => void;
  setTotal: (f: (n: number) => number) => void;
  /** Counts the reloads: with url, it says when the list was asked for again. */
  generation: number;
}

/**
 * GETs url, and again whenever url changes or reload is called; an older
 * answer that arrives late is dropped. While a request runs the previous
 * rows stay (dimmed by the table), so the page does not jump.
 */
export function useListData<Row>(url: string): FetchedList<Row> {
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [totalPages, setTotalPages] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<AdminError | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const ctl = new AbortController();
    setLoading(true);
    setError(null);
    adminCall<Row[]>('GET', url, undefined, { signal: ctl.signal })
      .then((r) => {
        if (ctl.signal.aborted) return;
        setLoading(false);
        if (!r.ok) {
          setError(r.error);
          setRows([]);
          return;
        }
        setRows(r.data);
        setTotal(r.total ?? r.data.length);
        setTotalPages(r.totalPages ?? 1);
      })
      .catch(() => {}); // aborted: a newer request took over
    return () => ctl.abort();
  }, [url, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { rows, total, totalPages, loading, error, reload, setRows, setTotal, url, generation };
}

/**
 * The status tabs' counts: GET path, shaped by toCounts, again with every
 * load of the list (an action that moves rows between tabs reloads it) and
 * on reload (for an action that changes one row in place). null until the
 * first answer: a tab shows no count rather than a wrong one.
 */
export function useCounts<T>(path: string, toCounts: (data: T) => Record<string, number>, list: Pick<FetchedList<unknown>, 'url' | 'generation'>): { counts: Record<string, number> | null; reload: () => void } {
  const [counts, setCounts] = useState<Record<string, number> | null>(null);
  const [asked, setAsked] = useState(0);
  const shape = useRef(toCounts);
  shape.current = toCounts;
  useEffect(() => {
    let live = true;
    void adminCall<T>('GET', path).then((r) => {
      if (live && r.ok) setCounts(shape.current(r.data));
    });
    return () => {
      live = false;
    };
  }, [path, list.url, list.generation, asked]);
  const reload = useCallback(() => setAsked((n) => n + 1), []);
  return { counts, reload };
}
