// The full-screen gallery lightbox. Loaded only by a dynamic import() on the
// first open (Gallery.tsx), so neither the library nor its CSS is in the
// first-load JavaScript, and the server render never runs it.
import { createContext, useContext } from 'react';
import Lightbox, { type SlideImage } from 'yet-another-react-lightbox';
import Counter from 'yet-another-react-lightbox/plugins/counter';
import Zoom from 'yet-another-react-lightbox/plugins/zoom';
import 'yet-another-react-lightbox/styles.css';
import 'yet-another-react-lightbox/plugins/counter.css';
import type { StoreImage } from '../types';
import { decodeEntities } from '../lib/format';
import { imageErrorMessage, parseSrcset } from './gallery-helpers';

export interface GalleryLightboxProps {
  images: StoreImage[];
  productName: string;
  index: number;
  open: boolean;
  onClose: () => void;
}

// Which slide an error message belongs to: the library's iconError hook takes
// no arguments, so each slide's container provides its 1-based number.
const SlideNumber = createContext(0);

function ImageError({ images }: { images: StoreImage[] }) {
  const n = useContext(SlideNumber);
  const src = images[n - 1]?.src;
  const msg = imageErrorMessage(images.length, n);
  return (
    <p className="product-lightbox__error" role="alert">
      {images.length > 1 && src ? (
        <>
          <a href={src}>{msg.link}</a>
          {msg.rest}
        </>
      ) : (
        msg.link + msg.rest
      )}
    </p>
  );
}

export default function GalleryLightbox({ images, productName, index, open, onClose }: GalleryLightboxProps) {
  const name = decodeEntities(productName);
  const slides: SlideImage[] = images.map((im) => ({
    src: im.src,
    alt: decodeEntities(im.alt) || name,
    width: im.width || undefined,
    height: im.height || undefined,
    srcSet: parseSrcset(im.srcset, im.width, im.height),
  }));
  return (
    <Lightbox
      open={open}
      close={onClose}
      index={index}
      slides={slides}
      plugins={[Zoom, Counter]}
      className="product-lightbox"
      labels={{ Close: 'Close (Esc)', Lightbox: `${name}: images`, 'Photo gallery': `${name}: images` }}
      // Spec section 9: swipe 250-400 ms, zoom 300 ms, preload 1 nearby image.
      animation={{ fade: 250, swipe: 350, zoom: 300 }}
      carousel={{ preload: 1, finite: images.length <= 1 }}
      zoom={{ maxZoomPixelRatio: 3, doubleTapDelay: 300, doubleClickDelay: 300 }}
      controller={{ closeOnBackdropClick: true }}
      counter={{ separator: '/' }}
      render={{
        iconError: () => <ImageError images={images} />,
        slideContainer: ({ slide, children }) => (
          <SlideNumber.Provider value={slides.indexOf(slide as SlideImage) + 1}>{children}</SlideNumber.Provider>
        ),
        ...(images.length <= 1 ? { buttonPrev: () => null, buttonNext: () => null } : {}),
      }}
    />
  );
}
