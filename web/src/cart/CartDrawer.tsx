import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { keepTabInside, shownStopsIn, wrapAmong } from '../lib/focus-trap';

/** The header opens the drawer instead of the dropdown under the large breakpoint (spec section 9: large >= 850 px). */
export const DRAWER_QUERY = '(max-width: 849px)';

/** Whether the drawer is the mini cart for this viewport. */
export function prefersDrawer(win: Window = window): boolean {
  return typeof win.matchMedia === 'function' && win.matchMedia(DRAWER_QUERY).matches;
}

/** The element Tab or Shift+Tab should wrap to inside root, or null to let the browser move on. */
export function wrapTarget(root: HTMLElement, active: Element | null, backwards: boolean): HTMLElement | null {
  return wrapAmong(shownStopsIn(root), active, backwards, root);
}

export interface CartDrawerProps {
  open: boolean;
  /**
   * Opened by an add: it closes itself after closeAfterMs unless the
   * shopper has used it (a key or pointer press inside) or the pointer
   * rests on it.
   */
  closeAfterMs?: number;
  /** The element the mini cart fragment is put into (React renders no children there). */
  hostRef: RefObject<HTMLDivElement | null>;
  filled: boolean;
  /** Where focus goes when the drawer closes, if what had focus before it opened is gone. */
  fallbackFocus: RefObject<HTMLElement | null>;
  onClose: () => void;
}

/**
 * The off-canvas mini cart (spec sections 2 and 9): a native <dialog>
 * opened with showModal(), so the page behind is inert and Escape closes it;
 * labelled by its heading; focus moves to its close button and goes back to
 * what had it before (the header cart button, or the add button after an
 * add); Tab and Shift+Tab wrap inside it; the page behind does not scroll
 * while it is open. Its content is the same server fragment as the
 * dropdown's (div.widget_shopping_cart_content), so removing from it works
 * the same way (installRemoveFromCart).
 */
export function CartDrawer({ open, closeAfterMs, hostRef, filled, fallbackFocus, onClose }: CartDrawerProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const returnTo = useRef<Element | null>(null);
  const used = useRef(false);
  // Fixed, not useId: the drawer is inside the header, a server fragment (lib/server-fragments.tsx).
  const titleId = 'mini-cart-drawer-title';

  // Open and close the native dialog with the state.
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      returnTo.current = document.activeElement;
      used.current = false;
      document.documentElement.classList.add('has-cart-drawer');
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
      closeButton.current?.focus();
    } else if (!open && d.open) {
      d.close();
    }
  }, [open]);

  // After an add: close after the delay unless the shopper uses the drawer.
  useEffect(() => {
    if (!open || !closeAfterMs) return;
    const t = setTimeout(() => {
      const d = ref.current;
      if (!d || used.current || d.matches(':hover')) return;
      onClose();
    }, closeAfterMs);
    return () => clearTimeout(t);
  }, [open, closeAfterMs, onClose]);

  // A removal replaces the fragment (and the focused remove link): keep focus in the drawer.
  useEffect(() => {
    if (!open) return;
    const onFragments = () => {
      requestAnimationFrame(() => {
        const d = ref.current;
        if (d?.open && !d.contains(document.activeElement)) heading.current?.focus();
      });
    };
    document.addEventListener('vitrine:fragments', onFragments);
    return () => document.removeEventListener('vitrine:fragments', onFragments);
  }, [open]);

  // Whatever closed it (button, Escape, backdrop, the timer): scroll back, focus back.
  const onNativeClose = () => {
    document.documentElement.classList.remove('has-cart-drawer');
    const back = returnTo.current as HTMLElement | null;
    returnTo.current = null;
    if (back && back.isConnected && back !== document.body && typeof back.focus === 'function') back.focus();
    else fallbackFocus.current?.focus();
    onClose();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    used.current = true;
    const root = e.currentTarget;
    keepTabInside(e, () => shownStopsIn(root), root);
  };

  return (
    <dialog
      ref={ref}
      id="mini-cart-drawer"
      className="mini-cart-drawer"
      aria-labelledby={titleId}
      onClose={onNativeClose}
      onKeyDown={onKeyDown}
      onPointerDown={() => {
        used.current = true;
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose(); // a click on the backdrop
      }}
    >
      <div className="mini-cart-drawer__inner">
        <div className="mini-cart-drawer__head">
          <h2 className="mini-cart-drawer__title" id={titleId} ref={heading} tabIndex={-1}>
            Cart
          </h2>
          <button type="button" className="mini-cart-drawer__close" ref={closeButton} onClick={onClose}>
            <span aria-hidden="true">×</span>
            <span className="screen-reader-text">Close cart</span>
          </button>
        </div>
        {!filled && <p className="woocommerce-mini-cart__empty-message">No products in the cart.</p>}
        <div className="mini-cart-host" ref={hostRef} />
      </div>
    </dialog>
  );
}
