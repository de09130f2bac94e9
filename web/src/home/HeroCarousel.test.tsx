import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { HeroCarousel } from './HeroCarousel';
import { HomePage } from './HomePage';
import { autoplayState, AUTOPLAY_MS, rotationLabel } from './autoplay';
import { heroSlides, homePage } from '../test/fixtures';

// A stand-in for Embla (jsdom has no layout): it keeps an index, moves it on
// scrollNext / scrollPrev / scrollTo and says "select", as Embla does.
const embla = vi.hoisted(() => {
  const listeners = new Map<string, Set<() => void>>();
  const api = {
    index: 0,
    count: 3,
    jumps: [] as boolean[],
    selectedScrollSnap: () => api.index,
    emit: (ev: string) => listeners.get(ev)?.forEach((fn) => fn()),
    on: (ev: string, fn: () => void) => {
      if (!listeners.has(ev)) listeners.set(ev, new Set());
      listeners.get(ev)!.add(fn);
      return api;
    },
    off: (ev: string, fn: () => void) => {
      listeners.get(ev)?.delete(fn);
      return api;
    },
    scrollTo: (i: number, jump = false) => {
      api.index = i;
      api.jumps.push(jump);
      api.emit('select');
    },
    scrollNext: (jump = false) => api.scrollTo((api.index + 1) % api.count, jump),
    scrollPrev: (jump = false) => api.scrollTo((api.index + api.count - 1) % api.count, jump),
    reset: () => {
      api.index = 0;
      api.jumps = [];
      listeners.clear();
    },
  };
  return api;
});

vi.mock('embla-carousel-react', async () => {
  const { useState } = await import('react');
  return {
    default: () => {
      const [attached, setAttached] = useState(false);
      return [(el: HTMLElement | null) => setAttached(!!el), attached ? embla : undefined];
    },
  };
});

let reduce = false;
const mqListeners = new Set<() => void>();

beforeEach(() => {
  embla.reset();
  reduce = false;
  mqListeners.clear();
  window.matchMedia = vi.fn().mockImplementation((q: string) => ({
    get matches() {
      return q === '(prefers-reduced-motion: reduce)' && reduce;
    },
    media: q,
    addEventListener: (_: string, fn: () => void) => mqListeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => mqListeners.delete(fn),
  })) as unknown as typeof window.matchMedia;
  vi.stubGlobal('ResizeObserver', class {});
  // Embla and the lazy images (category tiles) watch elements; nothing intersects here.
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
      takeRecords() {
        return [];
      }
    },
  );
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  delete (window as { matchMedia?: unknown }).matchMedia;
});

const carousel = () => screen.getByRole('region', { name: 'Featured collections' });
const dot = (n: number) => screen.getByRole('button', { name: `Page dot ${n}` });
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('autoplayState', () => {
  it.each([
    [{ stopped: false, hovered: false, focused: false }, 'playing'],
    [{ stopped: false, hovered: true, focused: false }, 'paused'],
    [{ stopped: false, hovered: false, focused: true }, 'paused'],
    [{ stopped: true, hovered: true, focused: false }, 'stopped'],
    [{ stopped: true, hovered: false, focused: false }, 'stopped'],
  ] as const)('%j -> %s', (inputs, want) => {
    expect(autoplayState(inputs)).toBe(want);
  });

  it('labels the rotation button', () => {
    expect(rotationLabel('playing')).toBe('Stop automatic slide show');
    expect(rotationLabel('paused')).toBe('Stop automatic slide show');
    expect(rotationLabel('stopped')).toBe('Start automatic slide show');
  });
});

