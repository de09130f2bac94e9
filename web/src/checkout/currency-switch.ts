// The checkout's currency for the chosen payment method (spec
// section 7 "Additional behaviours"): choosing a method posts the Store API's
// cart/extensions with the woo-multi-currency namespace. A method that does
// not take the shopper's currency (the wallet, for a currency PayPal does not
// take) makes the checkout's currency the shop's base; choosing one that takes
// it again brings it back. The answer is the cart in the checkout's currency
// with extensions["woo-multi-currency"]: wmc_update_checkout says the currency
// changed (every amount must be re-read), notice says why the order is in
// the base currency ('' when it is not).
import type { StoreCart } from '../types';

export const WMC_NAMESPACE = 'woo-multi-currency';
/** The cookie keeping the currency the checkout left for the base. */
export const OLD_CURRENCY_COOKIE = 'wmc_current_currency_old';

/** The switch's part of a cart answer. */
export interface CurrencySwitch {
  current: string;
  update: boolean;
  notice: string;
}

/** The body of POST cart/extensions for a chosen method. */
export function switchBody(methodId: string) {
  return { namespace: WMC_NAMESPACE, data: { payment_method: methodId } };
}

/** Reads extensions["woo-multi-currency"] of a cart answer (null when absent). */
export function readSwitch(c: StoreCart | null | undefined): CurrencySwitch | null {
  const raw = c?.extensions?.[WMC_NAMESPACE];
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  return {
    current: typeof r.current_currency === 'string' ? r.current_currency : '',
    update: r.wmc_update_checkout === true,
    notice: typeof r.notice === 'string' ? r.notice : '',
  };
}

/** Whether the checkout left a currency for the base (a choice to settle on load). */
export function hasOldCurrency(cookie: string): boolean {
  return cookie.split(';').some((part) => {
    const [k, ...v] = part.trim().split('=');
    return k === OLD_CURRENCY_COOKIE && v.join('=').trim() !== '';
  });
}
