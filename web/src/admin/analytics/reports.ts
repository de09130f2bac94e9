// The analytics reports: for each, what its chart can show (a …/stats
// metric), its table (the report's rows, their columns and the columns
// the API sorts by) and its filters. The CSV download is the server's
// export of the same query.

import type { SortOrder } from '../ui/list';
import type { ReportRow, StatsInterval } from './types';

export type Format = 'currency' | 'number' | 'text' | 'date';

export interface Metric {
  key: string;
  label: string;
  format: 'currency' | 'number';
}

export interface ReportColumn {
  key: string;
  header: string;
  value: (row: ReportRow) => string | number | null | undefined;
  format: Format;
  /** The API's orderby for this column. */
  sort?: string;
  /** This column names the row. */
  rowHeader?: boolean;
  /** Shown only when a row on the page has a value (order attribution: the API may not send it). */
  optional?: boolean;
}

export type FilterName = 'status_is' | 'product_includes' | 'category_includes' | 'coupon_includes' | 'customer_type' | 'type';

export interface ReportConfig {
  slug: string;
  title: string;
  /** The …/stats path under reports/ whose intervals the chart draws; absent: a bar chart of barTotals. */
  stats?: string;
  metrics: Metric[];
  /** A chart by kind (stock): the totals of this …/stats path, one bar each. */
  bars?: { path: string; items: { key: string; label: string }[]; title: string };
  /** The table: the report path under reports/, or "intervals" of the stats path. */
  table: {
    path: string;
    intervals?: boolean;
    sorts: string[];
    initial: { orderby: string; order: SortOrder };
    noun: { one: string; many: string };
    columns: ReportColumn[];
    id: (r: ReportRow, i: number) => number;
  };
  filters: FilterName[];
}

const num = (k: string) => (r: ReportRow) => r[k] as number;
const ext = (k: string) => (r: ReportRow) => (r.extended_info?.[k] as string | undefined) ?? '';
const sub = (k: string) => (r: ReportRow) => ((r as unknown as StatsInterval).subtotals?.[k] as number) ?? 0;
const idOf = (k: string) => (r: ReportRow, i: number) => (typeof r[k] === 'number' ? (r[k] as number) : i + 1);

const SALES: Metric[] = [
  { key: 'net_revenue', label: 'Net sales', format: 'currency' },
  { key: 'gross_sales', label: 'Gross sales', format: 'currency' },
  { key: 'total_sales', label: 'Total sales', format: 'currency' },
  { key: 'orders_count', label: 'Orders', format: 'number' },
  { key: 'refunds', label: 'Refunds', format: 'currency' },
  { key: 'coupons', label: 'Discounts', format: 'currency' },
  { key: 'taxes', label: 'Taxes', format: 'currency' },
  { key: 'shipping', label: 'Shipping', format: 'currency' },
];

const ITEMS: Metric[] = [
  { key: 'items_sold', label: 'Items sold', format: 'number' },
  { key: 'net_revenue', label: 'Net sales', format: 'currency' },
  { key: 'orders_count', label: 'Orders', format: 'number' },
];

