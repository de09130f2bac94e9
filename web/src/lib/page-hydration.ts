import { useEffect } from 'react';

/**
 * When the page inside App's Suspense boundary has hydrated. React hydrates
 * that boundary in a pass of its own, after the layout around it (the header
 * and its currency switchers) has hydrated and run its effects. Code that
 * rewrites the server's HTML of the page from outside React (the price
 * refresh, currency/refresh.ts) waits for it: HTML changed before then is
 * HTML React did not render, and React throws the page's server HTML away
 * and renders it again (error #418, "hydration mismatch").
 */
let gate: Promise<void> | null = null;
let open: (() => void) | null = null;

/** entry-client, before hydrateRoot: from now on pageHydrated() waits for PageHydrated's effect. */
export function expectPageHydration(): void {
  gate = new Promise((resolve) => {
    open = resolve;
  });
}

/** Resolves once the page has hydrated; at once where nothing hydrates (a client render, the unit tests). */
export function pageHydrated(): Promise<void> {
  return gate ?? Promise.resolve();
}

/** Rendered last inside App's Suspense boundary: its effect runs when the page's hydration commits. */
export function PageHydrated(): null {
  useEffect(() => {
    open?.();
  }, []);
  return null;
}
