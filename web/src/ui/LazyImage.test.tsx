import { act, fireEvent, render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { LazyImage } from './LazyImage';
import { currentMargin, expandFor, LAZY, resetLazyLoad } from './lazy-load';
import { MockIO, mockIntersectionObserver } from '../test/intersection';

const live = () => MockIO.instances.filter((i) => !i.disconnected).at(-1)!;
const img = (c: HTMLElement) => c.querySelector('img')!;

describe('LazyImage', () => {
  mockIntersectionObserver(resetLazyLoad);

  it('goes lazyload → lazyloading when near the viewport → lazyloaded on load', () => {
    const { container } = render(<LazyImage src="/m/a.jpg" width={600} height={400} alt="A" className="thumb" />);
    const el = img(container);
    expect(el).toHaveClass('thumb', 'lazyload');
    expect(el).not.toHaveAttribute('src');
    const io = live();
    expect(io.targets.has(el)).toBe(true);
    io.enter(el);
    expect(el).toHaveClass('thumb', 'lazyloading');
    expect(el).not.toHaveClass('lazyload');
    expect(el).toHaveAttribute('src', '/m/a.jpg');
    expect(io.targets.has(el)).toBe(false);
    fireEvent.load(el);
    expect(el).toHaveClass('thumb', 'lazyloaded');
    expect(el).not.toHaveClass('lazyloading');
  });

  it('ends in lazyerror when the image fails', () => {
    const { container } = render(<LazyImage src="/m/broken.jpg" width={100} height={100} alt="" />);
    const el = img(container);
    live().enter(el);
    fireEvent.error(el);
    expect(el).toHaveClass('lazyerror');
    expect(el).not.toHaveClass('lazyloading');
  });

  it('hydrates the server markup without a mismatch, then loads', () => {
    const ui = <LazyImage src="/m/a.jpg" width={600} height={400} alt="A" />;
    const root = document.createElement('div');
    root.innerHTML = renderToString(ui);
    document.body.appendChild(root);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    let r: ReturnType<typeof hydrateRoot> | undefined;
    act(() => {
      r = hydrateRoot(root, ui, { onRecoverableError: (e) => console.error(e) });
    });
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    const el = root.querySelector('img')!;
    expect(el).toHaveClass('lazyload');
    live().enter(el);
    expect(el).toHaveAttribute('src', '/m/a.jpg');
    act(() => r!.unmount());
    root.remove();
  });

  it('starts again for a new source', () => {
    const { container, rerender } = render(<LazyImage src="/m/a.jpg" width={100} height={100} alt="" />);
    live().enter(img(container));
    fireEvent.load(img(container));
    expect(img(container)).toHaveClass('lazyloaded');
    rerender(<LazyImage src="/m/b.jpg" width={100} height={100} alt="" />);
    expect(img(container)).toHaveClass('lazyload');
    expect(img(container)).not.toHaveAttribute('src');
    live().enter(img(container));
    expect(img(container)).toHaveAttribute('src', '/m/b.jpg');
  });

  it('is a plain eager image above the fold and below the minimum size', () => {
    const { container } = render(
      <>
        <LazyImage src="/m/main.jpg" width={800} height={800} alt="Main" eager fetchPriority="high" />
        <LazyImage src="/m/icon.png" width={32} height={32} alt="" />
      </>,
    );
    const [main, icon] = [...container.querySelectorAll('img')];
    expect(main).toHaveAttribute('src', '/m/main.jpg');
    expect(main).toHaveAttribute('loading', 'eager');
    expect(main).toHaveAttribute('fetchpriority', 'high');
    expect(main.className).not.toMatch(/lazy/);
    expect(icon).toHaveAttribute('src', '/m/icon.png');
    expect(icon.className).not.toMatch(/lazy/);
    expect(MockIO.instances.length).toBe(0);
    expect(container.querySelector('noscript')).toBeNull();
  });

  it('loads at once where IntersectionObserver is missing', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const { container } = render(<LazyImage src="/m/a.jpg" width={100} height={100} alt="" />);
    expect(img(container)).toHaveAttribute('src', '/m/a.jpg');
    expect(img(container)).toHaveClass('lazyloading');
  });
});

describe('lazy-load thresholds (spec section 9)', () => {
  mockIntersectionObserver(resetLazyLoad);

  it('expands 500 px on a large viewport and 370 px on a small one', () => {
    expect(expandFor(1280, 900)).toBe(500);
    expect(expandFor(375, 812)).toBe(370);
    expect(expandFor(800, 500)).toBe(370);
    expect(LAZY.minSize).toBe(40);
  });

  it('observes with the expand margin, and 1.5 times it after the page has loaded', () => {
    vi.stubGlobal('innerWidth', 1280);
    vi.stubGlobal('innerHeight', 900);
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'loading' });
    try {
      const { container } = render(
        <>
          <LazyImage src="/m/a.jpg" width={100} height={100} alt="" />
          <LazyImage src="/m/b.jpg" width={100} height={100} alt="" />
        </>,
      );
      expect(live().options.rootMargin).toBe('500px 500px 500px 500px');
      act(() => {
        window.dispatchEvent(new Event('load'));
      });
      const wider = live();
      expect(wider.options.rootMargin).toBe('750px 750px 750px 750px');
      expect(currentMargin()).toBe(750);
      // The images still waiting are watched by the new observer.
      const imgs = [...container.querySelectorAll('img')];
      expect(imgs.every((i) => wider.targets.has(i))).toBe(true);
      wider.enter(imgs[1]);
      expect(imgs[1]).toHaveAttribute('src', '/m/b.jpg');
      expect(imgs[0]).not.toHaveAttribute('src');
    } finally {
      delete (document as unknown as { readyState?: string }).readyState;
    }
  });
});
