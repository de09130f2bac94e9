import { useEffect, useState, type FormEvent } from 'react';
import { restFetch } from '../lib/rest';

const PREFS = '/wp-json/vitrine/v1/alerts/prefs';

type Prefs = { back_in_stock: boolean; price_drop: boolean };

/**
 * My account's wishlist emails: "Email me when a wishlisted item is back
 * in stock" and "… drops in price" (internal/alerts). The choices are read
 * after load and saved with the REST nonce; the outcome is read out by a
 * live region.
 */
export function AlertPrefs() {
  const [prefs, setPrefs] = useState<Prefs | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    restFetch(PREFS)
      .then((r) => (r.ok ? r.json() : null))
      .then((p: Prefs | null) => {
        if (live) setPrefs(p ?? { back_in_stock: false, price_drop: false });
      })
      .catch(() => live && setPrefs({ back_in_stock: false, price_drop: false }));
    return () => {
      live = false;
    };
  }, []);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!prefs || busy) return;
    setBusy(true);
    setStatus('');
    try {
      const r = await restFetch(PREFS, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(prefs) });
      setStatus(r.ok ? 'Your email choices are saved.' : 'Your choices could not be saved. Please try again.');
    } catch {
      setStatus('Your choices could not be saved. Check your connection and try again.');
    } finally {
      setBusy(false);
    }
  };

  const box = (key: keyof Prefs, label: string) => (
    <p className="form-row">
      <label className="woocommerce-form__label woocommerce-form__label-for-checkbox">
        <input
          type="checkbox"
          className="woocommerce-form__input woocommerce-form__input-checkbox"
          name={key}
          checked={!!prefs?.[key]}
          disabled={!prefs}
          onChange={(e) => prefs && setPrefs({ ...prefs, [key]: e.currentTarget.checked })}
        />{' '}
        <span>{label}</span>
      </label>
    </p>
  );

  return (
    <section className="account-alerts" aria-labelledby="account-alerts-heading">
      <h2 id="account-alerts-heading">Wishlist emails</h2>
      <form onSubmit={onSubmit} className="account-alerts-form">
        {box('back_in_stock', 'Email me when a wishlisted item is back in stock')}
        {box('price_drop', 'Email me when a wishlisted item drops in price')}
        <p>
          <button type="submit" className="button" disabled={!prefs} aria-disabled={busy || undefined}>
            Save email choices
          </button>
        </p>
      </form>
      <p role="status" className="account-alerts-status">
        {status}
      </p>
    </section>
  );
}
