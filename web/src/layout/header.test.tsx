import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { HOVER_CLOSE_MS, HOVER_OPEN_MS, NavMenu } from './NavMenu';
import { MobileMenu } from './MobileMenu';
import { headerOffset, SiteHeader } from './SiteHeader';
import { listingPage, nav as shopNav } from '../test/fixtures';
import type { NavCategory } from '../types';

// The fixtures' Clothing (with Tshirts and Hoodies), a parent whose name has an entity, and a leaf.
const nav: NavCategory[] = [
  shopNav[0],
  {
    id: 20,
    name: 'Music &amp; more',
    url: '/product-category/music/',
    count: 3,
    children: [{ id: 21, name: 'Vinyl', url: '/product-category/music/vinyl/', count: 1, children: [] }],
  },
  { id: 16, name: 'Accessories', url: '/product-category/accessories/', count: 5, children: [] },
];

afterEach(() => {
  vi.useRealTimers();
  document.documentElement.className = '';
});

function clothingButton() {
  return screen.getByRole('button', { name: 'Clothing submenu' });
}

describe('category dropdowns (disclosure pattern)', () => {
  it('server-renders links, a collapsed button per parent controlling its sub-menu, and the current page', () => {
    const html = renderToString(<NavMenu items={nav} path="/product-category/clothing/hoodies/" />);
    expect(html).toContain('aria-expanded="false" aria-controls="submenu-15"');
    expect(html).toContain('<ul id="submenu-15" class="sub-menu">');
    expect(html).toContain('aria-current="page">Hoodies</a>');
    expect(html).not.toContain('submenu-16'); // no button without children
    render(<NavMenu items={nav} path="/" />);
    expect(screen.getByRole('navigation', { name: 'Product categories' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Clothing' })).toHaveAttribute('href', '/product-category/clothing/');
    expect(screen.getByRole('button', { name: 'Music & more submenu' })).toHaveAttribute('aria-controls', 'submenu-20');
  });

  it('a click opens one menu at a time; a second click closes it; a press outside closes it', async () => {
    const user = userEvent.setup();
    const changes: boolean[] = [];
    render(<NavMenu items={nav} path="/" onOpenChange={(o) => changes.push(o)} />);
    await user.click(clothingButton());
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById('submenu-15')!.closest('li')).toHaveClass('is-open');
    await user.click(screen.getByRole('button', { name: 'Music & more submenu' }));
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: 'Music & more submenu' })).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('button', { name: 'Music & more submenu' }));
    expect(screen.getByRole('button', { name: 'Music & more submenu' })).toHaveAttribute('aria-expanded', 'false');
    await user.click(clothingButton());
    fireEvent.pointerDown(document.body);
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'false');
    expect(changes).toContain(true);
    expect(changes[changes.length - 1]).toBe(false);
  });

  it('by keyboard: Enter opens, Tab walks into the sub-menu, Escape closes and returns focus to the button', async () => {
    const user = userEvent.setup();
    render(<NavMenu items={nav} path="/" />);
    clothingButton().focus();
    await user.keyboard('{Enter}');
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'true');
    await user.tab();
    expect(screen.getByRole('link', { name: 'Tshirts' })).toHaveFocus();
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'false');
    expect(clothingButton()).toHaveFocus();
  });

  it('Tab past the last sub-menu link moves on and closes it', async () => {
    const user = userEvent.setup();
    render(<NavMenu items={nav} path="/" />);
    clothingButton().focus();
    await user.keyboard(' ');
    await user.tab(); // Tshirts
    await user.tab(); // Hoodies
    await user.tab(); // the next parent's link
    expect(screen.getByRole('link', { name: 'Music & more' })).toHaveFocus();
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('a mouse resting on a parent opens it after the hover delay; leaving closes it after the close delay; touch does not', () => {
    vi.useFakeTimers();
    render(<NavMenu items={nav} path="/" />);
    const item = document.getElementById('submenu-15')!.closest('li')!;
    fireEvent.pointerEnter(item, { pointerType: 'touch' });
    act(() => vi.advanceTimersByTime(HOVER_OPEN_MS + 50));
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'false');
    fireEvent.pointerEnter(item, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(HOVER_OPEN_MS - 10));
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'false');
    act(() => vi.advanceTimersByTime(20));
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'true');
    fireEvent.pointerLeave(item, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(HOVER_CLOSE_MS - 10));
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'true');
    // Back in time: it stays open.
    fireEvent.pointerEnter(item, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(HOVER_CLOSE_MS * 2));
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'true');
    fireEvent.pointerLeave(item, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(HOVER_CLOSE_MS + 10));
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('a menu opened by a click stays open when the mouse leaves', async () => {
    render(<NavMenu items={nav} path="/" />);
    vi.useFakeTimers();
    const item = document.getElementById('submenu-15')!.closest('li')!;
    fireEvent.click(clothingButton());
    fireEvent.pointerLeave(item, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(HOVER_CLOSE_MS * 3));
    expect(clothingButton()).toHaveAttribute('aria-expanded', 'true');
  });
});

