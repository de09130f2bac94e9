import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ListingPage } from './ListingPage';
import { listingPage, products, settings } from '../test/fixtures';
import type { ListingPage as ListingData } from '../types';
import { PRODUCTS_APPENDED_EVENT } from './infinite-scroll';

function html(data: ListingData): string {
  return `<!doctype html><html><body><div id="root"></div><script id="vitrine-data" type="application/json">${JSON.stringify(
    data,
  )}</script></body></html>`;
}

const page1 = (type: 'spinner' | 'button' | 'off', history: 'push' | 'replace' = 'push') =>
  listingPage({
    url: '/shop/',
    page_number: 1,
    total_pages: 3,
    total: 9,
    products: products.slice(0, 3),
    settings: { ...settings, infinite_scroll: { ...settings.infinite_scroll, type, history } },
  });
const page2 = listingPage({ url: '/shop/page/2/', page_number: 2, total_pages: 3, total: 9, products: products.slice(3, 6) });
const page3 = listingPage({ url: '/shop/page/3/', page_number: 3, total_pages: 3, total: 9, products: products.slice(6, 9) });

class FakeIO {
  static all: FakeIO[] = [];
  targets: Element[] = [];
  constructor(
    public cb: IntersectionObserverCallback,
    public options?: IntersectionObserverInit,
  ) {
    FakeIO.all.push(this);
  }
  observe(t: Element) {
    this.targets.push(t);
  }
  disconnect() {
    this.targets = [];
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
  fire(isIntersecting: boolean) {
    this.cb(this.targets.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry), this as unknown as IntersectionObserver);
  }
}

