import { useState } from 'react';
import type { ProductPage, QuickViewPage, StoreImage } from '../types';
import { decodeEntities } from '../lib/format';
import { Html } from '../ui/Html';
import { Price } from '../ui/Price';
import { CartArea } from '../product/CartForms';
import { WishlistHeart } from '../wishlist/Heart';
import { slideImage } from '../product/gallery-helpers';
import './quickview.css';

const SLIDE_SIZES = '(min-width: 900px) 440px, 90vw';

/** Image slider: one image at a time with Previous / Next buttons. */
export function QuickViewSlider({ images, productName }: { images: StoreImage[]; productName: string }) {
  const [current, setCurrent] = useState(0);
  const name = decodeEntities(productName);
  if (images.length === 0) {
    return (
      <div className="quickview__slider">
        <span className="woocommerce-placeholder" role="img" aria-label="Awaiting product image" />
      </div>
    );
  }
  const i = Math.min(current, images.length - 1);
  const img = images[i];
  const many = images.length > 1;
  return (
    <div className="quickview__slider" role="group" aria-roledescription="carousel" aria-label="Product images">
      <div className="quickview__slide">
        <img
          key={img.id + ':' + i}
          {...slideImage(img, SLIDE_SIZES, name)}
          decoding="async"
        />
      </div>
      {many && (
        <div className="quickview__slider-nav">
          <button
            type="button"
            className="quickview__prev"
            aria-label="Previous"
            onClick={() => setCurrent((i - 1 + images.length) % images.length)}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <span className="quickview__counter" aria-live="polite">{`${i + 1} / ${images.length}`}</span>
          <button
            type="button"
            className="quickview__next"
            aria-label="Next"
            onClick={() => setCurrent((i + 1) % images.length)}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * The quick-view markup: slider, name, price, short description, stock, the
 * product page's cart form (simple: quantity + add to cart; variable: the
 * variation form with data-product_variations) and "View full details".
 * Rendered inside the dialog, and alone for the `quickview` page kind (the
 * popup HTML the server answers to admin-ajax action=flatsome_quickview).
 */
export function QuickViewContent({ data, titleId }: { data: ProductPage | QuickViewPage; titleId?: string }) {
  const p = data.product;
  const stock = p.stock_availability;
  const productData: ProductPage = { ...data, page: 'product' };
  return (
    <div className={`product quickview product-type-${p.type} post-${p.id}`}>
      <div className="quickview__gallery">
        {p.on_sale && <span className="onsale">Sale!</span>}
        <QuickViewSlider images={p.images} productName={p.name} />
      </div>
      <div className="quickview__summary summary entry-summary">
        <h2 className="product_title entry-title quickview__title" id={titleId}>
          {decodeEntities(p.name)}
        </h2>
        <p className="price-wrap">
          <Price prices={p.prices} id={p.id} />
        </p>
        <Html html={p.short_description} className="woocommerce-product-details__short-description" />
        {stock && stock.text && <p className={`stock ${stock.class}`}>{decodeEntities(stock.text)}</p>}
        {!p.is_in_stock && !(stock && stock.text) && <p className="stock out-of-stock">Out of stock</p>}
        <CartArea data={productData} />
        <WishlistHeart id={p.id} name={decodeEntities(p.name)} className="quickview__wishlist" />
        <p className="quickview__details">
          <a href={p.permalink}>View full details</a>
        </p>
      </div>
    </div>
  );
}
