import type { StoreCategory } from '../types';
import { decodeEntities } from '../lib/format';
import { LazyImage } from './LazyImage';

export function CategoryTiles({
  categories,
  headingLevel = 2,
}: {
  categories: StoreCategory[];
  headingLevel?: 2 | 3;
}) {
  if (!categories || categories.length === 0) return null;
  const H = headingLevel === 3 ? 'h3' : 'h2';
  return (
    <ul className="products product-categories category-tiles">
      {categories.map((c) => (
        <li key={c.id} className={`product-category product cat-${c.slug}`}>
          <a href={c.permalink} className="category-tile">
            <span className="category-tile__media">
              {c.image ? (
                <LazyImage
                  src={c.image.thumbnail || c.image.src}
                  srcSet={c.image.thumbnail_srcset || undefined}
                  sizes="(min-width: 1240px) 300px, (min-width: 550px) 31vw, 48vw"
                  width={c.image.width || 300}
                  height={c.image.height || 300}
                  alt=""
                />
              ) : (
                <span className="category-tile__placeholder" aria-hidden="true">
                  {decodeEntities(c.name).slice(0, 1)}
                </span>
              )}
            </span>
            <H className="woocommerce-loop-category__title">
              {decodeEntities(c.name)}{' '}
              <mark className="count">
                {c.count} {c.count === 1 ? 'product' : 'products'}
              </mark>
            </H>
          </a>
        </li>
      ))}
    </ul>
  );
}
