// The product editor: every field the catalogue holds that a shop edits
// daily, the variations of a variable product (generated from its
// attributes, edited in bulk), and publish / schedule / duplicate / trash.
//
// Saving sends the version the form was loaded at. When someone else saved
// in between, the server refuses (409) and the editor says so in an alert
// that takes focus, with a button to reload the newer version: nothing is
// overwritten silently. A refused field is marked and focused.

import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { adminCall, type AdminError } from '../../api';
import { BASE, Link, useRouter } from '../../router';
import { Field } from '../../ui/Field';
import { QuantityRuleFields } from './QuantityRuleFields';
import { Notices, useNotices } from '../../ui/Notices';
import { Confirm } from '../../ui/Confirm';
import { CROSS_SELLS, GroupedPicker, ProductPicker, UPSELLS, type Child } from './GroupedPicker';
import { Variations } from './Variations';
import { ADMIN, PRODUCTS, STATUS_LABELS, categoryTree, dateInput, gmtOf, localDateTime, saleDateGMT, type Category, type GlobalAttribute, type ImageRef, type Product, type ProductAttribute, type Tag, wholeNumber } from './types';
import './products.css';
import { Options, type Choice } from '../../../ui/Options';

/** A message for the next screen shown (after a create, a duplicate, a trash). */
let flash = '';
export function setFlash(text: string) {
  flash = text;
}
export function takeFlash(): string {
  const f = flash;
  flash = '';
  return f;
}

interface Draft {
  name: string;
  slug: string;
  type: Product['type'];
  status: string;
  publishAt: string; // datetime-local, the browser's time zone
  regular_price: string;
  sale_price: string;
  sale_from: string; // date inputs, the browser's days
  sale_to: string;
  external_url: string;
  button_text: string;
  grouped: Child[];
  upsells: Child[];
  cross_sells: Child[];
  low_stock: string; // '' : the shop's threshold
  min_qty: string; // '' or 0: no rule
  max_qty: string;
  step: string;
  sold_individually: boolean;
  tax_status: Product['tax_status'];
  tax_class: Product['tax_class'];
  sku: string;
  manage_stock: boolean;
  stock_quantity: string;
  stock_status: string;
  short_description: string;
  description: string;
  categories: number[];
  tags: number[];
  images: ImageRef[];
  attributes: ProductAttribute[];
}

/** The states the editor can give a product, in the status select's order. */
const STATUSES: Choice[] = ['draft', 'publish', 'future', 'private'].map((s) => [s, STATUS_LABELS[s]]);

const EMPTY: Draft = {
  name: '',
  slug: '',
  type: 'simple',
  status: 'draft',
  publishAt: '',
  regular_price: '',
  sale_price: '',
  sale_from: '',
  sale_to: '',
  external_url: '',
  button_text: '',
  grouped: [],
  upsells: [],
  cross_sells: [],
  low_stock: '',
  min_qty: '',
  max_qty: '',
  step: '',
  sold_individually: false,
  tax_status: 'taxable',
  tax_class: '',
  sku: '',
  manage_stock: false,
  stock_quantity: '',
  stock_status: 'instock',
  short_description: '',
  description: '',
  categories: [],
  tags: [],
  images: [],
  attributes: [],
};

function draftOf(p: Product): Draft {
  return {
    name: p.name,
    slug: p.slug,
    type: p.type,
    status: p.status,
    publishAt: localDateTime(p.date_publish_gmt),
    regular_price: p.regular_price,
    sale_price: p.sale_price,
    sale_from: dateInput(p.date_on_sale_from_gmt),
    sale_to: dateInput(p.date_on_sale_to_gmt),
    external_url: p.external_url,
    button_text: p.button_text,
    grouped: p.grouped_products.map((id) => ({ id, name: '' })),
    upsells: p.upsell_ids.map((id) => ({ id, name: '' })),
    cross_sells: p.cross_sell_ids.map((id) => ({ id, name: '' })),
    low_stock: p.low_stock_amount === null ? '' : String(p.low_stock_amount),
    min_qty: ruleInput(p.quantity_rules.minimum),
    max_qty: ruleInput(p.quantity_rules.maximum),
    step: ruleInput(p.quantity_rules.multiple_of),
    sold_individually: p.sold_individually,
    tax_status: p.tax_status,
    tax_class: p.tax_class,
    sku: p.sku,
    manage_stock: p.manage_stock,
    stock_quantity: p.stock_quantity === null ? '' : String(p.stock_quantity),
    stock_status: p.stock_status,
    short_description: p.short_description,
    description: p.description,
    categories: p.categories.map((c) => c.id),
    tags: p.tags.map((t) => t.id),
    images: p.images,
    attributes: p.attributes,
  };
}

