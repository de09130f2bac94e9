import { useRef, useState, type FormEvent } from 'react';
import type { ViewerSettings } from '../types';
import { obtainProof } from '../account/login/botcheck';
import { InputField, SelectField } from '../ui/Field';

/** Where the form posts, and the bot-check's challenge (internal/alerts). */
export const NOTIFY_ACTION = '/stock-alerts/subscribe/';
export const NOTIFY_BOTCHECK = '/wp-json/vitrine/v1/botcheck/stock-alert';

const BOTCHECK_FAILED = 'The bot check could not be verified. Please try again.';
const NETWORK = 'Your request could not be sent. Check your connection and try again.';
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Outcome = { ok: true; message: string } | { ok: false; message: string; field: 'email' | '' };

/** Posts the form; the server answers JSON (alertsapi.Subscribed or a REST error). */
export async function postNotify(body: URLSearchParams, fetcher: typeof fetch = fetch): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetcher(NOTIFY_ACTION, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  } catch {
    return { ok: false, message: NETWORK, field: '' };
  }
  let data: { message?: unknown; code?: unknown } = {};
  try {
    data = await res.json();
  } catch {
    /* not JSON */
  }
  const message = typeof data.message === 'string' && data.message ? data.message : NETWORK;
  if (res.ok) return { ok: true, message };
  return { ok: false, message, field: data.code === 'vitrine_alert_invalid_email' ? 'email' : '' };
}

/** A sold-out variation the shopper may ask about: its id and its values ("Red / L"). */
export interface NotifyOption {
  id: number;
  label: string;
}

/**
 * "Notify me when available" on an out-of-stock product or chosen
 * variation, or, with options, any of a variable product's sold-out
 * variations (chosen in the form: a sold-out swatch may not be choosable
 * above it): a guest gives an email (confirmed by a mailed link), a
 * logged-in customer presses one button. The same markup is in every
 * cached page (no personal data: the viewer is known only in the browser);
 * the post is a fetch with the invisible bot-check's proof, its answer
 * read out by a live region. Without scripts the browser posts the form.
 */
export function NotifyForm({
  itemId,
  productName,
  user,
  options,
}: {
  itemId: number;
  productName: string;
  user?: ViewerSettings;
  options?: NotifyOption[];
}) {
  const guest = !user?.logged_in;
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const [error, setError] = useState<{ message: string; field: 'email' | '' } | null>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const headingId = `notify-title-${itemId}`;

  const fail = (message: string, field: 'email' | '') => {
    setError({ message, field });
    if (field === 'email') emailRef.current?.focus();
    else alertRef.current?.focus();
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const fd = new FormData(e.currentTarget);
    const email = String(fd.get('email') ?? '').trim();
    if (guest && !EMAIL_RE.test(email)) {
      fail('Please enter a valid email address.', 'email');
      return;
    }
    setError(null);
    setDone('');
    setBusy(true);
    try {
      const body = new URLSearchParams();
      body.set('product_id', String(fd.get('product_id') ?? itemId));
      if (guest) {
        body.set('email', email);
        try {
          body.set('altcha', await obtainProof(NOTIFY_BOTCHECK, hostRef.current ?? document.body));
        } catch {
          fail(BOTCHECK_FAILED, '');
          return;
        }
      }
      const res = await postNotify(body);
      if (res.ok) setDone(res.message);
      else fail(res.message, res.field);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="stock-notify" aria-labelledby={headingId}>
      <h2 id={headingId} className="stock-notify__title">
        Notify me when available
      </h2>
      <p className="stock-notify__lead">
        {`We will email you once${guest ? '' : ', at your account\u2019s address,'} when ${
          options ? `the option you choose of \u201c${productName}\u201d is` : `\u201c${productName}\u201d is`
        } back in stock.${guest ? ' You will first confirm your address from a link we send.' : ''}`}
      </p>
      <form action={NOTIFY_ACTION} method="post" className="stock-notify__form" noValidate onSubmit={onSubmit}>
        {options ? (
          <SelectField label="Sold-out option" id={`notify-option-${itemId}`} name="product_id" defaultValue={String(options[0]?.id ?? itemId)}>
            {options.map((o) => (
              <option key={o.id} value={String(o.id)}>
                {o.label}
              </option>
            ))}
          </SelectField>
        ) : (
          <input type="hidden" name="product_id" value={String(itemId)} />
        )}
        {guest && (
          <InputField
            ref={emailRef}
            label="Email address"
            id={`notify-email-${itemId}`}
            name="email"
            type="email"
            autoComplete="email"
            maxLength={254}
            required
            error={error?.field === 'email' ? error.message : undefined}
            className="stock-notify__email"
          />
        )}
        <button type="submit" className="button alt stock-notify__button" aria-disabled={busy || undefined}>
          {busy ? 'Sending\u2026' : 'Notify me'}
        </button>
      </form>
      <p ref={alertRef} className={error && error.field === '' ? 'woocommerce-error stock-notify__error' : 'stock-notify__error'} role="alert" tabIndex={-1}>
        {error && error.field === '' ? error.message : ''}
      </p>
      <p className="stock-notify__status" role="status">
        {done}
      </p>
      <div ref={hostRef} hidden />
    </section>
  );
}
