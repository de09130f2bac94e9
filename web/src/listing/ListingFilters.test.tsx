import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../App';
import { ListingFilters } from './ListingFilters';
import { clearFilters, filterHref, readFilterState, toggleFilter } from './filter-url';
import { expectHydratesCleanly } from '../test/hydrate';
import { listingPage, products } from '../test/fixtures';
import type { ListingFilters as Filters, ListingPage } from '../types';

const opt = (value: string, label: string, count: number, over: Partial<Filters['ratings'][number]> = {}) => ({
  value,
  label,
  count,
  selected: false,
  disabled: count === 0,
  ...over,
});

/** A listing with every kind of filter: colour swatches (any), size chips (all), material checkboxes, ratings, stock, sale. */
function filtered(url = '/product-category/clothing/?orderby=price', over: Partial<Filters> = {}, page: Partial<ListingPage> = {}): ListingPage {
  const chosen = readFilterState(url);
  const sel = (slug: string, v: string) => !!chosen.attributes.get(slug)?.terms.includes(v);
  const filters: Filters = {
    applied: chosen.attributes.size + (chosen.ratings.length ? 1 : 0) + (chosen.stock.length ? 1 : 0) + (chosen.onSale ? 1 : 0) + (chosen.min || chosen.max ? 1 : 0),
    counted: true,
    price_range: { min: 1000, max: 4550, chosen_min: null, chosen_max: null },
    attributes: [
      {
        id: 1,
        name: 'Colour',
        slug: 'color',
        taxonomy: 'pa_color',
        display: 'color',
        query_type: 'or',
        options: [
          opt('black', 'Black', 4, { color: '#111111', selected: sel('color', 'black') }),
          opt('navy', 'Navy', 3, { color: '#1f2a44', selected: sel('color', 'navy') }),
          opt('pink', 'Pink', 0, { color: '#f4a6c1' }),
        ],
      },
      {
        id: 2,
        name: 'Size',
        slug: 'size',
        taxonomy: 'pa_size',
        display: 'label',
        query_type: 'and',
        options: [opt('m', 'M', 5, { selected: sel('size', 'm') }), opt('xl', 'XL', 0)],
      },
      {
        id: 3,
        name: 'Material',
        slug: 'material',
        taxonomy: 'pa_material',
        display: 'select',
        query_type: 'or',
        options: [opt('cotton', 'Cotton', 6), opt('linen', 'Linen', 2)],
      },
    ],
    ratings: [opt('5', 'Rated 5 out of 5', 1), opt('4', 'Rated 4 out of 5', 2, { selected: chosen.ratings.includes('4') })],
    stock_status: [opt('instock', 'In stock', 7, { selected: chosen.stock.includes('instock') }), opt('outofstock', 'Out of stock', 0)],
    on_sale: opt('1', 'On sale', 2, { selected: chosen.onSale }),
    ...over,
  };
  return listingPage({ url, base: '/product-category/clothing/', page_number: 1, total: 9, total_pages: 1, filters, ...page });
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  document.documentElement.className = '';
});

describe('filter URLs', () => {
  it('write the server normalized order: listing parameters, attributes by slug with query_type, price, ratings, stock, sale; page dropped', () => {
    const s = readFilterState('/shop/page/3/?orderby=price&filter_size=m&min_price=10&rating_filter=4&on_sale=1&page=2');
    const next = toggleFilter(toggleFilter(s, { kind: 'attribute', slug: 'color', value: 'navy', queryType: 'or' }), { kind: 'attribute', slug: 'color', value: 'black', queryType: 'or' });
    expect(filterHref('/shop/', next)).toBe('/shop/?orderby=price&filter_color=black,navy&query_type_color=or&filter_size=m&min_price=10&rating_filter=4&on_sale=1');
    // Choosing the last term again drops the filter and its query type.
    const back = toggleFilter(toggleFilter(next, { kind: 'attribute', slug: 'color', value: 'navy', queryType: 'or' }), { kind: 'attribute', slug: 'color', value: 'black', queryType: 'or' });
    expect(filterHref('/shop/', back)).toBe('/shop/?orderby=price&filter_size=m&min_price=10&rating_filter=4&on_sale=1');
    expect(filterHref('/shop/', clearFilters(next))).toBe('/shop/?orderby=price');
    // Search keeps its own parameters first.
    expect(filterHref('/', toggleFilter(readFilterState('/?s=tee&post_type=product'), { kind: 'stock', value: 'instock' }))).toBe(
      '/?s=tee&post_type=product&filter_stock_status=instock',
    );
  });
});

