import { useCallback, useEffect, useRef } from 'react';

/**
 * Runs a change now, or, while a pointer is pressed, once the press is over
 * (after its click). A press moves focus at its start: a field's blur
 * message shown then grows the form above the control being pressed (often
 * above the viewport, where Chrome's scroll anchoring then moves the other
 * column), so the release lands beside the control and no click happens: a
 * "Place order" or a payment method pressed while an empty required field
 * had focus did nothing.
 */
export function useAfterPress(): (fn: () => void) => void {
  const pressed = useRef(false);
  const queued = useRef<(() => void)[]>([]);
  useEffect(() => {
    const down = () => {
      pressed.current = true;
    };
    const up = () => {
      pressed.current = false;
      const fns = queued.current.splice(0);
      // The click is dispatched right after the release: run after it.
      if (fns.length > 0) setTimeout(() => fns.forEach((fn) => fn()), 0);
    };
    document.addEventListener('pointerdown', down, true);
    document.addEventListener('pointerup', up, true);
    document.addEventListener('pointercancel', up, true);
    return () => {
      document.removeEventListener('pointerdown', down, true);
      document.removeEventListener('pointerup', up, true);
      document.removeEventListener('pointercancel', up, true);
      queued.current = [];
    };
  }, []);
  return useCallback((fn: () => void) => {
    if (pressed.current) queued.current.push(fn);
    else fn();
  }, []);
}
