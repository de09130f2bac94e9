// Quantity field rules (storefront spec section 5), as pure functions of the
// input's value and its min / max / step attributes, all as the strings the
// DOM gives (or numbers). The +/- buttons and the change handler use these.
//
// - Inputs below min are raised to min.
// - Plus: if max exists and the value is at or above it, set to max; else add step.
// - Minus: if min exists and the value is at or below it, set to min; else if the
//   value is above 0, subtract step.
// - An invalid or empty value counts as 0; a missing min is 0; a missing or
//   invalid step is 1; the result of adding or subtracting the step is
//   formatted to the step's decimals (min and max are set as they are).

export type Attr = string | number | null | undefined;

export interface QuantityAttrs {
  min?: Attr;
  max?: Attr;
  step?: Attr;
}

function num(v: Attr): number {
  if (v === null || v === undefined) return NaN;
  if (typeof v === 'number') return v;
  const s = v.trim();
  if (s === '') return NaN;
  return Number(s);
}

/** The value as a number: invalid or empty counts as 0. */
export function parseValue(v: Attr): number {
  const n = num(v);
  return Number.isFinite(n) ? n : 0;
}

/** min: missing (or not a number) is 0. */
export function parseMin(v: Attr): number {
  const n = num(v);
  return Number.isFinite(n) ? n : 0;
}

/** max: undefined when missing (or not a number): no upper bound. */
export function parseMax(v: Attr): number | undefined {
  const n = num(v);
  return Number.isFinite(n) ? n : undefined;
}

/** step: missing or invalid ("any", empty, not a positive number) is 1. */
export function parseStep(v: Attr): number {
  const n = num(v);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

/** Decimals of the step as written ("0.5" -> 1, "2" -> 0, "1e-2" -> 2); an invalid step is 1, so 0. */
export function stepDecimals(step: Attr): number {
  const n = num(step);
  const s = Number.isFinite(n) && n > 0 ? String(step).trim() : '1';
  const m = /(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(s);
  return Math.max(0, (m?.[1] ? m[1].length : 0) - (m?.[2] ? Number(m[2]) : 0));
}

/** Formats n to the step's decimals ("1.5" for step 0.5, "4" for step 2). */
export function formatQuantity(n: number, step: Attr): string {
  const out = n.toFixed(Math.min(stepDecimals(step), 20));
  return out === '-0' || /^-0\.0*$/.test(out) ? out.slice(1) : out;
}

/**
 * Raises a value below min to min (the field's change rule). A value at or
 * above min is kept as typed; an invalid or empty one counts as 0.
 */
export function raiseToMin(value: Attr, attrs: QuantityAttrs): string {
  const v = parseValue(value);
  const min = parseMin(attrs.min);
  if (v < min) return String(min);
  const n = num(value);
  return Number.isFinite(n) ? String(value).trim() : formatQuantity(v, attrs.step);
}

/** The plus button's rule. */
export function increase(value: Attr, attrs: QuantityAttrs): string {
  const v = parseValue(value);
  const max = parseMax(attrs.max);
  const step = parseStep(attrs.step);
  if (max !== undefined && v >= max) return String(max);
  return formatQuantity(v + step, attrs.step);
}

/** The minus button's rule. */
export function decrease(value: Attr, attrs: QuantityAttrs): string {
  const v = parseValue(value);
  const min = parseMin(attrs.min);
  const step = parseStep(attrs.step);
  if (v <= min) return String(min);
  if (v > 0) return formatQuantity(v - step, attrs.step);
  return formatQuantity(v, attrs.step);
}

/** A button press: the plus or minus rule, then the below-min rule (the field changed). */
export function stepQuantity(direction: 'plus' | 'minus', value: Attr, attrs: QuantityAttrs): string {
  const raw = direction === 'plus' ? increase(value, attrs) : decrease(value, attrs);
  return raiseToMin(raw, attrs);
}
