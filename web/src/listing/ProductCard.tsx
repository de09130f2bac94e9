import type { StoreProduct } from '../types';
import { decodeEntities } from '../lib/format';
import { Price } from '../ui/Price';
import { Stars } from '../ui/Stars';
import { LazyImage } from '../ui/LazyImage';
import { QuickViewButton } from '../quickview/QuickViewButton';
import { cardsKey, ServerFragment } from '../lib/server-fragments';
import { Later } from '../lib/hydrate-later';
import { WishlistHeart } from '../wishlist/Heart';

/**
 * Cards whose image is a plain image with src: the first row at 3 columns,
 * the first two rows at 2 (both on a phone's first screen). The rest load by
 * script as they come near (lazyload).
 */
export const EAGER_CARDS = 4;

/**
 * Of those, the cards whose image is fetched with the document: a phone's
 * first row. The others are native lazy (fetched after the first layout, when
 * it shows them near the viewport), so on a phone's slow link the first
 * card's picture, the listing's largest paint, shares it with the stylesheet
 * alone (shop page LCP 1,206 → 1,058 ms in Lighthouse, docs/benchmarks.md).
 */
export const FIRST_ROW_CARDS = 2;

/** Grid image sizes: 3 columns >= 550px (container max 1200px), 2 below (spec section 9). */
export const CARD_SIZES = '(min-width: 1240px) 380px, (min-width: 550px) 31vw, 48vw';

export type HeadingLevel = 2 | 3;

export function AddToCartLink({ product }: { product: StoreProduct }) {
  const atc = product.add_to_cart;
  const name = decodeEntities(product.name);
  if (product.type === 'simple' && product.is_purchasable && product.is_in_stock) {
    return (
      <a
        href={`?add-to-cart=${product.id}`}
        data-quantity="1"
        data-product_id={product.id}
        data-product_sku={product.sku}
        data-success_message={`\u201c${name}\u201d has been added to your cart`}
        className="button product_type_simple add_to_cart_button ajax_add_to_cart"
        aria-label={decodeEntities(atc.description) || undefined}
        rel="nofollow"
      >
        {decodeEntities(atc.text)}
      </a>
    );
  }
  return (
    <a
      href={atc.url}
      data-product_id={product.id}
      data-product_sku={product.sku}
      className={`button product_type_${product.type}`}
      aria-label={decodeEntities(atc.description) || undefined}
      rel={product.type === 'external' ? 'nofollow' : undefined}
    >
      {decodeEntities(atc.text)}
    </a>
  );
}

/** A card's classes, WooCommerce's for a product in a loop. */
export function cardClasses(product: StoreProduct, appended: boolean): string {
  return [
    'product',
    `type-product`,
    `post-${product.id}`,
    `product-type-${product.type}`,
    product.is_in_stock ? 'instock' : 'outofstock',
    product.on_sale ? 'sale' : '',
    appended ? 'is-appended' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The fragment key of a card's content (lib/server-fragments.tsx): its
 * product, heading level and how its image loads, which the card's place
 * in the grid decides.
 */
export function cardKey(product: StoreProduct, index: number, headingLevel: HeadingLevel, appended: boolean): string {
  const eager = index < EAGER_CARDS && !appended;
  return cardsKey('card', [headingLevel, eager, eager && index >= FIRST_ROW_CARDS, index === 0 && !appended], [product]);
}

export function ProductCard({
  product,
  index,
  headingLevel = 2,
  appended = false,
  fadeMs,
}: {
  product: StoreProduct;
  index: number;
  headingLevel?: HeadingLevel;
  /** Appended by infinite scroll: fades in over fadeMs. */
  appended?: boolean;
  fadeMs?: number;
}) {
  const img = product.images[0];
  const name = decodeEntities(product.name);
  const H = headingLevel === 3 ? 'h3' : 'h2';
  const eager = index < EAGER_CARDS && !appended;
  // The first card's picture is the listing's largest paint on a phone
  // (Lighthouse's LCP element): it is fetched ahead of the other eager ones.
  const first = index === 0 && !appended;
  const nativeLazy = eager && index >= FIRST_ROW_CARDS;
  // The card's content is the same on every page that lists the product:
  // the server renders it once per engine (lib/server-fragments.tsx); an
  // eager card (its image loaded at once) is another fragment than a lazy one.
  // In the browser each card hydrates in a task of its own after the page's
  // first pass (lib/hydrate-later.tsx).
  return (
    <Later>
    <ServerFragment
      tag="li"
      props={{ className: cardClasses(product, appended), style: appended && fadeMs !== undefined ? { animationDuration: `${fadeMs}ms` } : undefined }}
      cacheKey={() => cardKey(product, index, headingLevel, appended)}
    >
      {() => (
        <>
          <div className="product-card__media-wrap">
          <a href={product.permalink} className="woocommerce-LoopProduct-link woocommerce-loop-product__link" tabIndex={-1} aria-hidden="true">
            <div className="product-card__media">
              {img ? (
                <LazyImage
                  src={img.src}
                  srcSet={img.srcset || undefined}
                  sizes={CARD_SIZES}
                  width={img.width || 600}
                  height={img.height || 600}
                  alt={decodeEntities(img.alt) || name}
                  eager={eager}
                  nativeLazy={nativeLazy}
                  fetchPriority={first ? 'high' : undefined}
                  className="attachment-woocommerce_thumbnail"
                />
              ) : (
                <span className="woocommerce-placeholder" />
              )}
              <span className="product-card__badges">
                {product.on_sale && <span className="onsale">Sale!</span>}
                {!product.is_in_stock && <span className="badge-outofstock">Out of stock</span>}
              </span>
            </div>
          </a>
          <QuickViewButton product={product} />
          <WishlistHeart id={product.id} name={name} />
          </div>
          <div className="product-card__body">
            <H className="woocommerce-loop-product__title">
              <a href={product.permalink}>{name}</a>
            </H>
            {product.review_count > 0 && <Stars rating={product.average_rating} className="product-card__rating" />}
            <Price prices={product.prices} id={product.id} />
            <AddToCartLink product={product} />
          </div>
        </>
      )}
    </ServerFragment>
    </Later>
  );
}
