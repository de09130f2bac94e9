import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import type { ListingPage, Settings } from '../types';
import { useHydrated } from './hydrated';
import { fetchPageData, PageLoadError } from './page-data';
import { canLoad, initialScrollState, loadedText, nextPageUrl, scrollReducer, type ScrollState } from './infinite-scroll';
import { FILTER_HISTORY_FLAG, isFilterEntry } from './filter-navigation';
import './infinite-scroll.css';

function withoutFilterFlag(state: unknown): unknown {
  if (!isFilterEntry(state)) return state;
  const { [FILTER_HISTORY_FLAG]: _, ...rest } = state as Record<string, unknown>;
  return rest;
}

export type ScrollSettings = Settings['infinite_scroll'];

/** Whether infinite scroll runs for this listing (after hydration, a mode other than off, a next page). */
export function scrollMode(settings: ScrollSettings | undefined): 'spinner' | 'button' | 'off' {
  const t = settings?.type;
  return t === 'spinner' || t === 'button' ? t : 'off';
}

/**
 * Loads the following pages of a listing (spec sections 2, 4, 8; protocol-notes
 * section 11) and hands each loaded page's data to `onPage`, which appends the
 * products and returns how many were new. Renders the sentinel (spinner mode),
 * the "View more" button (button mode), the error status with a retry link and
 * a polite live region. Nothing but the (empty) live region is rendered on the
 * server or before hydration: the pagination links do the job without scripts.
 */

// Back and Forward across the URLs appended pages pushed change the address
// but not the page: load the page the address now names (from the cache).
// Installed once per document, so it outlives the list's re-mounts.
let followingHistory = false;
function followHistory() {
  if (followingHistory) return;
  followingHistory = true;
  window.addEventListener('popstate', (e) => {
    // The filters' entries are shown in place (filter-navigation.ts).
    if (isFilterEntry(e.state)) return;
    // Reload at the top: the browser would restore the old position, the
    // bottom of a now shorter page, and the next page would load at once.
    window.scrollTo(0, 0);
    window.location.reload();
  });
}

