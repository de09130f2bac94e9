import { createElement, type ReactNode } from 'react';

/**
 * Server fragments: parts of a page that many pages share (the site
 * header, product cards) are rendered once per engine and reused as HTML,
 * instead of being rendered by React on every server render.
 *
 * A fragment is one element whose children are a pure function of a key
 * (the element's inputs, serialized). While entry-server renders a page
 * (renderWithFragments), a fragment is written as the element with its
 * HTML inside (dangerouslySetInnerHTML): the cached HTML, or, for a key not
 * cached yet, its children rendered alone there and then, once, and kept
 * for the next page (a miss costs one render of the part, not two). In the
 * browser, and in any render
 * not made through renderWithFragments (tests, the client), the element is
 * rendered as usual, so hydration compares the browser's render with HTML
 * that is byte for byte what React would have written (a test checks it).
 *
 * What a fragment's children must not do, because their HTML is rendered
 * once, alone, and reused everywhere: call useId (ids depend on the place
 * in the tree; pass fixed ids instead), read context, or read anything but
 * their props. The key must name every input: callers serialize the props.
 */

/** The cache's bound, in UTF-16 code units of keys and HTML (about 8 MB per engine). */
export const FRAGMENT_CACHE_UNITS = 4 << 20;
let bound = FRAGMENT_CACHE_UNITS;

const cache = new Map<string, string>();
let units = 0;
/** The page's renderer while renderWithFragments runs, else null. */
let active: ((node: ReactNode) => string) | null = null;
let hits = 0;
let misses = 0;
let lists = 0;

type Tag = 'li' | 'header' | 'div' | 'footer' | 'nav' | 'section' | 'h2';

export function ServerFragment({
  tag,
  props,
  cacheKey,
  children,
}: {
  tag: Tag;
  /** The element's own attributes (never children). */
  props: Record<string, unknown>;
  /**
   * Called only in a server render through renderWithFragments; null:
   * render as usual (a part whose HTML is not shareable).
   */
  cacheKey: (() => string) | null;
  /**
   * The element's content, or a function making it: a function is called
   * only when the content is rendered, so a cached fragment's elements are
   * never made at all (a listing's 24 cached cards cost 2.6 ms less).
   */
  children: ReactNode | (() => ReactNode);
}) {
  const content = () => (typeof children === 'function' ? children() : children);
  if (active === null || cacheKey === null) return createElement(tag, props, content());
  const key = cacheKey();
  let html = cache.get(key);
  if (html !== undefined) {
    hits++;
    // Most recently used last: eviction takes the oldest first.
    cache.delete(key);
    cache.set(key, html);
  } else {
    misses++;
    try {
      html = active(content());
    } catch {
      // A part that fails alone is rendered in place and not kept.
      return createElement(tag, props, content());
    }
    cache.set(key, html);
    units += key.length + html.length;
  }
  return createElement(tag, { ...props, dangerouslySetInnerHTML: { __html: html } });
}

/**
 * In a server render through renderWithFragments, the cached HTML of every
 * key in turn (each counted as a hit, as ServerFragment counts it); null if
 * one is not cached yet, or outside such a render. A list of fragments
 * (the cards of a grid) is then written as one string, without an element
 * and its components per item; when null, the list renders its items, which
 * fills the cache for the next page.
 */
export function cachedFragments(keys: readonly string[]): string[] | null {
  if (active === null) return null;
  const out: string[] = [];
  for (const key of keys) {
    const html = cache.get(key);
    if (html === undefined) return null;
    out.push(html);
  }
  for (let i = 0; i < keys.length; i++) {
    cache.delete(keys[i]);
    cache.set(keys[i], out[i]);
  }
  hits += keys.length;
  lists++;
  return out;
}

/**
 * Renders app with render (renderToString), using and filling the
 * fragment cache: the page's output is the same as render(app) alone.
 */
export function renderWithFragments(render: (node: ReactNode) => string, app: ReactNode): string {
  if (active !== null) return render(app); // not re-entrant: a nested call renders plainly
  active = render;
  try {
    return render(app);
  } finally {
    active = null;
    for (const [k, v] of cache) {
      if (units <= bound) break;
      cache.delete(k);
      units -= k.length + v.length;
    }
  }
}

/** The cache's state, for tests and the render benchmarks. */
export function fragmentStats(): { entries: number; units: number; hits: number; misses: number; lists: number } {
  return { entries: cache.size, units, hits, misses, lists };
}

/** Empties the cache and sets its bound (tests). */
export function clearFragments(maxUnits = FRAGMENT_CACHE_UNITS): void {
  bound = maxUnits;
  cache.clear();
  units = 0;
  hits = 0;
  misses = 0;
  lists = 0;
}

/**
 * A fragment key naming products by the card_key the server gives each
 * card (a digest of the product's data, internal/pages/cards.go): a few
 * dozen characters instead of the products serialised, which in the render
 * engine cost more than rendering a few elements. Products without one
 * (the unit tests' fixtures) are serialised whole, as before.
 */
export function cardsKey(name: string, flags: readonly unknown[], products: readonly { card_key?: string }[]): string {
  let keys = '';
  for (const p of products) {
    if (!p.card_key) return JSON.stringify([name, ...flags, products]);
    keys += '|' + p.card_key;
  }
  return JSON.stringify([name, ...flags]) + keys;
}
