import { describe, expect, it } from 'vitest';
import { nextHeaderState, SCROLL_TOLERANCE, type HeaderState, type ScrollInput } from './sticky';

const unstuck: HeaderState = { stuck: false, hidden: false };
const shown: HeaderState = { stuck: true, hidden: false };
const gone: HeaderState = { stuck: true, hidden: true };
const base: ScrollInput = { y: 0, anchor: 0, threshold: 120, hideOnScroll: false, locked: false };

describe('the sticky header state', () => {
  it('sticks only past the threshold (the header’s bottom) and unsticks at or above it', () => {
    expect(nextHeaderState(unstuck, { ...base, y: 120 })).toEqual(unstuck);
    expect(nextHeaderState(unstuck, { ...base, y: 121 })).toEqual(shown);
    expect(nextHeaderState(shown, { ...base, y: 60, anchor: 400 })).toEqual(unstuck);
    // Not measured yet (threshold 0): never stuck.
    expect(nextHeaderState(unstuck, { ...base, y: 500, threshold: 0 })).toEqual(unstuck);
  });

  it('without hide-on-scroll it never hides', () => {
    expect(nextHeaderState(shown, { ...base, y: 900, anchor: 300 })).toEqual(shown);
  });

  it('with hide-on-scroll: hidden going down, shown going up, unchanged within the tolerance', () => {
    const hide = { ...base, hideOnScroll: true };
    expect(nextHeaderState(unstuck, { ...hide, y: 300, anchor: 100 })).toEqual(gone); // stuck while going down
    expect(nextHeaderState(unstuck, { ...hide, y: 300, anchor: 400 })).toEqual(shown); // stuck while going up
    expect(nextHeaderState(gone, { ...hide, y: 300, anchor: 300 + SCROLL_TOLERANCE + 1 })).toEqual(shown);
    expect(nextHeaderState(shown, { ...hide, y: 300 + SCROLL_TOLERANCE + 1, anchor: 300 })).toEqual(gone);
    expect(nextHeaderState(gone, { ...hide, y: 300 - SCROLL_TOLERANCE, anchor: 300 })).toBe(gone);
    expect(nextHeaderState(shown, { ...hide, y: 300 + SCROLL_TOLERANCE, anchor: 300 })).toBe(shown);
  });

  it('never hides while locked (focus inside, a menu open)', () => {
    const hide = { ...base, hideOnScroll: true, locked: true };
    expect(nextHeaderState(gone, { ...hide, y: 900, anchor: 300 })).toEqual(shown);
    expect(nextHeaderState(unstuck, { ...hide, y: 900, anchor: 300 })).toEqual(shown);
  });
});
