import {
  decrease,
  formatQuantity,
  increase,
  parseMax,
  parseMin,
  parseStep,
  parseValue,
  raiseToMin,
  stepDecimals,
  stepQuantity,
  type QuantityAttrs,
} from './quantity';

// Spec section 5: "Quantity inputs below min are raised to min. Plus: if max
// exists and value is at or above it, set to max; else add step. Minus: if min
// exists and value is at or below it, set to min; else if value above 0,
// subtract step. Invalid or empty counts as 0; missing min is 0; missing or
// invalid step is 1; result formatted to the step's decimals."

const socks: QuantityAttrs = { min: '2', max: '10', step: '2' };
const plain: QuantityAttrs = { min: '1', max: '', step: '1' };
const none: QuantityAttrs = {};
const half: QuantityAttrs = { min: '0.5', max: '3', step: '0.5' };

describe('parsing the attributes', () => {
  it.each([
    ['3', 3],
    ['2.5', 2.5],
    [' 4 ', 4],
    ['', 0],
    ['abc', 0],
    [null, 0],
    [undefined, 0],
    ['NaN', 0],
    [7, 7],
  ] as const)('value %j -> %d (invalid or empty counts as 0)', (v, want) => {
    expect(parseValue(v)).toBe(want);
  });

  it.each([
    ['2', 2],
    ['', 0],
    [null, 0],
    [undefined, 0],
    ['x', 0],
  ] as const)('min %j -> %d (missing min is 0)', (v, want) => {
    expect(parseMin(v)).toBe(want);
  });

  it.each([
    ['10', 10],
    ['', undefined],
    [null, undefined],
    [undefined, undefined],
    ['x', undefined],
  ] as const)('max %j -> %s (missing max: no bound)', (v, want) => {
    expect(parseMax(v)).toBe(want);
  });

  it.each([
    ['2', 2],
    ['0.5', 0.5],
    ['', 1],
    [null, 1],
    [undefined, 1],
    ['any', 1],
    ['0', 1],
    ['-1', 1],
    ['x', 1],
  ] as const)('step %j -> %d (missing or invalid step is 1)', (v, want) => {
    expect(parseStep(v)).toBe(want);
  });

  it.each([
    ['1', 0],
    ['2', 0],
    ['0.5', 1],
    ['0.25', 2],
    ['0.010', 3],
    ['1e-2', 2],
    ['any', 0],
    ['', 0],
    [undefined, 0],
    [0.5, 1],
  ] as const)('step %j has %d decimals', (step, want) => {
    expect(stepDecimals(step)).toBe(want);
  });

  it.each([
    [1.5, '0.5', '1.5'],
    [2, '0.5', '2.0'],
    [0.30000000000000004, '0.1', '0.3'],
    [4, '2', '4'],
    [3, undefined, '3'],
  ] as const)('formats %d with step %j as %s', (n, step, want) => {
    expect(formatQuantity(n, step)).toBe(want);
  });
});

describe('below min is raised to min', () => {
  it.each([
    ['1', socks, '2'],
    ['0', socks, '2'],
    ['', socks, '2'],
    ['abc', socks, '2'],
    ['-3', plain, '1'],
    ['2', socks, '2'],
    ['3', socks, '3'],
    ['12', socks, '12'], // only min is enforced here; max is the browser's validation
    ['-1', none, '0'], // missing min is 0
    ['0.2', half, '0.5'],
  ] as const)('%j with %j -> %s', (value, attrs, want) => {
    expect(raiseToMin(value, attrs)).toBe(want);
  });
});

describe('plus', () => {
  it.each([
    // value, attrs, result, rule
    ['2', socks, '4', 'below max: add step'],
    ['8', socks, '10', 'reaches max'],
    ['10', socks, '10', 'at max: stays max'],
    ['12', socks, '10', 'above max: set to max'],
    ['3', socks, '5', 'off-step value: add step'],
    ['9', socks, '11', 'just below max: add step (the spec does not clamp)'],
    ['1', plain, '2', 'no max: add step'],
    ['9999', plain, '10000', 'empty max attribute means no max'],
    ['', plain, '1', 'empty counts as 0'],
    ['abc', socks, '2', 'invalid counts as 0'],
    ['1', { min: '1', step: '' }, '2', 'empty step is 1'],
    ['1', { min: '1', step: 'any' }, '2', 'invalid step is 1'],
    ['1', none, '2', 'no attributes: step 1'],
    ['1', half, '1.5', 'decimal step: formatted to its decimals'],
    ['2.5', half, '3.0', 'decimal step reaching max'],
    ['3', half, '3', 'at max: set to max as it is'],
    ['0.1', { step: '0.1' }, '0.2', 'no float noise'],
  ] as const)('%j with %j -> %s (%s)', (value, attrs, want, _rule) => {
    expect(increase(value, attrs)).toBe(want);
  });
});

describe('minus', () => {
  it.each([
    ['4', socks, '2', 'above min: subtract step'],
    ['2', socks, '2', 'at min: stays min'],
    ['1', socks, '2', 'below min: set to min'],
    ['', socks, '2', 'empty counts as 0: below min'],
    ['10', socks, '8', 'from max'],
    ['3', socks, '1', 'off-step value: subtract step (then the field raises it)'],
    ['5', plain, '4', 'subtract step'],
    ['1', plain, '1', 'at min 1'],
    ['0', none, '0', 'missing min is 0: at min'],
    ['3', none, '2', 'missing min: subtract step while above 0'],
    ['-2', none, '0', 'missing min is 0: below it is set to 0'],
    ['2', { min: '1', step: 'x' }, '1', 'invalid step is 1'],
    ['2', half, '1.5', 'decimal step'],
    ['0.5', half, '0.5', 'decimal min'],
  ] as const)('%j with %j -> %s (%s)', (value, attrs, want, _rule) => {
    expect(decrease(value, attrs)).toBe(want);
  });
});

describe('a button press (the rule, then below-min is raised)', () => {
  it.each([
    ['plus', '2', socks, '4'],
    ['plus', '10', socks, '10'],
    ['plus', '', socks, '2'],
    ['minus', '3', socks, '2'],
    ['minus', '2', socks, '2'],
    ['minus', '4', socks, '2'],
    ['plus', '1', half, '1.5'],
    ['minus', '1', half, '0.5'],
  ] as const)('%s on %j with %j -> %s', (dir, value, attrs, want) => {
    expect(stepQuantity(dir, value, attrs)).toBe(want);
  });

  it('walks the sold-in-pairs socks from 2 to the max of 10 and stays there', () => {
    const seen: string[] = [];
    let v = '2';
    for (let i = 0; i < 6; i++) {
      v = stepQuantity('plus', v, socks);
      seen.push(v);
    }
    expect(seen).toEqual(['4', '6', '8', '10', '10', '10']);
  });
});
