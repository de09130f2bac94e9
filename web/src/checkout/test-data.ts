// Checkout and order-received page data for the unit tests (the shapes the
// server sends; see types.ts).
import { cartLine, pageFrame, site, usd } from '../test/fixtures';
import { EMPTY_ADDRESS } from './CheckoutPage';
import type { Address, CheckoutCountry, CheckoutPage, OrderReceivedPage, StoreCart } from '../types';

const f = (label: string, required: boolean, hidden = false) => ({ label, required, hidden });

/** The shop in dollars, as the checkout tests price it. */
const usdSite = { ...site, currency: usd };

export const countries: CheckoutCountry[] = [
  {
    code: 'US',
    name: 'United States (US)',
    states: [
      { code: 'CA', name: 'California' },
      { code: 'NY', name: 'New York' },
    ],
    fields: {
      state: f('State', true),
      postcode: f('ZIP Code', true),
      city: f('Town / City', true),
      address_2: f('Apartment, suite, unit, etc.', false),
      company: f('Company name', false),
    },
  },
  {
    code: 'GB',
    name: 'United Kingdom (UK)',
    states: [],
    fields: {
      state: f('County', false),
      postcode: f('Postcode', true),
      city: f('Town / City', true),
      address_2: f('Apartment, suite, unit, etc.', false),
      company: f('Company name', false),
    },
  },
  {
    code: 'DE',
    name: 'Germany',
    states: [],
    fields: {
      state: f('State / County', false, true),
      postcode: f('Postcode', true),
      city: f('Town / City', true),
      address_2: f('Apartment, suite, unit, etc.', false),
      company: f('Company name', false),
    },
  },
];

export const emptyAddress: Address = { ...EMPTY_ADDRESS, country: 'US' };

export const filledBilling: Address = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  company: '',
  address_1: '12 Analytical Row',
  address_2: '',
  city: 'Albany',
  state: 'NY',
  postcode: '12207',
  country: 'US',
  phone: '+1 518 555 0100',
  email: 'ada@example.com',
};

export function cart(total = '2500', shipping = '500', selected = 'flat_rate:1'): StoreCart {
  return {
    items: [
      cartLine('k1', 'Beanie', 2, 1000, { id: 16, permalink: '/product/beanie/', variation: [{ attribute: 'Color', value: 'Red' }] }),
    ],
    items_count: 2,
    totals: {
      ...usd,
      total_items: '2000',
      total_price: total,
      total_shipping: shipping,
      total_tax: '0',
      tax_lines: [],
    },
    needs_shipping: true,
    needs_payment: true,
    shipping_rates: [
      {
        package_id: 0,
        name: 'Shipment 1',
        items: [{ key: 'k1', name: 'Beanie', quantity: 2 }],
        shipping_rates: [
          { ...usd, rate_id: 'flat_rate:1', name: 'Flat rate', description: '', delivery_time: '', price: '500', taxes: '0', instance_id: 1, method_id: 'flat_rate', selected: selected === 'flat_rate:1' },
          { ...usd, rate_id: 'local_pickup:2', name: 'Local pickup', description: '', delivery_time: '', price: '0', taxes: '0', instance_id: 2, method_id: 'local_pickup', selected: selected === 'local_pickup:2' },
        ],
      },
    ],
  };
}

export function checkoutPage(over: Partial<CheckoutPage> = {}): CheckoutPage {
  return {
    ...pageFrame('checkout', '/checkout/', usdSite),
    cart: cart(),
    nonce: 'nonce-1',
    checkout: {
      billing_address: { ...emptyAddress, email: '' },
      shipping_address: { ...emptyAddress },
      customer_note: '',
      payment_method: 'bacs',
      ship_to_different_address: false,
    },
    countries,
    payment_methods: [
      { id: 'bacs', title: 'Direct bank transfer', description: '<p>Make your payment directly into our bank account.</p>', kind: 'offline' },
      { id: 'cod', title: 'Cash on delivery', description: '<p>Pay with cash upon delivery.</p>', kind: 'offline' },
      { id: 'ppcp-gateway', title: 'PayPal', description: '', kind: 'wallet' },
    ],
    terms: { title: 'Terms and conditions', html: '<p>Be excellent to each other.</p>' },
    errors: null,
    process_nonce: 'proc-nonce',
    wallet: { nonces: { 'ppc-validate-checkout': 'vn', 'ppc-create-order': 'cn' } },
    ...over,
  };
}

export function orderReceivedPage(order: OrderReceivedPage['order'] | undefined = undefined): OrderReceivedPage {
  return {
    ...pageFrame('order-received', '/checkout/order-received/42/?key=wc_order_abc', usdSite),
    order:
      order === undefined
        ? {
            id: 42,
            number: '42',
            key: 'wc_order_abc',
            status: 'on-hold',
            date_created: '2026-03-01T09:05:07Z',
            date: 'March 1, 2026',
            currency: usd,
            payment_method: 'bacs',
            payment_method_title: 'Direct bank transfer',
            instructions: 'Make your payment directly into our bank account. Use your order number as the reference.',
            bank_accounts: [
              {
                details: [
                  { label: 'Bank', value: 'Demo Bank' },
                  { label: 'Account name', value: 'Vitrine Ltd' },
                  { label: 'Account number', value: '12345678' },
                  { label: 'IBAN', value: 'DE00 1234 5678 9012 3456 78' },
                ],
              },
            ],
            customer_note: 'Leave at the door',
            lines: [{ name: 'Beanie', quantity: 2, variation: [{ attribute: 'Color', value: 'Red' }], total: '2000' }],
            totals: [
              { label: 'Subtotal:', value: '2000' },
              { label: 'Shipping:', value: '500' },
              { label: 'Total:', value: '2500' },
            ],
            billing_address: filledBilling,
            shipping_address: { ...filledBilling, email: undefined },
            billing_address_lines: ['Ada Lovelace', '12 Analytical Row', 'Albany, NY 12207'],
            shipping_address_lines: ['Ada Lovelace', '12 Analytical Row', 'Albany, NY 12207'],
          }
        : order,
  };
}
