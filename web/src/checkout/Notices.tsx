import { forwardRef, type MouseEvent } from 'react';

/** Spec section 9: the notice area takes focus after this delay (ms). */
export const NOTICE_FOCUS_DELAY = 500;
/** Spec section 9: scrolled into view with this offset from the top (px). */
export const NOTICE_SCROLL_OFFSET = 100;

export interface Notice {
  text: string;
  /** The classic field name it is about (a link to the field). */
  field?: string;
}

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Scrolls the element to NOTICE_SCROLL_OFFSET px from the top of the window (smoothly unless motion is reduced). */
export function scrollToNotices(el: HTMLElement): void {
  const top = Math.max(0, el.getBoundingClientRect().top + window.scrollY - NOTICE_SCROLL_OFFSET);
  try {
    window.scrollTo({ top, behavior: reducedMotion() ? 'auto' : 'smooth' });
  } catch {
    // an environment without scrolling
  }
}

/**
 * Shows the notices, scrolls them into view and focuses the area after
 * NOTICE_FOCUS_DELAY ms; answers a cancel function (for a newer call or unmount).
 */
export function revealNotices(el: HTMLElement): () => void {
  scrollToNotices(el);
  const t = setTimeout(() => el.focus({ preventScroll: true }), NOTICE_FOCUS_DELAY);
  return () => clearTimeout(t);
}

/** The element to focus for a field's notice link (a radio group focuses its checked or first radio). */
export function fieldElement(field: string): HTMLElement | null {
  if (field === 'payment_method') {
    return document.querySelector<HTMLElement>('input[name="payment_method"]:checked') || document.querySelector<HTMLElement>('input[name="payment_method"]');
  }
  return document.getElementById(field);
}

/**
 * The checkout's notice area at the top of the form (WooCommerce's
 * woocommerce-NoticeGroup-checkout): an error list in which each field's
 * message links to the field.
 */
export const Notices = forwardRef<HTMLDivElement, { notices: Notice[] }>(function Notices({ notices }, ref) {
  const go = (e: MouseEvent, field: string) => {
    const el = fieldElement(field);
    if (!el) return;
    e.preventDefault();
    el.focus();
  };
  return (
    <div ref={ref} className="woocommerce-NoticeGroup woocommerce-NoticeGroup-checkout" tabIndex={-1}>
      {notices.length > 0 && (
        <div role="alert">
          <ul className="woocommerce-error">
            {notices.map((n, i) => (
              <li key={`${i}-${n.text}`} data-id={n.field}>
                {n.field ? (
                  <a href={`#${n.field === 'payment_method' ? 'payment' : n.field}`} onClick={(e) => go(e, n.field!)}>
                    {n.text}
                  </a>
                ) : (
                  n.text
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
});
