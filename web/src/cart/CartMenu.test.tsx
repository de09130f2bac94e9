import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CartMenu, OPEN_AFTER_ADD_MS } from './CartMenu';
import { wrapTarget } from './CartDrawer';
import { expectTabWraps } from '../test/focus';

const MINI = '<div class="widget_shopping_cart_content"><ul><li><a href="/cart/?remove_item=k" class="remove remove_from_cart_button" data-cart_item_key="k">×</a><a href="/product/x/">X</a></li></ul><p class="buttons"><a href="/cart/" class="button wc-forward">View cart</a><a href="/checkout/" class="button checkout wc-forward">Checkout</a></p></div>';

function viewport(narrow: boolean) {
  vi.stubGlobal('matchMedia', (q: string) => ({
    matches: q.includes('max-width: 849px') ? narrow : false,
    media: q,
    addEventListener() {},
    removeEventListener() {},
  }));
}

function fragments() {
  act(() => {
    document.dispatchEvent(new CustomEvent('vitrine:fragments', { detail: { fragments: { 'div.widget_shopping_cart_content': MINI }, cart_hash: 'h' } }));
  });
}

beforeEach(() => {
  sessionStorage.clear();
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  document.documentElement.classList.remove('has-cart-drawer');
});

const toggle = () => document.querySelector<HTMLAnchorElement>('a.header-cart')!;
const drawer = () => document.querySelector<HTMLDialogElement>('dialog.mini-cart-drawer')!;

describe('mini cart drawer (narrow screens)', () => {
  it('the cart button opens a labelled modal drawer, focus moves in, the page stops scrolling; closing gives focus back', () => {
    viewport(true);
    render(<CartMenu count={0} />);
    expect(toggle()).toHaveAttribute('aria-haspopup', 'dialog');
    expect(toggle()).toHaveAttribute('aria-controls', 'mini-cart-drawer');
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    toggle().focus();
    fireEvent.click(toggle());
    expect(drawer().open).toBe(true);
    expect(screen.getByRole('dialog', { name: 'Cart' })).toBe(drawer());
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close cart' }));
    expect(document.documentElement).toHaveClass('has-cart-drawer');
    expect(document.querySelector('#mini-cart-panel')).not.toBeVisible(); // not the dropdown
    expect(drawer().textContent).toContain('No products in the cart.');

    fireEvent.click(screen.getByRole('button', { name: 'Close cart' }));
    expect(drawer().open).toBe(false);
    expect(document.activeElement).toBe(toggle());
    expect(document.documentElement).not.toHaveClass('has-cart-drawer');
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
  });

  it('shows the mini cart fragment with View cart and Checkout, and Tab wraps inside', () => {
    viewport(true);
    render(<CartMenu count={1} />);
    fragments();
    fireEvent.click(toggle());
    const d = drawer();
    expect(d.querySelector('.mini-cart-host .widget_shopping_cart_content')).not.toBeNull();
    expect(d.querySelector('a.button.wc-forward[href="/cart/"]')?.textContent).toBe('View cart');
    expect(d.querySelector('a.checkout[href="/checkout/"]')?.textContent).toBe('Checkout');
    expect(d.textContent).not.toContain('No products in the cart.');
    const close = screen.getByRole('button', { name: 'Close cart' });
    const checkout = d.querySelector<HTMLAnchorElement>('a.checkout')!;
    expectTabWraps(d, close, checkout);
    // The dropdown's host got the same fragment.
    expect(document.querySelector('#mini-cart-panel .widget_shopping_cart_content')).not.toBeNull();
  });

  it('opens after an add and closes after 5 s, focus back on the add button; stays while used', () => {
    vi.useFakeTimers();
    viewport(true);
    render(
      <>
        <button type="button">Add to cart</button>
        <CartMenu count={0} />
      </>,
    );
    const add = screen.getByRole('button', { name: 'Add to cart' });
    add.focus();
    act(() => {
      document.dispatchEvent(new CustomEvent('vitrine:added-to-cart', { detail: {} }));
    });
    expect(drawer().open).toBe(true);
    expect(document.querySelector('#mini-cart-panel')).not.toBeVisible();
    act(() => {
      vi.advanceTimersByTime(OPEN_AFTER_ADD_MS - 100);
    });
    expect(drawer().open).toBe(true);
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(drawer().open).toBe(false);
    expect(document.activeElement).toBe(add);

    // Used (a key pressed inside): it stays open.
    act(() => {
      document.dispatchEvent(new CustomEvent('vitrine:added-to-cart', { detail: {} }));
    });
    fireEvent.keyDown(drawer(), { key: 'ArrowDown' });
    act(() => {
      vi.advanceTimersByTime(OPEN_AFTER_ADD_MS + 500);
    });
    expect(drawer().open).toBe(true);
  });

  it('on the cart page an add (a cross-sell card) opens neither the drawer nor the dropdown: the page shows the cart', () => {
    window.history.pushState({}, '', '/cart/');
    try {
      for (const narrow of [true, false]) {
        viewport(narrow);
        const { unmount } = render(<CartMenu count={0} />);
        act(() => {
          document.dispatchEvent(new CustomEvent('vitrine:added-to-cart', { detail: {} }));
        });
        expect(document.querySelector('dialog.mini-cart-drawer[open]')).toBeNull();
        expect(document.querySelector('#mini-cart-panel')).not.toBeVisible();
        unmount();
      }
    } finally {
      window.history.pushState({}, '', '/');
    }
  });

  it('on large screens the button is the dropdown disclosure and an add opens the dropdown', () => {
    viewport(false);
    render(<CartMenu count={0} />);
    expect(toggle()).not.toHaveAttribute('aria-haspopup');
    expect(toggle()).toHaveAttribute('aria-controls', 'mini-cart-panel');
    act(() => {
      document.dispatchEvent(new CustomEvent('vitrine:added-to-cart', { detail: {} }));
    });
    expect(document.querySelector('#mini-cart-panel')).toBeVisible();
    expect(document.querySelector('dialog.mini-cart-drawer')).toBeNull();
  });
});

