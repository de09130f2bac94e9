import {
  canLoad,
  initialScrollState,
  loadedText,
  newProducts,
  nextPageUrl,
  scrollReducer,
  type ScrollState,
} from './infinite-scroll';
import { shownCountText } from './listing-helpers';
import { products } from '../test/fixtures';

describe('nextPageUrl', () => {
  it('is the pagination next link: base + page/N+1/ + the kept query', () => {
    expect(nextPageUrl({ base: '/shop/', page_number: 1, total_pages: 3, url: '/shop/?orderby=price' })).toBe(
      '/shop/page/2/?orderby=price',
    );
    expect(nextPageUrl({ base: '/shop/', page_number: 2, total_pages: 3, url: '/shop/page/2/?orderby=price&page=2' })).toBe(
      '/shop/page/3/?orderby=price',
    );
    expect(
      nextPageUrl({ base: '/product-category/clothing/hoodies/', page_number: 1, total_pages: 2, url: '/product-category/clothing/hoodies/' }),
    ).toBe('/product-category/clothing/hoodies/page/2/');
  });
  it('keeps the search query on search results', () => {
    expect(nextPageUrl({ base: '/', page_number: 1, total_pages: 2, url: '/?s=tee&post_type=product' })).toBe(
      '/?s=tee&post_type=product&page=2',
    );
  });
  it('is null on the last page, past it, or without a base', () => {
    expect(nextPageUrl({ base: '/shop/', page_number: 3, total_pages: 3, url: '/shop/page/3/' })).toBeNull();
    expect(nextPageUrl({ base: '/shop/', page_number: 1, total_pages: 1, url: '/shop/' })).toBeNull();
    expect(nextPageUrl({ base: '/shop/', page_number: 1, total_pages: 0, url: '/shop/' })).toBeNull();
    expect(nextPageUrl({ base: '', page_number: 1, total_pages: 4, url: '/shop/' })).toBeNull();
  });
});

describe('infinite scroll state machine', () => {
  const start = () => initialScrollState('/shop/page/2/');

  it('starts able to load with a next page, done without one', () => {
    expect(start()).toEqual({ status: 'idle', next: '/shop/page/2/', loaded: 0 });
    expect(canLoad(start())).toBe(true);
    const none = initialScrollState(null);
    expect(none.status).toBe('done');
    expect(canLoad(none)).toBe(false);
    expect(scrollReducer(none, { type: 'start' })).toBe(none);
  });

  it('loading blocks a second start; a loaded page moves on to the next one', () => {
    const loading = scrollReducer(start(), { type: 'start' });
    expect(loading.status).toBe('loading');
    expect(canLoad(loading)).toBe(false);
    expect(scrollReducer(loading, { type: 'start' })).toBe(loading);
    const two = scrollReducer(loading, { type: 'loaded', next: '/shop/page/3/' });
    expect(two).toEqual({ status: 'idle', next: '/shop/page/3/', loaded: 1 });
    expect(canLoad(two)).toBe(true);
  });

  it('stops at the last page', () => {
    let s: ScrollState = scrollReducer(start(), { type: 'start' });
    s = scrollReducer(s, { type: 'loaded', next: null });
    expect(s).toEqual({ status: 'done', next: null, loaded: 1 });
    expect(canLoad(s)).toBe(false);
    expect(scrollReducer(s, { type: 'start' })).toBe(s);
  });

  it('stops on an error and keeps the next URL for the retry link', () => {
    let s: ScrollState = scrollReducer(start(), { type: 'start' });
    s = scrollReducer(s, { type: 'failed' });
    expect(s).toEqual({ status: 'error', next: '/shop/page/2/', loaded: 0 });
    expect(canLoad(s)).toBe(false);
    expect(scrollReducer(s, { type: 'start' })).toBe(s);
    // late answers of a stopped load change nothing
    expect(scrollReducer(s, { type: 'loaded', next: '/x/' })).toBe(s);
    expect(scrollReducer(start(), { type: 'failed' }).status).toBe('idle');
  });
});

describe('appending', () => {
  it('keeps only products not already shown, in order', () => {
    const shown = products.slice(0, 3);
    const page = [products[2], products[3], products[4]];
    expect(newProducts(shown, page).map((p) => p.id)).toEqual([products[3].id, products[4].id]);
  });
  it('announces the count', () => {
    expect(loadedText(24)).toBe('Loaded 24 more products');
    expect(loadedText(1)).toBe('Loaded 1 more product');
  });
  it('counts the shown range over appended pages', () => {
    expect(shownCountText(38, 1, 2, 24, 38)).toBe('Showing all 38 results');
    expect(shownCountText(80, 1, 4, 24, 48)).toBe('Showing 1\u201348 of 80 results');
    expect(shownCountText(80, 2, 4, 24, 48)).toBe('Showing 25\u201372 of 80 results');
  });
});
