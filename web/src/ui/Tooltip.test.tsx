import { act, fireEvent, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { Tooltip } from './Tooltip';
import { nextTooltip, TOOLTIP_TIMING, type TooltipState } from './tooltip-state';

const P = TOOLTIP_TIMING.product;
const D = TOOLTIP_TIMING.default;

describe('nextTooltip', () => {
  it('has the spec timings', () => {
    expect(P).toEqual({ showDelay: 200, hideDelay: 200, speed: 350 });
    expect(D.showDelay).toBe(100);
    expect(D.hideDelay).toBe(100);
  });

  it.each<[TooltipState, boolean, Parameters<typeof nextTooltip>[2], TooltipState, number | null | 'keep']>([
    ['hidden', false, { type: 'want', want: true }, 'hidden', 200],
    ['hidden', true, { type: 'want', want: true }, 'hidden', 'keep'],
    ['hidden', true, { type: 'want', want: false }, 'hidden', null],
    ['hidden', true, { type: 'timer' }, 'appearing', 350],
    ['appearing', true, { type: 'timer' }, 'shown', null],
    ['appearing', true, { type: 'want', want: true }, 'appearing', 'keep'],
    ['appearing', true, { type: 'want', want: false }, 'disappearing', 350],
    ['shown', false, { type: 'want', want: false }, 'shown', 200],
    ['shown', true, { type: 'want', want: true }, 'shown', null],
    ['shown', true, { type: 'timer' }, 'disappearing', 350],
    ['disappearing', true, { type: 'want', want: true }, 'appearing', 350],
    ['disappearing', true, { type: 'want', want: false }, 'disappearing', 'keep'],
    ['disappearing', true, { type: 'timer' }, 'hidden', null],
    ['shown', false, { type: 'escape' }, 'hidden', null],
    ['appearing', true, { type: 'escape' }, 'hidden', null],
  ])('%s (timer running: %s) + %j -> %s, timer %s', (state, pending, ev, want, timer) => {
    expect(nextTooltip(state, pending, ev, P)).toEqual({ state: want, timer });
  });
});

describe('Tooltip', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const tip = () => screen.getByRole('tooltip', { hidden: true });
  const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
  // A product swatch with the "Navy" tooltip; returns the element the pointer hovers.
  const hoverSwatch = () => {
    render(
      <Tooltip content="Navy" kind="product">
        <span>swatch</span>
      </Tooltip>,
    );
    return tip().parentElement!;
  };

  it('is in the server HTML, hidden, and describes its element', () => {
    const html = renderToString(
      <Tooltip content="Out of stock">
        <button type="button">XS</button>
      </Tooltip>,
    );
    expect(html).toMatch(/role="tooltip"[^>]*hidden/);
    render(
      <Tooltip content="Out of stock">
        <button type="button">XS</button>
      </Tooltip>,
    );
    expect(screen.getByRole('button', { name: 'XS' })).toHaveAccessibleDescription('Out of stock');
    expect(tip()).not.toBeVisible();
  });

  it('appears on hover after the product delay, fades in, stays while the tooltip is hovered, hides after the delay', () => {
    render(
      <Tooltip content="Navy" kind="product">
        <span tabIndex={0}>swatch</span>
      </Tooltip>,
    );
    const anchor = tip().parentElement!;
    fireEvent.mouseEnter(anchor);
    advance(199);
    expect(tip()).toHaveAttribute('data-state', 'hidden');
    advance(1);
    expect(tip()).toHaveAttribute('data-state', 'appearing');
    expect(tip()).toBeVisible();
    expect(tip().style.getPropertyValue('--tooltip-speed')).toBe('350ms');
    advance(350);
    expect(tip()).toHaveAttribute('data-state', 'shown');
    // Moving onto the tooltip stays inside the anchor: it stays (WCAG 1.4.13 hoverable).
    fireEvent.mouseOver(tip());
    advance(5000);
    expect(tip()).toHaveAttribute('data-state', 'shown');
    fireEvent.mouseLeave(anchor);
    advance(199);
    expect(tip()).toHaveAttribute('data-state', 'shown');
    advance(1);
    expect(tip()).toHaveAttribute('data-state', 'disappearing');
    advance(350);
    expect(tip()).toHaveAttribute('data-state', 'hidden');
    expect(tip()).not.toBeVisible();
  });

  it('uses 100 ms delays for the others, and shows on focus', () => {
    render(
      <Tooltip content="View full-screen" describe={false}>
        <button type="button" aria-label="View full-screen">
          +
        </button>
      </Tooltip>,
    );
    const button = screen.getByRole('button', { name: 'View full-screen' });
    expect(button).not.toHaveAttribute('aria-describedby');
    expect(tip()).toHaveAttribute('aria-hidden', 'true');
    act(() => button.focus());
    advance(99);
    expect(tip()).toHaveAttribute('data-state', 'hidden');
    advance(1 + D.speed);
    expect(tip()).toHaveAttribute('data-state', 'shown');
    act(() => button.blur());
    advance(100 + D.speed);
    expect(tip()).toHaveAttribute('data-state', 'hidden');
  });

  it('hides on Escape and stays hidden until the pointer and focus have left', () => {
    render(
      <Tooltip content="Out of stock">
        <button type="button">XS</button>
      </Tooltip>,
    );
    const button = screen.getByRole('button');
    const anchor = tip().parentElement!;
    fireEvent.mouseEnter(anchor);
    act(() => button.focus());
    advance(100 + D.speed);
    expect(tip()).toBeVisible();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(tip()).toHaveAttribute('data-state', 'hidden');
    fireEvent.mouseLeave(anchor);
    fireEvent.mouseEnter(anchor); // still focused: stays dismissed
    advance(1000);
    expect(tip()).toHaveAttribute('data-state', 'hidden');
    fireEvent.mouseLeave(anchor);
    act(() => button.blur());
    fireEvent.mouseEnter(anchor); // a new hover shows it again
    advance(100 + D.speed);
    expect(tip()).toHaveAttribute('data-state', 'shown');
  });

  it('leaving while it appears makes it disappear at once; coming back while it disappears brings it back', () => {
    const anchor = hoverSwatch();
    fireEvent.mouseEnter(anchor);
    advance(200 + 100);
    expect(tip()).toHaveAttribute('data-state', 'appearing');
    fireEvent.mouseLeave(anchor);
    expect(tip()).toHaveAttribute('data-state', 'disappearing');
    fireEvent.mouseEnter(anchor);
    expect(tip()).toHaveAttribute('data-state', 'appearing');
    advance(350);
    expect(tip()).toHaveAttribute('data-state', 'shown');
  });

  it('never shows when the pointer only passes by', () => {
    const anchor = hoverSwatch();
    fireEvent.mouseEnter(anchor);
    advance(150);
    fireEvent.mouseLeave(anchor);
    advance(1000);
    expect(tip()).toHaveAttribute('data-state', 'hidden');
  });
});
