import { useEffect, useState } from 'react';
import { useHydrated } from '../listing/hydrated';
import { ensureState, isWished, setWished, subscribe } from './store';
import './wishlist.css';

/** The heart's outline, filled by CSS when pressed. */
export function HeartIcon() {
  return (
    <svg className="wishlist-heart__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.4 8 3.4 4.5 6.9 4.5c2 0 3.4 1.1 5.1 3 1.7-1.9 3.1-3 5.1-3 3.5 0 5.5 3.5 4.2 6.8-1.8 4.6-9.3 9.2-9.3 9.2z" />
    </svg>
  );
}

/** Whether the list holds id, kept up to date (false until known). */
export function useWished(id: number): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    setOn(isWished(id));
    const off = subscribe(() => setOn(isWished(id)));
    void ensureState();
    return off;
  }, [id]);
  return on;
}

/**
 * The wishlist heart of a product (or of the chosen variation): a form that
 * posts to /wishlist/ and comes back without scripts; with them, a toggle
 * button (aria-pressed) whose change is said in the header's polite live
 * region. Its state comes after load (useWished): the server renders it
 * unpressed on every cached page.
 */
export function WishlistHeart({ id, name, className = '' }: { id: number; name: string; className?: string }) {
  const hydrated = useHydrated();
  const on = useWished(id);
  const [busy, setBusy] = useState(false);
  const label = on ? `Remove \u201c${name}\u201d from your wishlist` : `Add \u201c${name}\u201d to your wishlist`;
  return (
    <form
      method="post"
      action="/wishlist/"
      className={`wishlist-heart-form ${className}`.trim()}
      onSubmit={(e) => {
        if (!hydrated) return;
        e.preventDefault();
        if (busy) return;
        setBusy(true);
        void setWished(id, !on).finally(() => setBusy(false));
      }}
    >
      <input type="hidden" name="wishlist_action" value={on ? 'remove' : 'add'} />
      <input type="hidden" name="product_id" value={id} />
      <button
        type="submit"
        className={'wishlist-heart' + (on ? ' is-on' : '')}
        aria-pressed={hydrated ? on : undefined}
        aria-label={label}
        aria-busy={busy || undefined}
        data-product-id={id}
      >
        <HeartIcon />
      </button>
    </form>
  );
}
