import { useEffect, useState } from 'react';
import type { StoreProduct } from '../types';
import { ProductGrid } from '../listing/ProductGrid';
import { forgetViewed, readViewed, rememberViewed } from './recently-viewed';
import { nonEssentialAllowed, type ConsentSettings } from '../consent/consent';

const API = '/wp-json/wc/store/v1/products';

/**
 * "Recently viewed" on a product page: the other products this browser
 * viewed (recently-viewed.ts), newest first, as cards from the Store API
 * (include= their ids). Rendered in the browser only, after the page has
 * loaded, and nothing at all when there is none; the current product is
 * remembered for the next page. Without consent (where the shop asks for
 * it, or under Global Privacy Control) nothing is kept or shown.
 */
export function RecentlyViewed({ current, consent }: { current: number; consent?: ConsentSettings }) {
  const [products, setProducts] = useState<StoreProduct[]>([]);
  useEffect(() => {
    if (!nonEssentialAllowed(consent)) {
      forgetViewed();
      setProducts([]);
      return;
    }
    const ids = readViewed().filter((id) => id !== current);
    rememberViewed(current);
    setProducts([]);
    if (ids.length === 0) return;
    const ctl = new AbortController();
    const url = `${API}?include=${ids.join(',')}&orderby=include&per_page=${ids.length}`;
    fetch(url, { signal: ctl.signal, credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? (r.json() as Promise<StoreProduct[]>) : []))
      .then((list) => {
        if (Array.isArray(list)) setProducts(list.filter((p) => p.id !== current));
      })
      .catch(() => {
        // offline or aborted: no row
      });
    return () => ctl.abort();
  }, [current, consent]);
  if (products.length === 0) return null;
  return (
    <section className="recently-viewed products-section" aria-labelledby="recently-viewed-title">
      <h2 id="recently-viewed-title">Recently viewed</h2>
      <ProductGrid products={products} headingLevel={3} eagerCount={0} />
    </section>
  );
}