describe('HeroCarousel', () => {
  it('server-renders the first slide with fixed dimensions, eager and high priority, the others lazy', () => {
    const html = renderToString(<HeroCarousel slides={heroSlides} />);
    const div = document.createElement('div');
    div.innerHTML = html;
    const imgs = div.querySelectorAll('img');
    expect(imgs).toHaveLength(3);
    expect(imgs[0]).toHaveAttribute('loading', 'eager');
    expect(imgs[0]).toHaveAttribute('fetchpriority', 'high');
    expect(imgs[0]).toHaveAttribute('width');
    expect(imgs[0]).toHaveAttribute('height');
    expect(imgs[1]).toHaveAttribute('loading', 'lazy');
    expect(imgs[2]).toHaveAttribute('loading', 'lazy');
    expect(imgs[1]).not.toHaveAttribute('fetchpriority');
    const slides = div.querySelectorAll('[aria-roledescription="slide"]');
    expect([...slides].map((s) => s.getAttribute('aria-label'))).toEqual(['1 of 3', '2 of 3', '3 of 3']);
    expect(slides[0]).not.toHaveAttribute('inert');
    expect(slides[1]).toHaveAttribute('inert');
    expect(div.querySelector('[aria-roledescription="carousel"]')).toHaveAttribute('data-autoplay', 'playing');
  });

  it('has the spec labels; the current dot is aria-current; Next, Previous and dots move', () => {
    render(<HeroCarousel slides={heroSlides} />);
    const c = carousel();
    expect(within(c).getByRole('button', { name: 'Previous' })).toBeInTheDocument();
    expect(dot(1)).toHaveAttribute('aria-current', 'true');
    expect(dot(2)).not.toHaveAttribute('aria-current');
    fireEvent.click(within(c).getByRole('button', { name: 'Next' }));
    expect(dot(2)).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('group', { name: '2 of 3' })).not.toHaveAttribute('inert');
    expect(screen.getByRole('group', { name: '1 of 3', hidden: true })).toHaveAttribute('inert');
    fireEvent.click(dot(3));
    expect(dot(3)).toHaveAttribute('aria-current', 'true');
    fireEvent.click(within(c).getByRole('button', { name: 'Previous' }));
    expect(dot(2)).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('heading', { name: 'Café things' })).toBeInTheDocument();
  });

  it('plays every 3 s with the live region off; pauses on hover and on focus; resumes when both leave', () => {
    render(<HeroCarousel slides={heroSlides} />);
    const c = carousel();
    const live = c.querySelector('[aria-live]')!;
    expect(c).toHaveAttribute('data-autoplay', 'playing');
    expect(live).toHaveAttribute('aria-live', 'off');
    advance(AUTOPLAY_MS - 1);
    expect(embla.index).toBe(0);
    advance(1);
    expect(embla.index).toBe(1);
    advance(AUTOPLAY_MS);
    expect(embla.index).toBe(2);

    fireEvent.mouseEnter(c);
    expect(c).toHaveAttribute('data-autoplay', 'paused');
    expect(live).toHaveAttribute('aria-live', 'polite');
    advance(AUTOPLAY_MS * 3);
    expect(embla.index).toBe(2);
    fireEvent.mouseLeave(c);
    expect(c).toHaveAttribute('data-autoplay', 'playing');
    advance(AUTOPLAY_MS);
    expect(embla.index).toBe(0); // wrapped around

    act(() => dot(2).focus());
    expect(c).toHaveAttribute('data-autoplay', 'paused');
    advance(AUTOPLAY_MS * 2);
    expect(embla.index).toBe(0);
    act(() => dot(2).blur());
    expect(c).toHaveAttribute('data-autoplay', 'playing');
  });

  it('is stopped by the rotation button and started again by it', () => {
    render(<HeroCarousel slides={heroSlides} />);
    const c = carousel();
    const rotation = within(c).getByRole('button', { name: 'Stop automatic slide show' });
    fireEvent.click(rotation);
    expect(c).toHaveAttribute('data-autoplay', 'stopped');
    expect(rotation).toHaveAccessibleName('Start automatic slide show');
    expect(c.querySelector('[aria-live]')).toHaveAttribute('aria-live', 'polite');
    advance(AUTOPLAY_MS * 3);
    expect(embla.index).toBe(0);
    fireEvent.click(rotation);
    expect(c).toHaveAttribute('data-autoplay', 'playing');
    advance(AUTOPLAY_MS);
    expect(embla.index).toBe(1);
  });

  it('never autoplays under reduced motion, and moves without animation', () => {
    reduce = true;
    render(<HeroCarousel slides={heroSlides} />);
    const c = carousel();
    expect(c).toHaveAttribute('data-autoplay', 'stopped');
    advance(AUTOPLAY_MS * 3);
    expect(embla.index).toBe(0);
    fireEvent.click(within(c).getByRole('button', { name: 'Next' }));
    expect(embla.jumps).toEqual([true]);
  });

  it('stops when the shopper turns reduced motion on while it plays', () => {
    render(<HeroCarousel slides={heroSlides} />);
    expect(carousel()).toHaveAttribute('data-autoplay', 'playing');
    reduce = true;
    act(() => mqListeners.forEach((fn) => fn()));
    expect(carousel()).toHaveAttribute('data-autoplay', 'stopped');
  });

  it('has no controls for a single slide', () => {
    render(<HeroCarousel slides={heroSlides.slice(0, 1)} />);
    expect(screen.queryByRole('button')).toBeNull();
    advance(AUTOPLAY_MS * 2);
    expect(embla.index).toBe(0);
  });
});

describe('HomePage', () => {
  it('shows the intro, the carousel, the featured row and the category tiles', () => {
    render(<HomePage data={homePage()} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Vitrine');
    expect(carousel()).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Featured' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Shop by category' })).toBeInTheDocument();
    // Below the hero, the featured cards' images are lazy.
    const featured = screen.getByRole('heading', { name: 'Featured' }).closest('section')!;
    // (LazyImage's lazyload class for cards beyond the first four, native lazy loading for the others.)
    const imgs = [...featured.querySelectorAll('img')];
    expect(imgs.length).toBeGreaterThan(0);
    for (const img of imgs) expect(img.getAttribute('loading') === 'lazy' || img.classList.contains('lazyload')).toBe(true);
  });

  it('keeps the plain hero when the shop has no slides', () => {
    render(<HomePage data={{ ...homePage(), slides: [] }} />);
    expect(screen.queryByRole('region', { name: 'Featured collections' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Shop now' })).toHaveAttribute('href', '/shop/');
  });
});
