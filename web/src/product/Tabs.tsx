import { Fragment, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ServerFragment } from '../lib/server-fragments';
import './accordion.css';

export interface TabDef {
  /** Key used in ids: tab-{key}, tab-title-{key}. */
  key: string;
  label: ReactNode;
  content: ReactNode;
}

/**
 * Which tab the location asks for (WooCommerce single-product rules): reviews for
 * #comments, #reviews, #tab-reviews, #comment-*, or comment-page / cpage in the URL;
 * additional information for #tab-additional_information.
 */
export function tabFromLocation(hash: string, href: string): string | null {
  const h = (hash || '').toLowerCase();
  if (h === '#comments' || h === '#reviews' || h === '#tab-reviews' || h.startsWith('#comment-')) return 'reviews';
  if (/comment-page|[?&]cpage=/.test(href || '')) return 'reviews';
  if (h === '#tab-additional_information') return 'additional_information';
  return null;
}

/**
 * Below this width the tabs are an accordion (spec section 9: small is at
 * most 549 px; three tab labels fit on a medium screen, not on a phone).
 * The CSS (product.css) switches the look with the same query, so the
 * server's HTML is right at first paint; the script only switches roles.
 */
export const ACCORDION_QUERY = '(max-width: 549px)';

function useAccordion(): boolean {
  // Tabs on the server and during hydration; the real width after.
  const [on, setOn] = useState(false);
  useEffect(() => {
    const mq = window.matchMedia?.(ACCORDION_QUERY);
    if (!mq) return;
    setOn(mq.matches);
    const onChange = () => setOn(mq.matches);
    mq.addEventListener?.('change', onChange);
    return () => mq.removeEventListener?.('change', onChange);
  }, []);
  return on;
}

/**
 * The product's tabs (WAI-ARIA tabs: arrows, Home, End) on medium and large
 * screens, an accordion on small ones (spec section 4: items open one at a
 * time; the open one closes again on its button). Both read one choice, so
 * the location's tab (tabFromLocation) opens in either, and a resize keeps
 * what is open. Every panel is in the HTML once; each has a tab in the
 * tablist and an accordion heading before it, and the CSS shows one set.
 */
export function Tabs({ tabs, label }: { tabs: TabDef[]; label: string }) {
  // First render is always the first tab, on the server and during hydration.
  // null: every accordion item closed (tabs then show the first).
  const [selected, setSelected] = useState<string | null>(tabs[0]?.key ?? null);
  const accordion = useAccordion();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const root = useRef<HTMLDivElement>(null);
  const shown = accordion ? selected : (selected ?? tabs[0]?.key);
  // The tab bar's inputs, for the server's fragment cache: null (not cached) unless every label is text.
  const labels = tabs.every((t) => typeof t.label === 'string') ? tabs.map((t) => [t.key, t.label]) : null;

  useEffect(() => {
    const apply = (scroll: boolean) => {
      const want = tabFromLocation(window.location.hash, window.location.href);
      if (want && tabs.some((t) => t.key === want)) {
        setSelected(want);
        if (scroll) root.current?.scrollIntoView?.({ block: 'start' });
      }
    };
    apply(true);
    const onHash = () => apply(true);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const select = (i: number) => {
    const n = tabs.length;
    const idx = ((i % n) + n) % n;
    setSelected(tabs[idx].key);
    refs.current[idx]?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    let handled = true;
    switch (e.key) {
      case 'ArrowRight':
        select(i + 1);
        break;
      case 'ArrowLeft':
        select(i - 1);
        break;
      case 'Home':
        select(0);
        break;
      case 'End':
        select(tabs.length - 1);
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  };

  return (
    <div className={'woocommerce-tabs wc-tabs-wrapper' + (accordion ? ' is-accordion' : '')} ref={root}>
      {/* The tab bar and the accordion headings are the same on every
          product page with the same labels: the server renders them once
          (lib/server-fragments.tsx). */}
      <ServerFragment
        tag="div"
        props={{ className: 'tabs wc-tabs', role: 'tablist', 'aria-label': label }}
        cacheKey={labels === null ? null : () => JSON.stringify(['tablist', labels, shown])}
      >
        {() => tabs.map((t, i) => {
          const active = t.key === shown;
          return (
            <button
              key={t.key}
              ref={(el) => {
                refs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`tab-title-${t.key}`}
              className={`${t.key}_tab${active ? ' active' : ''}`}
              aria-selected={active}
              aria-controls={`tab-${t.key}`}
              tabIndex={active ? 0 : -1}
              onClick={() => setSelected(t.key)}
              onKeyDown={(e) => onKeyDown(e, i)}
            >
              {t.label}
            </button>
          );
        })}
      </ServerFragment>
      {tabs.map((t) => {
        const open = t.key === shown;
        return (
          <Fragment key={t.key}>
            <ServerFragment
              tag="h2"
              props={{ className: `accordion-title accordion-title--${t.key}` }}
              cacheKey={typeof t.label === 'string' ? () => JSON.stringify(['accordion-title', t.key, t.label, open]) : null}
            >
              <button
                type="button"
                id={`accordion-title-${t.key}`}
                className="accordion-title__button"
                aria-expanded={open}
                aria-controls={`tab-${t.key}`}
                onClick={() => setSelected(open ? null : t.key)}
              >
                {t.label}
                <span className="accordion-title__icon" aria-hidden="true" />
              </button>
            </ServerFragment>
            <div
              role={accordion ? 'region' : 'tabpanel'}
              id={`tab-${t.key}`}
              className={`woocommerce-Tabs-panel woocommerce-Tabs-panel--${t.key} panel entry-content wc-tab`}
              aria-labelledby={accordion ? `accordion-title-${t.key}` : `tab-title-${t.key}`}
              hidden={!open}
              tabIndex={accordion ? undefined : 0}
            >
              {t.content}
            </div>
          </Fragment>
        );
      })}
    </div>
  );
}