export const REPORTS: ReportConfig[] = [
  {
    slug: 'revenue',
    title: 'Revenue',
    stats: 'revenue/stats',
    metrics: SALES,
    table: {
      path: 'revenue/stats',
      intervals: true,
      sorts: ['date', 'orders_count', 'gross_sales', 'refunds', 'coupons', 'net_revenue', 'taxes', 'shipping', 'total_sales'],
      initial: { orderby: 'date', order: 'desc' },
      noun: { one: 'interval', many: 'intervals' },
      id: (_r, i) => i + 1,
      columns: [
        { key: 'date', header: 'Date', value: (r) => (r as unknown as StatsInterval).date_start, format: 'date', sort: 'date', rowHeader: true },
        { key: 'orders_count', header: 'Orders', value: sub('orders_count'), format: 'number', sort: 'orders_count' },
        { key: 'gross_sales', header: 'Gross sales', value: sub('gross_sales'), format: 'currency', sort: 'gross_sales' },
        { key: 'refunds', header: 'Returns', value: sub('refunds'), format: 'currency', sort: 'refunds' },
        { key: 'coupons', header: 'Coupons', value: sub('coupons'), format: 'currency', sort: 'coupons' },
        { key: 'net_revenue', header: 'Net sales', value: sub('net_revenue'), format: 'currency', sort: 'net_revenue' },
        { key: 'taxes', header: 'Taxes', value: sub('taxes'), format: 'currency', sort: 'taxes' },
        { key: 'shipping', header: 'Shipping', value: sub('shipping'), format: 'currency', sort: 'shipping' },
        { key: 'total_sales', header: 'Total sales', value: sub('total_sales'), format: 'currency', sort: 'total_sales' },
      ],
    },
    filters: [],
  },
  {
    slug: 'orders',
    title: 'Orders',
    stats: 'orders/stats',
    metrics: [
      { key: 'orders_count', label: 'Orders', format: 'number' },
      { key: 'net_revenue', label: 'Net sales', format: 'currency' },
      { key: 'avg_order_value', label: 'Average order value', format: 'currency' },
      { key: 'avg_items_per_order', label: 'Average items per order', format: 'number' },
    ],
    table: {
      path: 'orders',
      sorts: ['date', 'num_items_sold', 'net_total'],
      initial: { orderby: 'date', order: 'desc' },
      noun: { one: 'order', many: 'orders' },
      id: idOf('order_id'),
      columns: [
        { key: 'date', header: 'Date', value: (r) => r.date_created as string, format: 'date', sort: 'date' },
        { key: 'order', header: 'Order #', value: (r) => String(r.order_number ?? r.order_id), format: 'text', rowHeader: true },
        { key: 'status', header: 'Status', value: (r) => r.status as string, format: 'text' },
        { key: 'customer', header: 'Customer', value: (r) => ((r.extended_info?.customer as { first_name?: string; last_name?: string } | undefined) ? `${(r.extended_info!.customer as { first_name?: string }).first_name ?? ''} ${(r.extended_info!.customer as { last_name?: string }).last_name ?? ''}`.trim() : ''), format: 'text' },
        { key: 'customer_type', header: 'Customer type', value: (r) => (r.customer_type === 'new' ? 'New' : r.customer_type === 'returning' ? 'Returning' : String(r.customer_type ?? '')), format: 'text' },
        { key: 'source', header: 'Source', value: (r) => attribution(r, 'source'), format: 'text', optional: true },
        { key: 'medium', header: 'Medium', value: (r) => attribution(r, 'medium'), format: 'text', optional: true },
        { key: 'num_items_sold', header: 'Items sold', value: num('num_items_sold'), format: 'number', sort: 'num_items_sold' },
        { key: 'net_total', header: 'Net sales', value: num('net_total'), format: 'currency', sort: 'net_total' },
      ],
    },
    filters: ['status_is', 'product_includes', 'coupon_includes', 'customer_type'],
  },
  {
    slug: 'products',
    title: 'Products',
    stats: 'products/stats',
    metrics: ITEMS,
    table: {
      path: 'products',
      sorts: ['items_sold', 'net_revenue', 'orders_count', 'product_name'],
      initial: { orderby: 'items_sold', order: 'desc' },
      noun: { one: 'product', many: 'products' },
      id: idOf('product_id'),
      columns: [
        { key: 'product', header: 'Product', value: (r) => ext('name')(r) || `#${r.product_id}`, format: 'text', sort: 'product_name', rowHeader: true },
        { key: 'sku', header: 'SKU', value: ext('sku'), format: 'text' },
        { key: 'items_sold', header: 'Items sold', value: num('items_sold'), format: 'number', sort: 'items_sold' },
        { key: 'net_revenue', header: 'Net sales', value: num('net_revenue'), format: 'currency', sort: 'net_revenue' },
        { key: 'orders_count', header: 'Orders', value: num('orders_count'), format: 'number', sort: 'orders_count' },
      ],
    },
    filters: ['category_includes', 'product_includes'],
  },
  {
    slug: 'variations',
    title: 'Variations',
    stats: 'variations/stats',
    metrics: ITEMS,
    table: {
      path: 'variations',
      sorts: ['items_sold', 'net_revenue', 'orders_count', 'sku'],
      initial: { orderby: 'items_sold', order: 'desc' },
      noun: { one: 'variation', many: 'variations' },
      id: idOf('variation_id'),
      columns: [
        { key: 'variation', header: 'Variation', value: (r) => ext('name')(r) || `#${r.variation_id}`, format: 'text', rowHeader: true },
        { key: 'sku', header: 'SKU', value: ext('sku'), format: 'text', sort: 'sku' },
        { key: 'items_sold', header: 'Items sold', value: num('items_sold'), format: 'number', sort: 'items_sold' },
        { key: 'net_revenue', header: 'Net sales', value: num('net_revenue'), format: 'currency', sort: 'net_revenue' },
        { key: 'orders_count', header: 'Orders', value: num('orders_count'), format: 'number', sort: 'orders_count' },
      ],
    },
    filters: ['product_includes'],
  },
  {
    slug: 'categories',
    title: 'Categories',
    stats: 'categories/stats',
    metrics: ITEMS,
    table: {
      path: 'categories',
      sorts: ['items_sold', 'net_revenue', 'orders_count', 'products_count', 'category'],
      initial: { orderby: 'items_sold', order: 'desc' },
      noun: { one: 'category', many: 'categories' },
      id: idOf('category_id'),
      columns: [
        { key: 'category', header: 'Category', value: (r) => ext('name')(r) || `#${r.category_id}`, format: 'text', sort: 'category', rowHeader: true },
        { key: 'items_sold', header: 'Items sold', value: num('items_sold'), format: 'number', sort: 'items_sold' },
        { key: 'net_revenue', header: 'Net sales', value: num('net_revenue'), format: 'currency', sort: 'net_revenue' },
        { key: 'products_count', header: 'Products', value: num('products_count'), format: 'number', sort: 'products_count' },
        { key: 'orders_count', header: 'Orders', value: num('orders_count'), format: 'number', sort: 'orders_count' },
      ],
    },
    filters: ['category_includes'],
  },
  {
    slug: 'coupons',
    title: 'Coupons',
    stats: 'coupons/stats',
    metrics: [
      { key: 'orders_count', label: 'Discounted orders', format: 'number' },
      { key: 'amount', label: 'Amount', format: 'currency' },
    ],
    table: {
      path: 'coupons',
      sorts: ['orders_count', 'amount', 'code'],
      initial: { orderby: 'orders_count', order: 'desc' },
      noun: { one: 'coupon', many: 'coupons' },
      id: idOf('coupon_id'),
      columns: [
        { key: 'code', header: 'Coupon code', value: (r) => ext('code')(r) || `#${r.coupon_id}`, format: 'text', sort: 'code', rowHeader: true },
        { key: 'orders_count', header: 'Orders', value: num('orders_count'), format: 'number', sort: 'orders_count' },
        { key: 'amount', header: 'Amount discounted', value: num('amount'), format: 'currency', sort: 'amount' },
      ],
    },
    filters: ['coupon_includes'],
  },
  {
    slug: 'taxes',
    title: 'Taxes',
    stats: 'taxes/stats',
    metrics: [
      { key: 'total_tax', label: 'Total tax', format: 'currency' },
      { key: 'order_tax', label: 'Order tax', format: 'currency' },
      { key: 'shipping_tax', label: 'Shipping tax', format: 'currency' },
      { key: 'orders_count', label: 'Orders', format: 'number' },
    ],
    table: {
      path: 'taxes',
      sorts: ['rate', 'total_tax', 'order_tax', 'shipping_tax', 'orders_count', 'tax_code'],
      initial: { orderby: 'total_tax', order: 'desc' },
      noun: { one: 'tax rate', many: 'tax rates' },
      id: idOf('tax_rate_id'),
      columns: [
        { key: 'tax_code', header: 'Tax code', value: (r) => [r.country, r.state, r.name].filter(Boolean).join('-') || String(r.tax_rate_id), format: 'text', sort: 'tax_code', rowHeader: true },
        { key: 'rate', header: 'Rate', value: (r) => `${Number(r.tax_rate ?? 0)}%`, format: 'text', sort: 'rate' },
        { key: 'total_tax', header: 'Total tax', value: num('total_tax'), format: 'currency', sort: 'total_tax' },
        { key: 'order_tax', header: 'Order tax', value: num('order_tax'), format: 'currency', sort: 'order_tax' },
        { key: 'shipping_tax', header: 'Shipping tax', value: num('shipping_tax'), format: 'currency', sort: 'shipping_tax' },
        { key: 'orders_count', header: 'Orders', value: num('orders_count'), format: 'number', sort: 'orders_count' },
      ],
    },
    filters: [],
  },
  {
    slug: 'stock',
    title: 'Stock',
    metrics: [],
    bars: {
      path: 'stock/stats',
      title: 'Products by stock status',
      items: [
        { key: 'instock', label: 'In stock' },
        { key: 'lowstock', label: 'Low stock' },
        { key: 'outofstock', label: 'Out of stock' },
        { key: 'onbackorder', label: 'On backorder' },
      ],
    },
    table: {
      path: 'stock',
      sorts: ['stock_status', 'stock_quantity', 'title', 'sku'],
      initial: { orderby: 'stock_status', order: 'asc' },
      noun: { one: 'product', many: 'products' },
      id: idOf('id'),
      columns: [
        { key: 'title', header: 'Product / variation', value: (r) => String(r.name ?? ''), format: 'text', sort: 'title', rowHeader: true },
        { key: 'sku', header: 'SKU', value: (r) => String(r.sku ?? ''), format: 'text', sort: 'sku' },
        { key: 'stock_status', header: 'Status', value: (r) => STOCK_STATUS[String(r.stock_status)] ?? String(r.stock_status ?? ''), format: 'text', sort: 'stock_status' },
        { key: 'stock_quantity', header: 'Stock', value: (r) => (r.stock_quantity === null || r.stock_quantity === undefined ? 'N/A' : (r.stock_quantity as number)), format: 'number', sort: 'stock_quantity' },
      ],
    },
    filters: ['type'],
  },
  {
    slug: 'customers',
    title: 'Customers',
    stats: 'orders/stats',
    metrics: [
      { key: 'total_customers', label: 'Customers who ordered', format: 'number' },
      { key: 'orders_count', label: 'Orders', format: 'number' },
    ],
    table: {
      path: 'customers',
      sorts: ['date_last_order', 'name', 'orders_count', 'total_spend', 'avg_order_value', 'username', 'email'],
      initial: { orderby: 'date_last_order', order: 'desc' },
      noun: { one: 'customer', many: 'customers' },
      id: idOf('id'),
      columns: [
        { key: 'name', header: 'Name', value: (r) => String(r.name ?? ''), format: 'text', sort: 'name', rowHeader: true },
        { key: 'email', header: 'Email', value: (r) => String(r.email ?? ''), format: 'text', sort: 'email' },
        { key: 'date_last_order', header: 'Last order', value: (r) => (r.date_last_order as string | null) ?? '', format: 'date', sort: 'date_last_order' },
        { key: 'date_registered', header: 'Sign up', value: (r) => (r.date_registered as string | null) ?? '', format: 'date' },
        { key: 'orders_count', header: 'Orders', value: num('orders_count'), format: 'number', sort: 'orders_count' },
        { key: 'total_spend', header: 'Total spend', value: num('total_spend'), format: 'currency', sort: 'total_spend' },
        { key: 'avg_order_value', header: 'AOV', value: num('avg_order_value'), format: 'currency', sort: 'avg_order_value' },
        { key: 'location', header: 'Location', value: (r) => [r.city, r.state, r.country].filter(Boolean).join(', '), format: 'text' },
      ],
    },
    filters: ['customer_type'],
  },
];

