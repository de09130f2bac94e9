import { useEffect, useState, type RefObject } from 'react';
import type { StoreProduct } from '../types';
import { decodeEntities } from '../lib/format';
import { Price } from '../ui/Price';
import './product.css';

/** The parts of an IntersectionObserverEntry the decision reads. */
export interface StickyEntry {
  isIntersecting: boolean;
  boundingClientRect: { bottom: number };
  rootBounds?: { top: number } | null;
}

/**
 * Show the bar only when the add-to-cart area has scrolled out of view upwards
 * (scrolled past it); not when it is still below the fold, and not while any
 * of it is visible.
 */
export function stickyShouldShow(entry: StickyEntry): boolean {
  if (entry.isIntersecting) return false;
  const top = entry.rootBounds ? entry.rootBounds.top : 0;
  return entry.boundingClientRect.bottom <= top;
}

/** Whether the bar is shown, following the target through an IntersectionObserver (browser only). */
export function useStickyVisible(target: RefObject<HTMLElement | null>): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const el = target.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (last) setShown(stickyShouldShow(last));
    });
    io.observe(el);
    return () => io.disconnect();
  }, [target]);
  return shown;
}

function prefersReducedMotion() {
  return typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}

/**
 * A bar at the bottom of the viewport with the product's thumbnail, name,
 * price and a button, shown while the real add-to-cart form is scrolled past.
 * For simple products the button submits the real form (its quantity and
 * validation apply); otherwise it brings the shopper back to the form and
 * focuses its first field. It is a labelled region (not an aside: it sits in main), and inert (out of the
 * tab order and the accessibility tree) while hidden. Client only: it is
 * rendered after hydration, so the server HTML does not depend on it.
 */
export function StickyAddToCart({ product, target }: { product: StoreProduct; target: RefObject<HTMLElement | null> }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const shown = useStickyVisible(target);
  if (!mounted) return null;

  const name = decodeEntities(product.name);
  const image = product.images[0];
  const simple = product.type === 'simple';
  const label = simple
    ? decodeEntities(product.add_to_cart.single_text) || 'Add to cart'
    : decodeEntities(product.add_to_cart.text) || 'Select options';

  const onClick = () => {
    const area = target.current;
    if (!area) return;
    const form = area.querySelector<HTMLFormElement>('form.cart');
    if (simple && form) {
      const submit = form.querySelector<HTMLButtonElement>('button[type="submit"][name="add-to-cart"]');
      if (typeof form.requestSubmit === 'function') form.requestSubmit(submit || undefined);
      else submit?.click();
      return;
    }
    area.scrollIntoView?.({ block: 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    // The first field: a swatch group's tab stop, else a visible select (swatched selects are hidden), input, button or link.
    const field = area.querySelector<HTMLElement>(
      '[role="radio"][tabindex="0"], select:not(.variation-select--swatched), input:not([type="hidden"]), button, a[href]',
    );
    field?.focus({ preventScroll: true });
  };

  return (
    <section
      className={'sticky-add-to-cart' + (shown ? ' is-visible' : '')}
      aria-label={`Add to cart: ${name}`}
      inert={!shown}
      aria-hidden={shown ? undefined : true}
      data-testid="sticky-add-to-cart"
    >
      <div className="sticky-add-to-cart__inner container">
        {image && (
          <img
            className="sticky-add-to-cart__image"
            src={image.thumbnail || image.src}
            alt=""
            width={48}
            height={48}
            loading="lazy"
            decoding="async"
          />
        )}
        <div className="sticky-add-to-cart__text">
          <p className="sticky-add-to-cart__name">{name}</p>
          <Price prices={product.prices} id={product.id} />
        </div>
        <button type="button" className="button alt sticky-add-to-cart__button" onClick={onClick}>
          {label}
        </button>
      </div>
    </section>
  );
}