export function InfiniteScroll({
  settings,
  initialNext,
  onPage,
  onStatus,
  reserve,
}: {
  settings: ScrollSettings;
  initialNext: string | null;
  onPage: (data: ListingPage, byButton: boolean) => number;
  onStatus?: (s: ScrollState) => void;
  /**
   * The height (px) the next page's cards will take: the spinner holds it
   * while the page loads, so the cards replace it in place and nothing
   * below (the footer) moves when they arrive (no layout shift).
   */
  reserve?: () => number;
}) {
  const hydrated = useHydrated();
  const [state, dispatch] = useReducer(scrollReducer, initialNext, initialScrollState);
  const [announce, setAnnounce] = useState('');
  const stateRef = useRef(state);
  stateRef.current = state;
  const onPageRef = useRef(onPage);
  onPageRef.current = onPage;
  const reserveRef = useRef(reserve);
  reserveRef.current = reserve;
  const [reserved, setReserved] = useState(0);
  const sentinel = useRef<HTMLDivElement>(null);
  const inFlight = useRef<AbortController | null>(null);

  let mode = scrollMode(settings);
  // Without IntersectionObserver the button is the fallback.
  if (mode === 'spinner' && hydrated && typeof IntersectionObserver === 'undefined') mode = 'button';
  const active = hydrated && mode !== 'off';
  const history = settings?.history === 'replace' ? 'replace' : 'push';
  const threshold = Math.max(0, Number(settings?.scroll_threshold) || 0);

  const measure = useCallback(() => Math.max(0, Math.round(reserveRef.current?.() ?? 0)), []);

  // Spinner mode holds the next page's space below the cards from the
  // start (the sentinel is that space): the space appears at hydration, when
  // the shopper is at the top of a page of cards and the footer is far
  // out of view, and each loaded page's cards take the place held for
  // them, so the footer never moves while in view (no layout shift). It
  // is measured before paint after every page.
  const holding = active && mode === 'spinner' && state.next !== null && (state.status === 'idle' || state.status === 'loading');
  useLayoutEffect(() => {
    if (holding && state.status === 'idle') setReserved(measure());
    if (!holding && mode === 'spinner') setReserved(0);
  }, [holding, state.status, state.next, mode, measure]);

  useEffect(() => onStatus?.(state), [state, onStatus]);
  useEffect(() => () => inFlight.current?.abort(), []);


  const load = useCallback(
    (byButton: boolean) => {
      const s = stateRef.current;
      if (inFlight.current || !canLoad(s) || !s.next) return;
      const url = s.next;
      const ctrl = new AbortController();
      inFlight.current = ctrl;
      // Button mode: the space is held from the press (spinner mode holds
      // it all along, below).
      if (byButton) setReserved(measure());
      dispatch({ type: 'start' });
      setAnnounce('');
      fetchPageData(url, ctrl.signal)
        .then((data) => {
          if (data.page !== 'listing') throw new PageLoadError('not a listing page');
          const n = onPageRef.current(data, byButton);
          dispatch({ type: 'loaded', next: nextPageUrl(data) });
          setAnnounce(loadedText(n));
          const target = data.url || url;
          if (target !== window.location.pathname + window.location.search) {
            try {
              if (history === 'replace') window.history.replaceState(window.history.state, '', target);
              else {
                // Not a filters' entry: Back and Forward to it reload.
                window.history.pushState(withoutFilterFlag(window.history.state), '', target);
                followHistory();
              }
            } catch {
              // a URL the browser refuses: keep the current one
            }
          }
        })
        .catch(() => {
          if (ctrl.signal.aborted) return;
          dispatch({ type: 'failed' });
        })
        .finally(() => {
          if (inFlight.current === ctrl) inFlight.current = null;
        });
    },
    [history],
  );

  // Spinner mode: load when the sentinel comes within `threshold` px of the
  // viewport's bottom. A fresh observer reports the current intersection at
  // once, so re-observing after each page keeps loading while the sentinel is
  // still in range (short pages, tall screens).
  useEffect(() => {
    if (!active || mode !== 'spinner' || state.status !== 'idle' || !sentinel.current) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) load(false);
      },
      { rootMargin: `0px 0px ${threshold}px 0px` },
    );
    io.observe(sentinel.current);
    return () => io.disconnect();
  }, [active, mode, state.status, state.next, threshold, load]);

  const loading = state.status === 'loading';
  return (
    <div className="infinite-scroll" data-mode={active ? mode : 'off'}>
      {holding ? (
        // The sentinel is the held space itself: a jump past its top (End,
        // scrollTo) still leaves part of it in range.
        <div ref={sentinel} className="infinite-scroll__sentinel" aria-hidden="true" style={reserved > 0 ? { minHeight: reserved } : undefined}>
          {loading && (
            <div className="infinite-scroll__spinner" aria-hidden="true">
              <span className="loading-spin" />
            </div>
          )}
        </div>
      ) : (
        active &&
        loading && (
          <div className="infinite-scroll__spinner" aria-hidden="true" style={reserved > 0 ? { minHeight: reserved } : undefined}>
            <span className="loading-spin" />
          </div>
        )
      )}
      {active && mode === 'button' && (state.status === 'idle' || loading) && (
        <p className="infinite-scroll__more">
          <button
            type="button"
            className="button view-more-button"
            disabled={loading}
            aria-busy={loading || undefined}
            onClick={() => load(true)}
          >
            View more
          </button>
        </p>
      )}
      {active && state.status === 'error' && (
        <p className="infinite-scroll__error woocommerce-error" role="alert">
          Could not load more products.{' '}
          {state.next && <a href={state.next}>Try again</a>}
        </p>
      )}
      <div className="screen-reader-text" role="status" aria-live="polite">
        {announce}
      </div>
    </div>
  );
}