const STOCK_STATUS: Record<string, string> = { instock: 'In stock', outofstock: 'Out of stock', onbackorder: 'On backorder', lowstock: 'Low stock' };

function attribution(r: ReportRow, key: 'source' | 'medium'): string {
  const a = r.extended_info?.attribution as Record<string, string> | undefined;
  return a?.[key] ?? a?.[`utm_${key}`] ?? '';
}

export function reportOf(slug: string): ReportConfig | undefined {
  return REPORTS.find((r) => r.slug === slug);
}

/** A cell's text, as the table shows it and the CSV says it. */
export function cellText(v: string | number | null | undefined, format: Format, currency: string): string {
  if (v === null || v === undefined || v === '') return '';
  if (format === 'currency') {
    const n = typeof v === 'number' ? v : Number.parseFloat(v);
    if (!Number.isFinite(n)) return String(v);
    try {
      return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(n);
    } catch {
      return n.toFixed(2);
    }
  }
  if (format === 'number') return typeof v === 'number' ? new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(v) : String(v);
  if (format === 'date') {
    const d = new Date(String(v).replace(' ', 'T'));
    return Number.isNaN(d.getTime()) ? String(v) : d.toLocaleDateString(undefined, { dateStyle: 'medium' });
  }
  return String(v);
}


/** CSV text as rows of cells (quoted cells may hold commas, quotes and line ends). */
export function parseCSV(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
