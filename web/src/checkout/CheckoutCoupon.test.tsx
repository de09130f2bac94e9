import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { App } from '../App';
import { cart, checkoutPage } from './test-data';
import type { StoreCart } from '../types';

// The checkout's coupon form and the review's coupon rows.

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', Nonce: 'fresh1' } });
}

function withCoupon(c: StoreCart): StoreCart {
  return {
    ...c,
    coupons: [{ code: 'save10', discount_type: 'percent', totals: { ...c.totals, total_discount: '200', total_discount_tax: '0' } }],
    totals: { ...c.totals, total_discount: '200', total_price: '2300' },
  };
}

beforeEach(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('coupons at checkout', () => {
  it('applies a code above the form: a refusal at the field, then the review shows the discount; the row removes it', async () => {
    const plain = cart();
    const discounted = withCoupon(plain);
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = String(input);
        const body = typeof init.body === 'string' ? JSON.parse(init.body) : null;
        calls.push({ url, body });
        if (url.endsWith('/cart/apply-coupon') && body.code === 'nope')
          return json({ code: 'woocommerce_rest_cart_coupon_error', message: 'Coupon &quot;nope&quot; cannot be applied because it does not exist.', data: { status: 400 } }, 400);
        if (url.endsWith('/cart/apply-coupon')) return json(discounted);
        if (url.endsWith('/cart/remove-coupon')) return json(plain);
        return json(plain);
      }),
    );
    const { container } = render(<App data={checkoutPage({ cart: plain })} />);
    const field = screen.getByLabelText('Coupon code');
    // A form of its own, outside the checkout form.
    expect(field.closest('form')?.getAttribute('name')).not.toBe('checkout');

    await userEvent.type(field, 'nope{Enter}');
    await waitFor(() => expect(field).toHaveAccessibleDescription('Coupon "nope" cannot be applied because it does not exist.'));
    expect(field).toHaveFocus();
    expect(screen.queryByRole('row', { name: /Coupon: / })).toBeNull();

    await userEvent.clear(field);
    await userEvent.type(field, 'save10{Enter}');
    const row = await screen.findByRole('row', { name: /Coupon: save10/ });
    expect(row).toHaveTextContent('-$2.00');
    expect(screen.getByRole('row', { name: /Total/ })).toHaveTextContent('$23.00');
    expect(calls.filter((c) => c.url.endsWith('/cart/apply-coupon')).map((c) => c.body)).toEqual([{ code: 'nope' }, { code: 'save10' }]);
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => v.id)).toEqual([]);

    await userEvent.click(screen.getByRole('link', { name: 'Remove coupon save10' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /Coupon: save10/ })).toBeNull());
    expect(calls.some((c) => c.url.endsWith('/cart/remove-coupon') && (c.body as { code: string }).code === 'save10')).toBe(true);
    await waitFor(() => expect(field).toHaveFocus());
  });
});
