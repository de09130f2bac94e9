import { useEffect, useRef, useState } from 'react';
import type { PageLink } from '../types';
import { pageAt, PRIVACY_PATH } from '../lib/legal';
import { choose, closeBanner, useConsent, type ConsentSettings } from './consent';
import './consent.css';

const SAVED = {
  granted: 'Cookie choice saved: all cookies accepted.',
  denied: 'Cookie choice saved: only essential cookies are used.',
} as const;

/**
 * The consent banner (docs/decisions/0102-consent.md): a labelled region
 * fixed at the bottom of the viewport, over the page, so nothing on the
 * page moves when it appears. Rendered in the browser only, after
 * hydration, when the shop asks for consent and the shopper has not chosen
 * (or reopened it from the footer's "Cookie settings"); under Global
 * Privacy Control it never shows by itself.
 *
 * It comes right after the skip link in the tab order, but takes no focus
 * when it appears on a page: a screen reader keeps reading the page, a
 * keyboard user meets it with the second Tab. Reopened on request it takes focus, Escape closes it,
 * and focus goes back to the footer's link; after a first choice focus goes
 * to the page's content. Accept and Reject look the same. The choice is
 * announced in a polite live region.
 */
export function ConsentBanner({ settings, pages }: { settings: ConsentSettings; pages?: PageLink[] }) {
  const view = useConsent();
  const region = useRef<HTMLDivElement>(null);
  const [said, setSaid] = useState('');
  const open = view.ready && !!settings?.banner && (view.reopened || (view.choice === '' && !view.gpc));

  useEffect(() => {
    if (open && view.reopened) region.current?.focus();
  }, [open, view.reopened]);

  if (!view.ready || !settings?.banner) return null;

  const privacy = pageAt(pages, PRIVACY_PATH);
  const restoreFocus = () => {
    if (view.reopened && view.opener?.isConnected) view.opener.focus();
    else document.getElementById('content')?.focus({ preventScroll: true });
  };
  const pick = (choice: 'granted' | 'denied') => {
    choose(choice);
    setSaid(SAVED[choice]);
    restoreFocus();
  };
  const dismiss = () => {
    closeBanner();
    restoreFocus();
  };

  return (
    <>
      {open && (
        <div
          ref={region}
          className="consent-banner"
          role="region"
          aria-labelledby="consent-banner-title"
          aria-describedby="consent-banner-text"
          tabIndex={-1}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && view.reopened) {
              e.preventDefault();
              dismiss();
            }
          }}
        >
          <div className="container consent-banner__inner">
            <div className="consent-banner__body">
              {/* Not a heading: it comes before the page's own h1. */}
              <p id="consent-banner-title" className="consent-banner__title">
                Cookie consent
              </p>
              <p id="consent-banner-text" className="consent-banner__text">
                {view.gpc
                  ? 'Your browser sends Global Privacy Control, so this shop keeps only the cookies it needs to work (your cart, your login, your choices).'
                  : 'We use cookies the shop needs to work (your cart, your login). With your permission we also remember where your visit came from and the products you viewed.'}{' '}
                {privacy && <a href={privacy.url}>Privacy policy</a>}
              </p>
            </div>
            <div className="consent-banner__actions">
              {view.gpc ? (
                <button type="button" className="button consent-banner__button" onClick={dismiss}>
                  Close
                </button>
              ) : (
                <>
                  <button type="button" className="button consent-banner__button" onClick={() => pick('granted')}>
                    Accept
                  </button>
                  <button type="button" className="button consent-banner__button" onClick={() => pick('denied')}>
                    Reject
                  </button>
                </>
              )}
            </div>
          </div>
        </div>
      )}
      <p className="screen-reader-text consent-status" role="status">
        {said}
      </p>
    </>
  );
}
