import { useEffect, useState, type RefObject } from 'react';
import type { StoreProduct, Variation } from '../types';
import { decodeEntities } from '../lib/format';
import { Price, PriceWrap } from '../ui/Price';
import { addButtonLabel, buttonReason } from './variations';
import './product.css';
import { WishlistHeart } from '../wishlist/Heart';

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
 * For simple products, and for variable ones once the chosen variation can
 * be bought (`variation`: what the variation form shows), the button submits
 * the real form through its own button (its quantity, validation and the
 * ajax add apply: the same path as pressing the form's button), and its
 * label and price are the form's; otherwise (a choice to make, or a chosen
 * variation that cannot be bought) it brings the shopper back to the form and
 * focuses its first field. It is a labelled region (not an aside: it sits in main), and inert (out of the
 * tab order and the accessibility tree) while hidden. Client only: it is
 * rendered after hydration, so the server HTML does not depend on it.
 */
export function StickyAddToCart({
  product,
  target,
  variation = null,
}: {
  product: StoreProduct;
  target: RefObject<HTMLElement | null>;
  /** The variation the form has matched (variable products), or null. */
  variation?: Variation | null;
}) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const shown = useStickyVisible(target);
  if (!mounted) return null;

  const name = decodeEntities(product.name);
  const image = product.images[0];
  const simple = product.type === 'simple';
  const chosen = product.type === 'variable' && variation ? variation : null;
  const ready = !!chosen && buttonReason({ kind: 'match', variation: chosen }) === null;
  const addText = decodeEntities(product.add_to_cart.single_text) || 'Add to cart';
  const label = simple
    ? addText
    : ready
      ? addButtonLabel(chosen, addText)
      : decodeEntities(product.add_to_cart.text) || 'Select options';

  const onClick = () => {
    const area = target.current;
    if (!area) return;
    const form = area.querySelector<HTMLFormElement>('form.cart');
    if ((simple || ready) && form) {
      const submit = form.querySelector<HTMLButtonElement>('button[type="submit"].single_add_to_cart_button');
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
          {chosen && chosen.price_html ? (
            <PriceWrap id={chosen.variation_id} html={chosen.price_html} />
          ) : (
            <Price prices={product.prices} id={product.id} />
          )}
        </div>
        <WishlistHeart id={chosen ? chosen.variation_id : product.id} name={name} className="sticky-add-to-cart__wishlist" />
        <button type="button" className="button alt sticky-add-to-cart__button" onClick={onClick}>
          {label}
        </button>
      </div>
    </section>
  );
}
