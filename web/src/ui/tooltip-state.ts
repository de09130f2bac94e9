// The tooltip's states and timings (spec sections 4 and 9), without React.

/** Spec section 4: hidden, appearing, shown, disappearing. */
export type TooltipState = 'hidden' | 'appearing' | 'shown' | 'disappearing';

export type TooltipKind = 'product' | 'default';

export interface TooltipTiming {
  /** How long the pointer or focus rests before the tooltip starts to appear. */
  showDelay: number;
  /** How long after the pointer and focus leave it starts to disappear. */
  hideDelay: number;
  /** The fade in or out. */
  speed: number;
}

/**
 * Spec section 9: the product tooltip (swatches) waits 200 ms and fades in
 * 350 ms; its delay is one value for showing and hiding. The other tooltips
 * show after 100 ms and hide after 100 ms; the spec gives them no speed, so
 * they fade in 150 ms.
 */
export const TOOLTIP_TIMING: Record<TooltipKind, TooltipTiming> = {
  product: { showDelay: 200, hideDelay: 200, speed: 350 },
  default: { showDelay: 100, hideDelay: 100, speed: 150 },
};

/** Spec section 9: max width 250 px, opacity .95 (tooltip.css). */
export const TOOLTIP_MAX_WIDTH = 250;
export const TOOLTIP_OPACITY = 0.95;

/**
 * What happens to a tooltip: the trigger or the tooltip is hovered or
 * focused (want true) or no longer (want false), a timer ran out, or
 * Escape dismissed it.
 */
export type TooltipEvent = { type: 'want'; want: boolean } | { type: 'timer' } | { type: 'escape' };

/** A timer to start (ms), none (any running one is cancelled), or the running one kept. */
export type TooltipTimer = number | null | 'keep';

/**
 * The next state, and what becomes of the timer. A tooltip wanted while
 * hidden waits showDelay, then appears for speed ms; one no longer wanted
 * while shown waits hideDelay, then disappears for speed ms. Wanted again
 * while disappearing, it appears again at once; left while appearing, it
 * disappears at once. Escape hides it at once. pending says whether a
 * timer runs.
 */
export function nextTooltip(
  state: TooltipState,
  pending: boolean,
  ev: TooltipEvent,
  t: TooltipTiming,
): { state: TooltipState; timer: TooltipTimer } {
  if (ev.type === 'escape') return { state: 'hidden', timer: null };
  if (ev.type === 'want' && ev.want) {
    switch (state) {
      case 'hidden':
        return { state, timer: pending ? 'keep' : t.showDelay };
      case 'appearing':
        return { state, timer: 'keep' };
      case 'shown':
        return { state, timer: null }; // a pending hide is dropped
      case 'disappearing':
        return { state: 'appearing', timer: t.speed };
    }
  }
  if (ev.type === 'want') {
    switch (state) {
      case 'hidden':
        return { state, timer: null }; // a pending show is dropped
      case 'appearing':
        return { state: 'disappearing', timer: t.speed };
      case 'shown':
        return { state, timer: pending ? 'keep' : t.hideDelay };
      case 'disappearing':
        return { state, timer: 'keep' };
    }
  }
  switch (state) {
    case 'hidden':
      return { state: 'appearing', timer: t.speed };
    case 'appearing':
      return { state: 'shown', timer: null };
    case 'shown':
      return { state: 'disappearing', timer: t.speed };
    case 'disappearing':
      return { state: 'hidden', timer: null };
  }
}
