// The visitor's wishlist as the hearts see it. Pages are cached and shared,
// so a page never says what the visitor wished for: the server keeps a
// cookie the browser reads (vitrine_wishlist_count), and only when it says
// the list holds something is the list's state asked for (GET
// /wishlist/state), once per page. A visitor with an empty list makes no
// wishlist request at all. A change is published in localStorage, so the
// other tabs of the origin update their hearts and badge from the storage
// event without asking the server (as the cart's hash is shared,
// cart/cart-sync.ts).

export const COUNT_COOKIE = 'vitrine_wishlist_count';
export const SYNC_KEY = 'vitrine_wishlist_sync';
export const ANNOUNCE_EVENT = 'vitrine:wishlist-announce';

/** The hearts' JSON (wishlistapi's stateAnswer). */
export interface WishlistState {
  count: number;
  items: number[];
  on?: boolean;
  message?: string;
  wishlist_url?: string;
}

let items: Set<number> | null = null;
let count: number | null = null;
let loading: Promise<void> | null = null;
const subs = new Set<() => void>();

function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

/** The count the cookie says (0 without it or when it is not a number). */
export function cookieCount(): number {
  const n = Number.parseInt(readCookie(COUNT_COOKIE) ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function notify() {
  for (const fn of subs) fn();
}

/** Calls fn after every change of the state; returns the remover. */
export function subscribe(fn: () => void): () => void {
  subs.add(fn);
  return () => subs.delete(fn);
}

/** Whether the list holds the id (false while unknown). */
export function isWished(id: number): boolean {
  return items?.has(id) ?? false;
}

/** The list's count: the state's once known, else the cookie's. */
export function wishlistCount(): number {
  return count ?? cookieCount();
}

/** Takes an answer (the server's, or another tab's) as the state. */
export function apply(a: WishlistState) {
  items = new Set(a.items);
  count = a.count;
  notify();
}

/**
 * Makes the state known: without a count in the cookie it is empty (no
 * request); otherwise GET /wishlist/state, once.
 */
export function ensureState(fetcher: typeof fetch = fetch): Promise<void> {
  if (items) return Promise.resolve();
  if (cookieCount() === 0) {
    apply({ count: 0, items: [] });
    return Promise.resolve();
  }
  return (loading ??= fetcher('/wishlist/state', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then((r) => (r.ok ? (r.json() as Promise<WishlistState>) : null))
    .then((a) => {
      if (a) apply(a);
    })
    .catch(() => undefined)
    .finally(() => {
      loading = null;
    }));
}

/** Says msg in the header's polite live region. */
export function announce(msg: string) {
  if (typeof document === 'undefined') return;
  document.dispatchEvent(new CustomEvent(ANNOUNCE_EVENT, { detail: msg }));
}

/**
 * Puts the id in the list (on) or takes it out: the form the heart is in,
 * posted with scripts. Asking for the state the list already has changes
 * nothing, so a double click is harmless. Resolves to the answer, or null
 * when the server refused (the message is announced either way).
 */
export async function setWished(id: number, on: boolean, fetcher: typeof fetch = fetch): Promise<WishlistState | null> {
  const body = new URLSearchParams({ wishlist_action: on ? 'add' : 'remove', product_id: String(id) });
  let a: WishlistState | null = null;
  try {
    const r = await fetcher('/wishlist/', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
    const json = (await r.json()) as WishlistState & { message?: string };
    if (!r.ok) {
      announce(json.message ?? 'Your wishlist could not be changed.');
      return null;
    }
    a = json;
  } catch {
    announce('Your wishlist could not be changed.');
    return null;
  }
  apply(a);
  announce(a.message ?? '');
  try {
    localStorage.setItem(SYNC_KEY, JSON.stringify({ count: a.count, items: a.items, t: Date.now() }));
  } catch {
    // Private mode: other tabs learn on their next page.
  }
  return a;
}

/** Listens for other tabs' changes; returns the remover. */
export function installWishlistSync(win: Window = window): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key !== SYNC_KEY || !e.newValue) return;
    try {
      const a = JSON.parse(e.newValue) as WishlistState;
      if (Array.isArray(a.items)) apply({ count: a.count, items: a.items });
    } catch {
      // Not ours.
    }
  };
  win.addEventListener('storage', onStorage);
  return () => win.removeEventListener('storage', onStorage);
}

/** Forgets the state (tests). */
export function resetWishlistState() {
  items = null;
  count = null;
  loading = null;
  subs.clear();
}
