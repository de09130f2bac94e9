import { describe, expect, it } from 'vitest';
import { colourSizeVariation } from '../test/fixtures';
import type { StoreProduct, SwatchAttribute } from '../types';
import {
  addButtonLabel,
  buttonClass,
  buttonReason,
  candidatesFromAvailability,
  candidatesFromRefs,
  candidatesFromVariations,
  choose,
  clampQuantity,
  disabledMessage,
  findMatch,
  formatChoiceUrl,
  formState,
  labelWithValue,
  MSG_SELECT,
  MSG_UNAVAILABLE,
  optionState,
  parseChoice,
  partialImage,
  quantityLimits,
  selectable,
  stockHint,
  variationRequestBody,
} from './variations';

const v = colourSizeVariation;

const swatches: SwatchAttribute[] = [
  {
    key: 'pa_color',
    name: 'Color',
    type: 'color',
    options: ['navy', 'rust', 'olive'].map((s) => ({ slug: s, name: s[0].toUpperCase() + s.slice(1), color: '#000', image: '' })),
  },
  { key: 'pa_size', name: 'Size', type: 'label', options: ['s', 'm', 'l'].map((s) => ({ slug: s, name: s.toUpperCase(), color: '', image: '' })) },
];

// navy: s (out of stock), m; rust: any size; olive: l only (out of stock).
const vars = [
  v(1, 'navy', 's', { is_in_stock: false }),
  v(2, 'navy', 'm'),
  v(3, 'rust', ''),
  v(4, 'olive', 'l', { is_in_stock: false }),
];
const cands = candidatesFromVariations(vars);

describe('matching', () => {
  it('needs every attribute and takes the first match in order; "any" matches every value', () => {
    expect(findMatch(vars, swatches, { pa_color: 'navy' })).toBeNull();
    expect(findMatch(vars, swatches, { pa_color: 'navy', pa_size: 'm' })?.variation_id).toBe(2);
    expect(findMatch(vars, swatches, { pa_color: 'rust', pa_size: 'l' })?.variation_id).toBe(3);
    expect(findMatch(vars, swatches, { pa_color: 'olive', pa_size: 's' })).toBeNull();
    const both = [v(7, '', 'm'), v(8, 'navy', 'm')];
    expect(findMatch(both, swatches, { pa_color: 'navy', pa_size: 'm' })?.variation_id).toBe(7);
  });
});

