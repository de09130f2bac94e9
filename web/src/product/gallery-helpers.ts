// Small pure helpers of the gallery, its lightbox and hover zoom.

import { decodeEntities } from '../lib/format';
import type { StoreImage } from '../types';

/** "a.jpg 300w, b.jpg 600w" -> [{src, width, height}] with heights from the image's ratio. */
export function parseSrcset(srcset: string, width: number, height: number) {
  if (!srcset) return undefined;
  const out: { src: string; width: number; height: number }[] = [];
  for (const part of srcset.split(',')) {
    const m = /^\s*(\S+)\s+(\d+)w\s*$/.exec(part);
    if (!m) continue;
    const w = Number(m[2]);
    out.push({ src: m[1], width: w, height: width > 0 && height > 0 ? Math.round((w * height) / width) : w });
  }
  return out.length > 0 ? out : undefined;
}

/** The largest source of an image (its srcset's widest candidate, else src), for the hover zoom. */
export function largestSource(im: { src: string; srcset: string; width: number; height: number }): string {
  const set = parseSrcset(im.srcset, im.width, im.height);
  if (!set) return im.src;
  const best = set.reduce((a, b) => (b.width > a.width ? b : a));
  return best.width > (im.width || 0) ? best.src : im.src;
}

/**
 * Spec section 8 messages for an image that fails in the lightbox: in a
 * gallery "The image #%curr% could not be loaded." (the first part is a link
 * to the image), for a single image "The image could not be loaded."
 */
export function imageErrorMessage(count: number, current: number): { link: string; rest: string } {
  if (count > 1 && current >= 1) {
    return { link: 'The image #%curr%'.replace('%curr%', String(current)), rest: ' could not be loaded.' };
  }
  return { link: 'The image', rest: ' could not be loaded.' };
}

/**
 * Hover zoom: where the pointer is over the image, as background-position
 * percentages (0..100 on each axis), clamped to the image.
 */
export function zoomOrigin(
  clientX: number,
  clientY: number,
  rect: { left: number; top: number; width: number; height: number },
): { x: number; y: number } {
  const clamp = (n: number) => Math.min(100, Math.max(0, n));
  const x = rect.width > 0 ? ((clientX - rect.left) / rect.width) * 100 : 50;
  const y = rect.height > 0 ? ((clientY - rect.top) / rect.height) * 100 : 50;
  return { x: clamp(Math.round(x * 100) / 100), y: clamp(Math.round(y * 100) / 100) };
}

let lightboxModule: Promise<typeof import('./GalleryLightbox')> | null = null;

/** Loads the lightbox chunk once (first open, or early on hover/focus of the trigger). */
export function loadLightbox() {
  if (!lightboxModule) {
    lightboxModule = import('./GalleryLightbox').catch((err) => {
      lightboxModule = null; // let a later open try again
      throw err;
    });
  }
  return lightboxModule;
}

/**
 * A product image's attributes as a slide shows it: its sources for sizes,
 * its size (800 px square when unknown) and its alt text, else the product's
 * name.
 */
export function slideImage(img: StoreImage, sizes: string, name: string) {
  return {
    src: img.src,
    srcSet: img.srcset || undefined,
    sizes: img.srcset ? sizes : undefined,
    width: img.width || 800,
    height: img.height || 800,
    alt: decodeEntities(img.alt) || name,
  };
}
