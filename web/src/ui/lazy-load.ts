/**
 * When lazy media come near enough to load (spec section 9, the lazy-load
 * constants). One IntersectionObserver watches every lazy image: its margin
 * is `expand` px on every side (500 on a viewport larger than 500×500, 370
 * on a smaller one), and once the page has loaded it grows by the expansion
 * factor (1.5) so the next screenful is fetched ahead ("load mode 2").
 * The observer replaces the 125 ms scroll throttle: the browser reports
 * intersections itself, off the scroll path.
 */
export const LAZY = {
  /** Margin on a large viewport, px. */
  expandLarge: 500,
  /** Margin on a viewport of 500 px or less in either direction, px. */
  expandSmall: 370,
  /** Growth of the margin after the page's load event. */
  expFactor: 1.5,
  /** Images smaller than this (px, both sides) are not worth deferring: they load with the page. */
  minSize: 40,
} as const;

/** The margin for a viewport of width × height (lazysizes' rule). */
export function expandFor(width: number, height: number): number {
  return width > 500 && height > 500 ? LAZY.expandLarge : LAZY.expandSmall;
}

type Start = () => void;

const pending = new Map<Element, Start>();
let observer: IntersectionObserver | null = null;
let factor = 1;
let loadHooked = false;

function onEntries(entries: IntersectionObserverEntry[]) {
  for (const e of entries) {
    if (!e.isIntersecting) continue;
    const start = pending.get(e.target);
    pending.delete(e.target);
    observer?.unobserve(e.target);
    start?.();
  }
}

function ensureObserver(): IntersectionObserver {
  if (observer) return observer;
  const margin = Math.round(expandFor(window.innerWidth, window.innerHeight) * factor);
  observer = new IntersectionObserver(onEntries, { rootMargin: `${margin}px ${margin}px ${margin}px ${margin}px` });
  for (const el of pending.keys()) observer.observe(el);
  return observer;
}

/** After load: a wider margin, the same elements watched. */
function widen() {
  factor = LAZY.expFactor;
  observer?.disconnect();
  observer = null;
  if (pending.size > 0) ensureObserver();
}

/** The observer's margin right now, px (tests). */
export function currentMargin(): number {
  return Math.round(expandFor(window.innerWidth, window.innerHeight) * factor);
}

/**
 * Calls start once el comes within the margin of the viewport, and answers
 * a function that stops watching. Without IntersectionObserver (very old
 * browsers) start runs at once: the image loads as an eager one would.
 */
export function whenNear(el: Element, start: Start): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    start();
    return () => {};
  }
  if (!loadHooked) {
    loadHooked = true;
    if (document.readyState === 'complete') factor = LAZY.expFactor;
    else window.addEventListener('load', widen, { once: true });
  }
  pending.set(el, start);
  ensureObserver().observe(el);
  return () => {
    pending.delete(el);
    observer?.unobserve(el);
  };
}

/** Forget every watched element and the page-load state (tests). */
export function resetLazyLoad() {
  observer?.disconnect();
  observer = null;
  pending.clear();
  factor = 1;
  loadHooked = false;
}
