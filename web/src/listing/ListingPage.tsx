import type { ListingPage as ListingData } from '../types';
import { decodeEntities } from '../lib/format';
import { Breadcrumbs } from '../ui/Breadcrumbs';
import { CategoryTiles } from '../ui/CategoryTiles';
import { Html } from '../ui/Html';
import { ProductGrid } from './ProductGrid';
import { Pagination } from './Pagination';
import { SortForm } from './SortForm';
import { resultCountText } from './listing-helpers';

export function ListingPage({ data }: { data: ListingData }) {
  const hasProducts = data.products.length > 0;
  return (
    <div className="container listing">
      <Breadcrumbs items={data.breadcrumbs} />
      <header className="woocommerce-products-header">
        <h1 className="woocommerce-products-header__title page-title">{decodeEntities(data.title)}</h1>
        <Html html={data.description} className="term-description" />
      </header>
      {data.subcategories && data.subcategories.length > 0 && (
        <section className="subcategories" aria-label="Subcategories">
          <CategoryTiles categories={data.subcategories} />
        </section>
      )}
      {hasProducts ? (
        <>
          <div className="listing-toolbar">
            <p className="woocommerce-result-count" role="status">
              {resultCountText(data.total, data.page_number, data.total_pages, data.products.length)}
            </p>
            <SortForm orderby={data.orderby} url={data.url} />
          </div>
          <ProductGrid products={data.products} />
          <Pagination base={data.base} page={data.page_number} totalPages={data.total_pages} url={data.url} />
        </>
      ) : (
        <p className="woocommerce-info woocommerce-no-products-found" role="status">
          No products were found matching your selection.
        </p>
      )}
    </div>
  );
}
