import { useRef, useState } from 'react';
import type { ProductPage as ProductData, StoreProduct, TermRef } from '../types';
import { decodeEntities } from '../lib/format';
import { escapeHtml } from '../lib/html';
import { Breadcrumbs } from '../ui/Breadcrumbs';
import { Html } from '../ui/Html';
import { RichText } from '../ui/RichText';
import { Price } from '../ui/Price';
import { Stars } from '../ui/Stars';
import { ProductGrid } from '../listing/ProductGrid';
import { RecentlyViewed } from './RecentlyViewed';
import { CartArea } from './CartForms';
import { NotifyForm, type NotifyOption } from './NotifyForm';
import type { ShownVariation } from './VariationForm';
import { Gallery } from './Gallery';
import { Reviews } from './Reviews';
import { StickyAddToCart } from './StickyBar';
import { WishlistHeart } from '../wishlist/Heart';
import { ExpressWallet } from '../wallet/ExpressWallet';
import { EditLinks } from '../frame/EditLinks';
import { Tabs, type TabDef } from './Tabs';
import { PageContainer } from '../ui/PageContainer';
import { cardsKey, ServerFragment } from '../lib/server-fragments';
import { Later } from '../lib/hydrate-later';

/** The product's categories or tags as links, written as HTML (lib/html.ts). */
function TermLinks({ label, plural, terms, className }: { label: string; plural: string; terms: TermRef[]; className: string }) {
  if (!terms || terms.length === 0) return null;
  let html = `${terms.length === 1 ? label : plural}: `;
  terms.forEach((t, i) => {
    html += `<span>${i > 0 ? ', ' : ''}<a href="${escapeHtml(t.link)}" rel="tag">${escapeHtml(decodeEntities(t.name))}</a></span>`;
  });
  return <span className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The "Additional information" rows (weight, dimensions, attributes), written as HTML (lib/html.ts). */
function attributeRows(rows: { label: string; value: string }[]): string {
  let html = '';
  for (const a of rows) {
    html +=
      '<tr class="woocommerce-product-attributes-item"><th scope="row" class="woocommerce-product-attributes-item__label">' +
      escapeHtml(decodeEntities(a.label)) +
      '</th><td class="woocommerce-product-attributes-item__value">' +
      escapeHtml(decodeEntities(a.value)) +
      '</td></tr>';
  }
  return html;
}

/** Whether the page has an add-to-cart form the sticky bar can stand in for. */
function hasCartForm(p: StoreProduct, grouped: StoreProduct[]): boolean {
  switch (p.type) {
    case 'variable':
      return true;
    case 'grouped':
      return grouped.length > 0;
    case 'external':
      return false;
    default:
      return p.is_purchasable && p.is_in_stock;
  }
}

/**
 * A variable product's visible sold-out variations, named by their values
 * ("Red / L", "Red / any Size"), from the embedded variations or, above
 * the threshold, the page's stock statuses.
 */
export function soldOutOptions(data: ProductData): NotifyOption[] {
  const rows =
    data.variations.length > 0
      ? data.variations.filter((x) => x.variation_is_visible && !x.is_in_stock).map((x) => ({ id: x.variation_id, attributes: x.attributes }))
      : (data.variation_availability ?? []).filter((x) => !x.in_stock).map((x) => ({ id: x.id, attributes: x.attributes }));
  return rows.map(({ id, attributes }) => ({
    id,
    label: data.swatches
      .map((sw) => {
        // Embedded variations name values as WooCommerce does (attribute_pa_color), the statuses by key.
        const slug = attributes[`attribute_${sw.key}`] ?? attributes[sw.key];
        if (slug === undefined) return '';
        if (slug === '') return `any ${sw.name}`;
        return sw.options.find((o) => o.slug === slug)?.name ?? slug;
      })
      .filter(Boolean)
      .join(' / '),
  }));
}

export function ProductPage({ data }: { data: ProductData }) {
  const p = data.product;
  const cartArea = useRef<HTMLDivElement>(null);
  const name = decodeEntities(p.name);
  const stock = p.stock_availability;
  // The chosen variation (after hydration): its image, SKU, weight and dimensions replace the product's.
  const [shown, setShown] = useState<ShownVariation>({ variation: null, image: null });
  const v = shown.variation;
  // "Notify me when available": a simple product out of stock, or the chosen variation when it is;
  // else a variable product's sold-out variations, chosen in the form itself.
  const notifyItem = p.type === 'simple' && !p.is_in_stock ? p.id : p.type === 'variable' && v && !v.is_in_stock ? v.variation_id : 0;
  const soldOut = p.type === 'variable' && notifyItem === 0 ? soldOutOptions(data) : [];
  const sku = (v && v.sku) || p.sku;
  const additional = (data.additional || []).map((a) => {
    if (v && a.label === 'Weight' && v.weight_html && v.weight_html !== 'N/A') return { ...a, value: v.weight_html };
    if (v && a.label === 'Dimensions' && v.dimensions_html && v.dimensions_html !== 'N/A') return { ...a, value: v.dimensions_html };
    return a;
  });

  const tabs: TabDef[] = [];
  if (p.description) {
    tabs.push({
      key: 'description',
      label: 'Description',
      content: (
        <>
          <h2>Description</h2>
          <RichText html={p.description} className="product-description" video={data.settings?.video} />
        </>
      ),
    });
  }
  if (additional.length > 0) {
    tabs.push({
      key: 'additional_information',
      label: 'Additional information',
      content: (
        <>
          <h2>Additional information</h2>
          <table className="woocommerce-product-attributes shop_attributes">
            <tbody dangerouslySetInnerHTML={{ __html: attributeRows(additional) }} />
          </table>
        </>
      ),
    });
  }
  tabs.push({
    key: 'reviews',
    label: `Reviews (${p.review_count})`,
    content: <Reviews data={data} />,
  });

  return (
    <PageContainer className="single-product">
      <Breadcrumbs items={data.breadcrumbs} />
      <div className={`product type-product product-type-${p.type} post-${p.id}`}>
        <div className="product-main">
          <div className="product-main__gallery">
            {p.on_sale && <span className="onsale">Sale!</span>}
            {/* The gallery, the tabs and the product lists hydrate after the
                page's first pass, each in a task of its own (lib/hydrate-later.tsx). */}
            <Later>
              <Gallery images={p.images} productName={p.name} settings={data.settings} override={shown.image} />
            </Later>
          </div>
          <div className="summary entry-summary">
            <h1 className="product_title entry-title">{name}</h1>
            <EditLinks links={data.edit_links} block="product" />
            <p className="price-wrap">
              <Price prices={p.prices} id={p.id} />
            </p>
            {p.review_count > 0 && (
              <div className="woocommerce-product-rating">
                <Stars rating={p.average_rating} />
                <a href="#reviews" className="woocommerce-review-link" rel="nofollow">
                  {`${p.review_count} customer ${p.review_count === 1 ? 'review' : 'reviews'}`}
                </a>
              </div>
            )}
            <Html html={p.short_description} className="woocommerce-product-details__short-description" />
            {stock && stock.text && <p className={`stock ${stock.class}`}>{decodeEntities(stock.text)}</p>}
            {!p.is_in_stock && !(stock && stock.text) && <p className="stock out-of-stock">Out of stock</p>}
            <div className="product-cart-area" ref={cartArea}>
              <Later>
                <CartArea data={data} onShowVariation={setShown} />
              </Later>
            </div>
            {/* The chosen variation's heart once one is matched, else the product's. */}
            <WishlistHeart id={v ? v.variation_id : p.id} name={name} className="product-wishlist" />
            {notifyItem !== 0 && <NotifyForm key={notifyItem} itemId={notifyItem} productName={name} user={data.settings?.user} />}
            {soldOut.length > 0 && (
              // Closed until asked for (without scripts too): most shoppers buy what is in stock.
              <Later>
              <details className="stock-notify-options">
                <summary>An option sold out? Get an email when it is back</summary>
                <NotifyForm key="options" itemId={p.id} productName={name} user={data.settings?.user} options={soldOut} />
              </details>
              </Later>
            )}
            {/* After the cart area: the sticky bar follows the add-to-cart form alone. */}
            {(p.type === 'simple' || p.type === 'variable') && p.is_purchasable && (
              <ExpressWallet context="product" productId={p.id} enabled={!!data.settings.wallet} />
            )}
            <div className="product_meta">
              {sku && (
                <span className="sku_wrapper">
                  SKU: <span className="sku">{sku}</span>
                </span>
              )}
              <TermLinks label="Category" plural="Categories" terms={p.categories} className="posted_in" />
              <TermLinks label="Tag" plural="Tags" terms={p.tags} className="tagged_as" />
            </div>
          </div>
        </div>
        <Later>
          <Tabs tabs={tabs} label="Product details" />
        </Later>
        {data.upsells.length > 0 && (
          <Later>
          <section className="up-sells upsells products-section" aria-labelledby="upsells-title">
            <h2 id="upsells-title">You may also like…</h2>
            <ProductGrid products={data.upsells} headingLevel={3} eagerCount={0} />
          </section>
          </Later>
        )}
        {data.related.length > 0 && (
          // The same four on most pages of a category: the server renders
          // the section once per set of cards (lib/server-fragments.tsx).
          <Later>
          <ServerFragment
            tag="section"
            props={{ className: 'related products-section', 'aria-labelledby': 'related-title' }}
            cacheKey={() => cardsKey('related', [], data.related)}
          >
            <h2 id="related-title">Related products</h2>
            <ProductGrid products={data.related} headingLevel={3} eagerCount={0} />
          </ServerFragment>
          </Later>
        )}
        <RecentlyViewed current={p.id} consent={data.settings?.consent} />
      </div>
      {hasCartForm(p, data.grouped) && <StickyAddToCart product={p} target={cartArea} variation={v} />}
    </PageContainer>
  );
}