describe('the off-canvas menu', () => {
  const user = { logged_in: false, can_edit_pages: false };

  it('the Menu button is a collapsed dialog button controlling the labelled menu, empty until opened', () => {
    render(<MobileMenu nav={nav} path="/" user={user} search="" />);
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    expect(button).toHaveAttribute('aria-controls', 'mobile-menu');
    const dialog = document.getElementById('mobile-menu')!;
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog).toHaveAttribute('aria-labelledby', 'mobile-menu-title');
    expect(document.getElementById('mobile-menu-title')).toHaveTextContent('Menu');
    expect(dialog.querySelector('form')).toBeNull();
  });

  it('opens with focus on its close button and the search, categories and account inside; Tab wraps; Escape closes and focus returns', async () => {
    const u = userEvent.setup();
    const changes: boolean[] = [];
    render(<MobileMenu nav={nav} path="/product-category/music/vinyl/" user={user} search="tee" onOpenChange={(o) => changes.push(o)} />);
    const button = screen.getByRole('button', { name: 'Menu' });
    await u.click(button);
    const dialog = document.getElementById('mobile-menu')!;
    expect(dialog).toHaveAttribute('open');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(document.documentElement).toHaveClass('has-mobile-menu');
    const close = within(dialog).getByRole('button', { name: 'Close menu' });
    expect(close).toHaveFocus();
    expect(within(dialog).getByRole('search', { name: 'Search products' })).toBeInTheDocument();
    expect(dialog.querySelector('input.search-field')).toHaveValue('tee');
    const cats = within(dialog).getByRole('navigation', { name: 'Categories' });
    expect(within(cats).getByRole('link', { name: 'Vinyl' })).toHaveAttribute('aria-current', 'page');
    expect(within(cats).getByRole('link', { name: 'Music & more' })).toHaveAttribute('href', '/product-category/music/');
    expect(within(dialog).getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/my-account/');

    // Shift+Tab from the first control wraps to the last; Tab from the last wraps to the first.
    await u.tab({ shift: true });
    expect(within(dialog).getByRole('link', { name: 'My account' })).toHaveFocus();
    await u.tab();
    expect(close).toHaveFocus();

    await u.keyboard('{Escape}');
    expect(dialog).not.toHaveAttribute('open');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
    expect(document.documentElement).not.toHaveClass('has-mobile-menu');
    expect(dialog.querySelector('form')).toBeNull();
    expect(changes).toEqual([false, true, false]);
  });

  it('Escape from the search field (which keeps Escape for itself) still closes the menu', async () => {
    const u = userEvent.setup();
    render(<MobileMenu nav={nav} path="/" user={user} search="" />);
    await u.click(screen.getByRole('button', { name: 'Menu' }));
    const field = document.querySelector<HTMLInputElement>('#mobile-menu input.search-field')!;
    field.focus();
    await u.keyboard('{Escape}');
    expect(document.getElementById('mobile-menu')).not.toHaveAttribute('open');
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveFocus();
  });

  it('the close button closes it and gives focus back', async () => {
    const u = userEvent.setup();
    render(<MobileMenu nav={nav} path="/" user={user} search="" />);
    await u.click(screen.getByRole('button', { name: 'Menu' }));
    await u.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(document.getElementById('mobile-menu')).not.toHaveAttribute('open');
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveFocus();
  });
});