function serve(map: Record<string, () => Response | Promise<Response>>) {
  const fetchMock = vi.fn(async (url: string) => {
    const f = map[url];
    if (!f) return new Response('nope', { status: 404 });
    return f();
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(() => {
  FakeIO.all = [];
  vi.stubGlobal('IntersectionObserver', FakeIO);
  window.history.replaceState(null, '', '/shop/');
});
afterEach(() => vi.unstubAllGlobals());

const cards = () => [...document.querySelectorAll('ul.products > li.product')];

describe('infinite scroll, button mode', () => {
  it('"View more" appends the next page, is disabled while loading, pushes the URL and is hidden at the last page', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fetchMock = serve({
      '/shop/page/2/': async () => {
        await gate;
        return new Response(html(page2));
      },
      '/shop/page/3/': () => new Response(html(page3)),
    });
    const events: number[][] = [];
    const onEvent = (e: Event) => events.push((e as CustomEvent).detail.ids);
    document.addEventListener(PRODUCTS_APPENDED_EVENT, onEvent);
    render(<ListingPage data={page1('button')} />);
    expect(cards()).toHaveLength(3);
    const nav = document.querySelector('nav.woocommerce-pagination')!;
    expect(nav).toHaveAttribute('hidden');
    expect(nav.querySelector('a[rel=next]')).toHaveAttribute('href', '/shop/page/2/');

    const more = screen.getByRole('button', { name: 'View more' });
    fireEvent.click(more);
    expect(more).toBeDisabled();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect((fetchMock.mock.calls[0] as unknown[])[1]).toMatchObject({ headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    await act(async () => release());
    await waitFor(() => expect(cards()).toHaveLength(6));
    expect(window.location.pathname).toBe('/shop/page/2/');
    expect(screen.getByText('Loaded 3 more products')).toBeInTheDocument();
    expect(cards()[3]).toHaveClass('is-appended');
    expect(cards()[0]).not.toHaveClass('is-appended');
    expect(events).toEqual([products.slice(3, 6).map((p) => p.id)]);
    // focus moves to the first new product
    expect(document.activeElement).toBe(cards()[3].querySelector('.woocommerce-loop-product__title a'));
    expect(screen.getByText('Showing 1\u20136 of 9 results')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'View more' }));
    await waitFor(() => expect(cards()).toHaveLength(9));
    expect(screen.queryByRole('button', { name: 'View more' })).toBeNull();
    expect(window.location.pathname).toBe('/shop/page/3/');
    expect(screen.getByText('Showing all 9 results')).toBeInTheDocument();
    document.removeEventListener(PRODUCTS_APPENDED_EVENT, onEvent);
  });

  it('replaces the URL with history=replace', async () => {
    serve({ '/shop/page/2/': () => new Response(html(page2)) });
    const before = window.history.length;
    render(<ListingPage data={page1('button', 'replace')} />);
    fireEvent.click(screen.getByRole('button', { name: 'View more' }));
    await waitFor(() => expect(cards()).toHaveLength(6));
    expect(window.location.pathname).toBe('/shop/page/2/');
    expect(window.history.length).toBe(before);
  });

  it('stops on an error: alert with a retry link, no button', async () => {
    serve({ '/shop/page/2/': () => new Response('boom', { status: 500 }) });
    render(<ListingPage data={page1('button')} />);
    fireEvent.click(screen.getByRole('button', { name: 'View more' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load more products.');
    expect(screen.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/shop/page/2/');
    expect(screen.queryByRole('button', { name: 'View more' })).toBeNull();
    expect(cards()).toHaveLength(3);
    expect(window.location.pathname).toBe('/shop/');
  });
});

describe('infinite scroll, spinner mode', () => {
  it('loads when the sentinel nears the viewport, within scroll_threshold', async () => {
    serve({
      '/shop/page/2/': () => new Response(html(page2)),
      '/shop/page/3/': () => new Response(html(page3)),
    });
    render(<ListingPage data={page1('spinner')} />);
    expect(screen.queryByRole('button', { name: 'View more' })).toBeNull();
    const io = FakeIO.all.at(-1)!;
    expect(io.options?.rootMargin).toBe('0px 0px 400px 0px');
    expect(io.targets[0]).toHaveClass('infinite-scroll__sentinel');
    act(() => io.fire(false));
    expect(cards()).toHaveLength(3);
    act(() => io.fire(true));
    await waitFor(() => expect(cards()).toHaveLength(6));
    act(() => FakeIO.all.at(-1)!.fire(true));
    await waitFor(() => expect(cards()).toHaveLength(9));
    // last page: no sentinel, no observer left
    expect(document.querySelector('.infinite-scroll__sentinel')).toBeNull();
    expect(FakeIO.all.every((o) => o.targets.length === 0)).toBe(true);
  });

  it("holds the next page's space below the cards, so the cards take its place and nothing below moves", async () => {
    serve({
      '/shop/page/2/': () => new Response(html(page2)),
      '/shop/page/3/': () => new Response(html(page3)),
    });
    // A grid of 3 columns, 300 px rows, 20 px apart (jsdom has no layout).
    const real = window.getComputedStyle;
    vi.spyOn(window, 'getComputedStyle').mockImplementation((el: Element) =>
      el.matches('ul.products') ? ({ gridTemplateColumns: '100px 100px 100px', rowGap: '20px' } as CSSStyleDeclaration) : real(el),
    );
    vi.spyOn(HTMLUListElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLUListElement) {
      const rows = Math.ceil(this.children.length / 3);
      return { height: rows * 300 + (rows - 1) * 20 } as DOMRect;
    });
    try {
      render(<ListingPage data={page1('spinner')} />);
      const held = () => document.querySelector<HTMLElement>('.infinite-scroll__sentinel');
      expect(held()?.style.minHeight).toBe('320px'); // one more row of three
      expect(FakeIO.all.at(-1)!.targets[0]).toBe(held()); // the held space is what is watched
      act(() => FakeIO.all.at(-1)!.fire(true));
      expect(held()?.style.minHeight).toBe('320px'); // kept while loading, the spinner inside
      expect(held()?.querySelector('.infinite-scroll__spinner')).not.toBeNull();
      await waitFor(() => expect(cards()).toHaveLength(6));
      expect(held()?.style.minHeight).toBe('320px'); // the last page's row
      // The held space is watched again once the page's effects have run.
      await waitFor(() => expect(FakeIO.all.at(-1)!.targets[0]).toBe(held()));
      act(() => FakeIO.all.at(-1)!.fire(true));
      await waitFor(() => expect(cards()).toHaveLength(9));
      expect(held()).toBeNull(); // nothing more to hold
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('a network error stops loading', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    render(<ListingPage data={page1('spinner')} />);
    act(() => FakeIO.all.at(-1)!.fire(true));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load more products.');
    expect(document.querySelector('.infinite-scroll__sentinel')).toBeNull();
  });
});

describe('infinite scroll off or not applicable', () => {
  it('off: plain visible paging links, nothing else', () => {
    render(<ListingPage data={page1('off')} />);
    expect(screen.getByRole('navigation', { name: 'Product pagination' })).not.toHaveAttribute('hidden');
    expect(document.querySelector('.infinite-scroll')).toBeNull();
  });
  it('the last page (no next link) has no infinite scroll', () => {
    render(<ListingPage data={{ ...page3, settings: page1('button').settings }} />);
    expect(document.querySelector('.infinite-scroll')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Product pagination' })).not.toHaveAttribute('hidden');
  });
});
