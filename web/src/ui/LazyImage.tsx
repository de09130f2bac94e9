import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { LAZY, whenNear } from './lazy-load';

/** The spec's lazy-load classes, in the order an image goes through them (section 4). */
export type LazyPhase = 'lazyload' | 'lazyloading' | 'lazyloaded' | 'lazyerror';

export interface LazyImageProps {
  src: string;
  srcSet?: string;
  sizes?: string;
  /** Intrinsic size: always given, so the box is reserved before the image arrives. */
  width: number;
  height: number;
  alt: string;
  className?: string;
  /** Above the fold (the first row of a listing, the product's main image): load with the page. */
  eager?: boolean;
  /**
   * With eager: a plain image with src the browser fetches once its layout
   * shows it near the viewport (loading="lazy"), not with the document:
   * no script needed, and the page's first requests are the stylesheet and
   * the eager pictures alone.
   */
  nativeLazy?: boolean;
  fetchPriority?: 'high' | 'low' | 'auto';
}

function join(...names: (string | undefined | false)[]): string {
  return names.filter(Boolean).join(' ');
}

/**
 * An image that loads when it comes near the viewport (lazy-load.ts), with
 * the spec's classes: lazyload until then, lazyloading while it downloads,
 * lazyloaded or lazyerror after. Its width and height (and an aspect-ratio
 * from them) keep its box from moving anything when it arrives.
 *
 * The server renders it without src (data-src holds it), so the browser does
 * not fetch it with the page, and the first client render is the same markup;
 * a <noscript> copy with src and loading="lazy" shows the image without
 * scripts (the document's head hides the scripted copy then). Eager images,
 * and images under the minimum size, are plain images with src.
 */
export function LazyImage({ src, srcSet, sizes, width, height, alt, className, eager = false, nativeLazy = false, fetchPriority }: LazyImageProps) {
  const ref = useRef<HTMLImageElement>(null);
  // The phase of one source: a new source starts again from lazyload, in
  // the very render that brings it (an img that had a src keeps src="").
  const [state, setState] = useState<{ src: string; phase: LazyPhase }>({ src, phase: 'lazyload' });
  const phase = state.src === src ? state.phase : 'lazyload';
  const setPhase = (p: LazyPhase) => setState({ src, phase: p });
  const small = width < LAZY.minSize && height < LAZY.minSize;

  useEffect(() => {
    if (eager || small) return;
    const el = ref.current;
    if (!el) return;
    return whenNear(el, () => setState({ src, phase: 'lazyloading' }));
  }, [src, srcSet, eager, small]);

  const style: CSSProperties = { aspectRatio: `${width} / ${height}` };
  // The image with its source, as the eager image and the noscript copy write it.
  const plain = { src, srcSet: srcSet || undefined, sizes: srcSet ? sizes : undefined, width, height, alt, className };
  if (eager || small) {
    return (
      <img
        {...plain}
        style={style}
        loading={nativeLazy && eager ? 'lazy' : 'eager'}
        fetchPriority={fetchPriority}
        decoding={fetchPriority === 'high' ? undefined : 'async'}
      />
    );
  }
  const started = phase !== 'lazyload';
  return (
    <>
      <img
        key={src} // a new source is a new element, which never had a src
        ref={ref}
        src={started ? src : undefined}
        srcSet={started && srcSet ? srcSet : undefined}
        sizes={srcSet ? sizes : undefined}
        data-src={src}
        data-srcset={srcSet || undefined}
        width={width}
        height={height}
        alt={alt}
        className={join(className, phase)}
        style={style}
        decoding="async"
        onLoad={() => setPhase('lazyloaded')}
        onError={() => setPhase('lazyerror')}
      />
      <noscript>
        <img {...plain} loading="lazy" decoding="async" />
      </noscript>
    </>
  );
}
