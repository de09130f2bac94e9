// The admin app's client for its JSON API (internal/adminapi). Every call
// goes through lib/rest's restFetch: same-origin cookies, the wp_rest nonce
// in X-WP-Nonce, and one retry with a fresh nonce when the old one aged
// out. Calls never throw: a refusal or a network failure comes back as an
// AdminError the screens show.

import { restFetch } from '../lib/rest';

export interface AdminError {
  code: string;
  message: string;
  status: number;
  data?: Record<string, unknown>;
}

export type AdminResult<T> =
  | { ok: true; status: number; data: T; total: number | null; totalPages: number | null; headers: Headers }
  | { ok: false; status: number; error: AdminError };

export const NETWORK_ERROR = 'The shop could not be reached. Check the connection and try again.';

type Query = Record<string, string | number | boolean | undefined | null>;

/** path with the query's set values, e.g. withQuery('/wp-json/wc/v3/products', { search: 'tee' }). */
export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

function intHeader(h: Headers, name: string): number | null {
  const v = h.get(name);
  if (v === null) return null;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : null;
}

/**
 * Calls the admin API. body is sent as JSON, unless it is FormData (an
 * upload), which the browser encodes.
 */
export async function adminCall<T>(method: string, path: string, body?: unknown, init: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<AdminResult<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await restFetch(path, { method, headers, body: payload, signal: init.signal });
  } catch (e) {
    if ((e as Error)?.name === 'AbortError') throw e;
    return { ok: false, status: 0, error: { code: 'network', message: NETWORK_ERROR, status: 0 } };
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  if (res.ok) {
    return { ok: true, status: res.status, data: json as T, total: intHeader(res.headers, 'X-WP-Total'), totalPages: intHeader(res.headers, 'X-WP-TotalPages'), headers: res.headers };
  }
  const e = (json ?? {}) as { code?: string; message?: string; data?: Record<string, unknown> };
  return {
    ok: false,
    status: res.status,
    error: {
      code: e.code || 'http_' + res.status,
      message: decodeEntities(e.message || `The shop answered with an error (${res.status}).`),
      status: res.status,
      data: e.data,
    },
  };
}

/** The REST messages are HTML-escaped (WordPress's shape); screens show text. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  const t = document.createElement('textarea');
  t.innerHTML = s;
  return t.value;
}

/** The message to show for a refusal: its first field's message, or the refusal's own. */
export function firstMessage(e: AdminError): string {
  const params = e.data?.params as Record<string, string> | undefined;
  return params ? Object.values(params)[0] : e.message;
}

/** A field's message from a rest_invalid_param answer (data.params[field]). */
export function paramError(e: AdminError | undefined, field: string): string | undefined {
  const params = e?.data?.params as Record<string, string> | undefined;
  return params?.[field];
}
