import { useCallback, useEffect, useRef, useState, type FocusEvent } from 'react';
import useEmblaCarousel from 'embla-carousel-react';
import type { HeroSlide } from '../types';
import { decodeEntities } from '../lib/format';
import { AUTOPLAY_MS, autoplayState, rotationLabel } from './autoplay';

/** Hero images: the full container width (max 1200 px) on small screens, half of it from 850 px. */
const SLIDE_SIZES = '(min-width: 1240px) 600px, (min-width: 850px) 50vw, 100vw';

function reducedMotion(): boolean {
  return !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The home's hero carousel (WAI-ARIA carousel pattern, spec sections 4, 8
 * and 9) on Embla. Autoplay moves on every 3 s while playing; it pauses
 * while the carousel is hovered or holds focus, the rotation button stops
 * and starts it, and it never starts by itself when the shopper prefers
 * reduced motion. The slides are announced (aria-live polite) only when
 * they do not move by themselves. Only the shown slide can be reached
 * (the others are inert). The server renders the first slide in place with
 * fixed dimensions; Embla takes over the same markup after hydration.
 */
export function HeroCarousel({ slides, label = 'Featured collections' }: { slides: HeroSlide[]; label?: string }) {
  const [viewport, api] = useEmblaCarousel({ loop: slides.length > 2, dragThreshold: 3 });
  // Embla needs these; a browser without them keeps the first slide, still a link.
  const [canRun] = useState(
    () =>
      typeof window !== 'undefined' &&
      typeof window.matchMedia === 'function' &&
      'ResizeObserver' in window &&
      'IntersectionObserver' in window,
  );
  const [selected, setSelected] = useState(0);
  const [stopped, setStopped] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [ready, setReady] = useState(false);
  const jump = useRef(false);
  const state = autoplayState({ stopped, hovered, focused });
  const n = slides.length;

  // Reduced motion: never autoplay, and move without animation.
  useEffect(() => {
    const mq = window.matchMedia?.('(prefers-reduced-motion: reduce)');
    jump.current = reducedMotion();
    if (jump.current) setStopped(true);
    if (!mq) return;
    const onChange = () => {
      jump.current = mq.matches;
      if (mq.matches) setStopped(true);
    };
    mq.addEventListener?.('change', onChange);
    return () => mq.removeEventListener?.('change', onChange);
  }, []);

  useEffect(() => {
    if (!api) return;
    setReady(true);
    const onSelect = () => setSelected(api.selectedScrollSnap());
    onSelect();
    api.on('select', onSelect).on('reInit', onSelect);
    return () => {
      api.off('select', onSelect).off('reInit', onSelect);
    };
  }, [api]);

  // Playing: the next slide after 3 s on each slide (a manual move restarts the wait).
  useEffect(() => {
    if (!api || state !== 'playing' || n < 2) return;
    const t = setTimeout(() => api.scrollNext(jump.current), AUTOPLAY_MS);
    return () => clearTimeout(t);
  }, [api, state, selected, n]);

  const go = useCallback((i: number) => api?.scrollTo(i, jump.current), [api]);
  const onBlur = (e: FocusEvent<HTMLElement>) => {
    if (e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget)) return;
    setFocused(false);
  };

  if (n === 0) return null;
  return (
    <section
      className={'hero-carousel' + (ready ? ' is-ready' : '')}
      aria-roledescription="carousel"
      aria-label={label}
      data-autoplay={state}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={onBlur}
    >
      <div className="hero-carousel__viewport" ref={canRun ? viewport : undefined}>
        <div className="hero-carousel__slides" aria-live={state === 'playing' ? 'off' : 'polite'}>
          {slides.map((s, i) => {
            const near = i === 0 || (ready && (Math.abs(i - selected) <= 1 || Math.abs(i - selected) === n - 1));
            return (
              <div
                key={i}
                className={'hero-slide' + (i === selected ? ' is-selected' : '')}
                role="group"
                aria-roledescription="slide"
                aria-label={`${i + 1} of ${n}`}
                inert={i !== selected}
              >
                <div className="hero-slide__media">
                  {s.image && (
                    <img
                      src={s.image.src}
                      srcSet={s.image.srcset || undefined}
                      sizes={s.image.srcset ? SLIDE_SIZES : undefined}
                      width={s.image.width || 1200}
                      height={s.image.height || 1200}
                      alt={decodeEntities(s.image.alt)}
                      loading={near ? 'eager' : 'lazy'}
                      fetchPriority={i === 0 ? 'high' : undefined}
                      decoding={i === 0 ? undefined : 'async'}
                    />
                  )}
                </div>
                <div className="hero-slide__text">
                  <h2 className="hero-slide__title">{decodeEntities(s.title)}</h2>
                  {s.text && <p className="hero-slide__body">{s.text}</p>}
                  <a className="button button-primary hero-slide__cta" href={s.url}>
                    {decodeEntities(s.cta)}
                  </a>
                </div>
              </div>
            );
          })}
        </div>
      </div>
      {/* After the slides, in the flow, growing to the right: parsed and
          painted piece by piece (a long page streams in), nothing in it
          moves what is already shown. */}
      {n > 1 && (
        <div className="hero-carousel__controls">
          <button
            type="button"
            className="hero-carousel__rotation"
            aria-label={rotationLabel(state)}
            data-state={state}
            onClick={() => setStopped((s) => !s)}
          >
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
              {state === 'stopped' ? (
                <path d="M8 5v14l11-7z" fill="currentColor" />
              ) : (
                <path d="M7 5h4v14H7zM13 5h4v14h-4z" fill="currentColor" />
              )}
            </svg>
          </button>
          <button type="button" className="hero-carousel__prev" aria-label="Previous" onClick={() => api?.scrollPrev(jump.current)}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
          <button type="button" className="hero-carousel__next" aria-label="Next" onClick={() => api?.scrollNext(jump.current)}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
          <div className="hero-carousel__dots" role="group" aria-label="Choose a slide">
          {slides.map((_, i) => (
            <button
              key={i}
              type="button"
              className="hero-carousel__dot"
              aria-label={`Page dot ${i + 1}`}
              aria-current={i === selected ? 'true' : undefined}
              onClick={() => go(i)}
            />
          ))}
        </div>
        </div>
      )}
    </section>
  );
}
