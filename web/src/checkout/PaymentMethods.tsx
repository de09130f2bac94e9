import type { PaymentMethod } from '../types';
import { decodeEntities } from '../lib/format';

export const NO_METHODS_MESSAGE =
  'Sorry, it seems that there are no available payment methods. Please contact us if you require assistance or wish to make alternate arrangements.';

/**
 * The payment methods as radios (name payment_method); the chosen one's
 * description shows under it (CSS :checked, so it works before scripts too).
 */
export function PaymentMethods({
  methods,
  value,
  onChange,
  error,
}: {
  methods: PaymentMethod[];
  value: string;
  onChange: (id: string) => void;
  error: string;
}) {
  if (methods.length === 0) {
    return <p className="woocommerce-notice woocommerce-info">{NO_METHODS_MESSAGE}</p>;
  }
  return (
    <fieldset className="payment-methods-fieldset" aria-describedby={error ? 'payment_method-error' : undefined}>
      <legend className="screen-reader-text">Payment method</legend>
      <ul className="wc_payment_methods payment_methods methods">
        {methods.map((m) => {
          const id = `payment_method_${m.id}`;
          return (
            <li key={m.id} className={`wc_payment_method payment_method_${m.id}`}>
              <input
                id={id}
                type="radio"
                className="input-radio"
                name="payment_method"
                value={m.id}
                checked={value === m.id}
                onChange={() => onChange(m.id)}
                aria-describedby={m.description ? `${id}-description` : undefined}
              />
              <label htmlFor={id}>{decodeEntities(m.title)}</label>
              {m.description && (
                <div className={`payment_box payment_method_${m.id}`} id={`${id}-description`}>
                  {/* The shop owner's text from the payment settings: plain text, never markup. */}
                  <p className="payment-text">{m.description}</p>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {error && (
        <p className="checkout-inline-error-message" id="payment_method-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
