import { useSyncExternalStore } from 'react';

/**
 * The shopper's currency in the browser. Cached pages carry base
 * prices; the price call (refresh.ts) answers price HTML in the shopper's
 * currency by product/variation id. This store holds those answers and the
 * current code so every price wrapper, variation form and switcher rendered by
 * React shows them at once; the server render and hydration see the empty
 * store (base prices, base code), so the cached HTML stays one per URL.
 */

/** The cookie naming the shopper's currency (set by us and by `?wmc-currency=`). */
export const CURRENCY_COOKIE = 'wmc_current_currency';
/** Fired on document after every price refresh (CURCY's name). */
export const FINISH_EVENT = 'wmc_cache_compatible_finish';

export interface CurrencyState {
  /** Code the prices on the page are shown in; '' = not refreshed (the base). */
  current: string;
  /** Price HTML by product/variation id from the last price call. */
  prices: Readonly<Record<string, string>>;
}

let state: CurrencyState = { current: '', prices: {} };
const EMPTY: CurrencyState = state;
const listeners = new Set<() => void>();

export function getCurrencyState(): CurrencyState {
  return state;
}

export function setCurrencyState(next: Partial<CurrencyState>): void {
  state = { ...state, ...next };
  for (const l of [...listeners]) l();
}

/** Back to nothing refreshed (tests). */
export function resetCurrencyState(): void {
  state = EMPTY;
  for (const l of [...listeners]) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The store in a component; the server snapshot is always the empty store. */
export function useCurrencyState(): CurrencyState {
  return useSyncExternalStore(subscribe, getCurrencyState, () => EMPTY);
}

/** The refreshed price HTML for an id, or undefined (show the base price). */
export function usePriceOverride(id: number | undefined): string | undefined {
  const s = useCurrencyState();
  return id ? s.prices[String(id)] : undefined;
}

/**
 * What else on the page follows a currency switch (the mini cart's
 * fragments, the cart page's lines): each is called with the new code after
 * the cookie is set and may answer a promise of its refresh.
 */
export type CurrencyFollower = (code: string) => Promise<unknown> | void;
const followers = new Set<CurrencyFollower>();

/** Registers a follower; answers its remover. */
export function onCurrencySwitch(fn: CurrencyFollower): () => void {
  followers.add(fn);
  return () => {
    followers.delete(fn);
  };
}

/** Runs every follower for a switch to code; resolves once all have settled (a failure is theirs to show). */
export async function currencySwitched(code: string): Promise<void> {
  await Promise.allSettled([...followers].map((fn) => Promise.resolve().then(() => fn(code))));
}

/** The currency cookie's value ('' when absent or malformed). */
export function readCurrencyCookie(cookie: string): string {
  for (const part of cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === CURRENCY_COOKIE) {
      const code = decodeURIComponent(v.join('=')).toUpperCase();
      return /^[A-Z]{3}$/.test(code) ? code : '';
    }
  }
  return '';
}

/** The Set-Cookie-like string document.cookie takes: a year, path /, SameSite=Lax. */
export function currencyCookieString(code: string, secure: boolean): string {
  return `${CURRENCY_COOKIE}=${encodeURIComponent(code)}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? '; Secure' : ''}`;
}
