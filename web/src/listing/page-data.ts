import type { PageData } from '../types';

/**
 * Reads the page data the server inlines into every page
 * (`<script id="vitrine-data" type="application/json">`) out of an HTML
 * document string. Returns null when it is missing or not valid JSON.
 * Browser only (DOMParser); never called while rendering.
 */
export function parsePageData(html: string): PageData | null {
  if (typeof DOMParser === 'undefined') return null;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const el = doc.getElementById('vitrine-data');
  if (!el || !el.textContent) return null;
  try {
    const data = JSON.parse(el.textContent) as PageData;
    return data && typeof data === 'object' && typeof data.page === 'string' ? data : null;
  } catch {
    return null;
  }
}

export class PageLoadError extends Error {
  constructor(
    message: string,
    readonly status = 0,
  ) {
    super(message);
    this.name = 'PageLoadError';
  }
}

/**
 * GETs a page of the shop the way the archive paging call does
 * (protocol-notes section 11: header X-Requested-With: XMLHttpRequest; the
 * server answers the normal, cached page) and returns its page data.
 * Rejects with PageLoadError on a non-200 answer, a network error or a page
 * without data; an abort rejects with the fetch AbortError.
 */
export async function fetchPageData(url: string, signal?: AbortSignal): Promise<PageData> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'text/html' },
      credentials: 'same-origin',
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new PageLoadError('network error');
  }
  if (res.status !== 200) throw new PageLoadError('status ' + res.status, res.status);
  const data = parsePageData(await res.text());
  if (!data) throw new PageLoadError('no page data', res.status);
  return data;
}
