// Moving the focus after an action, in the same commit as what the action
// shows. A refused save renders its field messages and focuses the first
// refused field before the browser paints, so a screen reader reads the field
// with its message and no one (person or test) ever sees the message on a
// field that does not have the focus yet. requestAnimationFrame left a frame
// between the two, long enough on a loaded machine to be seen.

import { useCallback, useLayoutEffect, useRef, useState } from 'react';

type Target = () => HTMLElement | null | undefined;

/**
 * Returns focusAfterCommit(target): call it next to the state updates of an
 * action; target runs once the render those updates cause is in the DOM
 * (in a layout effect, before paint) and its element gets the focus.
 */
export function useFocusAfterCommit(): (target: Target) => void {
  const pending = useRef<Target | null>(null);
  const [request, setRequest] = useState(0);
  useLayoutEffect(() => {
    const target = pending.current;
    pending.current = null;
    target?.()?.focus();
  }, [request]);
  return useCallback((target: Target) => {
    pending.current = target;
    setRequest((n) => n + 1);
  }, []);
}