const ruleInput = (n: number) => (n > 0 ? String(n) : '');

/** The whole-number fields the form checks before sending: a field's name and its problem. */
function numberErrors(d: Draft): Record<string, string> {
  const out: Record<string, string> = {};
  const check = (field: string, v: string) => {
    if (wholeNumber(v) === undefined) out[field] = 'Enter a whole number, or leave it empty.';
  };
  check('low_stock_amount', d.low_stock);
  check('quantity_rules.minimum', d.min_qty);
  check('quantity_rules.maximum', d.max_qty);
  check('quantity_rules.multiple_of', d.step);
  return out;
}

/**
 * The request body of a save. loaded is the form as the product was loaded
 * (an edit): its stock goes along as original_stock_quantity, so the server
 * applies the difference and the units sold since loading stay sold.
 */
function bodyOf(d: Draft, loaded?: Draft): Record<string, unknown> {
  const b: Record<string, unknown> = {
    name: d.name,
    slug: d.slug,
    type: d.type,
    status: d.status,
    sku: d.sku,
    manage_stock: d.manage_stock,
    stock_status: d.stock_status,
    short_description: d.short_description,
    description: d.description,
    categories: d.categories.map((id) => ({ id })),
    tags: d.tags.map((id) => ({ id })),
    images: d.images.map((i) => ({ id: i.id })),
    attributes: d.attributes.filter((a) => a.options.length > 0),
    upsell_ids: d.upsells.map((c) => c.id),
    cross_sell_ids: d.cross_sells.map((c) => c.id),
    low_stock_amount: wholeNumber(d.low_stock) ?? null,
    quantity_rules: { minimum: wholeNumber(d.min_qty) ?? 0, maximum: wholeNumber(d.max_qty) ?? 0, multiple_of: wholeNumber(d.step) ?? 0 },
    sold_individually: d.sold_individually,
    tax_status: d.tax_status,
    tax_class: d.tax_class,
  };
  if (d.type !== 'variable') {
    b.regular_price = d.regular_price;
    b.sale_price = d.sale_price;
    // A schedule belongs to a sale price: without one it is cleared.
    const sale = d.sale_price.trim() !== '';
    b.date_on_sale_from_gmt = sale ? saleDateGMT(d.sale_from, false) : '';
    b.date_on_sale_to_gmt = sale ? saleDateGMT(d.sale_to, true) : '';
  }
  if (d.type === 'external') {
    b.external_url = d.external_url;
    b.button_text = d.button_text;
  }
  if (d.type === 'grouped') b.grouped_products = d.grouped.map((c) => c.id);
  if (d.manage_stock && d.stock_quantity.trim() !== '') {
    b.stock_quantity = Number.parseInt(d.stock_quantity, 10);
    if (loaded && loaded.stock_quantity.trim() !== '') b.original_stock_quantity = Number.parseInt(loaded.stock_quantity, 10);
  }
  if (d.status === 'future' && d.publishAt) b.date_publish_gmt = gmtOf(d.publishAt);
  return b;
}

const toggleIn = (list: number[], id: number) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);

