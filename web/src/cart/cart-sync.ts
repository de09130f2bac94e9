// Cross-tab cart sync, as WooCommerce's cart-fragments script does it: every
// tab keeps the cart hash of the fragments it shows (sessionStorage, per
// tab) and publishes the latest hash in localStorage, which every tab of the
// origin shares. The browser fires a `storage` event in the other tabs when
// that value changes; a tab whose own hash differs asks
// get_refreshed_fragments once and swaps them in. Nothing runs on page load,
// so a visitor with an empty cart still makes no cart request.

import { applyFragments, storeFragments, SYNC_KEY, wcAjax, type CartAnswer } from './add-to-cart';

export { SYNC_KEY };
/** This tab's hash (the key storeFragments writes). */
const TAB_HASH_KEY = 'vitrine_cart_hash';

/** This tab's hash, or null when it has none stored. */
export function tabCartHash(storage: Storage | undefined = safeSessionStorage()): string | null {
  try {
    return storage?.getItem(TAB_HASH_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Whether a storage event says another tab changed the cart to something this tab does not show. */
export function needsRefresh(e: Pick<StorageEvent, 'key' | 'newValue'>, tabHash: string | null): boolean {
  if (e.key !== SYNC_KEY || e.newValue === null) return false;
  return e.newValue !== (tabHash ?? '');
}

export interface CartSyncOptions {
  win?: Window;
  fetcher?: typeof fetch;
  /** This tab's hash (tests); defaults to sessionStorage. */
  tabHash?: () => string | null;
}

/**
 * Listens for other tabs' cart changes; returns the remover. Refreshes are
 * sent one at a time, and a refresh whose answer is already shown is not
 * applied twice.
 */
export function installCartSync(opts: CartSyncOptions = {}): () => void {
  const win = opts.win ?? window;
  const tabHash = opts.tabHash ?? (() => tabCartHash());
  let running: Promise<void> | null = null;
  let again = false;
  const refresh = async () => {
    let a: CartAnswer | null = null;
    try {
      a = await wcAjax('get_refreshed_fragments', new URLSearchParams({ time: String(Date.now()) }), opts.fetcher);
    } catch {
      a = null;
    }
    if (a?.fragments) {
      applyFragments(a.fragments, win.document);
      storeFragments(a);
      win.document.dispatchEvent(new CustomEvent('vitrine:cart-synced', { detail: a }));
    }
  };
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    running = refresh().finally(() => {
      running = null;
      if (again) {
        again = false;
        run();
      }
    });
  };
  const onStorage = (e: StorageEvent) => {
    if (needsRefresh(e, tabHash())) run();
  };
  win.addEventListener('storage', onStorage);
  return () => win.removeEventListener('storage', onStorage);
}

function safeSessionStorage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}
