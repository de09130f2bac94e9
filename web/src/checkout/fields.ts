// Checkout address fields and their validation (spec section 5; WooCommerce's
// classic checkout field names and messages). Pure functions: the page, its
// tests and the server-rendered HTML all read the same definitions.
import type { Address, CheckoutCountry, CountryFieldKey } from '../types';

export type AddressKind = 'billing' | 'shipping';
export type AddressKey = keyof Address;

export interface FieldDef {
  /** The Store API address key. */
  key: AddressKey;
  /** The classic form name and element id, e.g. billing_first_name. */
  name: string;
  label: string;
  required: boolean;
  hidden: boolean;
  input: 'text' | 'email' | 'tel' | 'country' | 'state';
  autocomplete: string;
  placeholder?: string;
  /** A full-width row (the others pair up on wide screens). */
  wide: boolean;
}

export const TERMS_MESSAGE = 'Please read and accept the terms and conditions to proceed with your order.';
export const PAYMENT_METHOD_MESSAGE = 'Please select a payment method.';

const DEFAULTS: Record<CountryFieldKey, { label: string; required: boolean }> = {
  company: { label: 'Company name', required: false },
  address_2: { label: 'Apartment, suite, unit, etc.', required: false },
  city: { label: 'Town / City', required: true },
  state: { label: 'State / County', required: true },
  postcode: { label: 'Postcode / ZIP', required: true },
};

function perCountry(country: CheckoutCountry | undefined, key: CountryFieldKey) {
  const f = country?.fields?.[key];
  return {
    label: f?.label || DEFAULTS[key].label,
    required: f ? !!f.required : DEFAULTS[key].required,
    hidden: f ? !!f.hidden : false,
  };
}

export interface FieldOptions {
  /** The billing phone is required (the shop's setting; default true). */
  phoneRequired?: boolean;
}

/** The fields of one address block for a country, in WooCommerce's order. */
export function addressFields(kind: AddressKind, country: CheckoutCountry | undefined, opts: FieldOptions = {}): FieldDef[] {
  const ac = kind === 'billing' ? 'billing' : 'shipping';
  const f = (key: AddressKey, label: string, required: boolean, rest: Partial<FieldDef> = {}): FieldDef => ({
    key,
    name: `${kind}_${key}`,
    label,
    required,
    hidden: false,
    input: 'text',
    autocomplete: `${ac} ${key}`,
    wide: true,
    ...rest,
  });
  const company = perCountry(country, 'company');
  const a2 = perCountry(country, 'address_2');
  const city = perCountry(country, 'city');
  const state = perCountry(country, 'state');
  const postcode = perCountry(country, 'postcode');
  const hasStates = !!country && country.states.length > 0;
  const list: FieldDef[] = [
    f('first_name', 'First name', true, { autocomplete: `${ac} given-name`, wide: false }),
    f('last_name', 'Last name', true, { autocomplete: `${ac} family-name`, wide: false }),
    f('company', company.label, company.required, { hidden: company.hidden, autocomplete: `${ac} organization` }),
    f('country', 'Country / Region', true, { input: 'country', autocomplete: `${ac} country` }),
    f('address_1', 'Street address', true, { autocomplete: `${ac} address-line1`, placeholder: 'House number and street name' }),
    f('address_2', a2.label, a2.required, {
      hidden: a2.hidden,
      autocomplete: `${ac} address-line2`,
      placeholder: 'Apartment, suite, unit, etc. (optional)',
    }),
    f('city', city.label, city.required, { hidden: city.hidden, autocomplete: `${ac} address-level2` }),
    f('state', state.label, state.required && !state.hidden, {
      hidden: state.hidden,
      input: hasStates ? 'state' : 'text',
      autocomplete: `${ac} address-level1`,
    }),
    f('postcode', postcode.label, postcode.required, { hidden: postcode.hidden, autocomplete: `${ac} postal-code` }),
  ];
  if (kind === 'billing') {
    list.push(f('phone', 'Phone', opts.phoneRequired !== false, { input: 'tel', autocomplete: `${ac} tel` }));
    list.push(f('email', 'Email address', true, { input: 'email', autocomplete: `${ac} email` }));
  }
  return list;
}

/** "Billing First name" (the label in messages). */
export function fieldTitle(kind: AddressKind, def: FieldDef): string {
  return `${kind === 'billing' ? 'Billing' : 'Shipping'} ${def.label}`;
}

export function requiredMessage(title: string): string {
  return `${title} is a required field.`;
}

/** Spec section 5: at least 6 characters, one @, allowed local-part characters, a domain with a dot and valid labels. */
export function isEmail(s: string): boolean {
  const v = s.trim();
  if (v.length < 6) return false;
  const at = v.indexOf('@');
  if (at < 1 || at !== v.lastIndexOf('@')) return false;
  const local = v.slice(0, at);
  const domain = v.slice(at + 1);
  if (!/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    return false;
  }
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((l) => /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l));
}

/** Spec section 5: 6 to 15 digits once spaces, dashes, dots, parentheses and a leading + are removed. */
export function isPhone(s: string): boolean {
  const v = s.trim();
  if (!/^\+?[\d\s().-]+$/.test(v)) return false;
  const digits = v.replace(/\D/g, '');
  return digits.length >= 6 && digits.length <= 15;
}

/** The message for one field's value, or '' when it is fine. */
export function validateField(kind: AddressKind, def: FieldDef, value: string): string {
  if (def.hidden) return '';
  const v = (value ?? '').trim();
  const title = fieldTitle(kind, def);
  if (v === '') return def.required ? requiredMessage(title) : '';
  if (def.input === 'email' && !isEmail(v)) return `${title} is not a valid email address.`;
  if (def.input === 'tel' && !isPhone(v)) return `${title} is not a valid phone number.`;
  return '';
}

export function findCountry(countries: CheckoutCountry[], code: string): CheckoutCountry | undefined {
  return countries.find((c) => c.code === code);
}

export interface CheckoutValues {
  billing: Address;
  shipping: Address;
  shipToDifferent: boolean;
  needsShipping: boolean;
  paymentMethod: string;
  termsRequired: boolean;
  termsAccepted: boolean;
  phoneRequired?: boolean;
}

/** Every message of the form, keyed by classic field name, in page order. */
export function validateCheckout(v: CheckoutValues, countries: CheckoutCountry[]): Record<string, string> {
  const out: Record<string, string> = {};
  const block = (kind: AddressKind, a: Address) => {
    for (const def of addressFields(kind, findCountry(countries, a.country), { phoneRequired: v.phoneRequired })) {
      const m = validateField(kind, def, String(a[def.key] ?? ''));
      if (m) out[def.name] = m;
    }
  };
  block('billing', v.billing);
  if (v.needsShipping && v.shipToDifferent) block('shipping', v.shipping);
  if (!v.paymentMethod) out.payment_method = PAYMENT_METHOD_MESSAGE;
  if (v.termsRequired && !v.termsAccepted) out.terms = TERMS_MESSAGE;
  return out;
}
