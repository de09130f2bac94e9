// The storefront's ajax add-to-cart (spec sections 4 and 9, protocol notes
// sections 1.2–1.4 and 2): clicks on a.ajax_add_to_cart[data-product_id]
// post the button's data attributes to /?wc-ajax=add_to_cart, one request at
// a time, and swap the answered cart fragments into the page. Without
// scripts the link is an ordinary link (?add-to-cart=ID).
//
// Plain DOM on purpose: the buttons are server-rendered markup, the handler
// is one delegated listener, and the fragments replace elements wholesale.

import { readCurrencyCookie } from '../currency/store';

export const LIVE_DELAY_MS = 1000;

export interface Fragments {
  [selector: string]: string;
}

export interface CartAnswer {
  fragments?: Fragments;
  cart_hash?: string;
  error?: boolean;
  product_url?: string;
}

const FRAGMENTS_KEY = 'vitrine_fragments';
const HASH_KEY = 'vitrine_cart_hash';
/** The currency cookie the stored fragments were asked with (the cart is priced in it). */
const FRAGMENTS_CURRENCY_KEY = 'vitrine_fragments_currency';

/** Every data-* attribute of el as form fields (data-product_id → product_id). */
export function dataFields(el: HTMLElement): URLSearchParams {
  const body = new URLSearchParams();
  for (const a of Array.from(el.attributes)) {
    if (a.name.startsWith('data-')) body.append(a.name.slice(5), a.value);
  }
  return body;
}

/** Replace each element matching a fragment's selector with the fragment's HTML. */
export function applyFragments(fragments: Fragments, doc: Document = document) {
  for (const [selector, html] of Object.entries(fragments)) {
    let els: Element[];
    try {
      els = Array.from(doc.querySelectorAll(selector));
    } catch {
      continue;
    }
    for (const el of els) {
      const t = doc.createElement('template');
      t.innerHTML = html.trim();
      const next = t.content.firstElementChild;
      if (next) el.replaceWith(next);
    }
  }
}

/** The localStorage key every tab writes the latest cart hash to (cross-tab sync, ./cart-sync.ts). */
export const SYNC_KEY = 'vitrine_cart_hash_shared';

/** Publishes a cart hash to the other tabs of the origin (they get a `storage` event when it changes). */
export function publishCartHash(hash: string) {
  try {
    localStorage.setItem(SYNC_KEY, hash);
  } catch {
    // storage full or blocked: the other tabs catch up on their next load
  }
}

/**
 * Remember the last fragments for this tab (reused while the hash cookie
 * and the currency cookie match) and tell the other tabs the cart's hash.
 */
export function storeFragments(a: CartAnswer) {
  try {
    if (a.fragments) sessionStorage.setItem(FRAGMENTS_KEY, JSON.stringify(a.fragments));
    sessionStorage.setItem(HASH_KEY, a.cart_hash ?? '');
    sessionStorage.setItem(FRAGMENTS_CURRENCY_KEY, readCurrencyCookie(document.cookie));
  } catch {
    // storage unavailable: fragments are fetched again when needed
  }
  publishCartHash(a.cart_hash ?? '');
  document.dispatchEvent(new CustomEvent('vitrine:fragments', { detail: a }));
}

/**
 * This tab's stored fragments while they still show the cart: the hash
 * cookie is the one they came with, and so is the currency cookie (a switch
 * changes the cart's prices and hash, but the hash cookie only when the
 * server next answers the cart).
 */
export function lastFragments(): Fragments | null {
  try {
    const hash = cookie('woocommerce_cart_hash') ?? '';
    if (sessionStorage.getItem(HASH_KEY) !== hash) return null;
    if ((sessionStorage.getItem(FRAGMENTS_CURRENCY_KEY) ?? '') !== readCurrencyCookie(document.cookie)) return null;
    const raw = sessionStorage.getItem(FRAGMENTS_KEY);
    return raw ? (JSON.parse(raw) as Fragments) : null;
  } catch {
    return null;
  }
}

export function cookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