describe('ListingFilters', () => {
  it('renders every option as a link with its count; disabled options stay, say "no products" and go nowhere', () => {
    render(<ListingFilters data={filtered()} idBase="f" />);
    const colour = screen.getByRole('region', { name: 'Colour' });
    const navy = within(colour).getByRole('link', { name: /^Navy/ });
    expect(navy).toHaveAttribute('href', '/product-category/clothing/?orderby=price&filter_color=navy&query_type_color=or');
    expect(navy).toHaveTextContent('Navy (3), 3 products');
    expect(navy.querySelector('.swatch.swatch--color .swatch__color')).toHaveStyle({ backgroundColor: '#1f2a44' });
    const pink = within(colour).getByRole('link', { name: /^Pink/ });
    expect(pink).toHaveAttribute('aria-disabled', 'true');
    expect(pink).not.toHaveAttribute('href');
    expect(pink).toHaveTextContent(/no products/);
    // Size is "all": its links write no query type; chips wear the swatch label style.
    const m = within(screen.getByRole('region', { name: 'Size' })).getByRole('link', { name: /^M/ });
    expect(m).toHaveAttribute('href', '/product-category/clothing/?orderby=price&filter_size=m');
    expect(m).toHaveClass('swatch', 'swatch--label');
    expect(screen.getByRole('region', { name: 'Material' }).querySelectorAll('.filter-option__check')).toHaveLength(2);
    expect(within(screen.getByRole('region', { name: 'Rating' })).getByRole('link', { name: /Rated 4/ })).toHaveAttribute(
      'href',
      '/product-category/clothing/?orderby=price&rating_filter=4',
    );
    const avail = screen.getByRole('region', { name: 'Availability' });
    expect(within(avail).getByRole('link', { name: /^On sale/ })).toHaveAttribute('href', '/product-category/clothing/?orderby=price&on_sale=1');
    expect(within(avail).getByRole('link', { name: /^Out of stock/ })).toHaveAttribute('aria-disabled', 'true');
    // Nothing chosen: no chips.
    expect(screen.queryByRole('region', { name: 'Active filters' })).toBeNull();
  });

  it('writes an option as text whatever its label, value and colour hold', () => {
    const hostile = '<img src=x onerror="alert(1)"> & "Q"';
    const data = filtered('/shop/', {
      attributes: [
        {
          id: 9,
          name: 'Colour',
          slug: 'color',
          taxonomy: 'pa_color',
          display: 'color',
          query_type: 'or',
          options: [opt('a"b&c<d', hostile, 2, { color: 'red;" onmouseover="alert(1)' })],
        },
      ],
    });
    const { container } = render(<ListingFilters data={data} idBase="f" />);
    expect(container.querySelector('img')).toBeNull();
    const link = within(screen.getByRole('region', { name: 'Colour' })).getByRole('link', { name: /^<img/ });
    expect(link.querySelector('.filter-option__label')).toHaveTextContent(hostile);
    expect(link).toHaveAttribute('data-filter', 'attribute:color:a"b&c<d');
    expect(link).not.toHaveAttribute('onmouseover');
    const swatch = link.querySelector('.swatch__color')!;
    expect(swatch.getAttributeNames()).toEqual(['class', 'style']);
    expect(readFilterState(link.getAttribute('href')!).attributes.get('color')?.terms).toEqual(['a"b&c<d']);
  });

  it('takes a plain click on an option in place, and leaves other clicks and disabled options to the browser', () => {
    const onNavigate = vi.fn();
    render(<ListingFilters data={filtered()} idBase="f" onNavigate={onNavigate} />);
    const colour = screen.getByRole('region', { name: 'Colour' });
    const navy = within(colour).getByRole('link', { name: /^Navy/ });
    expect(fireEvent.click(navy, { ctrlKey: true })).toBe(true); // a new tab: not taken
    expect(onNavigate).not.toHaveBeenCalled();
    // A click on the option's label (a child of the link) is the link's.
    expect(fireEvent.click(navy.querySelector('.filter-option__label')!)).toBe(false);
    expect(onNavigate).toHaveBeenCalledWith(navy.getAttribute('href'), 'attribute:color:navy', navy);
    onNavigate.mockClear();
    fireEvent.click(within(colour).getByRole('link', { name: /^Pink/ }));
    fireEvent.keyDown(within(colour).getByRole('link', { name: /^Pink/ }), { key: ' ' });
    fireEvent.keyDown(navy, { key: 'Enter' }); // Enter follows the link itself
    expect(onNavigate).not.toHaveBeenCalled();
  });

  it('takes the chips, Clear all and the price’s Clear in place, each with its key', () => {
    const onNavigate = vi.fn();
    render(<ListingFilters data={filtered('/product-category/clothing/?filter_color=navy&query_type_color=or&min_price=10')} idBase="f" onNavigate={onNavigate} />);
    const chosen = screen.getByRole('region', { name: 'Active filters' });
    const chip = within(chosen).getByRole('link', { name: /Colour: Navy/ });
    fireEvent.click(chip);
    expect(onNavigate).toHaveBeenLastCalledWith(chip.getAttribute('href'), 'chip:attribute:color:navy', chip);
    const all = within(chosen).getByRole('link', { name: /Clear all/ });
    fireEvent.keyDown(all, { key: ' ' });
    expect(onNavigate).toHaveBeenLastCalledWith('/product-category/clothing/', 'clear-all', all);
    const clear = document.querySelector<HTMLAnchorElement>('a[data-filter="price-clear"]')!;
    fireEvent.click(clear);
    expect(onNavigate).toHaveBeenLastCalledWith(clear.getAttribute('href'), 'price-clear', clear);
    expect(onNavigate).toHaveBeenCalledTimes(3);
  });

  it('shows chosen filters as chips that remove them, and Clear all', () => {
    const url = '/product-category/clothing/?orderby=price&filter_color=black,navy&query_type_color=or&filter_size=m&min_price=10&max_price=30&rating_filter=4&on_sale=1';
    render(<ListingFilters data={filtered(url)} idBase="f" />);
    const chips = screen.getByRole('region', { name: 'Active filters' });
    const links = within(chips).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      'Remove filter: Colour: Black×',
      'Remove filter: Colour: Navy×',
      'Remove filter: Size: M×',
      'Remove filter: Price: 10 – 30 EUR',
      'Remove filter: Rated 4 out of 5×',
      'Remove filter: On sale×',
      'Clear all filters',
    ].map((t) => (t.includes('Price') ? t + '×' : t)));
    expect(links[1]).toHaveAttribute('href', '/product-category/clothing/?orderby=price&filter_color=black&query_type_color=or&filter_size=m&min_price=10&max_price=30&rating_filter=4&on_sale=1');
    expect(links[3]).toHaveAttribute('href', '/product-category/clothing/?orderby=price&filter_color=black,navy&query_type_color=or&filter_size=m&rating_filter=4&on_sale=1');
    expect(links[6]).toHaveAttribute('href', '/product-category/clothing/?orderby=price');
    // A chosen option says so, and its link drops it.
    const navy = within(screen.getByRole('region', { name: 'Colour' })).getByRole('link', { name: /^Navy/ });
    expect(navy).toHaveTextContent(/selected/);
    expect(navy).toHaveAttribute('href', links[1].getAttribute('href'));
    // The price form keeps the other filters as hidden fields (a GET without scripts).
    const form = screen.getByRole('spinbutton', { name: /Min price/ }).closest('form')!;
    const hidden = [...form.querySelectorAll('input[type=hidden]')].map((i) => `${i.getAttribute('name')}=${i.getAttribute('value')}`);
    expect(hidden).toEqual(['orderby=price', 'filter_color=black,navy', 'query_type_color=or', 'filter_size=m', 'rating_filter=4', 'on_sale=1']);
  });

  it('a listing too large to count shows no counts and disables nothing', () => {
    const data = filtered(undefined, { counted: false, price_range: { min: null, max: null, chosen_min: null, chosen_max: null } });
    for (const a of data.filters.attributes) for (const o of a.options) Object.assign(o, { count: 0, disabled: false });
    render(<ListingFilters data={data} idBase="f" />);
    expect(document.querySelectorAll('[aria-disabled="true"]')).toHaveLength(1); // the fixture's out-of-stock status kept its own
    expect(within(screen.getByRole('region', { name: 'Colour' })).getByRole('link', { name: 'Pink' })).toHaveAttribute('href');
    expect(document.querySelector('.price-slider')).toBeNull();
  });

  const states: [string, ListingPage][] = [
    ['nothing chosen', filtered()],
    ['some chosen', filtered('/product-category/clothing/?filter_color=navy&query_type_color=or&min_price=10&filter_stock_status=instock')],
    ['no products left', filtered('/product-category/clothing/?filter_size=m,xl', {}, { products: [], total: 0, total_pages: 0 })],
  ];

  it.each(states)('has no axe violations and hydrates the server HTML: %s', async (_, data) => {
    const html = renderToString(<App data={data} />);
    await expectHydratesCleanly(html, data);
    const { container, unmount } = render(<App data={data} />);
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    unmount();
  }, 30_000); // axe over a whole page is slow on a loaded machine
});