describe('option states', () => {
  it.each([
    // chosen, attribute, value, disabled, out of stock
    [{}, 'pa_color', 'navy', false, false],
    [{}, 'pa_size', 's', false, false], // navy s is out, but rust (any) has s
    [{ pa_color: 'navy' }, 'pa_size', 's', false, true],
    [{ pa_color: 'navy' }, 'pa_size', 'm', false, false],
    [{ pa_color: 'navy' }, 'pa_size', 'l', true, false],
    [{ pa_color: 'olive' }, 'pa_size', 'l', false, true],
    [{ pa_color: 'olive' }, 'pa_size', 'm', true, false],
    [{ pa_color: 'rust' }, 'pa_size', 'l', false, false], // "any" counts as matching
    [{ pa_size: 'l' }, 'pa_color', 'navy', true, false],
    [{ pa_size: 'l' }, 'pa_color', 'olive', false, true],
    [{ pa_color: 'navy', pa_size: 's' }, 'pa_color', 'rust', false, false], // own choice ignored
  ])('%j: %s=%s disabled %s, out of stock %s', (chosen, key, value, disabled, out) => {
    expect(optionState(cands, chosen, key, value)).toEqual({ disabled, outOfStock: out });
  });

  it('knows nothing without candidates', () => {
    expect(optionState([], { pa_color: 'navy' }, 'pa_size', 'l')).toEqual({ disabled: false, outOfStock: false });
  });

  it('reads Store API variation refs by attribute name, with stock once known', () => {
    const refs: StoreProduct['variations'] = [
      { id: 1, attributes: [{ name: 'Color', value: 'navy' }, { name: 'Size', value: 's' }] },
      { id: 2, attributes: [{ name: 'Color', value: 'navy' }, { name: 'Size', value: 'm' }] },
    ];
    const before = candidatesFromRefs(refs, swatches);
    expect(before[0]).toEqual({ id: 1, attributes: { pa_color: 'navy', pa_size: 's' }, inStock: undefined });
    expect(optionState(before, { pa_color: 'navy' }, 'pa_size', 's').outOfStock).toBe(false);
    const after = candidatesFromRefs(refs, swatches, { 1: vars[0] });
    expect(optionState(after, { pa_color: 'navy' }, 'pa_size', 's')).toEqual({ disabled: false, outOfStock: true });
    expect(optionState(after, { pa_color: 'navy' }, 'pa_size', 'l').disabled).toBe(true);
  });

  it("reads the page's availability list (above the threshold): out of stock known at once, get_variation answers win", () => {
    const list = [
      { id: 11, attributes: { pa_color: 'navy', pa_size: 's' }, in_stock: false, purchasable: true },
      { id: 12, attributes: { pa_color: 'navy', pa_size: 'm' }, in_stock: true, purchasable: true },
      { id: 13, attributes: { pa_color: 'rust', pa_size: '' }, in_stock: true, purchasable: true },
      { id: 14, attributes: { pa_color: 'olive', pa_size: 'l' }, in_stock: true, purchasable: false },
    ];
    const c = candidatesFromAvailability(list);
    expect(c[0]).toEqual({ id: 11, attributes: { pa_color: 'navy', pa_size: 's' }, inStock: false, purchasable: true });
    // Navy chosen: S is crossed out at once, L has no variation.
    expect(optionState(c, { pa_color: 'navy' }, 'pa_size', 's')).toEqual({ disabled: false, outOfStock: true });
    expect(optionState(c, { pa_color: 'navy' }, 'pa_size', 'm')).toEqual({ disabled: false, outOfStock: false });
    expect(optionState(c, { pa_color: 'navy' }, 'pa_size', 'l')).toEqual({ disabled: true, outOfStock: false });
    // S alone: rust (any size) still has it.
    expect(optionState(c, {}, 'pa_size', 's')).toEqual({ disabled: false, outOfStock: false });
    // Olive's only variation is not purchasable: unavailable, as if absent.
    expect(optionState(c, {}, 'pa_color', 'olive')).toEqual({ disabled: true, outOfStock: false });
    expect(choose(c, swatches, { pa_size: 'l' }, 'pa_color', 'olive', true)).toEqual({ pa_size: '', pa_color: 'olive' });
    // A newer get_variation answer (back in stock) wins over the cached page.
    const fresh = candidatesFromAvailability(list, { 11: v(11, 'navy', 's', { is_in_stock: true }) });
    expect(optionState(fresh, { pa_color: 'navy' }, 'pa_size', 's').outOfStock).toBe(false);
  });

  it('embedded variations that are not purchasable make their values unavailable', () => {
    const c = candidatesFromVariations([v(1, 'navy', 's', { is_purchasable: false }), v(2, 'navy', 'm')]);
    expect(optionState(c, { pa_color: 'navy' }, 'pa_size', 's')).toEqual({ disabled: true, outOfStock: false });
    expect(optionState(c, {}, 'pa_color', 'navy')).toEqual({ disabled: false, outOfStock: false });
  });

  it('clickable only when available and in stock, unless the options say otherwise', () => {
    const out = { disabled: false, outOfStock: true };
    const gone = { disabled: true, outOfStock: false };
    const off = { clickableOutOfStock: false, deselectConflicting: false };
    expect(selectable(out, off)).toBe(false);
    expect(selectable(out, { ...off, clickableOutOfStock: true })).toBe(true);
    expect(selectable(gone, off)).toBe(false);
    expect(selectable(gone, { ...off, deselectConflicting: true })).toBe(true);
    expect(selectable({ disabled: false, outOfStock: false }, off)).toBe(true);
  });

  it('deselects conflicting choices only when asked', () => {
    expect(choose(cands, swatches, { pa_size: 'l' }, 'pa_color', 'navy')).toEqual({ pa_size: 'l', pa_color: 'navy' });
    expect(choose(cands, swatches, { pa_size: 'l' }, 'pa_color', 'navy', true)).toEqual({ pa_size: '', pa_color: 'navy' });
    expect(choose(cands, swatches, { pa_size: 'l' }, 'pa_color', 'rust', true)).toEqual({ pa_size: 'l', pa_color: 'rust' });
  });
});

describe('form state machine', () => {
  it('selection needed -> loading -> match / no match', () => {
    expect(formState(false, null)).toEqual({ kind: 'selection-needed' });
    expect(formState(true, undefined)).toEqual({ kind: 'loading' });
    expect(formState(true, false)).toEqual({ kind: 'no-match' });
    expect(formState(true, vars[1])).toEqual({ kind: 'match', variation: vars[1] });
  });

  it.each([
    ['selection needed', formState(false, null), 'selection-needed', 'disabled wc-variation-selection-needed', MSG_SELECT],
    ['loading', formState(true, undefined), 'selection-needed', 'disabled wc-variation-selection-needed', MSG_SELECT],
    ['no match resets the count', formState(true, false), 'selection-needed', 'disabled wc-variation-selection-needed', MSG_SELECT],
    ['out of stock', formState(true, vars[0]), 'unavailable', 'disabled wc-variation-is-unavailable', MSG_UNAVAILABLE],
    ['not purchasable', formState(true, v(9, 'navy', 'm', { is_purchasable: false })), 'unavailable', 'wc-variation-is-unavailable', MSG_UNAVAILABLE],
    ['not visible', formState(true, v(9, 'navy', 'm', { variation_is_visible: false })), 'unavailable', 'wc-variation-is-unavailable', MSG_UNAVAILABLE],
  ] as const)('%s', (_, s, reason, cls, msg) => {
    expect(buttonReason(s)).toBe(reason);
    expect(buttonClass(buttonReason(s))).toContain(cls);
    expect(disabledMessage(buttonReason(s))).toBe(msg);
  });

  it('enables the button for a purchasable, in-stock, visible match', () => {
    expect(buttonReason(formState(true, vars[1]))).toBeNull();
    expect(buttonClass(null)).toBe('single_add_to_cart_button button alt');
  });
});

