import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useHydrated } from '../listing/hydrated';
import { CartCount } from './CartCount';
import { CartDrawer, DRAWER_QUERY, prefersDrawer } from './CartDrawer';
import { cookie, lastFragments, refreshForCurrency, storeFragments, wcAjax, type CartAnswer } from './add-to-cart';
import { onCurrencySwitch } from '../currency/store';
import { installCartSync } from './cart-sync';
import { useDismiss } from '../lib/dismiss';
import './cart.css';

export const OPEN_AFTER_ADD_MS = 5000;
const MINI_CART = 'div.widget_shopping_cart_content';

/**
 * The header cart: a link to /cart/ that, once scripts run, becomes the
 * button of the mini cart (spec sections 2, 4 and 9): a dropdown disclosure
 * on large screens, an off-canvas drawer (a modal dialog, CartDrawer.tsx)
 * under the large breakpoint. The mini cart is the server's fragment
 * (div.widget_shopping_cart_content), put into host elements React never
 * renders children into. It is fetched on first open only when the
 * woocommerce_items_in_cart cookie says the cart has items; after an add the
 * dropdown or the drawer opens for 5 s. Another tab's cart change refreshes
 * this tab (cart-sync.ts), and so does a currency switch (the cart is priced
 * in the shopper's currency).
 */
