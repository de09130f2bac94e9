import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type PointerEvent } from 'react';
import type { NavCategory } from '../types';
import { decodeEntities } from '../lib/format';
import { parseUrl } from '../lib/url';
import { useDismiss } from '../lib/dismiss';

/** Hover-intent (spec section 9: interval 100): a pointer resting this long on an item opens its menu. */
export const HOVER_OPEN_MS = 100;
/** A pointer that leaves a menu closes it after this delay, so a diagonal move to the sub-menu does not. */
export const HOVER_CLOSE_MS = 300;
/** Spec section 9: dropdowns are positioned (kept inside the viewport) only when the header is this wide. */
export const POSITION_MIN_WIDTH = 750;

export function isCurrent(url: string, path: string): boolean {
  return parseUrl(url).path === path;
}

/** A category's link, marked as the page shown when it is. */
export function CategoryLink({ cat, path }: { cat: { url: string; name: string }; path: string }) {
  return (
    <a href={cat.url} aria-current={isCurrent(cat.url, path) ? 'page' : undefined}>
      {decodeEntities(cat.name)}
    </a>
  );
}

export function submenuId(item: NavCategory, prefix = 'submenu'): string {
  return `${prefix}-${item.id}`;
}

type Opener = 'hover' | 'click';

/**
 * The header's category menu on large screens (spec sections 2 and 4:
 * "dropdown menus open or close on hover or click"), after the
 * disclosure navigation pattern: each parent keeps its link, and a button
 * next to it (aria-expanded, aria-controls) shows its sub-menu. A pointer
 * resting on a parent opens it and leaving closes it after a short delay;
 * a click on the button opens it until closed. Escape closes the open menu
 * and puts focus back on its button; Tab moves on, and focus leaving the
 * item closes it; a press outside closes it. Without scripts (and before
 * hydration) the stylesheet opens sub-menus on hover and focus.
 */
export function NavMenu({
  items,
  path,
  onOpenChange,
}: {
  items: NavCategory[];
  path: string;
  /** Whether a sub-menu is open (the sticky header never hides while one is). */
  onOpenChange?: (open: boolean) => void;
}) {
  const [open, setOpen] = useState<{ id: number; by: Opener } | null>(null);
  const nav = useRef<HTMLElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const openRef = useRef(open);
  openRef.current = open;
  const openId = open?.id;
  useEffect(() => {
    onOpenChange?.(openId !== undefined);
  }, [openId, onOpenChange]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const close = useCallback((returnFocus: boolean) => {
    clearTimeout(timer.current);
    const o = openRef.current;
    setOpen(null);
    if (o && returnFocus) nav.current?.querySelector<HTMLButtonElement>(`[aria-controls="submenu-${o.id}"]`)?.focus();
  }, []);

  // Escape anywhere closes it (focus back on the button when focus was in
  // the menu); a press outside the menu closes it.
  useDismiss(openId !== undefined, nav, () => close(false), () => close(!!nav.current?.contains(document.activeElement)));

  // Keep an open sub-menu inside the viewport (only on a header at least POSITION_MIN_WIDTH wide).
  useLayoutEffect(() => {
    if (openId === undefined || !nav.current) return;
    const sub = nav.current.querySelector<HTMLElement>(`#submenu-${openId}`);
    if (!sub) return;
    sub.classList.remove('sub-menu--end');
    if (nav.current.offsetWidth < POSITION_MIN_WIDTH) return;
    const limit = document.documentElement.clientWidth;
    if (sub.getBoundingClientRect().right > limit - 8) sub.classList.add('sub-menu--end');
  }, [openId]);

  const hover = (id: number) => (e: PointerEvent) => {
    if (e.pointerType !== 'mouse') return;
    clearTimeout(timer.current);
    if (open?.id === id) return;
    timer.current = setTimeout(() => setOpen({ id, by: 'hover' }), open ? 0 : HOVER_OPEN_MS);
  };
  const leave = (id: number) => (e: PointerEvent) => {
    if (e.pointerType !== 'mouse') return;
    clearTimeout(timer.current);
    if (open?.id !== id || open.by !== 'hover') return;
    timer.current = setTimeout(() => setOpen((o) => (o?.id === id && o.by === 'hover' ? null : o)), HOVER_CLOSE_MS);
  };
  const toggle = (id: number) => {
    clearTimeout(timer.current);
    setOpen((o) => (o?.id === id && o.by === 'click' ? null : { id, by: 'click' }));
  };
  const blur = (id: number) => (e: FocusEvent<HTMLLIElement>) => {
    const to = e.relatedTarget as Node | null;
    if (to && e.currentTarget.contains(to)) return;
    setOpen((o) => (o?.id === id && o.by === 'click' ? null : o));
  };

  return (
    <nav className="primary-nav" aria-label="Product categories" ref={nav}>
      <div className="container">
        <ul className="menu">
          <li className="menu-item">
            <a href="/shop/" aria-current={path === '/shop/' ? 'page' : undefined}>
              Shop all
            </a>
          </li>
          {items.map((item) => {
            const name = decodeEntities(item.name);
            const children = item.children ?? [];
            if (children.length === 0) {
              return (
                <li key={item.id} className="menu-item">
                  <CategoryLink cat={item} path={path} />
                </li>
              );
            }
            const isOpen = open?.id === item.id;
            const id = submenuId(item);
            return (
              <li
                key={item.id}
                className={'menu-item menu-item-has-children' + (isOpen ? ' is-open' : '')}
                onPointerEnter={hover(item.id)}
                onPointerLeave={leave(item.id)}
                onBlur={blur(item.id)}
              >
                <CategoryLink cat={item} path={path} />
                <button
                  type="button"
                  className="submenu-toggle"
                  aria-expanded={isOpen}
                  aria-controls={id}
                  onClick={() => toggle(item.id)}
                >
                  <span className="screen-reader-text">{`${name} submenu`}</span>
                  <svg aria-hidden="true" focusable="false" width="12" height="12" viewBox="0 0 12 12">
                    <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
                  </svg>
                </button>
                <ul id={id} className="sub-menu">
                  {children.map((c) => (
                    <li key={c.id} className="menu-item">
                      <CategoryLink cat={c} path={path} />
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      </div>
    </nav>
  );
}
