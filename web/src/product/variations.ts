// The variation form's rules (storefront spec sections 4, 5, 8 and 9) as pure
// functions: matching, which swatches are available or out of stock, the add
// button's state, the messages, and the selection in the URL. No browser
// globals: the component (VariationForm.tsx) calls these while rendering.
import type { StoreImage, StoreProduct, SwatchAttribute, Variation, VariationAvailability } from '../types';

/** The chosen value of each attribute, by key ("pa_color" -> "navy"); "" or missing = not chosen. */
export type Chosen = Record<string, string>;

/** Spec section 9. */
export const TIMINGS = { initialCheck: 100, displayDelay: 300, slide: 200 } as const;
/** "Only N left" shows at or below this many (spec section 9: stock-label threshold). */
export const STOCK_LEFT_THRESHOLD = 5;
/** Between an attribute's label and its chosen value (spec section 9). */
export const LABEL_SEPARATOR = ':';

export const MSG_NO_MATCH = 'Sorry, no products matched your selection. Please choose a different combination.';
export const MSG_RESET =
  'Your selection has been reset. Please select some product options before adding this product to your cart.';
export const MSG_UNAVAILABLE = 'Sorry, this product is unavailable. Please choose a different combination.';
export const MSG_SELECT = 'Please select some product options before adding this product to your cart.';

/** The form field (and URL parameter) of an attribute: "attribute_pa_color". */
export function fieldName(key: string): string {
  return `attribute_${key}`;
}

/** What the availability rules know of one variation: its values by attribute key ("" = any) and stock when known. */
export interface Candidate {
  id: number;
  attributes: Record<string, string>;
  /** undefined: not known (variations not embedded and not fetched yet). */
  inStock?: boolean;
  /** false: known not purchasable (its values are unavailable, as if it did not exist). */
  purchasable?: boolean;
}

/** Candidates from embedded variation objects. */
export function candidatesFromVariations(vs: Variation[]): Candidate[] {
  return vs.map((v) => {
    const attributes: Record<string, string> = {};
    for (const [k, val] of Object.entries(v.attributes || {})) {
      attributes[k.startsWith('attribute_') ? k.slice('attribute_'.length) : k] = val ?? '';
    }
    return { id: v.variation_id, attributes, inStock: v.is_in_stock, purchasable: v.is_purchasable };
  });
}

/**
 * Candidates from the page's availability list (products above the
 * variation threshold): every variation's values with its stock status, so
 * out-of-stock values are known without get_variation. A get_variation
 * answer (known, by id) is newer than the cached page and wins.
 */
export function candidatesFromAvailability(list: VariationAvailability[], known: Record<number, Variation> = {}): Candidate[] {
  return list.map((a) => {
    const k = known[a.id];
    return {
      id: a.id,
      attributes: { ...a.attributes },
      inStock: k ? k.is_in_stock : a.in_stock,
      purchasable: k ? k.is_purchasable : a.purchasable,
    };
  });
}

/**
 * Candidates from the Store API product's variation list (id and attribute
 * name/value pairs), for products whose variations are not embedded. Stock is
 * known only for variations get_variation has answered (known, by id).
 */
export function candidatesFromRefs(
  refs: StoreProduct['variations'],
  swatches: SwatchAttribute[],
  known: Record<number, Variation> = {},
): Candidate[] {
  const byName = new Map<string, string>();
  for (const sw of swatches) {
    byName.set(sw.name.toLowerCase(), sw.key);
    byName.set(sw.key.toLowerCase(), sw.key);
  }
  return (refs || []).map((r) => {
    const attributes: Record<string, string> = {};
    for (const a of r.attributes) {
      const key = byName.get(a.name.toLowerCase()) ?? a.name;
      attributes[key] = a.value ?? '';
    }
    const k = known[r.id];
    return { id: r.id, attributes, inStock: k ? k.is_in_stock : undefined };
  });
}

/** Every attribute has a value. */
export function isComplete(swatches: SwatchAttribute[], chosen: Chosen): boolean {
  return swatches.length > 0 && swatches.every((sw) => !!chosen[sw.key]);
}

/** How many attributes have a value. */
export function chosenCount(swatches: SwatchAttribute[], chosen: Chosen): number {
  return swatches.filter((sw) => !!chosen[sw.key]).length;
}

/** A candidate agrees with every chosen value: equal, or "any" (empty or missing). */
export function agrees(c: Candidate, chosen: Chosen): boolean {
  for (const [key, value] of Object.entries(chosen)) {
    if (!value) continue;
    const own = c.attributes[key];
    if (own && own !== value) return false;
  }
  return true;
}

/** The first variation (in the given, menu, order) matching a complete selection; null when none. */
export function findMatch(variations: Variation[], swatches: SwatchAttribute[], chosen: Chosen): Variation | null {
  if (!isComplete(swatches, chosen)) return null;
  for (const v of variations) {
    const ok = swatches.every((sw) => {
      const own = v.attributes[fieldName(sw.key)];
      return !own || own === chosen[sw.key];
    });
    if (ok) return v;
  }
  return null;
}

