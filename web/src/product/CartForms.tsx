import { QuantityField } from './QuantityField';
import type { ProductPage, StoreProduct } from '../types';
import { decodeEntities } from '../lib/format';
import { Price } from '../ui/Price';
import { addedMessage, VariationForm, type ShownVariation } from './VariationForm';
import { ColumnHeads } from '../ui/ColumnHeads';

export function QuantityInput({
  product,
  name = 'quantity',
  label = 'Quantity',
  defaultValue,
  productName,
}: {
  product: StoreProduct;
  name?: string;
  label?: string;
  defaultValue?: number;
  /** Names the +/- buttons where a form has several fields (grouped products). */
  productName?: string;
}) {
  const atc = product.add_to_cart;
  const min = atc.minimum || 1;
  const max = atc.maximum > 0 ? atc.maximum : undefined;
  if (product.sold_individually) {
    return <input type="hidden" name={name} value="1" />;
  }
  return (
    <QuantityField
      name={name}
      label={label}
      defaultValue={defaultValue ?? min}
      min={defaultValue === 0 ? 0 : min}
      max={max}
      step={atc.multiple_of || 1}
      productName={productName}
    />
  );
}

function SimpleForm({ product }: { product: StoreProduct }) {
  return (
    <form
      className="cart"
      method="post"
      action={product.permalink}
      encType="multipart/form-data"
      data-success_message={addedMessage(product.name)}
    >
      <QuantityInput product={product} />
      <button type="submit" name="add-to-cart" value={product.id} className="single_add_to_cart_button button alt">
        {decodeEntities(product.add_to_cart.single_text) || 'Add to cart'}
      </button>
    </form>
  );
}

function GroupedForm({ data }: { data: ProductPage }) {
  const p = data.product;
  return (
    <form className="cart grouped_form" method="post" action={p.permalink} encType="multipart/form-data">
      <table className="woocommerce-grouped-product-list group_table">
        <caption className="screen-reader-text">Products in this group</caption>
        <ColumnHeads className="screen-reader-text" columns={['Quantity', 'Product', 'Price']} />
        <tbody>
          {data.grouped.map((c) => {
            const name = decodeEntities(c.name);
            const buyable = c.type === 'simple' && c.is_purchasable && c.is_in_stock;
            return (
              <tr key={c.id} className={`woocommerce-grouped-product-list-item product-type-${c.type}`}>
                <td className="woocommerce-grouped-product-list-item__quantity">
                  {buyable ? (
                    <QuantityInput
                      product={c}
                      name={`quantity[${c.id}]`}
                      label={`${name} quantity`}
                      defaultValue={0}
                      productName={name}
                    />
                  ) : (
                    <a className="button" href={c.add_to_cart.url || c.permalink}>
                      {decodeEntities(c.add_to_cart.text)}
                    </a>
                  )}
                </td>
                <th scope="row" className="woocommerce-grouped-product-list-item__label">
                  <a href={c.permalink}>{name}</a>
                </th>
                <td className="woocommerce-grouped-product-list-item__price">
                  <Price prices={c.prices} id={c.id} />
                  {!c.is_in_stock && <p className="stock out-of-stock">Out of stock</p>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <input type="hidden" name="add-to-cart" value={p.id} />
      <button type="submit" className="single_add_to_cart_button button alt">
        {decodeEntities(p.add_to_cart.single_text) || 'Add to cart'}
      </button>
    </form>
  );
}

export function CartArea({ data, onShowVariation }: { data: ProductPage; onShowVariation?: (s: ShownVariation) => void }) {
  const p = data.product;
  switch (p.type) {
    case 'variable':
      return <VariationForm data={data} onShow={onShowVariation} />;
    case 'grouped':
      return data.grouped.length > 0 ? <GroupedForm data={data} /> : null;
    case 'external':
      return (
        <p className="cart external-cart">
          <a className="single_add_to_cart_button button alt" href={p.add_to_cart.url} rel="nofollow">
            {decodeEntities(p.add_to_cart.text)}
          </a>
        </p>
      );
    default:
      return p.is_purchasable && p.is_in_stock ? <SimpleForm product={p} /> : null;
  }
}
