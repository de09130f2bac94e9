/** Minimal URL helpers that run in QuickJS (no URL / URLSearchParams there). */

export type QueryPair = [string, string];

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Splits "/shop/page/2/?orderby=price#x" into path and query pairs. */
export function parseUrl(url: string): { path: string; query: QueryPair[] } {
  const noHash = (url || '').split('#')[0];
  const q = noHash.indexOf('?');
  const path = q < 0 ? noHash : noHash.slice(0, q);
  const query: QueryPair[] = [];
  if (q >= 0) {
    for (const part of noHash.slice(q + 1).split('&')) {
      if (!part) continue;
      const eq = part.indexOf('=');
      const k = decode(eq < 0 ? part : part.slice(0, eq));
      const v = eq < 0 ? '' : decode(part.slice(eq + 1));
      if (k) query.push([k, v]);
    }
  }
  return { path: path || '/', query };
}

export function buildQuery(pairs: QueryPair[]): string {
  if (pairs.length === 0) return '';
  return '?' + pairs.map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v)).join('&');
}

/** Query params that must not survive into pagination / sorting links. */
export const PAGE_PARAMS = ['page', 'paged', 'product-page'];
