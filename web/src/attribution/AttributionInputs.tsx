import { useEffect, useState } from 'react';
import { FIELDS, trackPageView, type AttributionData, type AttributionSettings } from './attribution';

/**
 * Mounted on every page (App): after hydration, records the page view in the
 * attribution cookies, or deletes them when tracking is off. Renders nothing.
 */
export function AttributionTracker({ settings }: { settings: AttributionSettings }) {
  useEffect(() => {
    trackPageView(settings);
  }, [settings]);
  return null;
}

/**
 * The hidden wc_order_attribution_* inputs of a classic form (checkout):
 * empty in the server HTML, filled from the cookies once the page runs.
 * With tracking off they stay empty.
 */
export function AttributionInputs({ settings }: { settings: AttributionSettings }) {
  const [data, setData] = useState<AttributionData | null>(null);
  useEffect(() => {
    setData(trackPageView(settings));
  }, [settings]);
  return (
    <div className="wc-order-attribution-inputs" hidden>
      {FIELDS.map((f) => (
        <input key={f} type="hidden" name={`wc_order_attribution_${f}`} value={data?.[f] ?? ''} />
      ))}
    </div>
  );
}
