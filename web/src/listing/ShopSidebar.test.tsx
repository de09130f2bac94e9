import { act, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { ShopSidebar, headerBottom } from './ShopSidebar';
import { nextSticky, STATIC, STICKY_GAP, STICKY_MIN_WIDTH, stickyStyle, type Sticky, type StickyMeasure } from './sticky-sidebar';
import { listingPage } from '../test/fixtures';
import { resetCurrencyState, setCurrencyState } from '../currency/store';

// A 2,000 px container starting at 300 px; header 70 px (spec sticky height) + 15.
const base: Omit<StickyMeasure, 'scrollY' | 'sidebarHeight'> = {
  viewportHeight: 800,
  containerTop: 300,
  containerHeight: 2000,
  topSpacing: 70 + STICKY_GAP,
  bottomSpacing: STICKY_GAP,
};

/** Scrolls through ys in order, returning each position (and offset). */
function scroll(sidebarHeight: number, ys: number[], start: Sticky = STATIC): Sticky[] {
  let s = start;
  let last = 0;
  return ys.map((y) => {
    s = nextSticky(s, { ...base, scrollY: y, sidebarHeight }, y >= last);
    last = y;
    return s;
  });
}

describe('nextSticky', () => {
  it('uses the spec constants', () => {
    expect(STICKY_MIN_WIDTH).toBe(850);
    expect(STICKY_GAP).toBe(15);
  });

  it('a sidebar that fits: static, then under the header, then at the container bottom, and back', () => {
    const got = scroll(500, [0, 215, 250, 600, 1700, 1790, 2000, 1700, 100]);
    expect(got.map((s) => s.position)).toEqual([
      'static', // the viewport has not reached it
      'static', // 215 + 85 <= 300
      'viewport-top',
      'viewport-top',
      'viewport-top',
      'container-bottom', // 1790 + 85 + 500 >= 2300
      'container-bottom',
      'viewport-top',
      'static',
    ]);
    expect(got[2].offset).toBe(250 + 85 - 300);
    expect(got[3].offset).toBe(600 + 85 - 300);
    expect(got[5].offset).toBe(2000 - 500);
  });

  it('a taller sidebar: scrolls until its bottom shows, sticks there, is left in place going up, sticks under the header at its top', () => {
    const h = 1200; // more than 800 - 85 - 15
    const got = scroll(h, [100, 400, 800, 900, 850, 500, 300, 200, 400, 1100, 1250, 1550]);
    expect(got).toEqual([
      STATIC, // 100 + 85 <= 300
      STATIC, // its bottom (1500) is below the viewport's (400 + 785)
      { position: 'viewport-bottom', offset: 85 }, // 800 + 785 - 1200 - 300
      { position: 'viewport-bottom', offset: 185 },
      { position: 'viewport-unbottom', offset: 185 }, // going up: left where it was
      { position: 'viewport-unbottom', offset: 185 },
      { position: 'viewport-top', offset: 85 }, // its top (485) reached: 300 + 85
      STATIC, // above the container again
      STATIC, // down: static until its bottom shows
      { position: 'viewport-bottom', offset: 385 },
      { position: 'viewport-bottom', offset: 535 },
      { position: 'container-bottom', offset: 800 }, // 1550 + 785 >= 2300
    ]);
  });

  it('from under the header, scrolling down leaves it in place until its bottom shows', () => {
    const h = 1200;
    const top: Sticky = { position: 'viewport-top', offset: 400 };
    const a = nextSticky(top, { ...base, scrollY: 650, sidebarHeight: h }, true);
    expect(a).toEqual({ position: 'viewport-unbottom', offset: 400 });
    // Its bottom (300 + 400 + 1200 = 1900) shows once 1900 <= y + 785.
    const b = nextSticky(a, { ...base, scrollY: 1114, sidebarHeight: h }, true);
    expect(b.position).toBe('viewport-unbottom');
    const c = nextSticky(b, { ...base, scrollY: 1115, sidebarHeight: h }, true);
    expect(c).toEqual({ position: 'viewport-bottom', offset: 400 });
  });

  it('stays static when it is as tall as the content beside it', () => {
    expect(nextSticky(STATIC, { ...base, containerHeight: 600, scrollY: 900, sidebarHeight: 600 }, true)).toEqual(STATIC);
  });

  it('styles: fixed under the header or above the bottom, moved down its column otherwise', () => {
    const m = { viewportHeight: 800, sidebarHeight: 500, topSpacing: 85, bottomSpacing: 15 };
    const box = { left: 980, width: 240 };
    expect(stickyStyle(STATIC, m, box)).toEqual({});
    // Fixed at the viewport's top, moved into place by a transform (no layout shift when the header moves).
    expect(stickyStyle({ position: 'viewport-top', offset: 9 }, m, box)).toEqual({ position: 'fixed', top: '0px', left: '980px', width: '240px', transform: 'translateY(85px)' });
    expect(stickyStyle({ position: 'viewport-bottom', offset: 9 }, m, box)).toMatchObject({ position: 'fixed', top: '0px', transform: 'translateY(285px)' });
    expect(stickyStyle({ position: 'container-bottom', offset: 1500 }, m, box)).toEqual({ position: 'relative', transform: 'translateY(1500px)' });
    expect(stickyStyle({ position: 'viewport-unbottom', offset: 40 }, m, box)).toEqual({ position: 'relative', transform: 'translateY(40px)' });
  });
});

describe('ShopSidebar', () => {
  it('lists the categories with counts, marks the current one, and renders a price filter form', () => {
    const data = listingPage({ url: '/product-category/clothing/?orderby=price&min_price=10', base: '/product-category/clothing/' });
    render(<ShopSidebar data={data} />);
    const aside = screen.getByRole('complementary', { name: 'Shop filters' });
    const cats = within(aside).getByRole('region', { name: 'Product categories' });
    expect(within(cats).getByRole('link', { name: 'Clothing' })).toHaveAttribute('aria-current', 'page');
    expect(cats).toHaveTextContent(/Clothing \(\d+\)/);
    const min = within(aside).getByRole('spinbutton', { name: /Min price/ });
    expect(min).toHaveValue(10);
    expect(min).toHaveAttribute('name', 'min_price');
    expect(within(aside).getByRole('spinbutton', { name: /Max price/ })).toHaveValue(null);
    const form = min.closest('form')!;
    expect(form).toHaveAttribute('method', 'get');
    expect(form).toHaveAttribute('action', '/product-category/clothing/');
    // The sort is kept, the old bounds are not sent twice.
    const hidden = [...form.querySelectorAll('input[type=hidden]')].map((i) => `${i.getAttribute('name')}=${i.getAttribute('value')}`);
    expect(hidden).toEqual(['orderby=price']);
    const clear = within(aside).getByRole('link', { name: /^Clear ?the price/ });
    expect(clear).toHaveTextContent('Clear the price filter');
    expect(clear).toHaveAttribute('href', '/product-category/clothing/?orderby=price');
  });

  it("the price filter says its currency and sends the shopper's: the URL's before the price call, its answer after", () => {
    const inUSD = (url: string) => {
      const d = listingPage({ url, base: '/shop/' });
      return { ...d, settings: { ...d.settings!, base_currency: 'USD' } };
    };
    const data = inUSD('/shop/?min_price=5000&max_price=8000&price_currency=JPY');
    const html = renderToString(<ShopSidebar data={data} />);
    const doc = new DOMParser().parseFromString(html, 'text/html');
    expect(doc.querySelector('.price-filter__currency')?.textContent).toBe('Prices in JPY');
    expect(doc.querySelector('input[name="price_currency"]')?.getAttribute('value')).toBe('JPY');
    expect(doc.querySelector<HTMLInputElement>('input[name="min_price"]')?.getAttribute('value')).toBe('5000');
    // The base: no currency parameter, the label names the base.
    resetCurrencyState();
    const { unmount } = render(<ShopSidebar data={inUSD('/shop/')} />);
    expect(screen.getByText('Prices in USD')).toBeInTheDocument();
    expect(document.querySelector('input[name="price_currency"]')).toBeNull();
    unmount();
    // The price call answered EUR: the filter reads EUR.
    act(() => setCurrencyState({ current: 'EUR', prices: {} }));
    render(<ShopSidebar data={inUSD('/shop/')} />);
    expect(screen.getByText('Prices in EUR')).toBeInTheDocument();
    expect(document.querySelector('input[name="price_currency"]')?.getAttribute('value')).toBe('EUR');
    resetCurrencyState();
  });

  it('is static on the server, with no inline position', () => {
    const html = renderToString(<ShopSidebar data={listingPage()} />);
    expect(html).not.toContain('data-sticky');
    expect(html).not.toMatch(/style="[^"]*position/);
  });

  it('finds the bottom of a fixed or sticky header, and 0 for a header that scrolls away', () => {
    document.body.innerHTML = '<header class="site-header"><div class="bar"></div></header>';
    const header = document.querySelector<HTMLElement>('.site-header')!;
    const bar = document.querySelector<HTMLElement>('.bar')!;
    const rect = (bottom: number) => () => ({ bottom }) as DOMRect;
    header.getBoundingClientRect = rect(116);
    bar.getBoundingClientRect = rect(70);
    expect(headerBottom()).toBe(0);
    bar.style.position = 'fixed';
    expect(headerBottom()).toBe(70);
    header.style.position = 'sticky';
    expect(headerBottom()).toBe(116);
    header.getBoundingClientRect = rect(-50); // hidden on scroll
    expect(headerBottom()).toBe(70);
    document.body.innerHTML = '';
  });
});
