import { useCallback, useEffect, useRef, useState, type CSSProperties, type FocusEvent, type Ref } from 'react';
import type { NavCategory, PageData } from '../types';
import { decodeEntities } from '../lib/format';
import { SearchForm } from '../ui/SearchForm';
import { CartMenu } from '../cart/CartMenu';
import { WishlistLink } from '../wishlist/WishlistLink';
import { AccountLinks } from '../frame/AccountLinks';
import { CurrencySwitchers } from '../currency/CurrencySwitcher';
import { isCurrent, NavMenu } from './NavMenu';
import { ServerFragment } from '../lib/server-fragments';
import { Later } from '../lib/hydrate-later';
import { MobileMenu } from './MobileMenu';
import { MobileSearch } from './MobileSearch';
import { useStickyHeader } from './sticky';
import './header.css';

export type FramePage = Exclude<PageData, { page: 'fragments' } | { page: 'quickview' } | { page: 'coming-soon' }>;

/**
 * The path as the menus see it: the path when a menu link points at it
 * (the link gets aria-current), '' otherwise. The menus render the same
 * for both, so every product page shares one header (the server renders it
 * once: lib/server-fragments.tsx).
 */
export function menuPath(nav: NavCategory[], path: string): string {
  if (path === '/shop/') return path;
  const walk = (items: NavCategory[]): boolean => items.some((i) => isCurrent(i.url, path) || walk(i.children ?? []));
  return walk(nav) ? path : '';
}

/** Room to leave above a scrolled-to target: the stuck header (bar, category row, its border) and a gap. */
export function headerOffset(stickyHeight: number, rowHeight: number): number {
  return stickyHeight + rowHeight + 1 + 16;
}

/**
 * The site header (spec sections 2, 4 and 9): the shop's name,
 * search, currency, account and cart in its bar, the category menu with
 * dropdowns under it on large screens, the Menu button and its off-canvas
 * menu on small and medium ones. Sticky past its own height (the bar
 * sticky_height tall, its place kept so nothing moves), optionally hidden
 * while scrolling down; never hidden with focus inside or a menu open.
 */
export function SiteHeader({
  data,
  path,
  search,
  cartCount,
  titleRef,
}: {
  data: FramePage;
  path: string;
  search: string;
  cartCount: number;
  /** The shop's name link (focus goes there when the store notice above is dismissed). */
  titleRef?: Ref<HTMLAnchorElement>;
}) {
  const settings = data.settings;
  const user = settings?.user;
  const stickyHeight = settings?.sticky_height && settings.sticky_height > 0 ? settings.sticky_height : 70;
  const wrap = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLElement>(null);
  const [dropdown, setDropdown] = useState(false);
  const [drawer, setDrawer] = useState(false);
  const [focusWithin, setFocusWithin] = useState(false);
  const { stuck, hidden, reserved } = useStickyHeader(wrap, header, {
    hideOnScroll: !!settings?.header_hide_on_scroll,
    locked: dropdown || drawer || focusWithin,
  });
  // While it covers the top of the viewport, scrolling to a target (a
  // focused field, an anchor) keeps the target clear of it.
  useEffect(() => {
    document.documentElement.classList.toggle('header-is-stuck', stuck && !hidden);
  }, [stuck, hidden]);
  // How much of the viewport's top the stuck header covers (its bar, and on
  // large screens the category row under it), for scroll-margin-top on
  // anchored targets (header.css): a deep link's target lands below it.
  useEffect(() => {
    const apply = () => {
      const nav = header.current?.querySelector<HTMLElement>('.primary-nav');
      const row = nav && getComputedStyle(nav).display !== 'none' ? nav.offsetHeight : 0;
      const offset = `${headerOffset(stickyHeight, row)}px`;
      // Set only when the stylesheet's value (header.css) is not already it:
      // a property set on <html> restyles the whole page, a long task on a
      // phone right after hydration.
      const root = document.documentElement;
      if (getComputedStyle(root).getPropertyValue('--header-offset').trim() !== offset) root.style.setProperty('--header-offset', offset);
    };
    apply();
    window.addEventListener('resize', apply);
    return () => window.removeEventListener('resize', apply);
  }, [stickyHeight]);
  const onDropdown = useCallback((open: boolean) => setDropdown(open), []);
  const onDrawer = useCallback((open: boolean) => setDrawer(open), []);
  const onBlur = (e: FocusEvent<HTMLElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocusWithin(false);
  };

  const style = { '--sticky-height': `${stickyHeight}px` } as CSSProperties;
  if (stuck && reserved > 0) style.height = `${reserved}px`;
  const nav = data.nav ?? [];
  const current = menuPath(nav, path);
  const base = settings?.base_currency || data.site.currency?.currency_code || 'USD';
  const shown = data.page === 'cart' || data.page === 'checkout' ? data.cart?.totals?.currency_code : undefined;
  // Everything the header's content reads, for the server's fragment cache.
  const key = () =>
    JSON.stringify(['header', data.site.name, nav, current, user, search, settings?.search_min_chars, settings?.currencies, base, data.page, shown, cartCount]);
  return (
    <div className="header-wrapper" ref={wrap} style={style}>
      <ServerFragment
        tag="header"
        props={{
          ref: header,
          className: 'site-header' + (stuck ? ' is-stuck' : '') + (hidden ? ' is-hidden' : ''),
          onFocus: () => setFocusWithin(true),
          onBlur,
        }}
        cacheKey={key}
      >
        {() => (
          <>
            {/* Its controls and the category row hydrate after the page's first
                pass, each in a task of its own (lib/hydrate-later.tsx). */}
            <Later>
            <div className="container header-inner">
              <MobileMenu
                nav={nav}
                path={current}
                user={user}
                search={search}
                minChars={settings?.search_min_chars}
                onOpenChange={onDrawer}
              />
              <a className="site-title" href="/" rel="home" ref={titleRef}>
                {decodeEntities(data.site.name)}
              </a>
              <Later>
                <SearchForm
                  className="header-search"
                  idBase="header-search"
                  defaultValue={search}
                  live
                  categories={nav}
                  minChars={settings?.search_min_chars}
                />
              </Later>
              <MobileSearch search={search} minChars={settings?.search_min_chars} categories={nav} />
              <CurrencySwitchers currencies={settings?.currencies} base={base} page={data.page} shown={shown} />
              <Later>
                <AccountLinks user={user} />
              </Later>
              <WishlistLink />
              <Later>
                <CartMenu count={cartCount} />
              </Later>
            </div>
            </Later>
            {nav.length > 0 && (
              <Later>
                <NavMenu items={nav} path={current} onOpenChange={onDropdown} />
              </Later>
            )}
          </>
        )}
      </ServerFragment>
    </div>
  );
}
