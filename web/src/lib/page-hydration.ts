import { useEffect, type RefObject } from 'react';
import { partsHydrated } from './hydrate-later';

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

/**
 * Rendered last inside App's Suspense boundary: its effect runs when the
 * page's first hydration pass commits, and the gate opens once the parts
 * left out of that pass (lib/hydrate-later.tsx) have hydrated too.
 */
export function PageHydrated(): null {
  useEffect(() => {
    void partsHydrated().then(() => {
      // From now on the head script lets held forms submit (render.HeadScript).
      document.documentElement.setAttribute('data-hydrated', '');
      open?.();
    });
  }, []);
  return null;
}

/**
 * For a form marked data-hold-until-hydrated: the head script holds a submit
 * made before the app has hydrated (the app's onSubmit, which obtains the
 * bot-check proof, was not there yet) and marks the form data-held. Once the
 * page has hydrated, the held submit is made again, through the app, with
 * the button that was pressed: the shopper's press is not lost.
 */
export function useHeldSubmit(form: RefObject<HTMLFormElement | null>, submitter: RefObject<HTMLButtonElement | null>): void {
  useEffect(() => {
    let live = true;
    void pageHydrated().then(() => {
      const f = form.current;
      if (!live || !f?.hasAttribute('data-held')) return;
      f.removeAttribute('data-held');
      f.requestSubmit(submitter.current ?? undefined);
    });
    return () => {
      live = false;
    };
  }, [form, submitter]);
}
