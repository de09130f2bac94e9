// The listing sidebar's sticky positions (spec sections 4, 5 and 9), without React.

/** Spec section 4. */
export type StickyPosition = 'static' | 'viewport-top' | 'viewport-bottom' | 'container-bottom' | 'viewport-unbottom';

/** Spec section 9: only at 850 px and wider. */
export const STICKY_MIN_WIDTH = 850;
/** Spec section 9: top spacing is the header's height plus 15 px; bottom spacing 15 px. */
export const STICKY_GAP = 15;

/** Where things are, in document pixels. */
export interface StickyMeasure {
  /** window.scrollY. */
  scrollY: number;
  viewportHeight: number;
  /** The sidebar's column (its top is where the sidebar starts). */
  containerTop: number;
  containerHeight: number;
  sidebarHeight: number;
  topSpacing: number;
  bottomSpacing: number;
}

/** A position and the sidebar's offset from the container's top. */
export interface Sticky {
  position: StickyPosition;
  offset: number;
}

export const STATIC: Sticky = { position: 'static', offset: 0 };

/**
 * The next position of the sidebar as the page scrolls (down: the page
 * moved towards its end since the last call).
 *
 * - static: in its place, while the viewport has not reached it, or when it
 *   is as tall as the content beside it.
 * - A sidebar that fits the viewport sticks under the header (viewport-top)
 *   until its bottom meets the container's (container-bottom).
 * - A taller one scrolls with the page until its bottom shows, then sticks
 *   there (viewport-bottom); scrolling back up it is left where it was and
 *   scrolls with the page (viewport-unbottom) until its top shows, then sticks
 *   under the header (viewport-top); scrolling down again from there it is
 *   left in place once more (viewport-unbottom) until its bottom shows.
 *   It never leaves its container (container-bottom).
 */
export function nextSticky(prev: Sticky, m: StickyMeasure, down: boolean): Sticky {
  const colliderTop = m.scrollY + m.topSpacing;
  const colliderBottom = m.scrollY + m.viewportHeight - m.bottomSpacing;
  const maxOffset = m.containerHeight - m.sidebarHeight;
  if (colliderTop <= m.containerTop || maxOffset <= 0) return STATIC;
  const containerBottom = m.containerTop + m.containerHeight;
  const clamp = (o: number) => Math.round(Math.min(Math.max(o, 0), maxOffset));
  const fits = m.sidebarHeight + m.topSpacing + m.bottomSpacing <= m.viewportHeight;

  if (fits) {
    if (colliderTop + m.sidebarHeight >= containerBottom) return { position: 'container-bottom', offset: maxOffset };
    return { position: 'viewport-top', offset: clamp(colliderTop - m.containerTop) };
  }
  // Where the sidebar's top is now, in the document.
  const top = m.containerTop + (prev.position === 'static' ? 0 : prev.offset);
  if (colliderBottom >= containerBottom && (down || prev.position === 'container-bottom')) {
    return { position: 'container-bottom', offset: maxOffset };
  }
  if (down) {
    if (top + m.sidebarHeight <= colliderBottom) {
      return { position: 'viewport-bottom', offset: clamp(colliderBottom - m.sidebarHeight - m.containerTop) };
    }
    if (prev.position === 'viewport-top' || prev.position === 'viewport-unbottom') {
      return { position: 'viewport-unbottom', offset: clamp(top - m.containerTop) };
    }
    return prev.position === 'static' ? STATIC : prev;
  }
  if (colliderTop <= top) return { position: 'viewport-top', offset: clamp(colliderTop - m.containerTop) };
  if (prev.position === 'viewport-bottom' || prev.position === 'viewport-unbottom' || prev.position === 'container-bottom') {
    return { position: 'viewport-unbottom', offset: clamp(top - m.containerTop) };
  }
  return prev;
}

/**
 * The inline style of the sidebar's inner box for a position: fixed under
 * the header or above the viewport's bottom; otherwise moved down its
 * column by the offset (the column keeps its place in the layout). A fixed
 * box sits at the viewport's top and is moved into place by a transform, so
 * following the header as it hides and shows moves it without a layout
 * (a change of top would count as a layout shift at every scroll).
 */
export function stickyStyle(
  s: Sticky,
  m: Pick<StickyMeasure, 'viewportHeight' | 'sidebarHeight' | 'topSpacing' | 'bottomSpacing'>,
  box: { left: number; width: number },
): Partial<Record<'position' | 'top' | 'left' | 'width' | 'transform', string>> {
  const fixedAt = (y: number) => ({ position: 'fixed', top: '0px', left: `${box.left}px`, width: `${box.width}px`, transform: `translateY(${y}px)` });
  switch (s.position) {
    case 'static':
      return {};
    case 'viewport-top':
      return fixedAt(m.topSpacing);
    case 'viewport-bottom':
      return fixedAt(m.viewportHeight - m.bottomSpacing - m.sidebarHeight);
    case 'container-bottom':
    case 'viewport-unbottom':
      return { position: 'relative', transform: `translateY(${s.offset}px)` };
  }
}