describe('labels and hints', () => {
  it('shows the chosen value after the label with the ":" separator', () => {
    expect(labelWithValue('Color', 'Navy')).toBe('Color: Navy');
    expect(labelWithValue('Color', '')).toBe('Color');
    expect(labelWithValue('', 'Navy')).toBe(': Navy');
  });

  it('swaps the button label for a pre-order variation and restores it otherwise', () => {
    const pre = v(5, 'olive', 'm', { is_pre_order: 'yes', pre_order_label: 'Pre-order now', pre_order_date: '2026-12-11T09:00:00Z' });
    expect(addButtonLabel(pre, 'Add to cart')).toBe('Pre-order now');
    expect(addButtonLabel(vars[1], 'Add to cart')).toBe('Add to cart');
    expect(addButtonLabel(null, 'Add to cart')).toBe('Add to cart');
    expect(addButtonLabel({ ...pre, pre_order_label: '' }, 'Add to cart')).toBe('Add to cart');
  });

  it('hints "Only N left" at or below 5, in stock only', () => {
    expect(stockHint(vars[1], 3)).toBe('Only 3 left');
    expect(stockHint(vars[1], 5)).toBe('Only 5 left');
    expect(stockHint(vars[1], 6)).toBe('');
    expect(stockHint(vars[1], null)).toBe('');
    expect(stockHint(vars[0], 3)).toBe('');
    expect(stockHint(vars[1], 0)).toBe('');
  });

  it('fixes the quantity at 1 when sold individually, else clamps to min/max', () => {
    const p = { sold_individually: false, add_to_cart: { minimum: 1, maximum: 0 } } as unknown as StoreProduct;
    expect(quantityLimits(v(1, 'navy', 'm', { is_sold_individually: 'yes' }), p)).toEqual({ fixed: true, min: 1, max: 1 });
    expect(quantityLimits(v(1, 'navy', 'm', { min_qty: 2, max_qty: 10 }), p)).toEqual({ fixed: false, min: 2, max: 10 });
    expect(quantityLimits(v(1, 'navy', 'm', { min_qty: 1, max_qty: '' }), p)).toEqual({ fixed: false, min: 1, max: undefined });
    expect(clampQuantity('50', 2, 10)).toBe('10');
    expect(clampQuantity('1', 2, 10)).toBe('2');
    expect(clampQuantity('', 2)).toBe('2');
    expect(clampQuantity('4', 2, 10)).toBe('4');
  });

  it('shows a colour alone with the first variation of that colour that has an image', () => {
    const a = v(1, 'navy', 's', { image: { ...v(0, '', '').image, src: '' } });
    const b = v(2, 'navy', 'm', { image: { ...v(0, '', '').image, src: '/navy.jpg' } });
    expect(partialImage([a, b], { pa_color: 'navy' })?.variation_id).toBe(2);
    expect(partialImage([a, b], {})).toBeNull();
  });
});

describe('selection in the URL', () => {
  it('parses known attributes with known values only', () => {
    expect(parseChoice('?attribute_pa_color=navy&attribute_pa_size=m', swatches)).toEqual({ pa_color: 'navy', pa_size: 'm' });
    expect(parseChoice('?attribute_pa_color=NAVY&attribute_pa_size=xxxl&attribute_pa_fit=slim&x=1', swatches)).toEqual({ pa_color: 'navy' });
    expect(parseChoice('', swatches)).toEqual({});
    expect(parseChoice('?attribute_pa_color=%E0%A4%A', swatches)).toEqual({});
  });

  it('formats: replaces attribute parameters, keeps the others and the hash', () => {
    expect(formatChoiceUrl('/product/tee/', swatches, { pa_color: 'navy', pa_size: 'm' })).toBe(
      '/product/tee/?attribute_pa_color=navy&attribute_pa_size=m',
    );
    expect(formatChoiceUrl('/product/tee/?utm=x&attribute_pa_color=rust#reviews', swatches, { pa_color: 'navy' })).toBe(
      '/product/tee/?utm=x&attribute_pa_color=navy#reviews',
    );
    expect(formatChoiceUrl('/product/tee/?attribute_pa_color=rust', swatches, {})).toBe('/product/tee/');
    const url = formatChoiceUrl('/p/', swatches, { pa_color: 'a b&c' });
    expect(parseChoice(url.slice(url.indexOf('?')), [{ ...swatches[0], options: [{ slug: 'a b&c', name: 'x', color: '', image: '' }] }])).toEqual({
      pa_color: 'a b&c',
    });
  });

  it('builds the get_variation body with every attribute', () => {
    expect(variationRequestBody(59, swatches, { pa_color: 'navy', pa_size: 'm' })).toBe(
      'product_id=59&attribute_pa_color=navy&attribute_pa_size=m',
    );
  });
});
