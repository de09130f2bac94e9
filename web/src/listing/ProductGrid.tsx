import type { StoreProduct } from '../types';
import { ProductCard, type HeadingLevel } from './ProductCard';

export function ProductGrid({
  products,
  headingLevel = 2,
  eagerCount = 4,
}: {
  products: StoreProduct[];
  headingLevel?: HeadingLevel;
  eagerCount?: number;
}) {
  return (
    <ul className="products columns-3">
      {products.map((p, i) => (
        <ProductCard key={p.id} product={p} index={i + (4 - eagerCount)} headingLevel={headingLevel} />
      ))}
    </ul>
  );
}
