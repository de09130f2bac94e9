import { render, screen, within } from '@testing-library/react';
import { ListingPage } from './ListingPage';
import { pageHref, pageList, resultCountText } from './listing-helpers';
import { listingPage, products } from '../test/fixtures';

describe('result count', () => {
  it.each([
    [40, 1, 2, 24, 'Showing 1\u201324 of 40 results'],
    [40, 2, 2, 16, 'Showing 25\u201340 of 40 results'],
    [40, 2, 5, 9, 'Showing 10\u201318 of 40 results'],
    [3, 1, 1, 3, 'Showing all 3 results'],
    [1, 1, 1, 1, 'Showing the single result'],
  ])('total %i page %i/%i (%i on page)', (total, page, pages, onPage, want) => {
    expect(resultCountText(total, page, pages, onPage)).toBe(want);
  });
});

describe('pagination helpers', () => {
  it('builds page links from the base and keeps the query, minus the page', () => {
    expect(pageHref('/shop/', 1, '/shop/page/3/?orderby=price&page=3')).toBe('/shop/?orderby=price');
    expect(pageHref('/shop/', 4, '/shop/?orderby=price-desc&s=tee')).toBe('/shop/page/4/?orderby=price-desc&s=tee');
    expect(pageHref('/product-category/clothing', 2, '/product-category/clothing/')).toBe(
      '/product-category/clothing/page/2/',
    );
  });
  it('elides far pages', () => {
    expect(pageList(5, 10)).toEqual([1, 0, 3, 4, 5, 6, 7, 0, 10]);
    expect(pageList(1, 3)).toEqual([1, 2, 3]);
  });
});

describe('ListingPage', () => {
  it('renders title, breadcrumbs, description and the count', () => {
    render(<ListingPage data={listingPage()} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Shop');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByText('Shop')).toHaveAttribute('aria-current', 'page');
    expect(within(crumbs).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(screen.getByText('things').tagName).toBe('STRONG');
    expect(screen.getByText('Showing 10\u201318 of 40 results')).toBeInTheDocument();
    expect(document.querySelectorAll('ul.products > li.product')).toHaveLength(9);
  });

  it('has a labelled sort select with all options and the current one selected', () => {
    render(<ListingPage data={listingPage({ url: '/shop/page/2/?orderby=price&s=tee&post_type=product' })} />);
    const select = screen.getByRole('combobox', { name: 'Shop order' }) as HTMLSelectElement;
    expect(select.name).toBe('orderby');
    expect(select.value).toBe('price');
    expect([...select.options].map((o) => [o.value, o.text])).toEqual([
      ['menu_order', 'Default sorting'],
      ['popularity', 'Sort by popularity'],
      ['rating', 'Sort by average rating'],
      ['date', 'Sort by latest'],
      ['price', 'Sort by price: low to high'],
      ['price-desc', 'Sort by price: high to low'],
    ]);
    const form = select.form!;
    expect(form).toHaveClass('woocommerce-ordering');
    expect(form.method).toBe('get');
    const hidden = [...form.querySelectorAll('input[type=hidden]')].map((i) => [
      i.getAttribute('name'),
      i.getAttribute('value'),
    ]);
    expect(hidden).toEqual([
      ['s', 'tee'],
      ['post_type', 'product'],
    ]);
  });

  it('submits the sort form on change', () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    render(<ListingPage data={listingPage()} />);
    const select = screen.getByRole('combobox', { name: 'Shop order' }) as HTMLSelectElement;
    select.value = 'date';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    expect(submit).toHaveBeenCalledTimes(1);
    submit.mockRestore();
  });

  it('paginates with links that keep orderby', () => {
    render(<ListingPage data={listingPage()} />);
    const nav = screen.getByRole('navigation', { name: 'Product pagination' });
    expect(nav).toHaveClass('woocommerce-pagination');
    const prev = within(nav).getByRole('link', { name: /Previous/ });
    expect(prev).toHaveAttribute('href', '/shop/?orderby=price');
    expect(prev).toHaveAttribute('rel', 'prev');
    const next = within(nav).getByRole('link', { name: /Next/ });
    expect(next).toHaveAttribute('href', '/shop/page/3/?orderby=price');
    expect(next).toHaveAttribute('rel', 'next');
    expect(within(nav).getByRole('link', { name: 'Page 5' })).toHaveAttribute('href', '/shop/page/5/?orderby=price');
    expect(within(nav).getByText('2', { exact: false, selector: '[aria-current="page"]' })).toBeInTheDocument();
  });

  it('shows the single result and no pagination', () => {
    render(<ListingPage data={listingPage({ products: products.slice(0, 1), total: 1, total_pages: 1, page_number: 1 })} />);
    expect(screen.getByText('Showing the single result')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Product pagination' })).toBeNull();
  });

  it('shows the empty state', () => {
    render(<ListingPage data={listingPage({ products: [], total: 0, total_pages: 0, page_number: 1 })} />);
    expect(screen.getByText('No products were found matching your selection.')).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByText(/Did you mean/)).toBeNull();
  });

  it('offers the corrected search when nothing was found', () => {
    render(<ListingPage data={listingPage({ products: [], total: 0, total_pages: 0, page_number: 1, did_you_mean: 'linen cardigan' })} />);
    const link = screen.getByRole('link', { name: 'linen cardigan' });
    expect(link).toHaveAttribute('href', '/?s=linen%20cardigan&post_type=product');
    expect(link.closest('p')).toHaveTextContent('Did you mean linen cardigan?');
  });
});
