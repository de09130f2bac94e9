// The orders API's shapes (internal/adminapi/orders.go) and the amounts'
// arithmetic: the API writes amounts as decimal strings in the order's
// currency ("12.50"); the screens add them in minor units, never floats.

import type { Address } from '../../../types';

/** An order's billing or shipping address: the shop's address shape. */
export type { Address };

export interface OrderLine {
  id: number;
  name: string;
  sku: string;
  product_id: number;
  variation_id: number;
  quantity: number;
  price: string;
  subtotal: string;
  total: string;
  total_tax: string;
  meta_data: { display_key: string; display_value: string }[];
  refunded_quantity: number;
  refunded_total: string;
  restocked: number;
}

export interface OrderSummary {
  id: number;
  number: string;
  status: string;
  currency: string;
  currency_decimals: number;
  date_created_gmt: string;
  date_paid_gmt: string | null;
  total: string;
  total_tax: string;
  shipping_total: string;
  shipping_tax: string;
  discount_total: string;
  payment_method: string;
  payment_method_title: string;
  transaction_id: string;
  customer_id: number;
  customer_note: string;
  billing: Address;
  shipping: Address;
  line_items: OrderLine[];
  shipping_lines: { method_title: string; method_id: string; total: string; total_tax: string }[];
  coupon_lines: { code: string; discount: string; discount_tax: string }[];
  attribution: Record<string, string>;
  test_payment?: string;
  // When the order's personal data was removed (data retention, erasure).
  date_anonymised_gmt?: string;
}

export interface OrderNote {
  id: number;
  note: string;
  customer_note: boolean;
  added_by_user: number;
  author: string;
  date_created: string;
}

export interface OrderRefund {
  id: number;
  amount: string;
  reason: string;
  refunded_payment: boolean;
  method: string;
  status: 'pending' | 'completed' | 'failed';
  provider_refund_id: string;
  author: string;
  error?: string;
  date_created_gmt: string;
  line_items: { id: number; quantity: number; refund_total: string }[];
  restock_items: boolean;
}

export interface OrderMail {
  id: number;
  kind: string;
  date_created: string;
  date_sent: string | null;
  date_failed: string | null;
  attempts: number;
  last_error: string;
}

export interface OrderDetail extends OrderSummary {
  refunds: OrderRefund[];
  notes: OrderNote[];
  mails: OrderMail[];
  total_refunded: string;
  refund_left: string;
  refund_method: string;
  next_statuses: string[];
  mail_kinds: string[];
  /** The addresses as their countries write them (the server's formatter, the storefront's and the mails' lines); shipping [] when none. */
  vitrine_address_lines: { billing: string[]; shipping: string[] };
}

export const ORDERS_PATH = '/wp-json/wc/v3/orders';
export const TOTALS_PATH = '/wp-json/wc/v3/reports/orders/totals';
export const emailsPath = (id: number) => `/wp-json/vitrine/v1/admin/orders/${id}/emails`;
export const finishPath = (id: number, refund: number) => `/wp-json/vitrine/v1/admin/orders/${id}/refunds/${refund}/finish`;

/** Statuses as people read them, in the list's tab order. */
export const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending payment',
  processing: 'Processing',
  'on-hold': 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  failed: 'Failed',
  'checkout-draft': 'Draft',
};

export function statusLabel(s: string): string {
  return STATUS_LABELS[s] ?? s;
}

export const MAIL_LABELS: Record<string, string> = {
  order_confirmation: 'Order confirmation (to the customer)',
  new_order: 'New-order notice (to the shop)',
  customer_note: 'Note to the customer',
  order_completed: 'Order completed (to the customer)',
  order_refunded: 'Order refunded (to the customer)',
};

/** Minor units of a decimal string ("12.5" with 2 decimals: 1250); null when it is not one. */
export function toMinor(s: string, decimals: number): number | null {
  const t = s.trim();
  const m = /^(\d+)(?:\.(\d*))?$/.exec(t);
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > decimals) return null;
  const n = Number(m[1]) * 10 ** decimals + Number((frac + '0'.repeat(decimals)).slice(0, decimals) || '0');
  return Number.isSafeInteger(n) ? n : null;
}

/** A decimal string of minor units (1250 with 2 decimals: "12.50"). */
export function fromMinor(n: number, decimals: number): string {
  if (decimals === 0) return String(n);
  const neg = n < 0;
  const s = String(Math.abs(n)).padStart(decimals + 1, '0');
  return (neg ? '-' : '') + s.slice(0, -decimals) + '.' + s.slice(-decimals);
}

export function customerName(o: OrderSummary): string {
  return [o.billing.first_name, o.billing.last_name].filter(Boolean).join(' ') || o.billing.email || 'Guest';
}
