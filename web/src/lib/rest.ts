// The one REST client of the app (protocol-notes 1.5): every call to
// /wp-json/ goes through restFetch. For a logged-in viewer it sends the
// wp_rest nonce in X-WP-Nonce; when the server answers 403
// rest_cookie_invalid_nonce (the nonce aged out, or the login changed) it
// fetches a fresh nonce from admin-ajax's rest-nonce and sends the call once
// more, as WordPress's apiFetch does. Visitors send no nonce. Client only.

export const REST_NONCE_URL = '/wp-admin/admin-ajax.php?action=rest-nonce';

let restNonce = '';

/** Sets the viewer's wp_rest nonce (settings.user.rest_nonce at start; '' for a visitor). */
export function setRestNonce(n: string | undefined | null) {
  restNonce = n || '';
}

/** The wp_rest nonce the next call sends ('' for a visitor). */
export function currentRestNonce(): string {
  return restNonce;
}

type Fetcher = typeof fetch;

/** Asks the server for a fresh wp_rest nonce; '' when it has none for us (a visitor: "0") or the call fails. */
export async function refreshRestNonce(fetcher: Fetcher = fetch): Promise<string> {
  try {
    const res = await fetcher(REST_NONCE_URL, { credentials: 'same-origin' });
    const text = res.ok ? (await res.text()).trim() : '';
    restNonce = /^[0-9a-f]{10}$/.test(text) ? text : '';
  } catch {
    restNonce = '';
  }
  return restNonce;
}

/** Reads an error answer's code without consuming the response the caller gets. */
async function errorCode(res: Response): Promise<string> {
  try {
    const body = (await res.clone().json()) as { code?: unknown } | null;
    return body && typeof body.code === 'string' ? body.code : '';
  } catch {
    return '';
  }
}

/** RequestInit with plain-object headers (what every caller passes). */
export type RestInit = Omit<RequestInit, 'headers'> & { headers?: Record<string, string> };

export interface RestOptions {
  /** Overrides the wp_rest nonce for this call (e.g. a link's data-rest-nonce). */
  nonce?: string;
  fetcher?: Fetcher;
}

/**
 * fetch() for the shop's REST routes: same-origin credentials, the viewer's
 * X-WP-Nonce, and one retry with a fresh nonce on rest_cookie_invalid_nonce.
 * Network failures throw, as fetch does.
 */
export async function restFetch(url: string, init: RestInit = {}, opts: RestOptions = {}): Promise<Response> {
  const fetcher = opts.fetcher ?? fetch;
  const send = (nonce: string) => {
    const headers: Record<string, string> = { ...init.headers };
    if (nonce) headers['X-WP-Nonce'] = nonce;
    return fetcher(url, { credentials: 'same-origin', ...init, headers });
  };
  const first = opts.nonce ?? restNonce;
  const res = await send(first);
  if (res.status !== 403 || !first || (await errorCode(res)) !== 'rest_cookie_invalid_nonce') return res;
  const fresh = await refreshRestNonce(fetcher);
  if (!fresh || fresh === first) return res;
  return send(fresh);
}