export interface OptionState {
  /** No purchasable variation matches this value with the other choices. */
  disabled: boolean;
  /** Every purchasable variation matching it (with the other choices) is known to be out of stock. */
  outOfStock: boolean;
}

/**
 * The state of one value of an attribute given the other choices (the
 * attribute's own choice is ignored, so every value of it can be switched to).
 * Without any candidates (nothing known) every value is available. A
 * variation known not to be purchasable counts as absent (WooCommerce leaves
 * such variations out of the available ones).
 */
export function optionState(cands: Candidate[], chosen: Chosen, key: string, value: string): OptionState {
  if (cands.length === 0) return { disabled: false, outOfStock: false };
  const want = { ...chosen, [key]: value };
  let any = false;
  let allOut = true;
  for (const c of cands) {
    if (c.purchasable === false || !agrees(c, want)) continue;
    any = true;
    if (c.inStock !== false) allOut = false;
  }
  return { disabled: !any, outOfStock: any && allOut };
}

/** The states of every value of every attribute. */
export function optionStates(cands: Candidate[], swatches: SwatchAttribute[], chosen: Chosen): Record<string, Record<string, OptionState>> {
  const out: Record<string, Record<string, OptionState>> = {};
  for (const sw of swatches) {
    out[sw.key] = {};
    for (const o of sw.options) out[sw.key][o.slug] = optionState(cands, chosen, sw.key, o.slug);
  }
  return out;
}

/** Whether a swatch can be clicked. */
export function selectable(st: OptionState | undefined, opts: { clickableOutOfStock: boolean; deselectConflicting: boolean }): boolean {
  if (!st) return true;
  if (st.disabled && !opts.deselectConflicting) return false;
  if (st.outOfStock && !opts.clickableOutOfStock) return false;
  return true;
}

/**
 * Choosing value for key. With deselectConflicting, other choices that no
 * variation has together with the new value are cleared.
 */
export function choose(
  cands: Candidate[],
  swatches: SwatchAttribute[],
  chosen: Chosen,
  key: string,
  value: string,
  deselectConflicting = false,
): Chosen {
  const next: Chosen = { ...chosen, [key]: value };
  if (!value || !deselectConflicting || cands.length === 0) return next;
  for (const sw of swatches) {
    if (sw.key === key || !next[sw.key]) continue;
    const pair = { [key]: value, [sw.key]: next[sw.key] };
    if (!cands.some((c) => c.purchasable !== false && agrees(c, pair))) next[sw.key] = '';
  }
  return next;
}

/** The form's states (spec section 4). */
export type FormState =
  | { kind: 'selection-needed' }
  | { kind: 'loading' }
  | { kind: 'no-match' }
  | { kind: 'match'; variation: Variation };

/** The form state from the selection and what matching answered (undefined: still being looked up). */
export function formState(complete: boolean, match: Variation | null | false | undefined): FormState {
  if (!complete) return { kind: 'selection-needed' };
  if (match === undefined) return { kind: 'loading' };
  if (!match) return { kind: 'no-match' };
  return { kind: 'match', variation: match };
}

export type ButtonReason = 'selection-needed' | 'unavailable' | null;

/** The add button: enabled only for a purchasable, in-stock, visible match. No match resets the selection count, so it needs a selection. */
export function buttonReason(s: FormState): ButtonReason {
  if (s.kind !== 'match') return 'selection-needed';
  const v = s.variation;
  return v.is_purchasable && v.is_in_stock && v.variation_is_visible ? null : 'unavailable';
}

/** The button's classes. */
export function buttonClass(reason: ButtonReason): string {
  const base = 'single_add_to_cart_button button alt';
  if (reason === 'selection-needed') return base + ' disabled wc-variation-selection-needed';
  if (reason === 'unavailable') return base + ' disabled wc-variation-is-unavailable';
  return base;
}

/** The alert for a click on the disabled button (spec section 5). */
export function disabledMessage(reason: ButtonReason): string {
  return reason === 'unavailable' ? MSG_UNAVAILABLE : MSG_SELECT;
}

/** The add button's label: a pre-order variation's label, else the product's. */
export function addButtonLabel(v: Variation | null | undefined, fallback: string): string {
  if (v && v.is_pre_order === 'yes' && v.pre_order_label) return v.pre_order_label;
  return fallback;
}

/** "Color: Navy" (the label, the separator, the chosen value's name). */
export function labelWithValue(label: string, valueName: string, sep = LABEL_SEPARATOR): string {
  return valueName ? `${label}${sep} ${valueName}` : label;
}

/** "Only 3 left" for an in-stock variation with at most the threshold left; "" otherwise. */
export function stockHint(v: Variation | null | undefined, left: number | null | undefined): string {
  if (!v || !v.is_in_stock || left === null || left === undefined) return '';
  if (left <= 0 || left > STOCK_LEFT_THRESHOLD) return '';
  return `Only ${left} left`;
}

