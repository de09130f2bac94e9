import { useEffect, useState } from 'react';
import { ANNOUNCE_EVENT, installWishlistSync, subscribe, wishlistCount } from './store';
import { HeartIcon } from './Heart';
import './wishlist.css';

/**
 * The header's link to /wishlist/ with its count badge, and the polite live
 * region the hearts speak through. The count comes from the cookie the
 * browser reads, after hydration (the header is shared by every visitor),
 * and follows the hearts and the other tabs.
 */
export function WishlistLink() {
  const [count, setCount] = useState(0);
  const [msg, setMsg] = useState('');
  useEffect(() => {
    setCount(wishlistCount());
    const off = subscribe(() => setCount(wishlistCount()));
    const offSync = installWishlistSync();
    const onAnnounce = (e: Event) => {
      const text = String((e as CustomEvent<string>).detail ?? '');
      // The same message twice in a row is said again: clear, then set.
      setMsg('');
      setTimeout(() => setMsg(text), 50);
    };
    document.addEventListener(ANNOUNCE_EVENT, onAnnounce);
    return () => {
      off();
      offSync();
      document.removeEventListener(ANNOUNCE_EVENT, onAnnounce);
    };
  }, []);
  return (
    <>
      <a className="header-wishlist" href="/wishlist/">
        <HeartIcon />
        <span className="screen-reader-text">Wishlist</span>
        <span className={'header-wishlist-count count' + (count > 0 ? '' : ' is-empty')} aria-hidden="true">
          {count}
        </span>
        <span className="screen-reader-text">{`(${count} ${count === 1 ? 'item' : 'items'})`}</span>
      </a>
      <div className="screen-reader-text wishlist-live" role="status" aria-live="polite" aria-atomic="true">
        {msg}
      </div>
    </>
  );
}
