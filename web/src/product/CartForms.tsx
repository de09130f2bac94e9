import { useId } from 'react';
import { QuantityField } from './QuantityField';
import type { ProductPage, StoreProduct } from '../types';
import { decodeEntities } from '../lib/format';
import { Price } from '../ui/Price';

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
    <form className="cart" method="post" action={product.permalink} encType="multipart/form-data">
      <QuantityInput product={product} />
      <button type="submit" name="add-to-cart" value={product.id} className="single_add_to_cart_button button alt">
        {decodeEntities(product.add_to_cart.single_text) || 'Add to cart'}
      </button>
    </form>
  );
}

function VariableForm({ data }: { data: ProductPage }) {
  const p = data.product;
  const baseId = useId();
  return (
    <form
      className="variations_form cart"
      method="post"
      action={p.permalink}
      encType="multipart/form-data"
      data-product_id={p.id}
      data-product_variations={data.variations.length > 0 ? JSON.stringify(data.variations) : 'false'}
    >
      <table className="variations" role="presentation">
        <tbody>
          {data.swatches.map((sw, i) => {
            const attr = `attribute_${sw.key}`;
            const id = `${baseId}-${sw.key}`;
            return (
              <tr key={sw.key}>
                <th className="label" scope="row">
                  <label htmlFor={id}>{decodeEntities(sw.name)}</label>
                </th>
                <td className="value">
                  <select id={id} name={attr} data-attribute_name={attr} defaultValue="">
                    <option value="">Choose an option</option>
                    {sw.options.map((o) => (
                      <option key={o.slug} value={o.slug}>
                        {decodeEntities(o.name)}
                      </option>
                    ))}
                  </select>
                  {i === data.swatches.length - 1 && (
                    <a className="reset_variations" href="#">
                      Clear
                    </a>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="single_variation_wrap">
        <div className="woocommerce-variation single_variation" role="alert" aria-live="polite" />
        <div className="woocommerce-variation-add-to-cart variations_button">
          <QuantityInput product={p} />
          <button
            type="submit"
            className="single_add_to_cart_button button alt disabled wc-variation-selection-needed"
            aria-disabled="true"
            onClick={(e) => {
              if (e.currentTarget.classList.contains('disabled')) e.preventDefault();
            }}
          >
            {decodeEntities(p.add_to_cart.single_text) || 'Add to cart'}
          </button>
          <input type="hidden" name="add-to-cart" value={p.id} />
          <input type="hidden" name="product_id" value={p.id} />
          <input type="hidden" name="variation_id" className="variation_id" value="0" />
        </div>
      </div>
    </form>
  );
}

function GroupedForm({ data }: { data: ProductPage }) {
  const p = data.product;
  return (
    <form className="cart grouped_form" method="post" action={p.permalink} encType="multipart/form-data">
      <table className="woocommerce-grouped-product-list group_table">
        <caption className="screen-reader-text">Products in this group</caption>
        <thead className="screen-reader-text">
          <tr>
            <th scope="col">Quantity</th>
            <th scope="col">Product</th>
            <th scope="col">Price</th>
          </tr>
        </thead>
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
                  <Price prices={c.prices} />
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

export function CartArea({ data }: { data: ProductPage }) {
  const p = data.product;
  switch (p.type) {
    case 'variable':
      return <VariableForm data={data} />;
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
