import { useState } from 'react';
import type { WishlistItem, WishlistPage as WishlistPageData } from '../types';
import { decodeEntities, formatPrice } from '../lib/format';
import { PageContainer } from '../ui/PageContainer';
import { useHydrated } from '../listing/hydrated';
import { setWished } from './store';
import './wishlist.css';

/** What "Add to cart" does for an item: add it, or (a variable product without a full choice) go choose. */
function addToCart(item: WishlistItem): { href: string; text: string; choose: boolean } | null {
  const sells = item.variation ?? item.product;
  if (!sells.is_purchasable || !sells.is_in_stock) return null;
  const partial = item.attributes.some((a) => a.value === '');
  if (item.product.type === 'variable' && (!item.variation || partial)) {
    return { href: item.product.permalink, text: 'Choose options', choose: true };
  }
  if (item.product.type !== 'simple' && !item.variation) return { href: item.product.permalink, text: 'View product', choose: true };
  return { href: `/?add-to-cart=${sells.id}`, text: 'Add to cart', choose: false };
}

function Row({ item, shared, onRemoved }: { item: WishlistItem; shared: boolean; onRemoved: (id: number) => void }) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const sells = item.variation ?? item.product;
  const name = decodeEntities(item.product.name);
  const img = (item.variation?.images?.[0] ?? item.product.images[0]) || null;
  const now = sells.prices.price;
  const atc = addToCart(item);
  const stock = sells.is_in_stock ? (sells.is_on_backorder ? 'Available on backorder' : 'In stock') : 'Out of stock';
  return (
    <tr className="wishlist-item" data-id={item.id}>
      <td className="product-thumbnail">
        {img ? <img src={img.thumbnail || img.src} alt="" width={80} height={80} loading="lazy" /> : null}
      </td>
      <td className="product-name">
        <a href={item.product.permalink}>{name}</a>
        {item.attributes.length > 0 && (
          <dl className="variation">
            {item.attributes.map((a) => (
              <div key={a.name}>
                <dt>{decodeEntities(a.name)}:</dt> <dd>{a.value ? decodeEntities(a.value) : 'Any'}</dd>
              </div>
            ))}
          </dl>
        )}
      </td>
      <td className="product-price">{now ? formatPrice(now, sells.prices) : '\u2014'}</td>
      <td className="product-price-added">{formatPrice(item.price_added, sells.prices)}</td>
      <td className={'product-stock-status stock ' + (sells.is_in_stock ? 'in-stock' : 'out-of-stock')}>{stock}</td>
      <td className="product-add-to-cart">
        {atc ? (
          <a className={'button' + (atc.choose ? '' : ' add_to_cart_button')} href={atc.href} rel="nofollow">
            {atc.text}
            <span className="screen-reader-text">{`: \u201c${name}\u201d`}</span>
          </a>
        ) : null}
      </td>
      {!shared && (
        <td className="product-remove">
          <form
            method="post"
            action="/wishlist/"
            onSubmit={(e) => {
              if (!hydrated) return;
              e.preventDefault();
              if (busy) return;
              setBusy(true);
              void setWished(item.id, false).then((a) => {
                setBusy(false);
                if (a) onRemoved(item.id);
              });
            }}
          >
            <input type="hidden" name="wishlist_action" value="remove" />
            <input type="hidden" name="product_id" value={item.id} />
            <button type="submit" className="remove" aria-busy={busy || undefined}>
              Remove<span className="screen-reader-text">{` \u201c${name}\u201d from your wishlist`}</span>
            </button>
          </form>
        </td>
      )}
    </tr>
  );
}

function Sharing({ data }: { data: WishlistPageData }) {
  return (
    <section className="wishlist-share" aria-labelledby="wishlist-share-title">
      <h2 id="wishlist-share-title">Share your wishlist</h2>
      {data.share_url ? (
        <p>
          <label htmlFor="wishlist-share-url">Your wishlist's link (anyone with it can see the list, not change it)</label>
          <br />
          <input id="wishlist-share-url" type="text" readOnly value={data.share_url} onFocus={(e) => e.currentTarget.select()} />
        </p>
      ) : data.share_enabled ? (
        <p>Sharing is on. For security only a fingerprint of the link is kept: renew it to get a link to copy (the old one stops working).</p>
      ) : (
        <p>Make a link that shows this list, read-only, to anyone you give it to.</p>
      )}
      <form method="post" action="/wishlist/" className="wishlist-share-actions">
        {data.share_enabled ? (
          <>
            <button type="submit" name="wishlist_action" value="renew" className="button">
              Renew the link
            </button>{' '}
            <button type="submit" name="wishlist_action" value="unshare" className="button">
              Turn off sharing
            </button>
          </>
        ) : (
          <button type="submit" name="wishlist_action" value="share" className="button">
            Share my wishlist
          </button>
        )}
      </form>
    </section>
  );
}

/** /wishlist/ (the visitor's own list, never cached) and /wishlist/view/{token}/ (a shared list, read-only). */
export function WishlistPage({ data }: { data: WishlistPageData }) {
  const [removed, setRemoved] = useState<number[]>([]);
  const items = data.items.filter((it) => !removed.includes(it.id));
  const title = data.shared ? 'A shared wishlist' : 'Wishlist';
  return (
    <PageContainer className="wishlist-page">
      <h1>{title}</h1>
      {data.notices.map((n, i) => (
        <p key={i} className={n.kind === 'error' ? 'woocommerce-error' : 'woocommerce-message'} role={n.kind === 'error' ? 'alert' : 'status'}>
          {decodeEntities(n.text)}
        </p>
      ))}
      {items.length === 0 ? (
        <>
          <p className="wishlist-empty woocommerce-info">{data.shared ? 'This wishlist is empty.' : 'Your wishlist is empty.'}</p>
          <p className="return-to-shop">
            <a className="button wc-backward" href="/shop/">
              Browse the shop
            </a>
          </p>
        </>
      ) : (
        <table className="shop_table wishlist_table">
          <caption className="screen-reader-text">{`${items.length} ${items.length === 1 ? 'product' : 'products'}`}</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="screen-reader-text">Image</span>
              </th>
              <th scope="col">Product</th>
              <th scope="col">Price now</th>
              <th scope="col">Price when added</th>
              <th scope="col">Stock</th>
              <th scope="col">
                <span className="screen-reader-text">Add to cart</span>
              </th>
              {!data.shared && (
                <th scope="col">
                  <span className="screen-reader-text">Remove</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {items.map((it) => (
              <Row key={it.id} item={it} shared={data.shared} onRemoved={(id) => setRemoved((r) => [...r, id])} />
            ))}
          </tbody>
        </table>
      )}
      {!data.shared && (items.length > 0 || data.share_enabled) && <Sharing data={data} />}
    </PageContainer>
  );
}
