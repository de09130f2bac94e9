import { useEffect, useRef, useState, type ComponentType, type PointerEvent as ReactPointerEvent } from 'react';
import type { Settings, StoreImage } from '../types';
import { decodeEntities } from '../lib/format';
import { LazyImage } from '../ui/LazyImage';
import { largestSource, loadLightbox, slideImage, zoomOrigin } from './gallery-helpers';
import type { GalleryLightboxProps } from './GalleryLightbox';
import { Tooltip } from '../ui/Tooltip';
import './product.css';

export const MAIN_SIZES = '(min-width: 1240px) 600px, (min-width: 850px) 50vw, 100vw';

/** Magnification of the hover zoom (the largest source is used where the browser picked a small one). */
const ZOOM_SCALE = 2;

type GallerySettings = Pick<Settings, 'zoom' | 'lightbox'>;

export function Gallery({
  images,
  productName,
  settings = { zoom: false, lightbox: true },
  override = null,
}: {
  images: StoreImage[];
  productName: string;
  settings?: GallerySettings;
  /** An image to show as the main one instead (the chosen variation's); a thumbnail click goes back to the gallery. */
  override?: StoreImage | null;
}) {
  const [current, setCurrent] = useState(0);
  const [overrideOn, setOverrideOn] = useState(true);
  useEffect(() => setOverrideOn(true), [override?.src]);
  // Browser-only parts (the lightbox trigger) appear after hydration, so the
  // server HTML and the first client render are the same.
  const [mounted, setMounted] = useState(false);
  const [lightbox, setLightbox] = useState<{ Component: ComponentType<GalleryLightboxProps>; open: boolean; index: number } | null>(
    null,
  );
  const [loadFailed, setLoadFailed] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const zoomPane = useRef<HTMLSpanElement>(null);
  const name = decodeEntities(productName);

  useEffect(() => setMounted(true), []);

  if (images.length === 0) {
    return (
      <div className="woocommerce-product-gallery product-gallery">
        <div className="product-gallery__main">
          <span className="woocommerce-placeholder" role="img" aria-label="Awaiting product image" />
        </div>
      </div>
    );
  }
  const index = Math.min(current, images.length - 1);
  const showOverride = !!override && overrideOn && override.src !== images[index].src;
  const img = showOverride && override ? override : images[index];
  const lightboxOn = settings.lightbox;

  const open = (at: number) => {
    setLoadFailed(false);
    loadLightbox().then(
      (mod) => setLightbox({ Component: mod.default, open: true, index: at }),
      () => setLoadFailed(true),
    );
  };
  const close = () => {
    setLightbox((lb) => (lb ? { ...lb, open: false } : lb));
    // Focus goes back to the trigger (also when the image itself was clicked:
    // it is not focusable, and the trigger sits on it).
    trigger.current?.focus({ preventScroll: true });
  };

  // Hover zoom: a magnified copy of the image as the background of a pane over
  // it, positioned under the pointer. Mouse and pen only (touch has no hover).
  const zoomStart = (e: ReactPointerEvent<HTMLElement>) => {
    if (!settings.zoom || e.pointerType === 'touch') return;
    const pane = zoomPane.current;
    if (!pane) return;
    pane.style.backgroundImage = `url("${largestSource(img).replace(/["\\]/g, '\\$&')}")`;
    pane.style.backgroundSize = `${ZOOM_SCALE * 100}%`;
    zoomMove(e);
    pane.classList.add('is-active');
  };
  const zoomMove = (e: ReactPointerEvent<HTMLElement>) => {
    const pane = zoomPane.current;
    if (!settings.zoom || !pane || e.pointerType === 'touch') return;
    const { x, y } = zoomOrigin(e.clientX, e.clientY, e.currentTarget.getBoundingClientRect());
    pane.style.backgroundPosition = `${x}% ${y}%`;
  };
  const zoomEnd = () => {
    zoomPane.current?.classList.remove('is-active');
  };

  const LightboxComponent = lightbox?.Component;
  return (
    <div className="woocommerce-product-gallery product-gallery" data-columns="4">
      <figure
        className={
          'product-gallery__main woocommerce-product-gallery__image' +
          (lightboxOn ? ' has-lightbox' : '') +
          (settings.zoom ? ' has-zoom' : '')
        }
        onClick={lightboxOn ? () => open(index) : undefined}
        onPointerEnter={settings.zoom ? zoomStart : undefined}
        onPointerMove={settings.zoom ? zoomMove : undefined}
        onPointerLeave={settings.zoom ? zoomEnd : undefined}
      >
        <img
          key={img.id + ':' + current + (showOverride ? ':v' : '')}
          {...slideImage(img, MAIN_SIZES, name)}
          loading="eager"
          fetchPriority={current === 0 && !showOverride ? 'high' : undefined}
          decoding={current === 0 ? undefined : 'async'}
          className="wp-post-image"
        />
        {settings.zoom && <span ref={zoomPane} className="product-gallery__zoom" aria-hidden="true" />}
      </figure>
      {lightboxOn && mounted && (
        // Its tooltip repeats its name for sighted users (describes nothing).
        <Tooltip content="View full-screen" describe={false} className="product-gallery__trigger-wrap">
        <button
          ref={trigger}
          type="button"
          className="product-gallery__trigger"
          aria-label="View full-screen"
          aria-haspopup="dialog"
          onPointerEnter={() => void loadLightbox().catch(() => {})}
          onFocus={() => void loadLightbox().catch(() => {})}
          onClick={() => open(index)}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M15.5 15.5 21 21M10.5 7.5v6M7.5 10.5h6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        </Tooltip>
      )}
      {loadFailed && (
        <p className="product-gallery__notice" role="alert">
          The content could not be loaded.
        </p>
      )}
      {LightboxComponent && lightbox && (
        <LightboxComponent images={images} productName={productName} index={lightbox.index} open={lightbox.open} onClose={close} />
      )}
      {images.length > 1 && (
        <ul className="product-gallery__thumbs flex-control-thumbs">
          {images.map((im, i) => (
            <li key={im.id + ':' + i}>
              <button
                type="button"
                className={'product-gallery__thumb' + (i === current ? ' is-active' : '')}
                aria-label={`Show image ${i + 1} of ${images.length}`}
                aria-pressed={i === current}
                onClick={() => {
                  setCurrent(i);
                  setOverrideOn(false);
                }}
              >
                <LazyImage src={im.thumbnail || im.src} alt="" width={100} height={100} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
