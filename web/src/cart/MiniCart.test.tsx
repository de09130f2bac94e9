import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MiniCart } from './MiniCart';
import { CartCount } from './CartCount';
import { Fragment } from './Fragments';
import { cartLine, usd } from '../test/fixtures';
import type { StoreCart } from '../types';

const cart: StoreCart = {
  items_count: 3,
  totals: { ...usd, total_items: '7200', total_price: '7200' },
  items: [
    cartLine('a'.repeat(32), 'Classic &amp; Tee', 2, 2200, {
      permalink: '/product/classic-tee/',
      variation: [{ attribute: 'Color', value: 'Rust' }],
    }),
  ],
};

describe('MiniCart', () => {
  it('lists lines with a remove link, quantity × price, subtotal and buttons', () => {
    const { container } = render(<MiniCart cart={cart} removeNonce="abc123" />);
    const root = container.firstElementChild!;
    expect(root.className).toBe('widget_shopping_cart_content');
    const remove = screen.getByRole('link', { name: 'Remove Classic & Tee from cart' });
    expect(remove.getAttribute('href')).toBe(`/cart/?remove_item=${'a'.repeat(32)}&_wpnonce=abc123`);
    expect(remove.className).toBe('remove remove_from_cart_button');
    expect(remove.getAttribute('data-cart_item_key')).toBe('a'.repeat(32));
    expect(remove.textContent).toBe('×');
    expect(container.querySelector('.quantity')!.textContent).toBe('2 × $22.00');
    expect(container.querySelector('.variation')!.textContent).toContain('Rust');
    expect(container.querySelector('.total')!.textContent).toContain('$72.00');
    expect(screen.getByRole('link', { name: 'View cart' }).getAttribute('href')).toBe('/cart/');
    expect(screen.getByRole('link', { name: 'Checkout' }).getAttribute('href')).toBe('/checkout/');
  });

  it('shows the empty state', () => {
    const { container } = render(<MiniCart cart={{ ...cart, items: [], items_count: 0 }} />);
    expect(container.textContent).toBe('No products in the cart.');
    expect(container.querySelector('a')).toBeNull();
  });

  it('counts items in the header badge', () => {
    const { container } = render(<CartCount count={1} />);
    expect(container.querySelector('.cart-count')!.textContent).toBe('1');
    expect(container.querySelector('.header-cart-total')!.textContent).toBe('');
    expect(container.textContent).toContain('(1 item)');
  });

  it("the header fragment carries the cart's subtotal once the cart is known", () => {
    const { container } = render(<Fragment data={{ page: 'fragments', fragment: 'cart_count', cart }} />);
    expect(container.firstElementChild!.className).toBe('header-cart-count');
    expect(container.querySelector('.cart-count')!.textContent).toBe('3');
    expect(container.querySelector('.header-cart-total')!.textContent).toBe('$72.00');
    expect(container.querySelector('.screen-reader-text')!.textContent).toBe('(3 items, $72.00)');
    const empty = render(<Fragment data={{ page: 'fragments', fragment: 'cart_count', cart: { ...cart, items: [], items_count: 0 } }} />);
    expect(empty.container.querySelector('.header-cart-total')!.textContent).toBe('');
  });

  it("the mini cart fragment's remove links carry the session's _wpnonce", () => {
    const { container } = render(<Fragment data={{ page: 'fragments', fragment: 'mini_cart', cart, remove_nonce: 'n0nce' }} />);
    expect(container.querySelector('a.remove')!.getAttribute('href')).toBe(`/cart/?remove_item=${'a'.repeat(32)}&_wpnonce=n0nce`);
  });
});
