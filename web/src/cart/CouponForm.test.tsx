import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cartLine, notFoundPage, usd } from '../test/fixtures';
import type { CartPage as CartPageData, StoreCart } from '../types';
import { CartPage } from './CartPage';

// The cart page's coupon form and coupon rows (CouponForm.tsx).

const line = cartLine('k1', 'Cotton Tank Top', 2, 2200, { quantity_limits: { minimum: 1, maximum: 9999, multiple_of: 1, editable: true } });
const plain: StoreCart = { items: [line], items_count: 2, coupons: [], totals: { ...usd, total_items: '4400', total_price: '4400', total_discount: '0' } };
const discounted: StoreCart = {
  ...plain,
  coupons: [{ code: 'save10', discount_type: 'percent', totals: { ...usd, total_discount: '440', total_discount_tax: '0' } }],
  totals: { ...plain.totals, total_discount: '440', total_price: '3960' },
};

function data(cart: StoreCart): CartPageData {
  return { ...notFoundPage(), page: 'cart', cart, nonce: 'n0nce', remove_nonce: 'abc123' };
}

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', Nonce: 'next1' } });
}

afterEach(() => vi.restoreAllMocks());

describe('the coupon form', () => {
  it('works without scripts: a POST form to /cart/ with coupon_code and apply_coupon; remove links carry the nonce', () => {
    const doc = new DOMParser().parseFromString(renderToString(<CartPage data={data(discounted)} />), 'text/html');
    const form = doc.querySelector('form.coupon')!;
    expect(form.getAttribute('action')).toBe('/cart/');
    expect(form.getAttribute('method')).toBe('post');
    expect(form.querySelector('label')?.getAttribute('for')).toBe('coupon_code');
    expect(form.querySelector('input#coupon_code')?.getAttribute('name')).toBe('coupon_code');
    expect(form.querySelector('button[type="submit"]')?.getAttribute('name')).toBe('apply_coupon');
    const row = doc.querySelector('tr.cart-discount')!;
    expect(row.querySelector('th')?.textContent).toBe('Coupon: save10');
    expect(row.textContent).toContain('-$4.40');
    expect(row.querySelector('a')?.getAttribute('href')).toBe('/cart/?remove_coupon=save10&_wpnonce=abc123');
  });

  it('applies a code: a refusal is tied to the field and announced, focus stays; success updates the totals', async () => {
    const fetcher = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        answer(400, {
          code: 'woocommerce_rest_cart_coupon_error',
          message: 'Coupon &quot;old&quot; has expired.',
          data: { status: 400 },
        }),
      )
      .mockResolvedValueOnce(answer(200, discounted))
      .mockResolvedValue(answer(200, { fragments: {} }));
    const { container } = render(<CartPage data={data(plain)} />);
    const input = screen.getByLabelText('Coupon code');

    // Empty: said at once, nothing sent.
    await userEvent.click(screen.getByRole('button', { name: 'Apply coupon' }));
    expect(input).toHaveAccessibleDescription('Please enter a coupon code.');
    expect(fetcher).not.toHaveBeenCalled();

    await userEvent.type(input, 'old{Enter}');
    await waitFor(() => expect(input).toHaveAccessibleDescription('Coupon "old" has expired.'));
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveFocus();
    expect(screen.getByText('Coupon "old" has expired.')).toHaveAttribute('aria-live', 'assertive');
    const [url, init] = fetcher.mock.calls[0];
    expect(url).toBe('/wp-json/wc/store/v1/cart/apply-coupon');
    expect(JSON.parse(String(init?.body))).toEqual({ code: 'old' });
    expect(new Headers(init?.headers).get('Nonce')).toBe('n0nce');
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => v.id)).toEqual([]);

    await userEvent.clear(input);
    await userEvent.type(input, 'save10{Enter}');
    expect(await screen.findByText('Coupon code applied successfully.')).toBeInTheDocument();
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).toHaveValue('');
    expect(screen.getByRole('row', { name: /Coupon: save10/ })).toHaveTextContent('-$4.40');
    expect(new Headers(fetcher.mock.calls[1][1]?.headers).get('Nonce')).toBe('next1');
  });

  it('removes a coupon with its link, then focus goes to the coupon field', async () => {
    const fetcher = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(answer(200, plain)).mockResolvedValue(answer(200, { fragments: {} }));
    render(<CartPage data={data(discounted)} />);
    await userEvent.click(screen.getByRole('link', { name: 'Remove coupon save10' }));
    expect(await screen.findByText('Coupon has been removed.')).toBeInTheDocument();
    expect(screen.queryByRole('row', { name: /Coupon: save10/ })).toBeNull();
    await waitFor(() => expect(screen.getByLabelText('Coupon code')).toHaveFocus());
    expect(fetcher.mock.calls[0][0]).toBe('/wp-json/wc/store/v1/cart/remove-coupon');
    expect(JSON.parse(String(fetcher.mock.calls[0][1]?.body))).toEqual({ code: 'save10' });
  });
});
