import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ListingPage } from '../types';
import { fetchPageData, PageLoadError } from './page-data';
import { resultsText } from './ListingFilters';

/** Under this, with scripts, the filters open in a drawer (the large breakpoint, spec section 9: 850 px). */
export const FILTER_DRAWER_QUERY = '(max-width: 849px)';

/** The history entries the filters wrote (or adopted) carry this flag: Back and Forward show them in place. */
export const FILTER_HISTORY_FLAG = 'vitrineFilters';

export function isFilterEntry(state: unknown): boolean {
  return !!state && typeof state === 'object' && (state as Record<string, unknown>)[FILTER_HISTORY_FLAG] === true;
}

/**
 * Shows a filtered listing in place: it fetches the page the link names as
 * the app's other in-page loads do (fetchPageData: the normal, cached page,
 * its inlined data read), hands the data to show, pushes the URL, puts the
 * focus back on the control used (found again by its data-filter key in the
 * same panel) and says "N results" (announce, for the panel's live region).
 * Back and Forward across those entries show theirs the same way. While a
 * listing loads, the main column keeps at least its height, so nothing below
 * the grid moves up when the new result is shorter. A failed load falls
 * back to loading the page.
 */
export function useFilterNavigation(show: (page: ListingPage) => void) {
  const [busy, setBusy] = useState(false);
  const [announce, setAnnounce] = useState('');
  const [navigated, setNavigated] = useState(false);
  const main = useRef<HTMLDivElement>(null);
  const inFlight = useRef<AbortController | null>(null);
  const focus = useRef<{ key: string; root: Element | null } | null>(null);
  const showRef = useRef(show);
  showRef.current = show;

  const load = useCallback((href: string, push: boolean) => {
    inFlight.current?.abort();
    const ctrl = new AbortController();
    inFlight.current = ctrl;
    const m = main.current;
    if (m) m.style.minHeight = Math.max(m.offsetHeight, parseFloat(m.style.minHeight) || 0) + 'px';
    setBusy(true);
    setAnnounce('');
    fetchPageData(href, ctrl.signal)
      .then((page) => {
        if (page.page !== 'listing') throw new PageLoadError('not a listing page');
        if (push) {
          const target = page.url || href;
          try {
            if (!isFilterEntry(window.history.state)) {
              window.history.replaceState({ ...(window.history.state || {}), [FILTER_HISTORY_FLAG]: true }, '');
            }
            window.history.pushState({ [FILTER_HISTORY_FLAG]: true }, '', target);
          } catch {
            // a URL the browser refuses: keep the current one
          }
        }
        inFlight.current = null;
        setBusy(false);
        setNavigated(true);
        showRef.current(page);
        setAnnounce(resultsText(page.total));
      })
      .catch(() => {
        if (ctrl.signal.aborted) return;
        inFlight.current = null;
        setBusy(false);
        window.location.assign(href);
      });
  }, []);

  const navigate = useCallback(
    (href: string, key: string, from: HTMLElement) => {
      focus.current = { key, root: from.closest('[data-filter-root]') };
      load(href, true);
    },
    [load],
  );

  useEffect(() => {
    const onPop = (e: PopStateEvent) => {
      if (!isFilterEntry(e.state)) return;
      focus.current = null;
      load(window.location.pathname + window.location.search, false);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [load]);

  useEffect(() => () => inFlight.current?.abort(), []);

  // Once the new listing is rendered: the focus back on the control used
  // (the same node when it stayed; found again when it was re-made), else
  // on the option a removed chip named, else on the panel's first heading.
  useLayoutEffect(() => {
    const f = focus.current;
    if (!f || busy) return;
    focus.current = null;
    const root = f.root && f.root.isConnected ? f.root : document;
    const find = (k: string) => root.querySelector<HTMLElement>(`[data-filter="${k}"]:not([aria-disabled="true"])`);
    const el = find(f.key) || (f.key.startsWith('chip:') ? find(f.key.slice(5)) : null) || root.querySelector<HTMLElement>('.widget-title');
    if (el && document.activeElement !== el) {
      if (el.matches('.widget-title')) el.tabIndex = -1;
      el.focus();
    }
  });

  return { navigate, busy, announce, navigated, main };
}
