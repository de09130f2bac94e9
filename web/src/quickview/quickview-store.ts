import type { StoreProduct } from '../types';

/** A request to show a product in the quick-view dialog, from a card's button. */
export interface QuickViewRequest {
  product: StoreProduct;
  /** Focus returns here when the dialog closes. */
  opener: HTMLElement | null;
}

type Listener = (r: QuickViewRequest) => void;
let listener: Listener | null = null;

/** The dialog host (one, in the layout) subscribes; returns the unsubscribe. */
export function onQuickView(l: Listener): () => void {
  listener = l;
  return () => {
    if (listener === l) listener = null;
  };
}

/** Opens the quick view; false when no host is mounted (the caller then follows the link). */
export function openQuickView(r: QuickViewRequest): boolean {
  if (!listener) return false;
  listener(r);
  return true;
}
