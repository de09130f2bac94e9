import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { WishlistHeart } from './Heart';
import { WishlistLink } from './WishlistLink';
import { WishlistPage } from './WishlistPage';
import { ensureState, resetWishlistState, SYNC_KEY } from './store';
import { pageFrame, product } from '../test/fixtures';
import type { WishlistPage as WishlistPageData } from '../types';

const rules = { rules: { 'color-contrast': { enabled: false } } };
const violations = async (el: Element) =>
  (await axe.run(el, rules)).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

function setCount(n: number | null) {
  document.cookie = n === null ? 'vitrine_wishlist_count=; max-age=0; path=/' : `vitrine_wishlist_count=${n}; path=/`;
}

function answer(body: unknown, status = 200) {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

beforeEach(() => {
  resetWishlistState();
  setCount(null);
});
afterEach(() => {
  vi.unstubAllGlobals();
  setCount(null);
});

describe('the heart', () => {
  it('asks nothing when the cookie says the list is empty', async () => {
    const fetcher = vi.fn(() => answer({ count: 0, items: [] }));
    vi.stubGlobal('fetch', fetcher);
    render(<WishlistHeart id={33} name="Beanie with Logo" />);
    const button = await screen.findByRole('button', { name: 'Add \u201cBeanie with Logo\u201d to your wishlist' });
    await waitFor(() => expect(button).toHaveAttribute('aria-pressed', 'false'));
    await ensureState();
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('reads the state once when the cookie says the list holds something', async () => {
    setCount(1);
    const fetcher = vi.fn((_url: string, _init?: RequestInit) => answer({ count: 1, items: [33] }));
    vi.stubGlobal('fetch', fetcher);
    render(
      <>
        <WishlistHeart id={33} name="Beanie with Logo" />
        <WishlistHeart id={32} name="T-Shirt with Logo" />
      </>,
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Remove \u201cBeanie with Logo\u201d from your wishlist' })).toHaveAttribute('aria-pressed', 'true'),
    );
    expect(screen.getByRole('button', { name: /T-Shirt/ })).toHaveAttribute('aria-pressed', 'false');
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher.mock.calls[0][0]).toBe('/wishlist/state');
  });

  it('toggles with the keyboard, is announced politely, and ignores a second press while busy', async () => {
    let resolve: (r: Response) => void = () => {};
    const fetcher = vi.fn((url: string, _init?: RequestInit) =>
      url === '/wishlist/' ? new Promise<Response>((r) => (resolve = r)) : answer({ count: 0, items: [] }),
    );
    vi.stubGlobal('fetch', fetcher);
    const { container } = render(
      <>
        <WishlistLink />
        <WishlistHeart id={33} name="Beanie with Logo" />
      </>,
    );
    const button = await screen.findByRole('button', { name: /Add \u201cBeanie/ });
    await waitFor(() => expect(button).toHaveAttribute('aria-pressed', 'false'));
    expect(await violations(container)).toEqual([]);
    button.focus();
    fireEvent.submit(button.closest('form')!);
    fireEvent.submit(button.closest('form')!); // a double click
    const posts = fetcher.mock.calls.filter((c) => c[0] === '/wishlist/');
    expect(posts).toHaveLength(1);
    expect(String((posts[0][1] as RequestInit).body)).toBe('wishlist_action=add&product_id=33');
    await act(async () => {
      resolve(new Response(JSON.stringify({ count: 1, items: [33], on: true, message: 'Added to your wishlist' }), { status: 200 }));
    });
    await waitFor(() => expect(button).toHaveAttribute('aria-pressed', 'true'));
    const live = container.querySelector('[role="status"][aria-live="polite"]')!;
    await waitFor(() => expect(live).toHaveTextContent('Added to your wishlist'));
    expect(container.querySelector('.header-wishlist-count')).toHaveTextContent('1');
    expect(JSON.parse(localStorage.getItem(SYNC_KEY)!).items).toEqual([33]);
  });

  it('follows another tab without asking the server', async () => {
    const fetcher = vi.fn(() => answer({ count: 0, items: [] }));
    vi.stubGlobal('fetch', fetcher);
    const { container } = render(
      <>
        <WishlistLink />
        <WishlistHeart id={33} name="Beanie with Logo" />
      </>,
    );
    const button = await screen.findByRole('button', { name: /Beanie/ });
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: SYNC_KEY, newValue: JSON.stringify({ count: 1, items: [33] }) }));
    });
    await waitFor(() => expect(button).toHaveAttribute('aria-pressed', 'true'));
    expect(container.querySelector('.header-wishlist-count')).toHaveTextContent('1');
    expect(fetcher).not.toHaveBeenCalled();
  });
});

function wishlistPage(over: Partial<WishlistPageData> = {}): WishlistPageData {
  return {
    ...pageFrame('wishlist', '/wishlist/'),
    items: [
      { product: product(33), variation: null, price_added: 2000, added_at: '2026-11-20T09:00:00Z', attributes: [], id: 33 },
      { product: product(59), variation: null, price_added: 4500, added_at: '2026-11-20T09:00:00Z', attributes: [], id: 59 },
    ],
    shared: false,
    share_enabled: false,
    share_url: '',
    notices: [],
    ...over,
  };
}

describe('the wishlist page', () => {
  it('lists each item with its prices, stock and the right cart action, and passes axe', async () => {
    const { container } = render(<WishlistPage data={wishlistPage()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Wishlist' })).toBeInTheDocument();
    const rows = container.querySelectorAll('tbody tr');
    expect(rows).toHaveLength(2);
    // A simple product adds; a variable one without a choice goes to choose.
    expect(rows[0].querySelector('a.add_to_cart_button')?.getAttribute('href')).toBe('/?add-to-cart=33');
    expect(rows[1].querySelector('.product-add-to-cart a')?.getAttribute('href')).toBe(product(59).permalink);
    expect(rows[1].querySelector('.product-add-to-cart a')).toHaveTextContent(/Choose options/);
    expect(rows[0].querySelector('.product-price-added')).toHaveTextContent('€20.00');
    expect(screen.getAllByRole('button', { name: /^Remove/ })).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Share my wishlist' })).toBeInTheDocument();
    expect(await violations(container)).toEqual([]);
  });

  it('is read-only when shared, and says so when empty', async () => {
    const { container, unmount } = render(<WishlistPage data={wishlistPage({ shared: true })} />);
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Share/ })).toBeNull();
    expect(await violations(container)).toEqual([]);
    unmount();
    const empty = render(<WishlistPage data={wishlistPage({ items: [] })} />);
    expect(screen.getByText('Your wishlist is empty.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse the shop' })).toHaveAttribute('href', '/shop/');
    expect(await violations(empty.container)).toEqual([]);
  });
});
