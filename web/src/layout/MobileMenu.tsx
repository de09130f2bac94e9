import { useCallback, useEffect, useRef, useState } from 'react';
import type { NavCategory, ViewerSettings } from '../types';
import { SearchForm } from '../ui/SearchForm';
import { AccountLinks } from '../frame/AccountLinks';
import { Drawer } from '../ui/Drawer';
import { CategoryLink } from './NavMenu';

/** The Menu button and the off-canvas menu replace the header's menu under the large breakpoint (spec: large >= 850 px). */
export const MOBILE_MENU_QUERY = '(max-width: 849px)';
export const MOBILE_MENU_ID = 'mobile-menu';

/**
 * The header's "Menu" button and the off-canvas menu it opens on small
 * and medium screens (a Drawer: a modal <dialog>, Escape closes it, focus
 * wraps inside it and goes back to the Menu button). It holds the search
 * form, the categories and the account links, mounted only while it is
 * open (one search form and one category menu in the page otherwise).
 * The button shows only when scripts run (the head script's "js" class);
 * without them the header keeps its menu row.
 */
export function MobileMenu({
  nav,
  path,
  user,
  search,
  minChars,
  onOpenChange,
}: {
  nav: NavCategory[];
  path: string;
  user?: ViewerSettings;
  search: string;
  minChars?: number;
  onOpenChange?: (open: boolean) => void;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);

  useEffect(() => {
    onOpenChange?.(open);
  }, [open, onOpenChange]);

  return (
    <>
      <button
        type="button"
        ref={button}
        className="menu-toggle"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={MOBILE_MENU_ID}
        onClick={() => setOpen(true)}
      >
        <svg aria-hidden="true" focusable="false" width="22" height="22" viewBox="0 0 24 24">
          <path d="M4 7h16M4 12h16M4 17h16" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
        <span className="menu-toggle__label">Menu</span>
      </button>
      <Drawer
        id={MOBILE_MENU_ID}
        className="mobile-menu"
        title="Menu"
        closeLabel="Close menu"
        open={open}
        onClose={close}
        returnFocus={button}
        htmlClass="has-mobile-menu"
        closeAt={MOBILE_MENU_QUERY}
      >
          {open && (
            <>
            <SearchForm className="mobile-menu__search" idBase="mobile-search" label="Search products" defaultValue={search} live categories={nav} minChars={minChars} />
            <nav className="mobile-menu__nav" aria-label="Categories">
              <ul className="mobile-menu__list">
                <li>
                  <a href="/shop/" aria-current={path === '/shop/' ? 'page' : undefined}>
                    Shop all
                  </a>
                </li>
                {nav.map((item) => (
                  <li key={item.id}>
                    <CategoryLink cat={item} path={path} />
                    {item.children?.length > 0 && (
                      <ul className="mobile-menu__sub">
                        {item.children.map((c) => (
                          <li key={c.id}>
                            <CategoryLink cat={c} path={path} />
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                ))}
              </ul>
            </nav>
            <AccountLinks user={user} />
            </>
          )}
      </Drawer>
    </>
  );
}
