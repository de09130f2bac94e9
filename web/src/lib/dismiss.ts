// Closing a popup (a dropdown, a menu) the way people expect: a pointer press
// outside it, or Escape wherever the focus is (unless something inside
// already handled that Escape).

import { useEffect, useRef, type RefObject } from 'react';

/**
 * While open: a pointer press outside root calls onOutside, and Escape not
 * already handled (defaultPrevented) calls onEscape. The handlers may change
 * from render to render; the latest ones are called.
 */
export function useDismiss(open: boolean, root: RefObject<HTMLElement | null>, onOutside: () => void, onEscape: () => void) {
  const handlers = useRef({ onOutside, onEscape });
  handlers.current = { onOutside, onEscape };
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) handlers.current.onOutside();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      handlers.current.onEscape();
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, root]);
}