/** Quantity limits for a variation: fixed at 1 when sold individually. */
export function quantityLimits(v: Variation | null | undefined, p: StoreProduct): { fixed: boolean; min: number; max?: number } {
  if (v && v.is_sold_individually === 'yes') return { fixed: true, min: 1, max: 1 };
  if (!v && p.sold_individually) return { fixed: true, min: 1, max: 1 };
  const min = v ? Math.max(1, v.min_qty || 1) : p.add_to_cart.minimum || 1;
  let max: number | undefined = p.add_to_cart.maximum > 0 ? p.add_to_cart.maximum : undefined;
  if (v) max = typeof v.max_qty === 'number' && v.max_qty > 0 ? v.max_qty : undefined;
  return { fixed: false, min, max };
}

/** Clamps a quantity between min and max ("" or invalid becomes min). */
export function clampQuantity(value: string, min: number, max?: number): string {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min) return String(min);
  if (max !== undefined && n > max) return String(max);
  return value;
}

/** A variation's image as a gallery image. */
export function variationImage(v: Variation | null | undefined): StoreImage | null {
  if (!v || !v.image || !v.image.src) return null;
  const i = v.image;
  return {
    id: v.image_id,
    src: i.src,
    thumbnail: i.thumb_src || i.gallery_thumbnail_src || i.src,
    srcset: i.srcset || '',
    sizes: i.sizes || '',
    thumbnail_srcset: '',
    thumbnail_sizes: '',
    name: i.title || '',
    alt: i.alt || '',
    width: i.src_w || i.full_src_w || 0,
    height: i.src_h || i.full_src_h || 0,
  };
}

/**
 * The image to show for a partial selection: the first variation agreeing
 * with what is chosen that has an image (so choosing a colour alone shows
 * that colour). null when nothing is chosen.
 */
export function partialImage(variations: Variation[], chosen: Chosen): Variation | null {
  if (!Object.values(chosen).some(Boolean)) return null;
  for (const v of variations) {
    if (!v.image || !v.image.src) continue;
    const c = candidatesFromVariations([v])[0];
    if (agrees(c, chosen)) return v;
  }
  return null;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * The selection named by a query string ("?attribute_pa_color=navy&..."):
 * only known attributes, and only values the attribute has (matched exactly,
 * else case-insensitively).
 */
export function parseChoice(search: string, swatches: SwatchAttribute[]): Chosen {
  const out: Chosen = {};
  const q = search.startsWith('?') ? search.slice(1) : search;
  const pairs = new Map<string, string>();
  for (const part of q.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const k = decode(eq < 0 ? part : part.slice(0, eq));
    if (!pairs.has(k)) pairs.set(k, eq < 0 ? '' : decode(part.slice(eq + 1)));
  }
  for (const sw of swatches) {
    const v = pairs.get(fieldName(sw.key));
    if (!v) continue;
    const exact = sw.options.find((o) => o.slug === v);
    const loose = exact || sw.options.find((o) => o.slug.toLowerCase() === v.toLowerCase());
    if (loose) out[sw.key] = loose.slug;
  }
  return out;
}

/**
 * The URL (path, query, hash) with the selection's attribute_* parameters
 * replaced: other parameters are kept in order, chosen ones appended in the
 * attributes' order.
 */
export function formatChoiceUrl(url: string, swatches: SwatchAttribute[], chosen: Chosen): string {
  const hashAt = url.indexOf('#');
  const hash = hashAt < 0 ? '' : url.slice(hashAt);
  const noHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const qAt = noHash.indexOf('?');
  const path = qAt < 0 ? noHash : noHash.slice(0, qAt);
  const fields = new Set(swatches.map((sw) => fieldName(sw.key)));
  const keep = (qAt < 0 ? '' : noHash.slice(qAt + 1)).split('&').filter((part) => {
    if (!part) return false;
    const eq = part.indexOf('=');
    return !fields.has(decode(eq < 0 ? part : part.slice(0, eq)));
  });
  for (const sw of swatches) {
    const v = chosen[sw.key];
    if (v) keep.push(`${encodeURIComponent(fieldName(sw.key))}=${encodeURIComponent(v)}`);
  }
  return path + (keep.length ? '?' + keep.join('&') : '') + hash;
}

/** The get_variation form body: product_id and every attribute_* field. */
export function variationRequestBody(productId: number, swatches: SwatchAttribute[], chosen: Chosen): string {
  const parts = [`product_id=${encodeURIComponent(String(productId))}`];
  for (const sw of swatches) {
    parts.push(`${encodeURIComponent(fieldName(sw.key))}=${encodeURIComponent(chosen[sw.key] || '')}`);
  }
  return parts.join('&');
}

/** A key for a complete selection (the get_variation answer cache). */
export function choiceKey(swatches: SwatchAttribute[], chosen: Chosen): string {
  return swatches.map((sw) => `${sw.key}=${chosen[sw.key] || ''}`).join('&');
}

/** The pre-order date in the shopper's locale (browser only: Intl is not in the server's engine). */
export function formatPreOrderDate(iso: string, locale?: string): string {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return '';
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(d);
  } catch {
    return d.toISOString();
  }
}
