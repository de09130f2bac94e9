import type { Ref } from 'react';
import type { StoreProduct } from '../types';
import { ProductCard, type HeadingLevel } from './ProductCard';

export function ProductGrid({
  products,
  headingLevel = 2,
  eagerCount = 4,
  listRef,
  appendedFrom,
  fadeMs,
  busy,
}: {
  products: StoreProduct[];
  headingLevel?: HeadingLevel;
  eagerCount?: number;
  listRef?: Ref<HTMLUListElement>;
  /** Index of the first product appended by infinite scroll (those fade in). */
  appendedFrom?: number;
  fadeMs?: number;
  /** A filtered listing is on its way (the cards shown are the last one's). */
  busy?: boolean;
}) {
  return (
    <ul className="products columns-3" ref={listRef} aria-busy={busy || undefined}>
      {products.map((p, i) => (
        <ProductCard
          key={p.id}
          product={p}
          index={i + (4 - eagerCount)}
          headingLevel={headingLevel}
          appended={appendedFrom !== undefined && i >= appendedFrom}
          fadeMs={fadeMs}
        />
      ))}
    </ul>
  );
}