describe('the site header', () => {
  it('server-renders the bar, the Menu button, the dropdown menu and the sticky height; unstuck', () => {
    const data = listingPage({ title: 'Clothing' });
    data.settings = { ...data.settings, sticky_height: 64 };
    const html = renderToString(<SiteHeader data={data} path="/shop/" search="" cartCount={0} />);
    expect(html).toContain('<div style="--sticky-height:64px;" class="header-wrapper">');
    expect(html).toContain('<header class="site-header">');
    expect(html).toContain('class="menu-toggle"');
    expect(html).toContain('aria-label="Product categories"');
    expect(html).toContain('id="mobile-menu"');
    expect(html).not.toContain('is-stuck');
  });

  it('sets --header-offset on the page for anchored targets: the stuck bar, the category row while it shows, a gap', () => {
    const data = listingPage({ title: 'Clothing' });
    data.settings = { ...data.settings, sticky_height: 64 };
    // jsdom has no layout: the category row is 48 px tall.
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('primary-nav') ? 48 : 0;
    });
    const { unmount } = render(<SiteHeader data={data} path="/shop/" search="" cartCount={0} />);
    expect(headerOffset(64, 48)).toBe(64 + 48 + 1 + 16);
    expect(document.documentElement.style.getPropertyValue('--header-offset')).toBe(`${headerOffset(64, 48)}px`);
    // The row hidden (small and medium screens): the bar alone, measured again on resize.
    document.querySelector<HTMLElement>('.primary-nav')!.style.display = 'none';
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    expect(document.documentElement.style.getPropertyValue('--header-offset')).toBe(`${headerOffset(64, 0)}px`);
    unmount();
    document.documentElement.style.removeProperty('--header-offset');
    vi.restoreAllMocks();
  });

  it('follows the scroll: stuck past its height with its place kept, hidden going down with hide-on-scroll, never with focus inside', async () => {
    const data = listingPage({ title: 'Clothing' });
    data.settings = { ...data.settings, header_hide_on_scroll: true };
    // Frames run at once (an id of 0: none pending).
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => {
      cb(0);
      return 0;
    });
    // jsdom has no layout: the header is 120 px tall at the top of the page.
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('site-header') ? 120 : 0;
    });
    const scrollTo = (y: number) =>
      act(() => {
        Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
        vi.spyOn(document.querySelector('.header-wrapper')!, 'getBoundingClientRect').mockReturnValue({ top: -y } as DOMRect);
        window.dispatchEvent(new Event('scroll'));
      });
    try {
      render(<SiteHeader data={data} path="/shop/" search="" cartCount={0} />);
      const header = document.querySelector('header.site-header')!;
      const wrapper = document.querySelector<HTMLElement>('.header-wrapper')!;
      scrollTo(100);
      expect(header).not.toHaveClass('is-stuck');
      scrollTo(400); // past it, going down: stuck and out of sight
      expect(header).toHaveClass('is-stuck');
      expect(header).toHaveClass('is-hidden');
      expect(wrapper.style.height).toBe('120px');
      scrollTo(300); // up: back in view
      expect(header).not.toHaveClass('is-hidden');
      expect(document.documentElement).toHaveClass('header-is-stuck');
      // Focus inside: scrolling down does not hide it.
      act(() => screen.getByRole('link', { name: 'Vitrine' }).focus());
      scrollTo(700);
      expect(header).not.toHaveClass('is-hidden');
      act(() => (document.activeElement as HTMLElement).blur());
      scrollTo(1000);
      expect(header).toHaveClass('is-hidden');
      scrollTo(50); // back at the top: in the flow again
      expect(header).not.toHaveClass('is-stuck');
      expect(wrapper.style.height).toBe('');
    } finally {
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
      Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
    }
  });
});
