import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * The sticky header (spec sections 3, 4 and 9): it becomes stuck (fixed
 * at the top, its bar sticky_height tall) once the page has scrolled past
 * the header's own bottom, and unstuck when scrolled back above it. With
 * hide-on-scroll, a stuck header slides out of view while the shopper
 * scrolls down and back in when they scroll up; it never hides while it is
 * locked (focus inside it, or one of its menus open).
 */
export interface HeaderState {
  stuck: boolean;
  hidden: boolean;
}

export interface ScrollInput {
  /** The page's scroll offset now. */
  y: number;
  /** Where the last direction was decided (moves once a scroll passes SCROLL_TOLERANCE). */
  anchor: number;
  /** The header's bottom in the page: past it, the header sticks. */
  threshold: number;
  hideOnScroll: boolean;
  locked: boolean;
}

/** Scrolls smaller than this (px) decide no direction: no flicker on a trackpad's jitter. */
export const SCROLL_TOLERANCE = 6;

/** The header's next state for a scroll position (pure: the hook below feeds it). */
export function nextHeaderState(prev: HeaderState, i: ScrollInput): HeaderState {
  if (i.threshold <= 0 || i.y <= i.threshold) return { stuck: false, hidden: false };
  if (!i.hideOnScroll || i.locked) return { stuck: true, hidden: false };
  const dy = i.y - i.anchor;
  // Just stuck while going down: it stays out of sight until the shopper scrolls up.
  if (!prev.stuck) return { stuck: true, hidden: dy >= 0 };
  if (dy > SCROLL_TOLERANCE) return { stuck: true, hidden: true };
  if (dy < -SCROLL_TOLERANCE) return { stuck: true, hidden: false };
  return prev;
}

const unstuck: HeaderState = { stuck: false, hidden: false };

/**
 * Follows the page's scroll for the header: returns its state and, while
 * stuck, the height to reserve in its place (its natural height, so
 * nothing under it moves when it leaves the flow). Browser only: the
 * server render is always unstuck.
 */
export function useStickyHeader(
  wrap: RefObject<HTMLElement | null>,
  header: RefObject<HTMLElement | null>,
  { hideOnScroll, locked }: { hideOnScroll: boolean; locked: boolean },
): HeaderState & { reserved: number } {
  const [state, setState] = useState<HeaderState>(unstuck);
  const [reserved, setReserved] = useState(0);
  const current = useRef(state);
  const lockedRef = useRef(locked);
  const geom = useRef({ natural: 0, threshold: 0, anchor: 0 });

  const set = useCallback((next: HeaderState) => {
    if (next.stuck === current.current.stuck && next.hidden === current.current.hidden) return;
    current.current = next;
    setState(next);
  }, []);

  // The header's natural height and bottom, read while it is in the flow.
  const measure = useCallback(() => {
    const w = wrap.current;
    const h = header.current;
    if (!w || !h || current.current.stuck) return;
    const g = geom.current;
    g.natural = h.offsetHeight;
    g.threshold = w.getBoundingClientRect().top + window.scrollY + g.natural;
  }, [wrap, header]);

  const update = useCallback(() => {
    measure();
    const g = geom.current;
    const y = window.scrollY;
    const next = nextHeaderState(current.current, { y, anchor: g.anchor, threshold: g.threshold, hideOnScroll, locked: lockedRef.current });
    if (!next.stuck || Math.abs(y - g.anchor) > SCROLL_TOLERANCE) g.anchor = y;
    if (next.stuck && !current.current.stuck) setReserved(g.natural);
    set(next);
  }, [measure, set, hideOnScroll]);

  useEffect(() => {
    geom.current.anchor = window.scrollY;
    update();
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        update();
      });
    };
    // A resize may change the header's height: back in the flow to measure
    // it again, then stuck again at the next frame if still scrolled past.
    const onResize = () => {
      set(unstuck);
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        frame = 0;
        update();
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onResize);
      cancelAnimationFrame(frame);
    };
  }, [update, set]);

  // Unstuck again: measure before the next scroll reads the threshold.
  useLayoutEffect(() => {
    if (!state.stuck) measure();
  }, [state.stuck, measure]);

  // Focus came in or a menu opened: show it at once; released: follow the scroll again.
  useEffect(() => {
    lockedRef.current = locked;
    if (locked && current.current.hidden) set({ stuck: true, hidden: false });
  }, [locked, set]);

  return { ...state, reserved };
}
