import { addressFields, isEmail, isPhone, TERMS_MESSAGE, validateCheckout, validateField } from './fields';
import { countries, emptyAddress, filledBilling } from './test-data';
import { classicName, mapStoreErrors } from './errors';
import { Attempt, isDefinitive, newIdempotencyKey } from './attempt';

const us = countries[0];
const de = countries[2];

describe('checkout fields', () => {
  it('follow the country: labels, required marks, the state as a select, text or nothing', () => {
    const byKey = (c = us) => Object.fromEntries(addressFields('billing', c).map((d) => [d.key, d]));
    expect(byKey().state).toMatchObject({ label: 'State', required: true, input: 'state', hidden: false });
    expect(byKey().postcode.label).toBe('ZIP Code');
    const gb = byKey(countries[1]);
    expect(gb.state).toMatchObject({ label: 'County', required: false, input: 'text' });
    expect(byKey(de).state).toMatchObject({ hidden: true, required: false });
    expect(addressFields('shipping', us).map((d) => d.name)).not.toContain('shipping_email');
    expect(addressFields('billing', us).map((d) => d.name)).toEqual([
      'billing_first_name',
      'billing_last_name',
      'billing_company',
      'billing_country',
      'billing_address_1',
      'billing_address_2',
      'billing_city',
      'billing_state',
      'billing_postcode',
      'billing_phone',
      'billing_email',
    ]);
  });

  it('say "%s is a required field." with the block and the label', () => {
    const [first] = addressFields('billing', us);
    expect(validateField('billing', first, '  ')).toBe('Billing First name is a required field.');
    const zip = addressFields('shipping', us).find((d) => d.key === 'postcode')!;
    expect(validateField('shipping', zip, '')).toBe('Shipping ZIP Code is a required field.');
    const company = addressFields('billing', us).find((d) => d.key === 'company')!;
    expect(validateField('billing', company, '')).toBe('');
  });

  it('check email (at least 6 characters, one @, a dotted domain) and phone (6 to 15 digits)', () => {
    expect(isEmail('a@b.co')).toBe(true);
    expect(isEmail('a@b.c')).toBe(false); // 5 characters
    expect(isEmail('ada@example')).toBe(false);
    expect(isEmail('ada@@example.com')).toBe(false);
    expect(isEmail('ad a@example.com')).toBe(false);
    expect(isEmail('ada@-example.com')).toBe(false);
    expect(isPhone('+1 (518) 555-0100')).toBe(true);
    expect(isPhone('12345')).toBe(false);
    expect(isPhone('123456')).toBe(true);
    expect(isPhone('1234567890123456')).toBe(false);
    expect(isPhone('555-CALL-NOW')).toBe(false);
    const defs = addressFields('billing', us);
    const email = defs.find((d) => d.key === 'email')!;
    const phone = defs.find((d) => d.key === 'phone')!;
    expect(validateField('billing', email, 'nope')).toBe('Billing Email address is not a valid email address.');
    expect(validateField('billing', phone, '12')).toBe('Billing Phone is not a valid phone number.');
    expect(validateField('billing', phone, '')).toBe('Billing Phone is a required field.');
    // The shop may make the phone optional; a given phone is still checked.
    const optional = addressFields('billing', us, { phoneRequired: false }).find((d) => d.key === 'phone')!;
    expect(validateField('billing', optional, '')).toBe('');
    expect(validateField('billing', optional, '12')).toBe('Billing Phone is not a valid phone number.');
  });

  it('validate the whole form: shipping only when used, terms when the shop has terms', () => {
    const base = {
      billing: filledBilling,
      shipping: { ...emptyAddress },
      shipToDifferent: false,
      needsShipping: true,
      paymentMethod: 'bacs',
      termsRequired: true,
      termsAccepted: false,
    };
    expect(validateCheckout(base, countries)).toEqual({ terms: TERMS_MESSAGE });
    expect(validateCheckout({ ...base, termsAccepted: true }, countries)).toEqual({});
    const ship = validateCheckout({ ...base, termsAccepted: true, shipToDifferent: true }, countries);
    expect(Object.keys(ship)).toEqual(['shipping_first_name', 'shipping_last_name', 'shipping_address_1', 'shipping_city', 'shipping_state', 'shipping_postcode']);
    // Germany hides the state: nothing is asked for it.
    const de = validateCheckout({ ...base, termsAccepted: true, billing: { ...filledBilling, country: 'DE', state: '' } }, countries);
    expect(de).toEqual({});
  });
});

describe('Store API errors', () => {
  it('name fields in every shape the server may use', () => {
    expect(classicName('billing_first_name')).toBe('billing_first_name');
    expect(classicName('billing_address.first_name')).toBe('billing_first_name');
    expect(classicName('shipping_address[postcode]')).toBe('shipping_postcode');
    expect(classicName('billing_address')).toBeNull();
    expect(classicName('customer_note')).toBe('order_comments');
    expect(classicName('nonsense')).toBeNull();
  });

  it('map data.details to fields and the rest to notices', () => {
    const m = mapStoreErrors(
      {
        code: 'woocommerce_rest_checkout_invalid',
        message: 'Invalid',
        data: {
          status: 400,
          details: {
            billing_email: 'Billing Email address is not a valid email address.',
            'billing_address.postcode': { code: 'invalid', message: 'Please enter a valid postcode / ZIP.' },
            cart: { message: 'Beanie is out of stock.' },
          },
        },
      },
      'fallback',
    );
    expect(m.fields).toEqual({
      billing_email: 'Billing Email address is not a valid email address.',
      billing_postcode: 'Please enter a valid postcode / ZIP.',
    });
    expect(m.notices).toEqual(['Beanie is out of stock.']);
    expect(mapStoreErrors({ message: 'Sorry &amp; no' }, 'fallback').notices).toEqual(['Sorry & no']);
    expect(mapStoreErrors(null, 'fallback').notices).toEqual(['fallback']);
    const nested = mapStoreErrors(
      { data: { params: {}, details: { billing_address: { message: 'x', data: { details: { first_name: 'First name is required' } } } } } },
      'f',
    );
    expect(nested.fields).toEqual({ billing_first_name: 'First name is required' });
    // A list of entries that name their field.
    const list = mapStoreErrors(
      { data: { details: [{ field: 'billing_city', group: 'billing_address', key: 'city', message: 'Billing Town / City is a required field.' }] as unknown as Record<string, unknown> } },
      'f',
    );
    expect(list.fields).toEqual({ billing_city: 'Billing Town / City is a required field.' });
  });
});

describe('idempotency attempt', () => {
  it('keeps one key until a definitive answer', () => {
    let n = 0;
    const a = new Attempt(() => `key-${++n}`);
    expect(a.current()).toBe('key-1');
    expect(a.current()).toBe('key-1');
    a.settle();
    expect(a.current()).toBe('key-2');
    expect(isDefinitive(400)).toBe(true);
    expect(isDefinitive(200)).toBe(true);
    expect(isDefinitive(409)).toBe(false);
    expect(isDefinitive(503)).toBe(false);
  });

  it('makes random v4 UUIDs', () => {
    const k = newIdempotencyKey();
    expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(k);
  });
});
