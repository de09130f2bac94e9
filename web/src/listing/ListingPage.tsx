import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { ListingPage as ListingData, StoreProduct } from '../types';
import { decodeEntities } from '../lib/format';
import { Breadcrumbs } from '../ui/Breadcrumbs';
import { CategoryTiles } from '../ui/CategoryTiles';
import { Html } from '../ui/Html';
import { ProductGrid } from './ProductGrid';
import { Pagination } from './Pagination';
import { SortForm } from './SortForm';
import { resultCountText, shownCountText } from './listing-helpers';
import { InfiniteScroll, scrollMode } from './InfiniteScroll';
import { useHydrated } from './hydrated';
import { EditLinks } from '../frame/EditLinks';
import { ShopSidebar } from './ShopSidebar';
import { newProducts, nextPageUrl, PRODUCTS_APPENDED_EVENT, type ProductsAppendedDetail } from './infinite-scroll';
import { PageContainer } from '../ui/PageContainer';
import { Drawer } from '../ui/Drawer';
import { ListingFilters, resultsText } from './ListingFilters';
import { FILTER_DRAWER_QUERY, useFilterNavigation } from './filter-navigation';
import { Later } from '../lib/hydrate-later';

interface Appended {
  ids: number[];
  focus: boolean;
}

export function ListingPage({ data: first }: { data: ListingData }) {
  const hydrated = useHydrated();
  // The listing shown: the page's own, then one a filter brought in place.
  const [data, setData] = useState(first);
  const [items, setItems] = useState<StoreProduct[]>(first.products);
  // The last page appended: the pagination follows it.
  const [last, setLast] = useState({ page: data.page_number, url: data.url });
  const [appended, setAppended] = useState<Appended | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const shown = useRef(items);

  const settings = data.settings?.infinite_scroll;
  const mode = scrollMode(settings);
  const hasProducts = data.products.length > 0;
  const initialNext = hasProducts ? nextPageUrl(data) : null;
  const scrolling = hydrated && mode !== 'off' && initialNext !== null;

  const onPage = useCallback((page: ListingData, byButton: boolean) => {
    const added = newProducts(shown.current, page.products);
    if (added.length) {
      shown.current = shown.current.concat(added);
      setItems(shown.current);
    }
    setLast({ page: page.page_number, url: page.url });
    setAppended({ ids: added.map((p) => p.id), focus: byButton });
    return added.length;
  }, []);

  // After the new cards are in the DOM: tell listeners (the currency issue
  // refreshes their prices on this event, detail.ids = the appended product
  // ids), and after a "View more" click move focus to the first new card;
  // in the commit that brings them.
  useLayoutEffect(() => {
    if (!appended || !list.current) return;
    const detail: ProductsAppendedDetail = { ids: appended.ids };
    list.current.dispatchEvent(new CustomEvent(PRODUCTS_APPENDED_EVENT, { bubbles: true, detail }));
    if (appended.focus && appended.ids.length) {
      const link = list.current.querySelector<HTMLAnchorElement>(
        `li.post-${appended.ids[0]} .woocommerce-loop-product__title a`,
      );
      link?.focus();
    }
  }, [appended]);

  // The next page's cards' height, estimated from the grid as it is: its
  // columns and row height (with the row gap), and how many products remain.
  const reserve = useCallback(() => {
    const ul = list.current;
    if (!ul || ul.children.length === 0) return 0;
    const style = getComputedStyle(ul);
    const cols = style.gridTemplateColumns.split(' ').filter(Boolean).length || 1;
    const gap = parseFloat(style.rowGap) || 0;
    const rows = Math.ceil(ul.children.length / cols);
    const rowHeight = (ul.getBoundingClientRect().height + gap) / rows;
    const next = Math.min(data.products.length, Math.max(0, data.total - shown.current.length));
    return Math.ceil(next / cols) * rowHeight;
  }, [data.products.length, data.total]);

  const filters = useFilterNavigation(
    useCallback((page: ListingData) => {
      shown.current = page.products;
      setItems(page.products);
      setLast({ page: page.page_number, url: page.url });
      setData(page);
      // The cards are new: listeners refresh them (the currency's prices).
      setAppended({ ids: page.products.map((p) => p.id), focus: false });
    }, []),
  );
  const [drawer, setDrawer] = useState(false);
  const filterButton = useRef<HTMLButtonElement>(null);
  const closeDrawer = useCallback(() => setDrawer(false), []);
  const onNavigate = hydrated ? filters.navigate : undefined;
  // The grid stays in the page once a filter has been used, even empty.
  const grid = hasProducts || filters.navigated;

  const count =
    items.length === data.products.length
      ? resultCountText(data.total, data.page_number, data.total_pages, data.products.length)
      : shownCountText(data.total, data.page_number, data.total_pages, data.products.length, items.length);

  return (
    <PageContainer className="listing">
      <Breadcrumbs items={data.breadcrumbs} />
      <div className="listing-layout">
      <div className="listing-main" ref={filters.main}>
      <header className="woocommerce-products-header">
        <h1 className="woocommerce-products-header__title page-title">{decodeEntities(data.title)}</h1>
        <Html html={data.description} className="term-description" />
        <EditLinks links={data.edit_links} block="category" />
      </header>
      {data.subcategories && data.subcategories.length > 0 && (
        <section className="subcategories" aria-label="Subcategories">
          <CategoryTiles categories={data.subcategories} />
        </section>
      )}
      <div className="listing-filter-toggle">
        <button
          type="button"
          className="button listing-filter-toggle__button"
          ref={filterButton}
          aria-haspopup="dialog"
          aria-expanded={drawer}
          aria-controls="listing-filter-drawer"
          onClick={() => setDrawer(true)}
        >
          Filter
          {data.filters?.applied ? <span className="listing-filter-toggle__count"> ({data.filters.applied}<span className="screen-reader-text"> chosen</span>)</span> : null}
        </button>
      </div>
      {grid ? (
        <>
          <div className="listing-toolbar">
            {/* Not a live region: an in-place filter update is announced once, by the filters' own status. */}
            <p className="woocommerce-result-count">
              {hasProducts ? count : 'No results'}
            </p>
            <SortForm orderby={data.orderby} url={data.url} />
          </div>
          <ProductGrid
            products={items}
            busy={filters.busy}
            listRef={list}
            appendedFrom={data.products.length}
            fadeMs={settings?.fade_in_duration}
          />
          {!hasProducts && (
            <p className="woocommerce-info woocommerce-no-products-found">No products were found matching your selection.</p>
          )}
          {scrolling && (
            <InfiniteScroll
              key={data.url}
              settings={settings} initialNext={initialNext} onPage={onPage} reserve={reserve} />
          )}
          {/* The links stay in the DOM and work without scripts; with infinite
              scroll from the first page they are hidden (everything loads here). */}
          <Pagination
            base={data.base}
            page={last.page}
            totalPages={data.total_pages}
            url={last.url}
            hidden={scrolling && data.page_number === 1}
          />
        </>
      ) : (
        <>
          <p className="woocommerce-info woocommerce-no-products-found" role="status">
            No products were found matching your selection.
          </p>
          {data.did_you_mean ? (
            <p className="search-did-you-mean">
              Did you mean{' '}
              <a href={'/?s=' + encodeURIComponent(data.did_you_mean) + '&post_type=product'}>{data.did_you_mean}</a>?
            </p>
          ) : null}
        </>
      )}
      </div>
      {/* The filters hydrate after the page's first pass (lib/hydrate-later.tsx). */}
      <Later>
        <ShopSidebar data={data} onNavigate={onNavigate} announce={drawer ? '' : filters.announce} />
      </Later>
      </div>
      {hydrated && (
        <Drawer
          id="listing-filter-drawer"
          className="filter-drawer"
          title="Filter"
          closeLabel="Close filters"
          open={drawer}
          onClose={closeDrawer}
          returnFocus={filterButton}
          htmlClass="has-filter-drawer"
          closeAt={FILTER_DRAWER_QUERY}
        >
          {drawer && (
            <>
              <ListingFilters data={data} idBase="filter-drawer" onNavigate={onNavigate} announce={filters.announce} />
              <div className="filter-drawer__foot">
                <button type="button" className="button alt filter-drawer__show" onClick={closeDrawer} aria-busy={filters.busy || undefined}>
                  {`Show ${resultsText(data.total)}`}
                </button>
              </div>
            </>
          )}
        </Drawer>
      )}
    </PageContainer>
  );
}
