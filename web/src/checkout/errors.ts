// Store API checkout errors (400 with data.details / data.params) mapped onto
// the classic form's field names and the notice list.
import type { StoreError } from './api';
import { decodeEntities } from '../lib/format';

const BLOCKS: Record<string, string> = { billing_address: 'billing', shipping_address: 'shipping' };

/** "billing_first_name", "billing_address.first_name", "billing_address[first_name]" -> "billing_first_name". */
export function classicName(key: string): string | null {
  if (/^(billing|shipping)_[a-z0-9_]+$/.test(key) && !BLOCKS[key]) return key;
  const m = /^(billing_address|shipping_address)(?:\.|\[)([a-z0-9_]+)\]?$/.exec(key);
  if (m) return `${BLOCKS[m[1]]}_${m[2]}`;
  if (key === 'customer_note') return 'order_comments';
  if (key === 'payment_method' || key === 'terms') return key;
  return null;
}

function text(v: unknown): string {
  if (typeof v === 'string') return decodeEntities(v);
  if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') {
    return decodeEntities((v as { message: string }).message);
  }
  return '';
}

export interface MappedErrors {
  fields: Record<string, string>;
  notices: string[];
}

/**
 * A Store API error answer: per-field messages where the key names a field
 * (the field gets the message, and the notice list shows it once), the rest
 * as notices; the top-level message when nothing more precise is given.
 * A nested { details } inside an address entry is followed one level down.
 */
export function mapStoreErrors(err: StoreError | null, fallback: string): MappedErrors {
  const fields: Record<string, string> = {};
  const notices: string[] = [];
  const visit = (key: string, value: unknown) => {
    // A list of { field, message } (or an entry naming its own field).
    const own = value && typeof value === 'object' ? (value as { field?: unknown }).field : undefined;
    if (typeof own === 'string' && own) key = own;
    const nested = value && typeof value === 'object' ? (value as { data?: { details?: unknown } }).data?.details : undefined;
    if (BLOCKS[key] && nested && typeof nested === 'object') {
      for (const [k, v] of Object.entries(nested as Record<string, unknown>)) visit(`${key}.${k}`, v);
      return;
    }
    const msg = text(value);
    if (!msg) return;
    const name = classicName(key);
    if (name && !fields[name]) fields[name] = msg;
    else if (!notices.includes(msg)) notices.push(msg);
  };
  const data = err?.data;
  const source = data?.details && Object.keys(data.details).length ? data.details : (data?.params ?? {});
  for (const [k, v] of Object.entries(source)) visit(k, v);
  if (Object.keys(fields).length === 0 && notices.length === 0) notices.push(err?.message ? decodeEntities(err.message) : fallback);
  return { fields, notices };
}