function pageHTML(data: ListingPage): string {
  return `<!doctype html><html><body><script id="vitrine-data" type="application/json">${JSON.stringify(data)}</script></body></html>`;
}

describe('filters with scripts', () => {
  it('shows the chosen listing in place: fetched page data, pushed URL, focus kept, "N results" announced, Back restores', async () => {
    const first = filtered('/product-category/clothing/');
    const navyUrl = '/product-category/clothing/?filter_color=navy&query_type_color=or';
    const navy = filtered(navyUrl, {}, { products: products.slice(0, 3), total: 3 });
    const pages: Record<string, ListingPage> = { [navyUrl]: navy, '/product-category/clothing/': first };
    const fetchMock = vi.fn(async (u: string) => new Response(pageHTML(pages[u]), { status: 200, headers: { 'Content-Type': 'text/html' } }));
    vi.stubGlobal('fetch', fetchMock);
    window.history.replaceState(null, '', '/product-category/clothing/');
    const push = vi.spyOn(window.history, 'pushState');
    const { container } = render(<App data={first} />);
    const sidebar = screen.getByRole('complementary', { name: 'Shop filters' });
    const link = within(sidebar).getByRole('link', { name: /^Navy/ });
    link.focus();
    fireEvent.keyDown(link, { key: ' ' });
    await waitFor(() => expect(container.querySelectorAll('ul.products > li')).toHaveLength(3));
    expect(fetchMock).toHaveBeenCalledWith(navyUrl, expect.objectContaining({ headers: expect.objectContaining({ 'X-Requested-With': 'XMLHttpRequest' }) }));
    expect(push).toHaveBeenCalledWith({ vitrineFilters: true }, '', navyUrl);
    expect(within(sidebar).getByRole('status')).toHaveTextContent('3 results');
    const again = within(sidebar).getByRole('link', { name: /^Navy.*selected/ });
    expect(document.activeElement).toBe(again);
    expect(within(sidebar).getByRole('region', { name: 'Active filters' })).toBeInTheDocument();
    // Back: the first listing again, without a push.
    push.mockClear();
    await act(async () => {
      window.history.back();
    });
    await waitFor(() => expect(container.querySelectorAll('ul.products > li')).toHaveLength(first.products.length));
    expect(push).not.toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: 'Active filters' })).toBeNull();
  });

  it('on phones the Filter button opens a drawer with "Show N results"; closing returns the focus', async () => {
    render(<App data={filtered('/product-category/clothing/?filter_size=m')} />);
    const button = screen.getByRole('button', { name: /^Filter ?\(/ });
    expect(button).toHaveTextContent('Filter (1 chosen)');
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Filter' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close filters' }));
    expect(within(dialog).getByRole('region', { name: 'Colour' })).toBeInTheDocument();
    const show = within(dialog).getByRole('button', { name: 'Show 9 results' });
    const res = await axe.run(dialog, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => v.id)).toEqual([]);
    fireEvent.click(show);
    await waitFor(() => expect(button).toHaveAttribute('aria-expanded', 'false'));
    expect(document.activeElement).toBe(button);
    // Escape closes it too.
    fireEvent.click(button);
    const d2 = await screen.findByRole('dialog', { name: 'Filter' });
    fireEvent.keyDown(d2, { key: 'Escape' });
    await waitFor(() => expect(button).toHaveAttribute('aria-expanded', 'false'));
    expect(document.activeElement).toBe(button);
  });
});
