// Answers in the shapes of WooCommerce Admin's analytics API, for the
// analytics screens' tests.
import type { StatsAnswer } from './types';

export function stats(days: string[], netRevenue: number[]): StatsAnswer {
  const sub = (n: number) => ({ orders_count: n > 0 ? 1 : 0, num_items_sold: 0, gross_sales: n, total_sales: n, coupons: 0, coupons_count: 0, refunds: 0, taxes: 0, shipping: 0, net_revenue: n, avg_items_per_order: 0, avg_order_value: n, total_customers: n > 0 ? 1 : 0, segments: [] });
  return {
    totals: { ...sub(netRevenue.reduce((a, b) => a + b, 0)), products: 5 },
    intervals: days.map((d, i) => ({ interval: d, date_start: `${d} 00:00:00`, date_start_gmt: `${d} 00:00:00`, date_end: `${d} 23:59:59`, date_end_gmt: `${d} 23:59:59`, subtotals: sub(netRevenue[i]) })),
  };
}

export function productRow(id: number, name: string, itemsSold: number, net: number, orders: number) {
  return { product_id: id, items_sold: itemsSold, net_revenue: net, orders_count: orders, extended_info: { name, sku: `SKU-${id}` }, _links: { product: [{ href: `/wp-json/wc-analytics/products/${id}` }] } };
}

export const PRODUCTS = [
  productRow(59, 'Bench Tee', 3, 56, 2),
  productRow(16, 'Beanie', 2, 32.4, 1),
  productRow(15, 'T-Shirt', 1, 16.2, 1),
  productRow(22, 'Long Sleeve Tee', 1, 25, 1),
  productRow(17, 'Belt, "leather"', 0, 0, 1),
  productRow(20, 'Cap', 0, 0, 1),
];