export async function wcAjax(endpoint: string, body: URLSearchParams, fetcher: typeof fetch = fetch): Promise<CartAnswer | null> {
  const res = await fetcher(`/?wc-ajax=${endpoint}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    body: body.toString(),
    credentials: 'same-origin',
  });
  const text = await res.text();
  if (!res.ok || !text) return null;
  try {
    return JSON.parse(text) as CartAnswer;
  } catch {
    return null;
  }
}

/** wcAjax, with a network failure answered as null (no answer) too. */
async function wcAjaxOrNull(endpoint: string, body: URLSearchParams, fetcher?: typeof fetch): Promise<CartAnswer | null> {
  try {
    return await wcAjax(endpoint, body, fetcher);
  } catch {
    return null;
  }
}

/** A queue that runs tasks one at a time, in order. */
export function createQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return function enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}

function liveRegion(doc: Document): HTMLElement {
  let el = doc.getElementById('cart-live-region');
  if (!el) {
    el = doc.createElement('div');
    el.id = 'cart-live-region';
    el.className = 'screen-reader-text';
    el.setAttribute('role', 'status');
    el.setAttribute('aria-live', 'polite');
    doc.body.appendChild(el);
  }
  return el;
}

export interface AddToCartOptions {
  fetcher?: typeof fetch;
  navigate?: (url: string) => void;
  doc?: Document;
}

/** The one add-to-cart queue of the page: card buttons and product forms share it. */
const addQueue = createQueue();

interface AddContext {
  doc: Document;
  live: HTMLElement;
  navigate: (url: string) => void;
  fetcher?: typeof fetch;
}

/**
 * Sends one add through the page's queue and applies the answer: the half
 * card buttons and product forms share. The button leaves loading when the
 * answer arrives; a refusal goes to product_url; a success marks the button
 * added, swaps the fragments in and announces msg after LIVE_DELAY_MS.
 */
function queueAdd(body: URLSearchParams, button: Element, msg: string | null, ctx: AddContext, onAdded?: () => void) {
  void addQueue(async () => {
    const answer = await wcAjaxOrNull('add_to_cart', body, ctx.fetcher);
    button.classList.remove('loading');
    if (!answer) return;
    if (answer.error && answer.product_url) {
      ctx.navigate(answer.product_url);
      return;
    }
    if (!answer.fragments) return;
    button.classList.add('added');
    onAdded?.();
    applyFragments(answer.fragments, ctx.doc);
    storeFragments(answer);
    if (msg) {
      setTimeout(() => {
        ctx.live.textContent = msg;
      }, LIVE_DELAY_MS);
    }
    ctx.doc.dispatchEvent(new CustomEvent('vitrine:added-to-cart', { detail: { answer, button } }));
  });
}

/** Installs the delegated click handler; returns its remover. */
export function installAddToCart(opts: AddToCartOptions = {}): () => void {
  const doc = opts.doc ?? document;
  const navigate = opts.navigate ?? ((u: string) => window.location.assign(u));
  const live = liveRegion(doc);
  const onClick = (e: MouseEvent) => {
    const target = e.target as Element | null;
    const button = target?.closest?.('a.ajax_add_to_cart[data-product_id]') as HTMLAnchorElement | null;
    if (!button || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    const body = dataFields(button);
    button.classList.remove('added');
    button.classList.add('loading');
    const ctx = { doc, live, navigate, fetcher: opts.fetcher };
    queueAdd(body, button, button.getAttribute('data-success_message'), ctx, () => {
      // A "View cart" link after the button, once, and not on the cart page.
      const next = button.nextElementSibling;
      if (doc.location?.pathname === '/cart/' || (next && next.matches('a.added_to_cart'))) return;
      const link = doc.createElement('a');
      link.href = '/cart/';
      link.className = 'added_to_cart wc-forward';
      link.title = 'View cart';
      link.textContent = 'View cart';
      button.after(link);
    });
  };
  doc.addEventListener('click', onClick);
  return () => doc.removeEventListener('click', onClick);
}

/**
 * Product forms (form.cart with a single_add_to_cart_button: simple and
 * variable products, on the product page and in the quick view), installed
 * after hydration: the submit is sent to /?wc-ajax=add_to_cart through the
 * card buttons' queue, with product_id (the chosen variation_id for variable
 * products) and quantity. The button shows loading until the answer (and
 * loses it on pageshow, for forms submitted without this handler). A refusal
 * ({error, product_url}) goes to the product page, where the shopper sees why.
 * Submits already cancelled (the variation form's incomplete selection) and
 * forms with other fields (grouped products) submit as before.
 */
export function installFormAddToCart(opts: AddToCartOptions = {}): () => void {
  const doc = opts.doc ?? document;
  const win = doc.defaultView;
  const navigate = opts.navigate ?? ((u: string) => window.location.assign(u));
  const live = liveRegion(doc);
  const onSubmit = (e: SubmitEvent) => {
    const form = e.target as HTMLFormElement | null;
    if (!form || !form.matches?.('form.cart')) return;
    const button = form.querySelector<HTMLButtonElement>('button.single_add_to_cart_button');
    if (!button || e.defaultPrevented) return;
    button.classList.add('loading');
    if (form.matches('.grouped_form')) return;
    const fields = new FormData(form);
    const variation = String(fields.get('variation_id') ?? '').trim();
    const id =
      variation && variation !== '0'
        ? variation
        : String(fields.get('add-to-cart') ?? (button.name === 'add-to-cart' ? button.value : '')).trim();
    if (!id) return;
    e.preventDefault();
    const body = new URLSearchParams({ product_id: id, quantity: String(fields.get('quantity') ?? '1') });
    const msg = form.getAttribute('data-success_message');
    button.classList.remove('added');
    queueAdd(body, button, msg, { doc, live, navigate, fetcher: opts.fetcher });
  };
  const onPageShow = () => {
    doc.querySelectorAll('form.cart button.single_add_to_cart_button.loading').forEach((b) => b.classList.remove('loading'));
  };
  doc.addEventListener('submit', onSubmit);
  win?.addEventListener('pageshow', onPageShow);
  return () => {
    doc.removeEventListener('submit', onSubmit);
    win?.removeEventListener('pageshow', onPageShow);
  };
}

/**
 * On page load: a visitor whose cart has items (woocommerce_items_in_cart
 * cookie) gets the header count from the stored fragments, or from one
 * get_refreshed_fragments call when they are stale. A visitor with an empty
 * cart triggers no cart request.
 */
export async function refreshOnLoad(fetcher: typeof fetch = fetch) {
  if (cookie('woocommerce_items_in_cart') !== '1') return;
  const stored = lastFragments();
  if (stored) {
    applyFragments(stored);
    return;
  }
  try {
    await fetchFragments(fetcher);
  } catch {
    // the count stays as rendered
  }
}

/** Asks for the cart's fragments afresh, swaps them in and keeps them for the next page. */
async function fetchFragments(fetcher: typeof fetch) {
  const a = await wcAjax('get_refreshed_fragments', new URLSearchParams({ time: String(Date.now()) }), fetcher);
  if (a?.fragments) {
    applyFragments(a.fragments);
    storeFragments(a);
  }
}

/**
 * After a currency switch (the currency cookie is already set): a cart with
 * items is priced in the new currency, so the fragments (header total, mini
 * cart) are asked for again and swapped in. Resolves when done; an empty
 * cart makes no request.
 */
export async function refreshForCurrency(fetcher: typeof fetch = fetch): Promise<void> {
  if (cookie('woocommerce_items_in_cart') !== '1') return;
  try {
    await fetchFragments(fetcher);
  } catch {
    // the mini cart keeps what it showed; the next page asks again (lastFragments)
  }
}

export const FADE_MS = 400;

/**
 * Remove links in the mini cart (a.remove_from_cart_button): the line is
 * covered by a "Please wait..." overlay until remove_from_cart answers, the
 * fragments fade in (400 ms); on failure or no fragments the link's own href
 * is followed.
 */
export function installRemoveFromCart(opts: AddToCartOptions = {}): () => void {
  const doc = opts.doc ?? document;
  const navigate = opts.navigate ?? ((u: string) => window.location.assign(u));
  const enqueue = createQueue();
  const onClick = (e: MouseEvent) => {
    const link = (e.target as Element | null)?.closest?.('a.remove_from_cart_button[data-cart_item_key]') as HTMLAnchorElement | null;
    if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    const href = link.href;
    const item = link.closest('li') ?? link;
    item.classList.add('is-blocked');
    item.setAttribute('aria-busy', 'true');
    const overlay = doc.createElement('div');
    overlay.className = 'blockUI';
    overlay.textContent = 'Please wait...';
    item.appendChild(overlay);
    const body = new URLSearchParams({ cart_item_key: link.getAttribute('data-cart_item_key') ?? '' });
    void enqueue(async () => {
      const answer = await wcAjaxOrNull('remove_from_cart', body, opts.fetcher);
      if (!answer?.fragments) {
        navigate(href);
        return;
      }
      const hosts = Array.from(doc.querySelectorAll('.mini-cart-host'));
      hosts.forEach((h) => h.classList.add('is-updating'));
      applyFragments(answer.fragments, doc);
      storeFragments(answer);
      setTimeout(() => hosts.forEach((h) => h.classList.remove('is-updating')), FADE_MS);
    });
  };
  doc.addEventListener('click', onClick);
  return () => doc.removeEventListener('click', onClick);
}
