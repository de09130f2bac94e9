// The admin's products API (internal/adminapi/products.go) as the screens
// use it: WooCommerce's /wc/v3/products shapes, plus version.

export const PRODUCTS = '/wp-json/wc/v3/products';
export const ADMIN = '/wp-json/vitrine/v1/admin';

export interface Term {
  id: number;
  name: string;
  slug: string;
}

export interface ImageRef {
  id: number;
  src: string;
  name: string;
  alt: string;
}

export interface ProductAttribute {
  id: number;
  name: string;
  slug: string;
  position: number;
  visible: boolean;
  variation: boolean;
  options: string[];
}

/** What a product and a variation are sold by: the SKU, the prices and the sale's dates (UTC). */
export interface Pricing {
  sku: string;
  price: string;
  regular_price: string;
  sale_price: string;
  date_on_sale_from_gmt: string | null;
  date_on_sale_to_gmt: string | null;
}

export interface Product extends Pricing {
  id: number;
  name: string;
  slug: string;
  permalink: string;
  type: 'simple' | 'variable' | 'grouped' | 'external';
  status: 'publish' | 'draft' | 'private' | 'future' | 'trash';
  featured: boolean;
  catalog_visibility: string;
  description: string;
  short_description: string;
  external_url: string;
  button_text: string;
  grouped_products: number[];
  upsell_ids: number[];
  cross_sell_ids: number[];
  low_stock_amount: number | null;
  quantity_rules: QuantityRules;
  sold_individually: boolean;
  tax_status: 'taxable' | 'shipping' | 'none';
  tax_class: '' | 'reduced-rate' | 'zero-rate';
  manage_stock: boolean;
  stock_quantity: number | null;
  stock_status: 'instock' | 'outofstock' | 'onbackorder';
  categories: Term[];
  tags: Term[];
  images: ImageRef[];
  attributes: ProductAttribute[];
  variations: number[];
  date_created_gmt: string;
  date_modified_gmt: string;
  date_publish_gmt: string | null;
  version: number;
}

export interface Variation extends Pricing {
  id: number;
  manage_stock: boolean;
  stock_quantity: number | null;
  stock_status: string;
  status: string;
  enabled: boolean;
  image: ImageRef | null;
  attributes: { name: string; slug: string; option: string }[];
  low_stock_amount: number | null;
  quantity_rules: QuantityRules;
  pre_order: boolean;
  pre_order_date_gmt: string | null;
  pre_order_label: string;
}

/** A product's or a variation's quantity rules; 0: no minimum, no maximum, any step. */
export interface QuantityRules {
  minimum: number;
  maximum: number;
  multiple_of: number;
}

/** A whole-number field as typed: '' is 0 (or null where allowed); anything else not a whole number is refused. */
export function wholeNumber(v: string): number | null | undefined {
  const t = v.trim();
  if (t === '') return null;
  return /^\d+$/.test(t) ? Number(t) : undefined;
}

export interface Category {
  id: number;
  name: string;
  slug: string;
  parent: number;
  description: string;
  menu_order: number;
  count: number;
  image: ImageRef | null;
}

export interface Tag {
  id: number;
  name: string;
  slug: string;
  count: number;
}

export interface SwatchTerm {
  id: number;
  name: string;
  slug: string;
  color: string;
  image_url: string;
  menu_order: number;
}

export interface GlobalAttribute {
  id: number;
  name: string;
  slug: string;
  type: 'select' | 'color' | 'image' | 'label';
  terms: SwatchTerm[];
  /** Whether listings offer the attribute as a filter. */
  filterable: boolean;
  /** Several chosen values mean any ('or') or all ('and'). */
  filter_query_type: 'or' | 'and';
}

export const STATUS_LABELS: Record<string, string> = {
  publish: 'Published',
  draft: 'Draft',
  private: 'Private',
  future: 'Scheduled',
  trash: 'In the trash',
};

export const STOCK_LABELS: Record<string, string> = {
  instock: 'In stock',
  outofstock: 'Out of stock',
  onbackorder: 'On backorder',
};

export const TYPE_LABELS: Record<string, string> = {
  simple: 'Simple product',
  variable: 'Variable product',
  grouped: 'Grouped product',
  external: 'External/Affiliate product',
};

/** Categories in tree order, each with its depth (for indented lists and selects). */
export function categoryTree(cats: Category[]): { cat: Category; depth: number }[] {
  const kids = new Map<number, Category[]>();
  const ids = new Set(cats.map((c) => c.id));
  for (const c of cats) {
    const p = ids.has(c.parent) ? c.parent : 0;
    kids.set(p, [...(kids.get(p) ?? []), c]);
  }
  const out: { cat: Category; depth: number }[] = [];
  const walk = (parent: number, depth: number) => {
    for (const c of kids.get(parent) ?? []) {
      out.push({ cat: c, depth });
      if (depth < 20) walk(c.id, depth + 1);
    }
  };
  walk(0, 0);
  return out;
}

/** A UTC "2026-12-01T09:00:00" from the API as a datetime-local value in the browser's zone. */
export function localDateTime(gmt: string | null): string {
  if (!gmt) return '';
  const d = new Date(gmt + 'Z');
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value as the API's UTC time; '' clears. */
export function gmtOf(local: string): string {
  if (!local) return '';
  const t = new Date(local);
  return Number.isNaN(t.getTime()) ? local : t.toISOString().slice(0, 19);
}

/** A UTC time from the API as a date input's value (the browser's day). */
export function dateInput(gmt: string | null): string {
  return localDateTime(gmt).slice(0, 10);
}

/**
 * A date input's value as the API's UTC time: a sale starts at the
 * beginning of its first day and ends at the end of its last one, in the
 * browser's time zone (as WooCommerce's sale dates do). "" clears it.
 */
export function saleDateGMT(day: string, end: boolean): string {
  if (!day) return '';
  const t = new Date(`${day}T${end ? '23:59:59' : '00:00:00'}`);
  return Number.isNaN(t.getTime()) ? day : t.toISOString().slice(0, 19);
}
