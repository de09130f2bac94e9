import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

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

export function Tabs({ tabs, label }: { tabs: TabDef[]; label: string }) {
  // First render is always the first tab, on the server and during hydration.
  const [selected, setSelected] = useState(tabs[0]?.key);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const root = useRef<HTMLDivElement>(null);

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
    <div className="woocommerce-tabs wc-tabs-wrapper" ref={root}>
      <div className="tabs wc-tabs" role="tablist" aria-label={label}>
        {tabs.map((t, i) => {
          const active = t.key === selected;
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
      </div>
      {tabs.map((t) => (
        <div
          key={t.key}
          role="tabpanel"
          id={`tab-${t.key}`}
          className={`woocommerce-Tabs-panel woocommerce-Tabs-panel--${t.key} panel entry-content wc-tab`}
          aria-labelledby={`tab-title-${t.key}`}
          hidden={t.key !== selected}
          tabIndex={0}
        >
          {t.content}
        </div>
      ))}
    </div>
  );
}
