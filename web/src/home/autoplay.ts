// The hero carousel's autoplay (spec sections 4 and 9), without React.

/** Spec section 4: stopped, playing, paused. */
export type AutoplayState = 'stopped' | 'playing' | 'paused';

/** Spec section 9: a slide every 3000 ms. */
export const AUTOPLAY_MS = 3000;

export interface AutoplayInputs {
  /** The shopper stopped it with the button (or never started it under reduced motion). */
  stopped: boolean;
  /** The pointer is over the carousel. */
  hovered: boolean;
  /** Focus is inside the carousel. */
  focused: boolean;
}

/**
 * Stopped is the shopper's choice and lasts until they press Play; paused
 * is the carousel waiting while it is hovered or holds focus (WCAG 2.2.2),
 * and ends by itself when both have left; playing otherwise.
 */
export function autoplayState({ stopped, hovered, focused }: AutoplayInputs): AutoplayState {
  if (stopped) return 'stopped';
  return hovered || focused ? 'paused' : 'playing';
}

/** The rotation button's label in each state (APG carousel pattern). */
export function rotationLabel(state: AutoplayState): string {
  return state === 'stopped' ? 'Start automatic slide show' : 'Stop automatic slide show';
}
