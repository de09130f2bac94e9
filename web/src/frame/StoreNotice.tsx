import { useEffect } from 'react';
import type { StoreNoticeSettings } from '../types';
import './store-notice.css';

/** The class the head script (render.HeadScript) puts on <html> when the notice was dismissed; the stylesheet hides the notice. */
export const HIDDEN_CLASS = 'store-notice-hidden';
/** How long the dismissal is remembered: a year (the same notice never shows again). */
export const NOTICE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export function noticeCookieName(id: string): string {
  return `store_notice${id}`;
}

/** The dismiss cookie (spec sections 3 and 9): store_notice<id>=hidden at the site root. */
export function noticeCookie(id: string, secure: boolean): string {
  return `${noticeCookieName(id)}=hidden; path=/; max-age=${NOTICE_COOKIE_MAX_AGE}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function noticeDismissed(id: string, cookies: string): boolean {
  const name = noticeCookieName(id);
  return cookies.split(';').some((c) => c.trim() === `${name}=hidden`);
}

/**
 * The shop's store notice (spec sections 2 to 4): a banner above the
 * header on every page, in the cached HTML. Dismiss sets the cookie
 * store_notice<id>=hidden and hides it; on later pages the head script
 * reads the cookie and hides it before first paint (no flash), so the
 * shared page never depends on the visitor. It is a labelled region,
 * announced by nothing on load; after a dismissal focus goes to what
 * follows it (onGone).
 */
export function StoreNotice({ notice, onGone }: { notice?: StoreNoticeSettings; onGone?: () => void }) {
  const id = notice?.id;
  // The head script did this before paint; this covers a page whose head
  // script did not run.
  useEffect(() => {
    if (id && noticeDismissed(id, document.cookie)) document.documentElement.classList.add(HIDDEN_CLASS);
  }, [id]);
  if (!notice || !id) return null;

  const dismiss = () => {
    document.cookie = noticeCookie(id, window.location.protocol === 'https:');
    document.documentElement.classList.add(HIDDEN_CLASS);
    onGone?.();
  };

  return (
    <div className="woocommerce-store-notice demo_store store-notice" data-notice-id={id} role="region" aria-label="Store notice">
      <div className="container store-notice__inner">
        <div className="store-notice__text" dangerouslySetInnerHTML={{ __html: notice.html }} />
        <button
          type="button"
          className="woocommerce-store-notice__dismiss-link store-notice__dismiss"
          aria-label="Dismiss the store notice"
          onClick={dismiss}
        >
          Dismiss
        </button>
      </div>
    </div>
  );
}