export function ProductEditor({ id, currency }: { id: number | null; currency: string }) {
  const { navigate } = useRouter();
  const [product, setProduct] = useState<Product | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [saved, setSaved] = useState<Draft>(EMPTY);
  const [version, setVersion] = useState(0);
  const [cats, setCats] = useState<Category[]>([]);
  const [tags, setTags] = useState<Tag[]>([]);
  const [globals, setGlobals] = useState<GlobalAttribute[]>([]);
  const [library, setLibrary] = useState<ImageRef[]>([]);
  const [pick, setPick] = useState('');
  const [loadError, setLoadError] = useState<AdminError | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // A refused save's explanation; stock: orders moved the stock (vitrine_stock_changed), not another editor.
  const [conflict, setConflict] = useState<{ message: string; stock: boolean } | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirmTrash, setConfirmTrash] = useState(false);
  const { notices, push, dismiss } = useNotices();
  const form = useRef<HTMLFormElement>(null);
  const conflictRef = useRef<HTMLDivElement>(null);

  const loadProduct = useCallback(async () => {
    if (id === null) return true;
    const r = await adminCall<Product>('GET', `${PRODUCTS}/${id}`);
    if (!r.ok) {
      setLoadError(r.error);
      return false;
    }
    setProduct(r.data);
    setDraft(draftOf(r.data));
    setSaved(draftOf(r.data));
    setVersion(r.data.version);
    return true;
  }, [id]);

  useEffect(() => {
    const f = takeFlash();
    if (f) push('success', f);
    void loadProduct();
    void adminCall<Category[]>('GET', PRODUCTS + '/categories').then((r) => r.ok && setCats(r.data));
    void adminCall<Tag[]>('GET', PRODUCTS + '/tags').then((r) => r.ok && setTags(r.data));
    void adminCall<GlobalAttribute[]>('GET', PRODUCTS + '/attributes').then((r) => r.ok && setGlobals(r.data));
    void adminCall<ImageRef[]>('GET', ADMIN + '/product-images').then((r) => r.ok && setLibrary(r.data));
  }, [loadProduct, push]);

  // A refused field takes focus, so the error is read with it (before
  // paint: the message and the focus arrive together).
  useLayoutEffect(() => {
    if (Object.keys(fieldErrors).length === 0) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [fieldErrors]);

  useEffect(() => {
    if (conflict) conflictRef.current?.focus();
  }, [conflict]);

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const comparable = (d: Draft) =>
    JSON.stringify({ ...d, grouped: d.grouped.map((c) => c.id), upsells: d.upsells.map((c) => c.id), cross_sells: d.cross_sells.map((c) => c.id) });
  const dirty = comparable(draft) !== comparable(saved);

  const onStale = useCallback((e: AdminError) => setConflict({ message: e.message, stock: e.code === 'vitrine_stock_changed' }), []);

  const reload = async () => {
    if (await loadProduct()) {
      setConflict(null);
      setFieldErrors({});
      push('info', 'Reloaded: the form shows the latest version now. Make your change again and save.');
    }
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const wrong = numberErrors(draft);
    if (Object.keys(wrong).length > 0) {
      setFieldErrors(wrong);
      push('error', `Not saved: ${Object.values(wrong)[0]}`);
      return;
    }
    setSaving(true);
    setFieldErrors({});
    const body = bodyOf(draft, id === null ? undefined : saved);
    const r = id === null ? await adminCall<Product>('POST', PRODUCTS, body) : await adminCall<Product>('PUT', `${PRODUCTS}/${id}`, { ...body, version });
    setSaving(false);
    if (!r.ok) {
      if (r.status === 409) {
        onStale(r.error);
        return;
      }
      const params = r.error.data?.params as Record<string, string> | undefined;
      if (params) setFieldErrors(params);
      push('error', params ? `Not saved: ${Object.values(params)[0]}` : r.error.message);
      return;
    }
    if (id === null) {
      setFlash(`Product created as ${STATUS_LABELS[r.data.status]?.toLowerCase() ?? r.data.status}.`);
      navigate(`${BASE}products/${r.data.id}/`, { replace: true });
      return;
    }
    setProduct(r.data);
    setDraft(draftOf(r.data));
    setSaved(draftOf(r.data));
    setVersion(r.data.version);
    push('success', r.data.status === 'publish' ? 'Product saved and published.' : `Product saved (${STATUS_LABELS[r.data.status] ?? r.data.status}).`);
    const sent = body.stock_quantity as number | undefined;
    if (sent !== undefined && r.data.stock_quantity !== null && r.data.stock_quantity !== sent) {
      push(
        'info',
        `Orders changed the stock while you edited: your change was applied on top of them, and the stock is now ${r.data.stock_quantity}.`,
      );
    }
  };

  const duplicate = async () => {
    const r = await adminCall<Product>('POST', `${PRODUCTS}/${id}/duplicate`);
    if (!r.ok) return push('error', r.error.message);
    setFlash(`Copy created as a draft: ${r.data.name}.`);
    navigate(`${BASE}products/${r.data.id}/`);
  };

  const trash = async () => {
    setConfirmTrash(false);
    const r = await adminCall<Product>('DELETE', `${PRODUCTS}/${id}`);
    if (!r.ok) return push('error', r.error.message);
    setFlash(`“${r.data.name}” moved to the trash.`);
    navigate(`${BASE}products/`);
  };

  const addImage = () => {
    const img = library.find((i) => String(i.id) === pick);
    if (img && !draft.images.some((i) => i.id === img.id)) set({ images: [...draft.images, img] });
    setPick('');
  };

  const attrFor = (g: GlobalAttribute) => draft.attributes.find((a) => a.id === g.id);
  const setAttr = (g: GlobalAttribute, patch: Partial<ProductAttribute>) => {
    const cur = attrFor(g) ?? { id: g.id, name: g.name, slug: g.slug, position: draft.attributes.length, visible: true, variation: draft.type === 'variable', options: [] };
    const next = { ...cur, ...patch };
    set({ attributes: attrFor(g) ? draft.attributes.map((a) => (a.id === g.id ? next : a)) : [...draft.attributes, next] });
  };

  if (loadError) {
    return (
      <div role="alert" className="admin-notice admin-notice--error">
        <p>{loadError.message}</p>
        <Link to={BASE + 'products/'}>Back to the products</Link>
      </div>
    );
  }
  if (id !== null && !product) return <p aria-live="polite">Loading the product…</p>;

  const err = (f: string) => fieldErrors[f];
  const variable = draft.type === 'variable';
  return (
    <section aria-labelledby="pa-editor-heading">
      <h2 id="pa-editor-heading">{id === null ? 'Add a product' : `Edit “${saved.name}”`}</h2>
      <p>
        <Link to={BASE + 'products/'}>All products</Link>
        {product?.status === 'publish' ? (
          <>
            {' · '}
            <a href={product.permalink}>View in the shop</a>
          </>
        ) : null}
      </p>
      <Notices notices={notices} dismiss={dismiss} />
      {conflict ? (
        <div ref={conflictRef} tabIndex={-1} role="alert" className="pa-conflict">
          <p>
            <strong>{conflict.stock ? 'Not saved: orders changed the stock.' : 'Not saved: someone else changed this product.'}</strong> {conflict.message}
          </p>
          <button type="button" className="admin-primary" onClick={() => void reload()}>
            Reload the product
          </button>
        </div>
      ) : null}
      <form ref={form} onSubmit={(e) => void save(e)} noValidate aria-label={id === null ? 'New product' : 'Product'}>
        <div className="pa-editor">
          <div>
            <Field label="Product name" required error={err('name')}>
              {(p) => <input {...p} value={draft.name} onChange={(e) => set({ name: e.target.value })} required />}
            </Field>
            <Field label="Slug" hint="The product's address: /product/slug/. Left empty, it is made from the name." error={err('slug')}>
              {(p) => <input {...p} value={draft.slug} onChange={(e) => set({ slug: e.target.value })} />}
            </Field>
            <Field label="Short description" hint="HTML is allowed; scripts are removed." error={err('short_description')}>
              {(p) => <textarea {...p} value={draft.short_description} onChange={(e) => set({ short_description: e.target.value })} />}
            </Field>
            <Field label="Description" error={err('description')}>
              {(p) => <textarea {...p} rows={8} value={draft.description} onChange={(e) => set({ description: e.target.value })} />}
            </Field>

            <fieldset>
              <legend>Product data</legend>
              <div className="pa-row">
                <Field label="Product type" error={err('type')}>
                  {(p) => (
                    <select {...p} value={draft.type} onChange={(e) => set({ type: e.target.value as Draft['type'] })}>
                      <option value="simple">Simple product</option>
                      <option value="variable">Variable product</option>
                      <option value="grouped">Grouped product</option>
                      <option value="external">External/Affiliate product</option>
                    </select>
                  )}
                </Field>
                <Field label="SKU" error={err('sku')}>
                  {(p) => <input {...p} value={draft.sku} onChange={(e) => set({ sku: e.target.value })} />}
                </Field>
              </div>
              {!variable ? (
                <div className="pa-row">
                  <Field label={`Regular price (${currency})`} error={err('regular_price')}>
                    {(p) => <input {...p} inputMode="decimal" value={draft.regular_price} onChange={(e) => set({ regular_price: e.target.value })} />}
                  </Field>
                  <Field label={`Sale price (${currency})`} error={err('sale_price')}>
                    {(p) => <input {...p} inputMode="decimal" value={draft.sale_price} onChange={(e) => set({ sale_price: e.target.value })} />}
                  </Field>
                </div>
              ) : null}
              {!variable && draft.sale_price.trim() !== '' ? (
                <div className="pa-row">
                  <Field label="Sale starts on" hint="Optional; from the start of that day. Empty: on sale now." error={err('date_on_sale_from')}>
                    {(p) => <input {...p} type="date" value={draft.sale_from} onChange={(e) => set({ sale_from: e.target.value })} />}
                  </Field>
                  <Field label="Sale ends on" hint="Optional; until the end of that day." error={err('date_on_sale_to')}>
                    {(p) => <input {...p} type="date" value={draft.sale_to} onChange={(e) => set({ sale_to: e.target.value })} />}
                  </Field>
                </div>
              ) : null}
              {draft.type === 'external' ? (
                <div className="pa-row">
                  <Field label="Product URL" hint="Where the shop's button sends shoppers: http:// or https://." error={err('external_url')}>
                    {(p) => <input {...p} type="url" value={draft.external_url} onChange={(e) => set({ external_url: e.target.value })} />}
                  </Field>
                  <Field label="Button text" hint="Empty: “Buy product”." error={err('button_text')}>
                    {(p) => <input {...p} value={draft.button_text} onChange={(e) => set({ button_text: e.target.value })} />}
                  </Field>
                </div>
              ) : null}
              {variable ? (
                <p className="admin-field__hint">A variable product's prices and stock are its variations'.</p>
              ) : null}
              <div className="pa-row">
                <div className="admin-field">
                  <label>
                    <input type="checkbox" checked={draft.manage_stock} onChange={(e) => set({ manage_stock: e.target.checked })} /> Track the stock quantity
                  </label>
                </div>
                {draft.manage_stock ? (
                  <Field label="Stock quantity" error={err('stock_quantity')}>
                    {(p) => <input {...p} type="number" step={1} value={draft.stock_quantity} onChange={(e) => set({ stock_quantity: e.target.value })} />}
                  </Field>
                ) : (
                  <Field label="Stock status" error={err('stock_status')}>
                    {(p) => (
                      <select {...p} value={draft.stock_status} onChange={(e) => set({ stock_status: e.target.value })}>
                        <option value="instock">In stock</option>
                        <option value="outofstock">Out of stock</option>
                        <option value="onbackorder">On backorder</option>
                      </select>
                    )}
                  </Field>
                )}
              </div>
            </fieldset>

            {draft.type !== 'grouped' ? (
              <fieldset>
                <legend>Purchase rules</legend>
                <div className="pa-row">
                  {draft.manage_stock ? (
                    <Field label="Low stock threshold" hint="“Only N left” shows at or below it. Empty: the shop's threshold." error={err('low_stock_amount')}>
                      {(p) => <input {...p} inputMode="numeric" value={draft.low_stock} onChange={(e) => set({ low_stock: e.target.value })} />}
                    </Field>
                  ) : null}
                  {draft.type !== 'external' ? (
                    <div className="admin-field">
                      <label>
                        <input type="checkbox" checked={draft.sold_individually} onChange={(e) => set({ sold_individually: e.target.checked })} /> Sold individually (one per order)
                      </label>
                    </div>
                  ) : null}
                </div>
                {draft.type === 'simple' && !draft.sold_individually ? (
                  <div className="pa-row">
                    <QuantityRuleFields value={draft} onChange={set} error={err} />
                  </div>
                ) : null}
                {variable ? <p className="admin-field__hint">Quantity rules and pre-orders are set per variation, below.</p> : null}
                <div className="pa-row">
                  <Field label="Tax status" error={err('tax_status')}>
                    {(p) => (
                      <select {...p} value={draft.tax_status} onChange={(e) => set({ tax_status: e.target.value as Draft['tax_status'] })}>
                        <option value="taxable">Taxable</option>
                        <option value="shipping">Shipping only</option>
                        <option value="none">None</option>
                      </select>
                    )}
                  </Field>
                  <Field label="Tax class" hint="The shop's tax rates (Shipping and tax) apply to every class for now." error={err('tax_class')}>
                    {(p) => (
                      <select {...p} value={draft.tax_class} onChange={(e) => set({ tax_class: e.target.value as Draft['tax_class'] })}>
                        <option value="">Standard</option>
                        <option value="reduced-rate">Reduced rate</option>
                        <option value="zero-rate">Zero rate</option>
                      </select>
                    )}
                  </Field>
                </div>
              </fieldset>
            ) : null}

            <ProductPicker words={UPSELLS} self={id} value={draft.upsells} onChange={(update) => setDraft((d) => ({ ...d, upsells: update(d.upsells) }))} error={err('upsell_ids')} />
            {draft.type !== 'grouped' && draft.type !== 'external' ? (
              <ProductPicker
                words={CROSS_SELLS}
                self={id}
                value={draft.cross_sells}
                onChange={(update) => setDraft((d) => ({ ...d, cross_sells: update(d.cross_sells) }))}
                error={err('cross_sell_ids')}
              />
            ) : null}

            {draft.type === 'grouped' ? (
              <GroupedPicker self={id} value={draft.grouped} onChange={(update) => setDraft((d) => ({ ...d, grouped: update(d.grouped) }))} error={err('grouped_products')} />
            ) : null}

            <fieldset>
              <legend>Attributes</legend>
              {err('attributes') ? (
                <p className="admin-field__error" role="alert">
                  {err('attributes')}
                </p>
              ) : null}
              {globals.map((g) => {
                const a = attrFor(g);
                return (
                  <fieldset key={g.id}>
                    <legend>{g.name}</legend>
                    <ul className="pa-checks">
                      {g.terms.map((t) => (
                        <li key={t.id}>
                          <label>
                            <input
                              type="checkbox"
                              checked={!!a?.options.some((o) => o === t.name || o === t.slug)}
                              onChange={(e) => {
                                const opts = (a?.options ?? []).filter((o) => o !== t.name && o !== t.slug);
                                setAttr(g, { options: e.target.checked ? [...opts, t.name] : opts });
                              }}
                            />{' '}
                            {t.color ? <span className="pa-swatch" style={{ background: t.color }} aria-hidden="true" /> : null} {t.name}
                          </label>
                        </li>
                      ))}
                    </ul>
                    {variable ? (
                      <label>
                        <input type="checkbox" checked={a ? a.variation : true} onChange={(e) => setAttr(g, { variation: e.target.checked })} /> Used for variations
                      </label>
                    ) : null}
                  </fieldset>
                );
              })}
            </fieldset>
          </div>

          <div>
            <fieldset>
              <legend>Publish</legend>
              <Field label="Status" error={err('status')}>
                {(p) => (
                  <select {...p} value={draft.status} onChange={(e) => set({ status: e.target.value })}>
                    <Options items={STATUSES} />
                  </select>
                )}
              </Field>
              {draft.status === 'future' ? (
                <Field label="Publish on" hint="In your time zone." required error={err('date_publish_gmt')}>
                  {(p) => <input {...p} type="datetime-local" value={draft.publishAt} onChange={(e) => set({ publishAt: e.target.value })} />}
                </Field>
              ) : null}
              <button type="submit" className="admin-primary" disabled={saving}>
                {saving ? 'Saving…' : id === null ? 'Create product' : 'Save product'}
              </button>
              {id !== null && dirty ? <p className="admin-field__hint">You have unsaved changes.</p> : null}
              {id !== null ? (
                <p className="pa-row">
                  <button type="button" onClick={() => void duplicate()}>
                    Duplicate
                  </button>
                  <button type="button" className="admin-danger" onClick={() => setConfirmTrash(true)}>
                    Move to the trash
                  </button>
                </p>
              ) : null}
            </fieldset>

            <fieldset>
              <legend>Categories</legend>
              {err('categories') ? <p className="admin-field__error">{err('categories')}</p> : null}
              <ul className="pa-checks">
                {categoryTree(cats).map(({ cat, depth }) => (
                  <li key={cat.id} style={{ paddingLeft: depth * 16 }}>
                    <label>
                      <input type="checkbox" checked={draft.categories.includes(cat.id)} onChange={() => set({ categories: toggleIn(draft.categories, cat.id) })} /> {cat.name}
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>

            <fieldset>
              <legend>Tags</legend>
              <ul className="pa-checks">
                {tags.map((t) => (
                  <li key={t.id}>
                    <label>
                      <input type="checkbox" checked={draft.tags.includes(t.id)} onChange={() => set({ tags: toggleIn(draft.tags, t.id) })} /> {t.name}
                    </label>
                  </li>
                ))}
              </ul>
              {tags.length === 0 ? <p className="admin-field__hint">No tags yet: add them on the Categories screen.</p> : null}
            </fieldset>

            <fieldset>
              <legend>Images</legend>
              {err('images') ? <p className="admin-field__error">{err('images')}</p> : null}
              <ul className="pa-images" aria-label="The product's images, main image first">
                {draft.images.map((img, i) => (
                  <li key={img.id}>
                    <img className="pa-thumb" src={img.src} alt="" width={40} height={40} />
                    <span>
                      {img.name || img.src}
                      {i === 0 ? ' (main image)' : ''}
                    </span>
                    {i > 0 ? (
                      <button type="button" onClick={() => set({ images: [img, ...draft.images.filter((x) => x.id !== img.id)] })}>
                        Make main<span className="screen-reader-text"> image: {img.name || img.src}</span>
                      </button>
                    ) : null}
                    <button type="button" onClick={() => set({ images: draft.images.filter((x) => x.id !== img.id) })}>
                      Remove<span className="screen-reader-text"> image {img.name || img.src}</span>
                    </button>
                  </li>
                ))}
              </ul>
              <Field label="Add an image from the media library">
                {(p) => (
                  <select {...p} value={pick} onChange={(e) => setPick(e.target.value)}>
                    <option value="">Choose an image</option>
                    {library
                      .filter((i) => !draft.images.some((x) => x.id === i.id))
                      .map((i) => (
                        <option key={i.id} value={i.id}>
                          {i.name || i.alt || i.src}
                        </option>
                      ))}
                  </select>
                )}
              </Field>
              <button type="button" disabled={!pick} onClick={addImage}>
                Add image
              </button>
            </fieldset>
          </div>
        </div>
      </form>

      {id !== null && product && variable ? (
        <Variations productId={id} version={version} setVersion={setVersion} unsaved={dirty} currency={currency} onStale={onStale} push={push} />
      ) : null}

      {confirmTrash && product ? (
        <Confirm title={`Move “${product.name}” to the trash?`} confirmLabel="Move to the trash" danger onConfirm={() => void trash()} onCancel={() => setConfirmTrash(false)}>
          <p>It leaves the shop at once. You can restore it from the trash.</p>
        </Confirm>
      ) : null}
    </section>
  );
}
