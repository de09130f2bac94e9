import { flushSync } from 'react-dom';
import { PRODUCTS_APPENDED_EVENT } from '../listing/infinite-scroll';
import { FINISH_EVENT, getCurrencyState, readCurrencyCookie, setCurrencyState } from './store';

/**
 * The client price refresh (protocol-notes section 7): cached pages
 * carry base prices inside `.wmc-cache-pid[data-wmc_product_id]` wrappers; when
 * the shopper's currency is not the one shown, one POST admin-ajax
 * `action=wmc_get_products_price` answers price HTML by id and every wrapper,
 * and the variation data, is patched at once; then `wmc_cache_compatible_finish`
 * fires on document.
 */

export const WRAPPER_SELECTOR = '.wmc-cache-pid[data-wmc_product_id]';
export const PRICE_ACTION = 'wmc_get_products_price';
/** The server refuses more; a page never shows that many prices. */
export const MAX_IDS = 200;

function addId(out: number[], seen: Set<number>, raw: unknown) {
  const n = typeof raw === 'number' ? raw : Number(String(raw ?? '').trim());
  if (!Number.isInteger(n) || n <= 0 || seen.has(n)) return;
  seen.add(n);
  out.push(n);
}

/** Product ids of the price wrappers plus the variation ids of variation forms, deduplicated, in page order. */
export function collectIds(root: ParentNode): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  root.querySelectorAll<HTMLElement>(WRAPPER_SELECTOR).forEach((el) => addId(out, seen, el.dataset.wmc_product_id));
  root.querySelectorAll<HTMLElement>('form.variations_form').forEach((form) => {
    const raw = form.getAttribute('data-product_variations');
    if (raw && raw !== 'false') {
      try {
        const list = JSON.parse(raw) as unknown;
        if (Array.isArray(list)) for (const v of list) addId(out, seen, (v as { variation_id?: unknown })?.variation_id);
      } catch {
        // Not JSON: the form's id list below still counts.
      }
    }
    for (const id of (form.getAttribute('data-wmc_variation_ids') || '').split(',')) addId(out, seen, id);
  });
  return out;
}

export interface ShortcodeParams {
  layout: string;
  flag_size: string;
  dropdown_icon: string;
  custom_format: string;
}

/** The request body, jQuery's form encoding (`pids[]=`, `shortcodes[0][layout]=`). */
export function priceRequestBody(ids: number[], currentUrl: string, shortcodes: ShortcodeParams[] = []): string {
  const b = new URLSearchParams();
  b.append('action', PRICE_ACTION);
  for (const id of ids.slice(0, MAX_IDS)) b.append('pids[]', String(id));
  shortcodes.forEach((s, i) => {
    for (const k of ['layout', 'flag_size', 'dropdown_icon', 'custom_format'] as const) b.append(`shortcodes[${i}][${k}]`, s[k]);
  });
  b.append('wmc_current_url', currentUrl);
  return b.toString();
}

/** The switchers on the page, as the price call's `shortcodes` (the server may re-render them; we keep ours). */
export function shortcodesOf(root: ParentNode): ShortcodeParams[] {
  return Array.from(root.querySelectorAll<HTMLElement>('[data-wmc-layout]')).map((el) => ({
    layout: el.dataset.wmcLayout || 'default',
    flag_size: '0',
    dropdown_icon: 'arrow',
    custom_format: '',
  }));
}

export interface PriceAnswer {
  prices: Record<string, string>;
  current_currency: string;
  current_country: string;
}

/** The answer if it has the documented shape, else null (the page keeps its prices). */
export function parsePriceAnswer(j: unknown): PriceAnswer | null {
  if (!j || typeof j !== 'object') return null;
  const o = j as { success?: unknown; data?: unknown };
  if (o.success !== true || !o.data || typeof o.data !== 'object') return null;
  const d = o.data as { prices?: unknown; current_currency?: unknown; current_country?: unknown };
  if (typeof d.current_currency !== 'string' || !/^[A-Z]{3}$/.test(d.current_currency)) return null;
  const prices: Record<string, string> = {};
  if (d.prices && typeof d.prices === 'object' && !Array.isArray(d.prices)) {
    for (const [k, v] of Object.entries(d.prices as Record<string, unknown>)) {
      if (/^\d+$/.test(k) && typeof v === 'string') prices[k] = v;
    }
  } else if (!Array.isArray(d.prices)) {
    return null; // PHP encodes an empty map as []
  }
  return { prices, current_currency: d.current_currency, current_country: typeof d.current_country === 'string' ? d.current_country : '' };
}

