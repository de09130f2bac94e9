// Keeping Tab inside a modal (a dialog, a drawer, a prompt): Tab from the last
// stop goes to the first, Shift+Tab from the first goes to the last, and any
// other key or stop is left to the browser.

/** What can take the focus by Tab, but for disabled controls and elements taken out of the order. */
export const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The stop Tab (or Shift+Tab, backwards) should wrap to from active among
 * stops in their order, or null to let the browser move on. With root given,
 * Shift+Tab from root itself (a container that holds the focus) wraps to the
 * last stop too.
 */
export function wrapAmong(stops: HTMLElement[], active: Element | null, backwards: boolean, root?: Element): HTMLElement | null {
  if (stops.length === 0) return null;
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (backwards && (active === first || (root !== undefined && active === root))) return last;
  if (!backwards && active === last) return first;
  return null;
}

/**
 * The key handler's part that keeps Tab inside: on Tab it finds the stops
 * (only then) and, where the focus has to wrap, moves it there in place of
 * the browser.
 */
export function keepTabInside(e: { key: string; shiftKey: boolean; preventDefault(): void }, stops: () => HTMLElement[], root?: Element): void {
  if (e.key !== 'Tab') return;
  const target = wrapAmong(stops(), document.activeElement, e.shiftKey, root);
  if (target) {
    e.preventDefault();
    target.focus();
  }
}

/** The stops below root, in document order. */
export function stopsIn(root: ParentNode | null | undefined, selector: string = FOCUSABLE): HTMLElement[] {
  return Array.from(root?.querySelectorAll<HTMLElement>(selector) ?? []);
}

/** The stops below root but for those inside a hidden part. */
export function shownStopsIn(root: ParentNode): HTMLElement[] {
  return stopsIn(root).filter((el) => !el.closest('[hidden]'));
}
