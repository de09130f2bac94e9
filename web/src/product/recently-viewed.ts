import { currentChoice, onConsentChange } from '../consent/consent';

/**
 * Recently viewed products: the ids of the product pages this browser
 * opened, newest first, kept in localStorage only (nothing personal goes to
 * the server: the row asks the Store API for the ids, as any visitor may).
 * Not essential: kept only where consent allows (consent/consent.ts), and
 * forgotten when the shopper rejects.
 */
export const RECENTLY_VIEWED_KEY = 'vitrine_recently_viewed';
/** How many ids are kept. */
export const RECENTLY_VIEWED_MAX = 12;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage blocked
  }
}

/** The remembered ids, newest first; junk in the store reads as none. */
export function readViewed(): number[] {
  const raw = storage()?.getItem(RECENTLY_VIEWED_KEY);
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    if (!Array.isArray(v)) return [];
    return v.filter((n): n is number => Number.isInteger(n) && n > 0).slice(0, RECENTLY_VIEWED_MAX);
  } catch {
    return [];
  }
}

/** Puts id first (once), keeping at most RECENTLY_VIEWED_MAX; answers the list. */
export function rememberViewed(id: number): number[] {
  const list = [id, ...readViewed().filter((n) => n !== id)].slice(0, RECENTLY_VIEWED_MAX);
  try {
    storage()?.setItem(RECENTLY_VIEWED_KEY, JSON.stringify(list));
  } catch {
    // full or blocked: the row still shows what was read
  }
  return list;
}

/** Forgets the list (consent refused). */
export function forgetViewed(): void {
  try {
    storage()?.removeItem(RECENTLY_VIEWED_KEY);
  } catch {
    // blocked: nothing was kept
  }
}

onConsentChange(() => {
  if (currentChoice() === 'denied') forgetViewed();
});
