import { decodeEntities, formatDate, formatPrice, formatRating } from './format';
import { eurDE as EUR_DE, usd as USD } from '../test/fixtures';
import type { CurrencyBlock } from '../types';

const JPY: CurrencyBlock = {
  currency_code: 'JPY',
  currency_symbol: '¥',
  currency_minor_unit: 0,
  currency_decimal_separator: '.',
  currency_thousand_separator: ',',
  currency_prefix: '¥',
  currency_suffix: '',
};
const BHD: CurrencyBlock = { ...USD, currency_code: 'BHD', currency_minor_unit: 3, currency_prefix: 'BD ' };

describe('formatPrice', () => {
  it.each([
    ['1800', USD, '$18.00'],
    ['5', USD, '$0.05'],
    ['0', USD, '$0.00'],
    ['123456789', USD, '$1,234,567.89'],
    ['100000', USD, '$1,000.00'],
    ['99999', USD, '$999.99'],
    ['-1250', USD, '-$12.50'],
    ['1800', EUR_DE, '18,00\u00a0€'],
    ['123456789', EUR_DE, '1.234.567,89\u00a0€'],
    ['1500', JPY, '¥1,500'],
    ['999', JPY, '¥999'],
    ['1234567', JPY, '¥1,234,567'],
    ['1234567', BHD, 'BD 1,234.567'],
    ['007', USD, '$0.07'],
    ['', USD, ''],
    ['abc', USD, ''],
  ])('%s -> %s', (minor, c, want) => {
    expect(formatPrice(minor, c as CurrencyBlock)).toBe(want);
  });

  it('accepts numbers and an empty thousand separator', () => {
    expect(formatPrice(123456, { ...USD, currency_thousand_separator: '' })).toBe('$1234.56');
  });
});

describe('text helpers', () => {
  it('decodes entities used by WordPress', () => {
    expect(decodeEntities('Add to cart: &ldquo;Beanie&rdquo;')).toBe('Add to cart: \u201cBeanie\u201d');
    expect(decodeEntities('A &amp; B &#8211; &#x2014; &unknown;')).toBe('A & B \u2013 \u2014 &unknown;');
  });
  it('formats ISO dates without Intl', () => {
    expect(formatDate('2026-11-02T09:30:00+00:00')).toBe('November 2, 2026');
    expect(formatDate('garbage')).toBe('');
  });
  it('formats ratings with two decimals', () => {
    expect(formatRating('4.5')).toBe('4.50');
    expect(formatRating('0')).toBe('0.00');
    expect(formatRating(7)).toBe('5.00');
  });
});