describe('mini cart dropdown after an add (large screens)', () => {
  function setup() {
    viewport(false);
    render(
      <>
        <button type="button">Add to cart</button>
        <CartMenu count={0} />
        <a href="/after/">After</a>
      </>,
    );
    fragments();
    const add = screen.getByRole('button', { name: 'Add to cart' });
    add.focus();
    act(() => {
      document.dispatchEvent(new CustomEvent('vitrine:added-to-cart', { detail: {} }));
    });
    return add;
  }
  const panel = () => document.querySelector<HTMLElement>('#mini-cart-panel')!;

  it('moves focus into the opened mini cart; its Checkout link is a few Tabs away; Escape gives focus back to the add button', () => {
    const add = setup();
    expect(panel()).toBeVisible();
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    expect(document.activeElement).toBe(panel());
    expect(screen.getByRole('region', { name: 'Cart contents' })).toBe(panel());
    // The panel is the first stop; the links inside follow it in the tab order.
    const links = Array.from(panel().querySelectorAll('a[href]'));
    expect(links.at(-1)).toHaveTextContent('Checkout');
    expect(links.length).toBeLessThanOrEqual(4);
    fireEvent.keyDown(panel(), { key: 'Escape' });
    expect(panel()).not.toBeVisible();
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    expect(document.activeElement).toBe(add);
  });

  it('closes after 5 s when unused and gives focus back to the add button; stays while used', () => {
    vi.useFakeTimers();
    const add = setup();
    expect(document.activeElement).toBe(panel());
    act(() => {
      vi.advanceTimersByTime(OPEN_AFTER_ADD_MS + 100);
    });
    expect(panel()).not.toBeVisible();
    expect(document.activeElement).toBe(add);

    act(() => {
      document.dispatchEvent(new CustomEvent('vitrine:added-to-cart', { detail: {} }));
    });
    expect(document.activeElement).toBe(panel());
    fireEvent.keyDown(panel(), { key: 'Tab' });
    act(() => {
      vi.advanceTimersByTime(OPEN_AFTER_ADD_MS + 500);
    });
    expect(panel()).toBeVisible();
  });

  it('Tab out of the mini cart closes it, focus staying where it went', () => {
    setup();
    const after = screen.getByRole('link', { name: 'After' });
    const checkout = screen.getByRole('link', { name: 'Checkout' });
    checkout.focus();
    act(() => {
      after.focus();
    });
    expect(panel()).not.toBeVisible();
    expect(document.activeElement).toBe(after);
  });
});

describe('wrapTarget', () => {
  it('wraps only at the ends', () => {
    const root = document.createElement('div');
    root.innerHTML = '<button id="a">a</button><a id="b" href="#">b</a><span tabindex="-1" id="c">c</span><button id="d" disabled>d</button>';
    document.body.appendChild(root);
    const a = root.querySelector('#a');
    const b = root.querySelector('#b');
    expect(wrapTarget(root, b, false)).toBe(a);
    expect(wrapTarget(root, a, true)).toBe(b);
    expect(wrapTarget(root, a, false)).toBeNull();
    expect(wrapTarget(root, b, true)).toBeNull();
    root.remove();
  });
});
