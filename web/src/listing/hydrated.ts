import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while rendering on the server and during hydration, true afterwards
 * (and immediately for components first rendered in the browser). Script-only
 * controls (Quick view, live search ARIA, View more) appear only when it is
 * true, so the server HTML works without scripts and hydration matches it.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
