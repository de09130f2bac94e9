import { useRef, useState, type FormEvent, type MouseEvent } from 'react';
import type { CartCoupon, CurrencyBlock } from '../types';
import { formatPrice } from '../lib/format';
import './coupon.css';

/**
 * The coupon form of the cart page and the checkout. Without
 * scripts it posts coupon_code and apply_coupon to /cart/, which applies
 * the code and shows the cart with the result. With scripts, onApply sends
 * the Store API's apply-coupon and answers the refusal's message ("" when
 * applied); the message is tied to the field (aria-describedby,
 * aria-invalid) and announced (an assertive live region that is always there), and focus stays in the field
 * so the shopper can correct the code.
 */
export function CouponForm({
  onApply,
  busy,
  idPrefix = 'coupon_code',
}: {
  onApply: (code: string) => Promise<string>;
  busy?: boolean;
  idPrefix?: string;
}) {
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const errorId = `${idPrefix}-error`;

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const el = input.current;
    const code = (el?.value || '').trim();
    if (!code) {
      setError('Please enter a coupon code.');
      el?.focus();
      return;
    }
    setPending(true);
    const msg = await onApply(code).catch(() => 'The coupon could not be applied. Please try again.');
    setPending(false);
    setError(msg);
    if (msg) {
      el?.focus();
    } else if (el) {
      el.value = '';
    }
  };

  return (
    <form className="checkout_coupon woocommerce-form-coupon coupon" action="/cart/" method="post" onSubmit={submit} noValidate>
      <label htmlFor={idPrefix}>Coupon code</label>
      <div className="coupon-row">
        <input
          ref={input}
          id={idPrefix}
          name="coupon_code"
          type="text"
          className="input-text"
          autoComplete="off"
          spellCheck="false"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onInput={() => error && setError('')}
        />
        <button type="submit" className="button" name="apply_coupon" value="Apply coupon" disabled={busy || pending}>
          Apply coupon
        </button>
      </div>
      <p id={errorId} className="coupon-error" aria-live="assertive">
        {error}
      </p>
    </form>
  );
}

/** The remove link of an applied coupon: /cart/?remove_coupon=CODE&_wpnonce=… works without scripts. */
export function removeCouponHref(code: string, nonce?: string): string {
  // No URLSearchParams: the server render's engine has none.
  const href = `/cart/?remove_coupon=${encodeURIComponent(code)}`;
  return nonce ? `${href}&_wpnonce=${encodeURIComponent(nonce)}` : href;
}

/**
 * One totals row per applied coupon: "Coupon: CODE", the discount, and a
 * remove link (with scripts, onRemove sends remove-coupon).
 */
export function CouponRows({
  coupons,
  currency,
  nonce,
  onRemove,
}: {
  coupons: CartCoupon[] | undefined;
  currency: CurrencyBlock;
  nonce?: string;
  onRemove: (code: string) => void;
}) {
  return (
    <>
      {(coupons || []).map((c) => (
        <tr key={c.code} className={`cart-discount coupon-${c.code.replace(/[^a-z0-9_-]/gi, '')}`}>
          <th scope="row">Coupon: {c.code}</th>
          <td data-title={`Coupon: ${c.code}`}>
            <span className="woocommerce-Price-amount amount">
              <bdi>-{formatPrice(c.totals.total_discount, c.totals.currency_code ? c.totals : currency)}</bdi>
            </span>{' '}
            <a
              href={removeCouponHref(c.code, nonce)}
              className="woocommerce-remove-coupon"
              aria-label={`Remove coupon ${c.code}`}
              onClick={(e: MouseEvent) => {
                e.preventDefault();
                onRemove(c.code);
              }}
            >
              [Remove]
            </a>
          </td>
        </tr>
      ))}
    </>
  );
}