/** Replaces the wrappers' inner HTML and the price_html in variation forms' data; returns the wrappers changed. */
export function patchPrices(root: ParentNode, prices: Record<string, string>): number {
  let n = 0;
  root.querySelectorAll<HTMLElement>(WRAPPER_SELECTOR).forEach((el) => {
    const html = prices[el.dataset.wmc_product_id || ''];
    if (html === undefined) return;
    if (el.innerHTML !== html) el.innerHTML = html;
    n++;
  });
  root.querySelectorAll<HTMLElement>('form.variations_form').forEach((form) => {
    const raw = form.getAttribute('data-product_variations');
    if (!raw || raw === 'false') return;
    try {
      const list = JSON.parse(raw) as unknown;
      if (!Array.isArray(list)) return;
      const next = patchVariations(list as { variation_id: number; price_html: string }[], prices);
      if (next !== list) form.setAttribute('data-product_variations', JSON.stringify(next));
    } catch {
      // Leave a form we cannot read alone.
    }
  });
  return n;
}

/** Variation objects with price_html from the price call where it has one (the same array when nothing changes). */
export function patchVariations<V extends { variation_id: number; price_html: string }>(list: V[], prices: Record<string, string>): V[] {
  let changed = false;
  const next = list.map((v) => {
    const html = v && prices[String(v.variation_id)];
    if (html === undefined || html === v.price_html) return v;
    changed = true;
    return { ...v, price_html: html };
  });
  return changed ? next : list;
}

export interface RefresherEnv {
  doc: Document;
  fetch: typeof fetch;
  /** The shop's base currency code. */
  base: string;
  /** The page's URL (wmc_current_url). */
  url: () => string;
  /**
   * Resolves when the page's HTML may be changed (the page has hydrated:
   * lib/page-hydration.ts); answers are applied only then. Absent: at once.
   */
  ready?: () => Promise<void>;
}

export interface Refresher {
  /** Refreshes when the cookie's currency is not the one shown (or ids lack a price); coalesces calls. */
  run(): Promise<PriceAnswer | null>;
  /** Stops listening to appends. */
  stop(): void;
}

/**
 * One refresher per page. Calls in the same task share one request; a call
 * while a request is in flight runs once more after it (appended cards).
 */
export function createRefresher(env: RefresherEnv): Refresher {
  let scheduled: Promise<PriceAnswer | null> | null = null;
  let inFlight: Promise<PriceAnswer | null> | null = null;
  // Ids already asked for in the shown currency (the server leaves unknown ids out: never ask twice).
  let asked = new Set<string>();

  async function once(): Promise<PriceAnswer | null> {
    const wanted = readCurrencyCookie(env.doc.cookie) || env.base;
    const st = getCurrencyState();
    const shown = st.current || env.base;
    const all = collectIds(env.doc);
    const ids =
      wanted !== shown ? all : shown === env.base ? [] : all.filter((id) => !(String(id) in st.prices) && !asked.has(String(id)));
    if (ids.length === 0) return null;
    try {
      const r = await env.fetch('/wp-admin/admin-ajax.php', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8', 'X-Requested-With': 'XMLHttpRequest' },
        body: priceRequestBody(ids, env.url(), shortcodesOf(env.doc)),
      });
      if (!r.ok) return null;
      const a = parsePriceAnswer(await r.json());
      if (!a) return null;
      // The call goes out at once; its answer waits for hydration, which a
      // patched wrapper would break.
      if (env.ready) await env.ready();
      const same = a.current_currency === shown;
      if (!same) asked = new Set();
      for (const id of ids) asked.add(String(id));
      const prices = same ? { ...getCurrencyState().prices, ...a.prices } : a.prices;
      flushSync(() => setCurrencyState({ current: a.current_currency, prices }));
      patchPrices(env.doc, prices);
      env.doc.dispatchEvent(new CustomEvent(FINISH_EVENT, { detail: a }));
      return a;
    } catch {
      // Offline or a bad answer: base prices stay; nothing to tell the shopper.
      return null;
    }
  }

  function run(): Promise<PriceAnswer | null> {
    if (scheduled) return scheduled;
    const start = async () => {
      if (inFlight) await inFlight.catch(() => null);
      scheduled = null;
      inFlight = once();
      const a = await inFlight;
      inFlight = null;
      return a;
    };
    scheduled = Promise.resolve().then(start);
    return scheduled;
  }

  const onAppended = () => void run();
  env.doc.addEventListener(PRODUCTS_APPENDED_EVENT, onAppended);
  return { run, stop: () => env.doc.removeEventListener(PRODUCTS_APPENDED_EVENT, onAppended) };
}

let pageRefresher: Refresher | null = null;

/** The page's refresher (created on first use in the browser). */
export function installPriceRefresh(env: RefresherEnv): Refresher {
  if (!pageRefresher) pageRefresher = createRefresher(env);
  return pageRefresher;
}

/** The page's refresher if installed (the switcher uses it). */
export function pagePriceRefresher(): Refresher | null {
  return pageRefresher;
}
