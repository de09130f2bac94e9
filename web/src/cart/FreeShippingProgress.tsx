import type { FreeShippingProgress as Progress, StoreCart } from '../types';
import { formatPrice } from '../lib/format';

/** The cart's free-shipping progress (extensions["vitrine/free-shipping"]), or null. */
export function freeShippingOf(cart: StoreCart): Progress | null {
  const p = cart.extensions?.['vitrine/free-shipping'] as Progress | undefined;
  return p && typeof p.min_amount === 'string' && typeof p.remaining === 'string' ? p : null;
}

/**
 * "Add $12.00 more for free shipping" with a progress bar, or "You get free
 * shipping" once the items reach the zone's minimum. The server computes
 * it with the rule that offers the free-shipping rate (amounts after
 * coupons, in the shopper's currency); this only shows it. Nothing when
 * the shopper's zone has no minimum.
 */
export function FreeShippingProgress({ cart }: { cart: StoreCart }) {
  const p = freeShippingOf(cart);
  if (!p) return null;
  const min = Number(p.min_amount) || 0;
  const amount = Math.min(Math.max(Number(p.amount) || 0, 0), min);
  return (
    <div className={`free-shipping-progress${p.reached ? ' is-reached' : ''}`}>
      <p className="free-shipping-progress__text" id="free-shipping-progress-text">
        {p.reached ? (
          'You get free shipping'
        ) : (
          <>
            Add{' '}
            <span className="woocommerce-Price-amount amount">
              <bdi>{formatPrice(p.remaining, p)}</bdi>
            </span>{' '}
            more for free shipping
          </>
        )}
      </p>
      <progress
        className="free-shipping-progress__bar"
        max={min}
        value={p.reached ? min : amount}
        aria-labelledby="free-shipping-progress-text"
      />
    </div>
  );
}
