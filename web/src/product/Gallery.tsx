import { useState } from 'react';
import type { StoreImage } from '../types';
import { decodeEntities } from '../lib/format';

export const MAIN_SIZES = '(min-width: 1240px) 600px, (min-width: 850px) 50vw, 100vw';

export function Gallery({ images, productName }: { images: StoreImage[]; productName: string }) {
  const [current, setCurrent] = useState(0);
  const name = decodeEntities(productName);
  if (images.length === 0) {
    return (
      <div className="woocommerce-product-gallery product-gallery">
        <div className="product-gallery__main">
          <span className="woocommerce-placeholder" role="img" aria-label="Awaiting product image" />
        </div>
      </div>
    );
  }
  const img = images[Math.min(current, images.length - 1)];
  return (
    <div className="woocommerce-product-gallery product-gallery" data-columns="4">
      <figure className="product-gallery__main woocommerce-product-gallery__image">
        <img
          key={img.id + ':' + current}
          src={img.src}
          srcSet={img.srcset || undefined}
          sizes={img.srcset ? MAIN_SIZES : undefined}
          width={img.width || 800}
          height={img.height || 800}
          alt={decodeEntities(img.alt) || name}
          loading="eager"
          fetchPriority={current === 0 ? 'high' : undefined}
          decoding={current === 0 ? undefined : 'async'}
          className="wp-post-image"
        />
      </figure>
      {images.length > 1 && (
        <ul className="product-gallery__thumbs flex-control-thumbs">
          {images.map((im, i) => (
            <li key={im.id + ':' + i}>
              <button
                type="button"
                className={'product-gallery__thumb' + (i === current ? ' is-active' : '')}
                aria-label={`Show image ${i + 1} of ${images.length}`}
                aria-pressed={i === current}
                onClick={() => setCurrent(i)}
              >
                <img
                  src={im.thumbnail || im.src}
                  alt=""
                  width={100}
                  height={100}
                  loading="lazy"
                  decoding="async"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
