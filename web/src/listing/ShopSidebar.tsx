import { useEffect, useId, useRef, type RefObject } from 'react';
import type { ListingPage, NavCategory } from '../types';
import { decodeEntities } from '../lib/format';
import { parseUrl } from '../lib/url';
import { ServerFragment } from '../lib/server-fragments';
import { ListingFilters, type FilterNavigate } from './ListingFilters';
import { nextSticky, STATIC, STICKY_GAP, STICKY_MIN_WIDTH, stickyStyle, type Sticky } from './sticky-sidebar';
import './sidebar.css';

/**
 * The bottom edge of the header when it stays in view (fixed or sticky, the
 * header or a box directly inside it), else 0: the sidebar sticks under it.
 */
export function headerBottom(doc: Document = document): number {
  let bottom = 0;
  for (const el of doc.querySelectorAll<HTMLElement>('.site-header, .site-header > *')) {
    const pos = getComputedStyle(el).position;
    if (pos !== 'fixed' && pos !== 'sticky') continue;
    const b = el.getBoundingClientRect().bottom;
    if (b > bottom) bottom = b;
  }
  return bottom;
}

/**
 * Keeps the sidebar in view while the listing scrolls, at 850 px and wider
 * (spec sections 4, 5 and 9; sticky-sidebar.ts has the positions). It moves
 * the inner box with inline styles and names the position in the column's
 * data-sticky, outside React: a scroll never re-renders the page. Narrower,
 * or before scripts, the sidebar is static.
 */
export function useStickySidebar(column: RefObject<HTMLElement | null>, box: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const col = column.current;
    const el = box.current;
    if (!col || !el || typeof window.matchMedia !== 'function') return;
    const wide = window.matchMedia(`(min-width: ${STICKY_MIN_WIDTH}px)`);
    let current: Sticky = STATIC;
    let lastY = window.scrollY;
    let frame = 0;
    const set = (s: Sticky, style: ReturnType<typeof stickyStyle>) => {
      el.style.position = style.position || '';
      el.style.top = style.top || '';
      el.style.left = style.left || '';
      el.style.width = style.width || '';
      el.style.transform = style.transform || '';
      col.dataset.sticky = s.position;
    };
    const update = () => {
      frame = 0;
      const y = window.scrollY;
      const down = y >= lastY;
      lastY = y;
      if (!wide.matches) {
        current = STATIC;
        set(current, {});
        return;
      }
      const r = col.getBoundingClientRect();
      const m = {
        scrollY: y,
        viewportHeight: window.innerHeight,
        containerTop: r.top + y,
        containerHeight: r.height,
        sidebarHeight: el.offsetHeight,
        topSpacing: Math.round(headerBottom()) + STICKY_GAP,
        bottomSpacing: STICKY_GAP,
      };
      current = nextSticky(current, m, down);
      set(current, stickyStyle(current, m, { left: r.left, width: r.width }));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    wide.addEventListener?.('change', schedule);
    // The listing grows (infinite scroll) or the sidebar changes height.
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(schedule) : null;
    ro?.observe(col);
    ro?.observe(el);
    // The header sticks, hides or shows after the same scroll (its own
    // handler, a render later, then a slide or an animation): follow it.
    const header = document.querySelector('.site-header');
    const mo = header && typeof MutationObserver === 'function' ? new MutationObserver(schedule) : null;
    if (header) {
      mo?.observe(header, { attributes: true, attributeFilter: ['class', 'style'] });
      header.addEventListener('transitionend', schedule);
      header.addEventListener('animationend', schedule);
    }
    update();
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      wide.removeEventListener?.('change', schedule);
      ro?.disconnect();
      mo?.disconnect();
      header?.removeEventListener('transitionend', schedule);
      header?.removeEventListener('animationend', schedule);
      if (frame) cancelAnimationFrame(frame);
      set(STATIC, {});
    };
  }, [column, box]);
}

function CategoryList({ items, path }: { items: NavCategory[]; path: string }) {
  return (
    <>
      {items.map((c) => {
        const current = parseUrl(c.url).path === path;
        return (
          <li key={c.id} className={'cat-item' + (current ? ' current-cat' : '')}>
            <a href={c.url} aria-current={current ? 'page' : undefined}>
              {decodeEntities(c.name)}
            </a>{' '}
            <span className="count">({c.count})</span>
            {c.children && c.children.length > 0 && (
              <ul className="children">
                <CategoryList items={c.children} path={path} />
              </ul>
            )}
          </li>
        );
      })}
    </>
  );
}

/**
 * The listing's sidebar, as WooCommerce shop pages have it: the product
 * categories with their counts, then the filters (ListingFilters: the
 * price as a plain GET form, the attributes, ratings, stock and sale as
 * plain links). With scripts, onNavigate shows a filter's listing in place.
 * On phones with scripts the filters open in a drawer instead (the
 * listing's Filter button) and are hidden here. Sticky from 850 px
 * (useStickySidebar).
 */
export function ShopSidebar({ data, onNavigate, announce }: { data: ListingPage; onNavigate?: FilterNavigate; announce?: string }) {
  const column = useRef<HTMLElement>(null);
  const box = useRef<HTMLDivElement>(null);
  useStickySidebar(column, box);
  const id = useId();
  const { path } = parseUrl(data.url);
  return (
    <aside className="shop-sidebar" ref={column} aria-label="Shop filters">
      <div className="shop-sidebar__inner" ref={box}>
        {/* The same on every listing but for the current category: the
            server renders it once per key (lib/server-fragments.tsx). */}
        {data.nav && data.nav.length > 0 && (
          <ServerFragment
            tag="section"
            props={{ className: 'widget widget_product_categories', 'aria-labelledby': `${id}-cats` }}
            cacheKey={() => JSON.stringify(['categories', id, path, data.nav])}
          >
            {() => (
              <>
                <h2 className="widget-title" id={`${id}-cats`}>
                  Product categories
                </h2>
                <ul className="product-categories">
                  <CategoryList items={data.nav ?? []} path={path} />
                </ul>
              </>
            )}
          </ServerFragment>
        )}
        <ListingFilters data={data} idBase={id} onNavigate={onNavigate} announce={announce} />
      </div>
    </aside>
  );
}
