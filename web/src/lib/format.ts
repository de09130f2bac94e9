import type { CurrencyBlock } from '../types';

/** Groups the digits of a non-negative integer string with a separator. */
function groupThousands(digits: string, sep: string): string {
  if (!sep || digits.length <= 3) return digits;
  let out = '';
  let count = 0;
  for (let i = digits.length - 1; i >= 0; i--) {
    out = digits[i] + out;
    count++;
    if (count % 3 === 0 && i > 0) out = sep + out;
  }
  return out;
}

/**
 * Formats an amount given as a string of integer minor units with a Store API
 * currency block: prefix + grouped integer part + decimal separator + fraction + suffix.
 * Pure string arithmetic: no Intl, no floating point (QuickJS has no Intl).
 */
export function formatPrice(minor: string | number, c: CurrencyBlock): string {
  let s = String(minor ?? '').trim();
  if (s === '') return '';
  let negative = false;
  if (s[0] === '-') {
    negative = true;
    s = s.slice(1);
  }
  if (!/^\d+$/.test(s)) return '';
  s = s.replace(/^0+(?=\d)/, '');
  const unit = Math.max(0, c.currency_minor_unit | 0);
  let intPart = s;
  let frac = '';
  if (unit > 0) {
    s = s.padStart(unit + 1, '0');
    intPart = s.slice(0, s.length - unit);
    frac = s.slice(s.length - unit);
  }
  let num = groupThousands(intPart, c.currency_thousand_separator);
  if (unit > 0) num += c.currency_decimal_separator + frac;
  // WooCommerce puts the sign before the whole formatted price (wc_price).
  const sign = negative && /[1-9]/.test(s) ? '-' : '';
  return sign + c.currency_prefix + num + c.currency_suffix;
}

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0',
  ldquo: '\u201c', rdquo: '\u201d', lsquo: '\u2018', rsquo: '\u2019',
  ndash: '\u2013', mdash: '\u2014', hellip: '\u2026', euro: '\u20ac',
  pound: '\u00a3', yen: '\u00a5', copy: '\u00a9', reg: '\u00ae', trade: '\u2122',
  times: '\u00d7', laquo: '\u00ab', raquo: '\u00bb', deg: '\u00b0',
};

/** Decodes the HTML entities WordPress puts into plain-text fields (names, aria labels). */
export function decodeEntities(s: string): string {
  if (!s || s.indexOf('&') < 0) return s || '';
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    const v = NAMED[body.toLowerCase()];
    return v === undefined ? m : v;
  });
}

const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

/** "2026-11-22T10:00:00+00:00" -> "November 22, 2026", from the string itself (no time zone maths). */
export function formatDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso || '');
  if (!m) return '';
  const month = MONTHS[parseInt(m[2], 10) - 1];
  if (!month) return '';
  return `${month} ${parseInt(m[3], 10)}, ${m[1]}`;
}

/** "4.5" -> "4.50" (WooCommerce shows two decimals in the rating text). */
export function formatRating(r: string | number): string {
  const n = typeof r === 'number' ? r : parseFloat(r);
  return (Number.isFinite(n) ? Math.min(5, Math.max(0, n)) : 0).toFixed(2);
}
