// The checkout's calls: Store API cart and checkout writes (with the Nonce
// header, keeping the latest nonce of every answer) and the wallet's wc-ajax
// endpoints (protocol-notes sections 13 and 15). Client only.
import type { StoreCart } from '../types';
import { restFetch } from '../lib/rest';

export const STORE_API = '/wp-json/wc/store/v1';

export interface StoreAnswer<T> {
  ok: boolean;
  status: number;
  body: T | null;
  /** The error body when !ok (Store API error shape). */
  error: StoreError | null;
}

export interface StoreError {
  code?: string;
  message?: string;
  data?: {
    status?: number;
    details?: Record<string, unknown>;
    params?: Record<string, unknown>;
    cart?: StoreCart;
  };
}

/** Keeps the visitor's latest Store API nonce (every answer carries a fresh one). */
export class NonceBox {
  constructor(public value: string) {}
  take(res: Response) {
    const n = res.headers.get('Nonce');
    if (n) this.value = n;
  }
}

/**
 * POST to the Store API with the Nonce header (and any extra headers). A 403
 * invalid-nonce answer carries a fresh nonce: the call is sent once more with it.
 * (A logged-in viewer's X-WP-Nonce and its refresh are restFetch's.)
 * Network failures throw.
 */
export async function storePost<T>(path: string, body: unknown, nonce: NonceBox, headers: Record<string, string> = {}): Promise<StoreAnswer<T>> {
  for (let attempt = 0; ; attempt++) {
    const sent = nonce.value;
    const res = await restFetch(STORE_API + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', Nonce: sent, ...headers },
      body: JSON.stringify(body),
    });
    nonce.take(res);
    const json = (await res.json().catch(() => null)) as unknown;
    if (res.ok) return { ok: true, status: res.status, body: json as T, error: null };
    const err = (json && typeof json === 'object' ? json : {}) as StoreError;
    if (attempt === 0 && res.status === 403 && err.code === 'woocommerce_rest_invalid_nonce' && nonce.value !== sent) continue;
    return { ok: false, status: res.status, body: null, error: err };
  }
}

/** The wallet envelope (protocol-notes 15.1). */
export interface WalletEnvelope {
  success: boolean;
  data?: {
    id?: string;
    approve_url?: string;
    message?: string;
    errors?: unknown[];
    refresh?: boolean;
    name?: string;
    code?: number;
  } | null;
}

/** POST /?wc-ajax=<endpoint> with a JSON body; a network failure or a non-JSON answer reads as a failure envelope. */
export async function walletPost(endpoint: string, body: Record<string, unknown>): Promise<WalletEnvelope> {
  try {
    const res = await fetch(`/?wc-ajax=${encodeURIComponent(endpoint)}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as WalletEnvelope | null;
    if (!json || typeof json !== 'object' || typeof json.success !== 'boolean') return { success: false, data: null };
    return json;
  } catch {
    return { success: false, data: null };
  }
}

/** Navigation, behind an object so tests can watch it. */
export const browser = {
  go(url: string) {
    window.location.assign(url);
  },
};
