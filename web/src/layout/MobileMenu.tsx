import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { NavCategory, ViewerSettings } from '../types';
import { SearchForm } from '../ui/SearchForm';
import { AccountLinks } from '../frame/AccountLinks';
import { keepTabInside, shownStopsIn } from '../lib/focus-trap';
import { CategoryLink } from './NavMenu';

/** The Menu button and the off-canvas menu replace the header's menu under the large breakpoint (spec: large >= 850 px). */
export const MOBILE_MENU_QUERY = '(max-width: 849px)';
export const MOBILE_MENU_ID = 'mobile-menu';

/**
 * The header's "Menu" button and the off-canvas menu it opens on small
 * and medium screens: a native <dialog> opened with showModal(), so the
 * page behind is inert and Escape closes it; labelled by its heading;
 * focus goes to its close button, Tab and Shift+Tab wrap inside it, and
 * when it closes focus goes back to the Menu button. It holds the search
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
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    onOpenChange?.(open);
  }, [open, onOpenChange]);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      document.documentElement.classList.add('has-mobile-menu');
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
      closeButton.current?.focus();
    } else if (!open && d.open) {
      if (typeof d.close === 'function') d.close();
      else d.removeAttribute('open');
      onClosed();
    }
  }, [open]);

  // Grown past the breakpoint: the header's own menu is back.
  useEffect(() => {
    if (!open || typeof window.matchMedia !== 'function') return;
    const mq = window.matchMedia(MOBILE_MENU_QUERY);
    const onChange = () => {
      if (!mq.matches) setOpen(false);
    };
    mq.addEventListener?.('change', onChange);
    return () => mq.removeEventListener?.('change', onChange);
  }, [open]);

  function onClosed() {
    document.documentElement.classList.remove('has-mobile-menu');
    button.current?.focus();
  }

  // Escape (the dialog's cancel) and any other native close.
  const onNativeClose = () => {
    if (open) {
      setOpen(false);
      onClosed();
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key === 'Escape') {
      // A popup inside (the search suggestions) closes first; otherwise
      // Escape closes the menu, also from fields that keep Escape for
      // themselves (the search field stops the browser clearing it).
      if ((e.target as HTMLElement).getAttribute?.('aria-expanded') === 'true') return;
      e.preventDefault();
      setOpen(false);
      return;
    }
    const root = e.currentTarget;
    keepTabInside(e, () => shownStopsIn(root), root);
  };

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
      <dialog
        ref={dialog}
        id={MOBILE_MENU_ID}
        className="mobile-menu"
        aria-labelledby="mobile-menu-title"
        onClose={onNativeClose}
        onKeyDown={onKeyDown}
        onClick={(e) => {
          if (e.target === e.currentTarget) setOpen(false); // a click on the backdrop
        }}
      >
        <div className="mobile-menu__inner">
          <div className="mobile-menu__head">
            <h2 className="mobile-menu__title" id="mobile-menu-title">
              Menu
            </h2>
            <button type="button" className="mobile-menu__close" ref={closeButton} onClick={() => setOpen(false)}>
              <span aria-hidden="true">×</span>
              <span className="screen-reader-text">Close menu</span>
            </button>
          </div>
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
        </div>
      </dialog>
    </>
  );
}
