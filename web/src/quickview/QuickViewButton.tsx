import type { StoreProduct } from '../types';
import { decodeEntities } from '../lib/format';
import { useHydrated } from '../listing/hydrated';
import { openQuickView } from './quickview-store';
import './quickview.css';

/**
 * "Quick view" on a product card. Rendered only once scripts run (it has no
 * meaning without them; the card's links still lead to the product).
 */
export function QuickViewButton({ product }: { product: StoreProduct }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className="quick-view"
      aria-haspopup="dialog"
      data-prod={product.id}
      onClick={(e) => {
        if (!openQuickView({ product, opener: e.currentTarget })) window.location.assign(product.permalink);
      }}
    >
      Quick view<span className="screen-reader-text">{`: \u201c${decodeEntities(product.name)}\u201d`}</span>
    </button>
  );
}
