import type { Ref } from 'react';
import type { StoreProduct } from '../types';
import { cachedFragments } from '../lib/server-fragments';
import { escapeHtml } from '../lib/html';
import { skipLaterParts } from '../lib/hydrate-later';
import { cardClasses, cardKey, EAGER_CARDS, ProductCard, type HeadingLevel } from './ProductCard';

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
  // The first card's place as ProductCard reads it: only the first eagerCount load at once.
  const first = EAGER_CARDS - eagerCount;
  // In a server render whose every card is cached already, the list is
  // written as one string: byte for byte the cards' elements (a cached card
  // was a component chain and an element each, 1.2 M instructions in the
  // server's engine). The browser renders the cards and hydrates them.
  const cached = appendedFrom === undefined || appendedFrom >= products.length ? cachedFragments(products.map((p, i) => cardKey(p, i + first, headingLevel, false))) : null;
  if (cached) {
    skipLaterParts(products.length); // each card is a part (lib/hydrate-later.tsx)
    let html = '';
    for (let i = 0; i < products.length; i++) html += `<li class="${escapeHtml(cardClasses(products[i], false))}">${cached[i]}</li>`;
    return <ul className="products columns-3" aria-busy={busy || undefined} dangerouslySetInnerHTML={{ __html: html }} />;
  }
  return (
    <ul className="products columns-3" ref={listRef} aria-busy={busy || undefined}>
      {products.map((p, i) => (
        <ProductCard
          key={p.id}
          product={p}
          index={i + first}
          headingLevel={headingLevel}
          appended={appendedFrom !== undefined && i >= appendedFrom}
          fadeMs={fadeMs}
        />
      ))}
    </ul>
  );
}
