import { act, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cartLine, notFoundPage, product, usd } from '../test/fixtures';
import type { CartPage as CartPageData, StoreCart } from '../types';
import { CartPage } from './CartPage';

const line = (key: string, name: string, quantity: number) =>
  cartLine(key, name, quantity, 2200, { quantity_limits: { minimum: 1, maximum: 9999, multiple_of: 1, editable: true } });

const cart = (items: ReturnType<typeof line>[]): StoreCart => ({
  items,
  items_count: items.reduce((n, it) => n + it.quantity, 0),
  totals: { ...usd, total_items: '4400', total_price: '4400' },
});

function data(over: Partial<CartPageData> = {}): CartPageData {
  const base = notFoundPage();
  return { ...base, page: 'cart', cart: cart([line('k1', 'Cotton Tank Top', 2)]), nonce: 'n0nce', ...over };
}

afterEach(() => vi.restoreAllMocks());

describe('CartPage', () => {
  it('works without scripts: a POST form to /cart/ with cart[key][qty] and update_cart, labelled cells for stacked rows', () => {
    const html = renderToString(<CartPage data={data({ remove_nonce: 'abc123' })} />);
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const form = doc.querySelector('form.woocommerce-cart-form')!;
    expect(form.getAttribute('action')).toBe('/cart/');
    expect(form.getAttribute('method')).toBe('post');
    expect(doc.querySelector('input[name="cart[k1][qty]"]')?.getAttribute('value')).toBe('2');
    const submit = form.querySelector('button[type="submit"]')!;
    expect(submit.getAttribute('name')).toBe('update_cart');
    expect(Array.from(doc.querySelectorAll('tr.cart_item td[data-title]')).map((td) => td.getAttribute('data-title'))).toEqual([
      'Product',
      'Price',
      'Quantity',
      'Subtotal',
    ]);
    expect(doc.querySelector('a.remove')?.getAttribute('href')).toBe('/cart/?remove_item=k1&_wpnonce=abc123');
  });

  it('the totals show the lines that make the total: subtotal, the chosen shipping rate, each tax line, total', () => {
    const items = [line('k1', 'Cotton Tank Top', 2)];
    const taxed: StoreCart = {
      ...cart(items),
      totals: {
        ...usd,
        total_items: '4400',
        total_shipping: '500',
        total_tax: '355',
        tax_lines: [{ name: 'CA Tax', price: '355', rate: '7.25%' }],
        total_price: '5255',
      },
      needs_shipping: true,
      shipping_rates: [
        {
          package_id: 0,
          name: 'Shipment 1',
          items: [{ key: 'k1', name: 'Cotton Tank Top', quantity: 2 }],
          shipping_rates: [
            { ...usd, rate_id: 'flat_rate:1', name: 'Flat rate', description: '', delivery_time: '', price: '500', taxes: '36', instance_id: 1, method_id: 'flat_rate', selected: true },
            { ...usd, rate_id: 'local_pickup:3', name: 'Local pickup', description: '', delivery_time: '', price: '0', taxes: '0', instance_id: 3, method_id: 'local_pickup', selected: false },
          ],
        },
      ],
    };
    const html = renderToString(<CartPage data={data({ cart: taxed })} />);
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const rows = Array.from(doc.querySelectorAll('.cart_totals tr')).map((tr) => tr.textContent);
    expect(rows).toEqual(['Subtotal$44.00', 'ShippingFlat rate: $5.00', 'CA Tax$3.55', 'Total$52.55']);
    // Without shipping or tax, subtotal and total only.
    const plain = new DOMParser().parseFromString(renderToString(<CartPage data={data()} />), 'text/html');
    expect(Array.from(plain.querySelectorAll('.cart_totals tr')).map((tr) => tr.textContent)).toEqual(['Subtotal$44.00', 'Total$44.00']);
  });

  it('"You may also like": the server\'s cross-sells as listing cards with add buttons, without what the cart holds', () => {
    const items = [line('k1', 'Cotton Tank Top', 2), { ...line('k2', 'Cap', 1), id: 18 }];
    const html = renderToString(<CartPage data={data({ cart: cart(items), cross_sells: [product(33), product(18), product(16)] })} />);
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const section = doc.querySelector('section.cross-sells')!;
    expect(section.getAttribute('aria-labelledby')).toBe('cross-sells-title');
    expect(doc.getElementById('cross-sells-title')?.textContent).toBe('You may also like…');
    const cards = Array.from(section.querySelectorAll('ul.products > li.product'));
    expect(cards.map((li) => li.querySelector('h3')?.textContent)).toEqual(['Beanie with Logo', 'Beanie']);
    expect(Array.from(section.querySelectorAll('a.ajax_add_to_cart')).map((a) => a.getAttribute('data-product_id'))).toEqual(['33', '16']);
    // No cross-sells: no section.
    const none = new DOMParser().parseFromString(renderToString(<CartPage data={data()} />), 'text/html');
    expect(none.querySelector('section.cross-sells')).toBeNull();
  });

  it("the totals open with the server's free-shipping line", () => {
    const c: StoreCart = {
      ...cart([line('k1', 'Cotton Tank Top', 2)]),
      extensions: { 'vitrine/free-shipping': { ...usd, min_amount: '10000', amount: '4400', remaining: '5600', reached: false } },
    };
    render(<CartPage data={data({ cart: c })} />);
    const totals = document.querySelector('.cart_totals')!;
    expect(totals.querySelector('h2 + .free-shipping-progress')).not.toBeNull();
    expect(screen.getByRole('progressbar', { name: 'Add $56.00 more for free shipping' })).toHaveAttribute('value', '4400');
  });

  it("a cross-sell card's add reads the cart again: the card leaves, the progress line follows, the focus goes to the list's heading", async () => {
    const before: StoreCart = {
      ...cart([line('k1', 'Cotton Tank Top', 4)]),
      extensions: { 'vitrine/free-shipping': { ...usd, min_amount: '10000', amount: '8800', remaining: '1200', reached: false } },
    };
    const after: StoreCart = {
      ...cart([line('k1', 'Cotton Tank Top', 4), { ...line('k2', 'Beanie with Logo', 1), id: 33 }]),
      extensions: { 'vitrine/free-shipping': { ...usd, min_amount: '10000', amount: '10600', remaining: '0', reached: true } },
    };
    const fetcher = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(after)));
    render(<CartPage data={data({ cart: before, cross_sells: [product(33), product(16)] })} />);
    screen.getByRole('progressbar', { name: 'Add $12.00 more for free shipping' });
    const button = document.querySelector<HTMLAnchorElement>('section.cross-sells a[data-product_id="33"]')!;
    button.focus();
    act(() => {
      // The add-to-cart queue's event: the button's card was added.
      document.dispatchEvent(new CustomEvent('vitrine:added-to-cart', { detail: { answer: {}, button } }));
    });
    await waitFor(() => expect(document.querySelectorAll('tr.cart_item')).toHaveLength(2));
    expect(fetcher).toHaveBeenCalledWith('/wp-json/wc/store/v1/cart', expect.objectContaining({ credentials: 'same-origin' }));
    expect(screen.getByRole('progressbar', { name: 'You get free shipping' })).toBeInTheDocument();
    expect(document.querySelector('section.cross-sells a[data-product_id="33"]')).toBeNull();
    expect(document.querySelector('section.cross-sells a[data-product_id="16"]')).not.toBeNull();
    // The focus moves in the effect that follows the new cart's render.
    await waitFor(() => expect(document.activeElement).toBe(document.getElementById('cross-sells-title')));
  });

  it("shows the server's notices with WooCommerce's entities decoded, errors as alerts", () => {
    render(
      <CartPage
        data={data({
          notices: [
            { kind: 'error', text: 'The maximum quantity of &quot;Limited Print&quot; is 1.' },
            { kind: 'message', text: 'Cart updated.' },
          ],
        })}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The maximum quantity of "Limited Print" is 1.');
    expect(screen.getByText('Cart updated.')).toHaveClass('woocommerce-message');
  });

  it("follows another tab's change (vitrine:cart-synced) with the Store API cart", async () => {
    const next = cart([line('k1', 'Cotton Tank Top', 5), line('k2', 'Market Tote', 1)]);
    const fetcher = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(next)));
    render(<CartPage data={data({ notices: [{ kind: 'message', text: 'Cart updated.' }] })} />);
    expect(document.querySelectorAll('tr.cart_item')).toHaveLength(1);
    act(() => {
      document.dispatchEvent(new CustomEvent('vitrine:cart-synced', { detail: {} }));
    });
    await waitFor(() => expect(document.querySelectorAll('tr.cart_item')).toHaveLength(2));
    expect(fetcher).toHaveBeenCalledWith('/wp-json/wc/store/v1/cart', expect.objectContaining({ credentials: 'same-origin' }));
    expect(document.querySelector<HTMLInputElement>('input[name="cart[k1][qty]"]')?.value).toBe('5');
    expect(screen.queryByText('Cart updated.')).toBeNull();
  });
});
