import { useEffect, useState } from 'react';
import { onConsentChange, type ConsentSettings } from '../consent/consent';
import { FIELDS, trackPageView, type AttributionData, type AttributionSettings } from './attribution';
import { afterHydration } from '../lib/hydrate-later';

/**
 * Mounted on every page (App): after hydration, records the page view in the
 * attribution cookies, or deletes them when tracking is off or consent does
 * not allow it; again when the shopper makes a choice. Renders nothing. The
 * cookies' reads and writes wait until the whole page is live, in a task of
 * their own (lib/hydrate-later.tsx): no shopper waits for them.
 */
export function AttributionTracker({ settings, consent }: { settings: AttributionSettings; consent: ConsentSettings }) {
  useEffect(() => {
    let off = () => {};
    const cancel = afterHydration(() => {
      trackPageView(settings, consent);
      // attribution.ts forgets the recorded page view first.
      off = onConsentChange(() => trackPageView(settings, consent));
    });
    return () => {
      cancel();
      off();
    };
  }, [settings, consent]);
  return null;
}

/**
 * The hidden wc_order_attribution_* inputs of a classic form (checkout):
 * empty in the server HTML, filled from the cookies once the page runs.
 * With tracking off, or without consent, they stay empty.
 */
export function AttributionInputs({ settings, consent }: { settings: AttributionSettings; consent: ConsentSettings }) {
  const [data, setData] = useState<AttributionData | null>(null);
  useEffect(() => {
    setData(trackPageView(settings, consent));
    return onConsentChange(() => setData(trackPageView(settings, consent)));
  }, [settings, consent]);
  return (
    <div className="wc-order-attribution-inputs" hidden>
      {FIELDS.map((f) => (
        <input key={f} type="hidden" name={`wc_order_attribution_${f}`} value={data?.[f] ?? ''} />
      ))}
    </div>
  );
}