export function CartMenu({ count }: { count: number }) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const [drawer, setDrawer] = useState<{ open: boolean; auto: boolean }>({ open: false, auto: false });
  const [narrow, setNarrow] = useState(false);
  const [filled, setFilled] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  const drawerHost = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLAnchorElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Opened by an add: where focus was (the add button, to go back to) and
  // whether the shopper has used the dropdown since (a key or pointer press in it).
  const returnTo = useRef<HTMLElement | null>(null);
  const used = useRef(false);
  const focusPanel = useRef(false);

  // Closes the dropdown; focus left inside it (or dropped on the page) goes
  // back to where it was before an add opened it, else to the cart button.
  const closeDropdown = useCallback(() => {
    setOpen(false);
    const active = document.activeElement;
    const back = returnTo.current;
    returnTo.current = null;
    if (active && active !== document.body && !wrap.current?.contains(active)) return;
    if (back && back.isConnected && !wrap.current?.contains(back)) back.focus();
    else toggle.current?.focus();
  }, []);

  // Which mini cart this viewport uses.
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mq = window.matchMedia(DRAWER_QUERY);
    const apply = () => {
      setNarrow(mq.matches);
      if (mq.matches) setOpen(false);
    };
    apply();
    mq.addEventListener?.('change', apply);
    return () => mq.removeEventListener?.('change', apply);
  }, []);

  // Other tabs' cart changes.
  useEffect(() => installCartSync(), []);
  // A currency switch reprices the cart: the fragments are asked for again.
  useEffect(() => onCurrencySwitch(() => refreshForCurrency()), []);

  // Every fragments answer refills both panels (the panels mount once
  // hydrated: the latest fragment is painted into them then).
  const latest = useRef<string | undefined>(undefined);
  const paint = useCallback(() => {
    const html = latest.current;
    if (html === undefined) return;
    for (const h of [host.current, drawerHost.current]) if (h && h.innerHTML !== html) h.innerHTML = html;
  }, []);
  useEffect(() => paint(), [hydrated, narrow, drawer.open, paint]);
  useEffect(() => {
    const fill = (html: string | undefined) => {
      if (html === undefined) return;
      latest.current = html;
      paint();
      setFilled(true);
    };
    const onFragments = (e: Event) => fill((e as CustomEvent<CartAnswer>).detail.fragments?.[MINI_CART]);
    const onAdded = () => {
      // The cart page shows the cart itself (its cross-sells' adds update
      // it): the mini cart stays closed there, over nothing.
      if (window.location.pathname === '/cart/') return;
      if (prefersDrawer()) {
        setDrawer((d) => (d.open ? d : { open: true, auto: true }));
        return;
      }
      // As a dialog would: focus moves into the mini cart (its View cart
      // and Checkout links a few Tabs away), and back when it closes.
      const active = document.activeElement;
      returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
      used.current = false;
      focusPanel.current = true;
      setOpen(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        if (!used.current && !wrap.current?.matches(':hover')) closeDropdown();
      }, OPEN_AFTER_ADD_MS);
    };
    document.addEventListener('vitrine:fragments', onFragments);
    document.addEventListener('vitrine:added-to-cart', onAdded);
    fill(lastFragments()?.[MINI_CART]);
    return () => {
      document.removeEventListener('vitrine:fragments', onFragments);
      document.removeEventListener('vitrine:added-to-cart', onAdded);
      clearTimeout(timer.current);
    };
  }, [paint, closeDropdown]);

  // Opened by an add: focus into the panel once it is shown.
  useEffect(() => {
    if (!open || !focusPanel.current) return;
    focusPanel.current = false;
    panel.current?.focus({ preventScroll: true });
  }, [open]);

  // Outside clicks close the dropdown; Escape closes it wherever focus is,
  // and focus goes back to the cart button when it was in the panel.
  useDismiss(open, wrap, () => setOpen(false), closeDropdown);

  const closeDrawer = useCallback(() => setDrawer({ open: false, auto: false }), []);

  const show = () => {
    if (!filled && cookie('woocommerce_items_in_cart') === '1') {
      wcAjax('get_refreshed_fragments', new URLSearchParams({ time: String(Date.now()) }))
        .then((a) => a?.fragments && storeFragments(a))
        .catch(() => undefined);
    }
    clearTimeout(timer.current);
    returnTo.current = null;
    if (prefersDrawer()) {
      setOpen(false);
      setDrawer({ open: true, auto: false });
      return;
    }
    setOpen(!open);
  };
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (!hydrated || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    show();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLAnchorElement>) => {
    if (hydrated && e.key === ' ') {
      e.preventDefault();
      show();
    }
  };
  return (
    <div
      className={'header-cart-menu' + (open ? ' is-open' : '')}
      ref={wrap}
      onBlur={(e) => {
        // Tabbing out of the dropdown closes it (focus stays where it went).
        const next = e.relatedTarget as Node | null;
        if (open && next && !e.currentTarget.contains(next)) {
          returnTo.current = null;
          setOpen(false);
        }
      }}
    >
      <a
        ref={toggle}
        className="cart-contents header-cart"
        href="/cart/"
        role={hydrated ? 'button' : undefined}
        aria-haspopup={hydrated && narrow ? 'dialog' : undefined}
        aria-expanded={hydrated ? (narrow ? drawer.open : open) : undefined}
        aria-controls={hydrated ? (narrow ? 'mini-cart-drawer' : 'mini-cart-panel') : undefined}
        onClick={onClick}
        onKeyDown={onKeyDown}
      >
        <svg aria-hidden="true" focusable="false" width="22" height="22" viewBox="0 0 24 24">
          <path
            d="M6 7h12l-1 13H7L6 7zm3 0V5a3 3 0 0 1 6 0v2"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinejoin="round"
          />
        </svg>
        <span className="cart-label">Cart</span> <CartCount count={count} />
      </a>
      {hydrated && (
        <div
          id="mini-cart-panel"
          ref={panel}
          className="mini-cart-dropdown"
          hidden={!open}
          role="region"
          aria-label="Cart contents"
          tabIndex={-1}
          onKeyDown={() => {
            used.current = true;
          }}
          onPointerDown={() => {
            used.current = true;
          }}
        >
          {!filled && <p className="woocommerce-mini-cart__empty-message">No products in the cart.</p>}
          <div className="mini-cart-host" ref={host} />
        </div>
      )}
      {hydrated && (narrow || drawer.open) && (
        <CartDrawer
          open={drawer.open}
          closeAfterMs={drawer.auto ? OPEN_AFTER_ADD_MS : undefined}
          hostRef={drawerHost}
          filled={filled}
          fallbackFocus={toggle}
          onClose={closeDrawer}
        />
      )}
    </div>
  );
}
