import { useRef, useState } from 'react';
import type { ViewerSettings } from '../types';
import { restFetch } from '../lib/rest';

/** The dismissal's form body (protocol-notes section 9). */
export const DISMISS_BODY = 'woocommerce_meta%5Bcoming_soon_banner_dismissed%5D=yes';

/**
 * The coming-soon footer banner (protocol-notes section 9): shown to staff
 * while the shop is in coming-soon mode. Dismiss POSTs the flag to the
 * viewer's REST user with the banner's nonce and hides the banner when the
 * call completes, whatever the result; focus moves to the footer so it is
 * not lost with the button.
 */
export function ComingSoonBanner({ user, onGone }: { user?: ViewerSettings; onGone?: () => void }) {
  const banner = user?.coming_soon_banner;
  const [state, setState] = useState<'shown' | 'sending' | 'gone'>('shown');
  const button = useRef<HTMLButtonElement>(null);
  if (!banner || state === 'gone') return null;

  const dismiss = async () => {
    if (state !== 'shown') return;
    setState('sending');
    const el = button.current;
    const url = el?.dataset.restUrl || banner.rest_url;
    const nonce = el?.dataset.restNonce || banner.rest_nonce;
    try {
      await restFetch(
        url,
        { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: DISMISS_BODY },
        { nonce },
      );
    } catch {
      // hidden anyway: the banner is a reminder, not a gate
    }
    setState('gone');
    onGone?.();
  };

  return (
    <div id="coming-soon-footer-banner" className="coming-soon-footer-banner" role="region" aria-label="Coming soon mode">
      <p>
        The shop is in &ldquo;coming soon&rdquo; mode: visitors see a coming-soon page. Only staff can browse the shop
        and see this reminder.
      </p>
      <button
        type="button"
        ref={button}
        className="coming-soon-footer-banner-dismiss"
        data-rest-url={banner.rest_url}
        data-rest-nonce={banner.rest_nonce}
        aria-label="Dismiss the coming-soon reminder"
        aria-disabled={state === 'sending' || undefined}
        onClick={() => void dismiss()}
      >
        Dismiss
      </button>
    </div>
  );
}
