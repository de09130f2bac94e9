// Coupons: the list with a search and a bulk delete, and the form that creates
// and edits one, on WooCommerce's /wc/v3/coupons. The addresses are
// /wp-admin/coupons/ (list), /wp-admin/coupons/new/ and
// /wp-admin/coupons/<id>/ (form). The server checks every field; its
// refusals are shown at the fields they name.

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { adminCall, paramError, withQuery, type AdminError } from '../../api';
import { BASE, Link, useRouter, type Location } from '../../router';
import type { ScreenProps } from '../../screens';
import { Field, type ControlProps } from '../../ui/Field';
import { Notices, useNotices } from '../../ui/Notices';
import { useFormDraft } from '../../ui/form-draft';
import { DataTable, eachRow, type Bulk, type Column } from '../../ui/DataTable';
import { useListData, useListQuery } from '../../ui/list';
import { formatMoney } from '../../ui/format';
import './coupons.css';
import { Options } from '../../../ui/Options';

export const COUPONS_PATH = '/wp-json/wc/v3/coupons';
const CATEGORIES_PATH = '/wp-json/wc/store/v1/products/categories';

export interface Coupon {
  id: number;
  code: string;
  amount: string;
  discount_type: 'percent' | 'fixed_cart' | 'fixed_product';
  description: string;
  date_expires: string | null;
  usage_count: number;
  individual_use: boolean;
  product_ids: number[];
  excluded_product_ids: number[];
  usage_limit: number | null;
  usage_limit_per_user: number | null;
  product_categories: number[];
  excluded_product_categories: number[];
  minimum_amount: string;
}

export const TYPES: [Coupon['discount_type'], string][] = [
  ['percent', 'Percentage discount'],
  ['fixed_cart', 'Fixed cart discount'],
  ['fixed_product', 'Fixed product discount'],
];

const PER_PAGE = 20;

/**
 * A notice for the next coupon screen: the frame remounts a screen when
 * its address changes, so "Coupon created." is handed to the edit form the
 * new coupon opens in.
 */
let flash: string | null = null;

export default function Coupons({ data, params, location }: ScreenProps) {
  if (params[0] === 'new') return <CouponForm currency={data.site.currency} />;
  if (params[0] && /^\d+$/.test(params[0])) return <CouponForm id={Number(params[0])} currency={data.site.currency} />;
  return <CouponList currency={data.site.currency} location={location} />;
}

/** A coupon's amount as people read it: "10%" or "$5.00". */
export function amountLabel(c: Pick<Coupon, 'amount' | 'discount_type'>, currency: string): string {
  if (c.discount_type === 'percent') return `${Number.parseFloat(c.amount)}%`;
  return formatMoney(c.amount, currency);
}

const COUPON_BULK: Bulk<Coupon> = {
  actions: [{ value: 'delete', label: 'Delete permanently', done: 'deleted', confirm: { danger: true, warning: 'Orders placed with them keep their discount.' } }],
  run: (_, rows) => eachRow(rows, (c) => adminCall('DELETE', `${COUPONS_PATH}/${c.id}?force=true`)),
};

function CouponList({ currency, location }: { currency: string; location: Location }) {
  const query = useListQuery(location, { base: `${BASE}coupons/` });
  const { search, page } = query;
  const data = useListData<Coupon>(withQuery(COUPONS_PATH, { search, page, per_page: PER_PAGE }));
  const { notices, push, dismiss } = useNotices();
  const heading = useRef<HTMLHeadingElement>(null);

  const remove = async (c: Coupon) => {
    if (!window.confirm(`Delete the coupon ${c.code}? Orders placed with it keep their discount.`)) return;
    const r = await adminCall<Coupon>('DELETE', `${COUPONS_PATH}/${c.id}?force=true`);
    if (!r.ok) {
      push('error', r.error.message);
      return;
    }
    push('success', `Coupon ${c.code} deleted.`);
    // The row and its button are gone: focus goes back to the list.
    heading.current?.focus();
    data.reload();
  };

  const columns: Column<Coupon>[] = [
    {
      key: 'code',
      header: 'Code',
      cell: (c) => (
        <>
          <Link to={`${BASE}coupons/${c.id}/`}>
            <code>{c.code}</code>
          </Link>
          {c.description ? <div className="admin-field__hint">{c.description}</div> : null}
        </>
      ),
    },
    { key: 'type', header: 'Type', cell: (c) => TYPES.find(([v]) => v === c.discount_type)?.[1] ?? c.discount_type },
    { key: 'amount', header: 'Amount', cell: (c) => amountLabel(c, currency) },
    { key: 'usage', header: 'Usage / limit', cell: (c) => `${c.usage_count} / ${c.usage_limit ?? '∞'}` },
    { key: 'expires', header: 'Expires', cell: (c) => (c.date_expires ? c.date_expires.slice(0, 10) : '–') },
    {
      key: 'actions',
      header: <span className="screen-reader-text">Actions</span>,
      cell: (c) => (
        <button type="button" className="admin-danger" aria-label={`Delete coupon ${c.code}`} onClick={() => void remove(c)}>
          Delete
        </button>
      ),
    },
  ];

  return (
    <section aria-labelledby="coupons-heading">
      <div className="admin-toolbar">
        <h2 id="coupons-heading" ref={heading} tabIndex={-1} className="coupons-heading">
          All coupons
        </h2>
        <Link to={`${BASE}coupons/new/`} className="admin-button">
          Add coupon
        </Link>
      </div>
      <Notices notices={notices} dismiss={dismiss} />
      <DataTable
        label="Coupons, newest first"
        noun={{ one: 'coupon', many: 'coupons' }}
        query={query}
        data={data}
        columns={columns}
        rowLabel={(c) => c.code}
        search={{ label: 'Search coupons' }}
        bulk={COUPON_BULK}
        empty={search ? 'No coupon matches the search.' : 'No coupons yet.'}
        pagerLabel="Coupon pages"
      />
    </section>
  );
}

interface Draft {
  code: string;
  description: string;
  discount_type: Coupon['discount_type'];
  amount: string;
  date_expires: string;
  minimum_amount: string;
  usage_limit: string;
  usage_limit_per_user: string;
  individual_use: boolean;
  product_ids: string;
  excluded_product_ids: string;
  product_categories: string[];
  excluded_product_categories: string[];
}

const EMPTY: Draft = {
  code: '',
  description: '',
  discount_type: 'percent',
  amount: '',
  date_expires: '',
  minimum_amount: '',
  usage_limit: '',
  usage_limit_per_user: '',
  individual_use: false,
  product_ids: '',
  excluded_product_ids: '',
  product_categories: [],
  excluded_product_categories: [],
};

function draftOf(c: Coupon): Draft {
  const zero = (v: string) => (/^0*(\.0*)?$/.test(v) ? '' : v);
  return {
    code: c.code,
    description: c.description,
    discount_type: c.discount_type,
    amount: c.amount,
    date_expires: c.date_expires ? c.date_expires.slice(0, 10) : '',
    minimum_amount: zero(c.minimum_amount),
    usage_limit: c.usage_limit ? String(c.usage_limit) : '',
    usage_limit_per_user: c.usage_limit_per_user ? String(c.usage_limit_per_user) : '',
    individual_use: c.individual_use,
    product_ids: c.product_ids.join(', '),
    excluded_product_ids: c.excluded_product_ids.join(', '),
    product_categories: c.product_categories.map(String),
    excluded_product_categories: c.excluded_product_categories.map(String),
  };
}

/** "12, 13" as ids; null when a part is not a whole number. */
function ids(v: string): number[] | null {
  const parts = v.split(/[\s,]+/).filter(Boolean);
  if (parts.some((p) => !/^\d+$/.test(p))) return null;
  return parts.map(Number);
}

/** The fields in the order they are shown: the first refused one gets the focus. */
const FIELD_ORDER = [
  'code',
  'discount_type',
  'amount',
  'date_expires',
  'description',
  'minimum_amount',
  'product_ids',
  'excluded_product_ids',
  'product_categories',
  'excluded_product_categories',
  'usage_limit',
  'usage_limit_per_user',
  'individual_use',
];

function CouponForm({ id, currency }: { id?: number; currency: string }) {
  const { navigate } = useRouter();
  const { draft, setDraft, errors, setErrors, set, form, showErrors, focusAfterCommit } = useFormDraft<Draft>(EMPTY, FIELD_ORDER);
  const [usage, setUsage] = useState(0);
  const [loading, setLoading] = useState(id !== undefined);
  const [saving, setSaving] = useState(false);
  const [loadError, setLoadError] = useState<AdminError | null>(null);
  const [categories, setCategories] = useState<{ id: number; name: string }[]>([]);
  const { notices, push, dismiss } = useNotices();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (flash) {
      push('success', flash);
      flash = null;
      focusAfterCommit(() => heading.current);
    }
  }, [push, focusAfterCommit]);

  useEffect(() => {
    let live = true;
    void adminCall<{ id: number; name: string }[]>('GET', withQuery(CATEGORIES_PATH, { per_page: 100 })).then((r) => {
      if (live && r.ok && Array.isArray(r.data)) setCategories(r.data);
    });
    if (id !== undefined) {
      void adminCall<Coupon>('GET', `${COUPONS_PATH}/${id}`).then((r) => {
        if (!live) return;
        setLoading(false);
        if (!r.ok) {
          setLoadError(r.error);
          return;
        }
        setDraft(draftOf(r.data));
        setUsage(r.data.usage_count);
      });
    }
    return () => {
      live = false;
    };
  }, [id]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const errs: Record<string, string> = {};
    if (!draft.code.trim()) errs.code = 'A coupon needs a code.';
    const prod = ids(draft.product_ids);
    const exProd = ids(draft.excluded_product_ids);
    if (!prod) errs.product_ids = 'Product ids are whole numbers separated by commas.';
    if (!exProd) errs.excluded_product_ids = 'Product ids are whole numbers separated by commas.';
    if (Object.keys(errs).length > 0) {
      push('error', 'The coupon was not saved: correct the fields marked below.');
      showErrors(errs);
      return;
    }
    const body = {
      code: draft.code.trim(),
      description: draft.description,
      discount_type: draft.discount_type,
      amount: draft.amount.trim() || '0',
      date_expires: draft.date_expires || null,
      minimum_amount: draft.minimum_amount.trim(),
      usage_limit: draft.usage_limit.trim() ? Number(draft.usage_limit) : null,
      usage_limit_per_user: draft.usage_limit_per_user.trim() ? Number(draft.usage_limit_per_user) : null,
      individual_use: draft.individual_use,
      product_ids: prod,
      excluded_product_ids: exProd,
      product_categories: draft.product_categories.map(Number),
      excluded_product_categories: draft.excluded_product_categories.map(Number),
    };
    setSaving(true);
    const r = id === undefined ? await adminCall<Coupon>('POST', COUPONS_PATH, body) : await adminCall<Coupon>('PUT', `${COUPONS_PATH}/${id}`, body);
    setSaving(false);
    if (!r.ok) {
      const field = FIELD_ORDER.find((f) => paramError(r.error, f));
      const fieldErrs: Record<string, string> = {};
      for (const f of FIELD_ORDER) {
        const m = paramError(r.error, f);
        if (m) fieldErrs[f] = m;
      }
      if (r.error.code === 'woocommerce_rest_coupon_code_already_exists') fieldErrs.code = 'Another coupon has this code.';
      push('error', field || fieldErrs.code ? 'The coupon was not saved: correct the fields marked below.' : r.error.message);
      showErrors(fieldErrs);
      return;
    }
    setErrors({});
    if (id === undefined) {
      // The new coupon opens in its edit form, which says it was created.
      flash = `Coupon ${r.data.code} created.`;
      navigate(`${BASE}coupons/${r.data.id}/`, { replace: true });
      return;
    }
    setDraft(draftOf(r.data));
    setUsage(r.data.usage_count);
    push('success', `Coupon ${r.data.code} saved.`);
    // Focus goes to the form's heading; the notice is announced.
    focusAfterCommit(() => heading.current);
  };

  if (loadError) {
    return (
      <div role="alert" className="admin-notice admin-notice--error">
        <p>{loadError.status === 404 ? 'This coupon does not exist (it may have been deleted).' : loadError.message}</p>
        <Link to={`${BASE}coupons/`}>Back to the coupons</Link>
      </div>
    );
  }

  // The categories a coupon is limited to, or kept from: a multiple select each.
  const categorySelect = (k: 'product_categories' | 'excluded_product_categories') => (p: ControlProps) => (
    <select {...p} name={k} multiple size={Math.min(6, Math.max(2, categories.length))} value={draft[k]} onChange={(e) => set(k)(Array.from(e.target.selectedOptions, (o) => o.value))}>
      <Options items={categories.map((c) => [String(c.id), c.name])} />
    </select>
  );

  return (
    <section aria-labelledby="coupon-form-heading" aria-busy={loading || undefined}>
      <p>
        <Link to={`${BASE}coupons/`}>← All coupons</Link>
      </p>
      <h2 id="coupon-form-heading" ref={heading} tabIndex={-1} className="coupons-heading">
        {id === undefined ? 'Add coupon' : `Edit coupon ${draft.code}`}
      </h2>
      <Notices notices={notices} dismiss={dismiss} />
      {id !== undefined && !loading ? (
        <p className="admin-list-status">
          Used {usage} {usage === 1 ? 'time' : 'times'}.
        </p>
      ) : null}
      <form ref={form} className="coupon-form admin-card" onSubmit={save} noValidate>
        <fieldset>
          <legend>General</legend>
          <Field label="Coupon code" required error={errors.code} hint="Shoppers type it at the cart; letters are not case-sensitive.">
            {(p) => <input {...p} name="code" required autoComplete="off" value={draft.code} onChange={(e) => set('code')(e.target.value)} />}
          </Field>
          <Field label="Discount type" error={errors.discount_type}>
            {(p) => (
              <select {...p} name="discount_type" value={draft.discount_type} onChange={(e) => set('discount_type')(e.target.value as Coupon['discount_type'])}>
                <Options items={TYPES} />
              </select>
            )}
          </Field>
          <Field
            label={draft.discount_type === 'percent' ? 'Amount (%)' : `Amount (${currency})`}
            error={errors.amount}
            hint={draft.discount_type === 'fixed_product' ? 'Taken off each unit of the eligible products.' : undefined}
          >
            {(p) => <input {...p} name="amount" inputMode="decimal" value={draft.amount} onChange={(e) => set('amount')(e.target.value)} />}
          </Field>
          <Field label="Expiry date" error={errors.date_expires} hint="The coupon stops working at the start of this day (UTC). Empty: never.">
            {(p) => <input {...p} name="date_expires" type="date" value={draft.date_expires} onChange={(e) => set('date_expires')(e.target.value)} />}
          </Field>
          <Field label="Description" error={errors.description} hint="For the shop's staff only.">
            {(p) => <textarea {...p} name="description" rows={2} value={draft.description} onChange={(e) => set('description')(e.target.value)} />}
          </Field>
        </fieldset>
        <fieldset>
          <legend>Usage restriction</legend>
          <Field label={`Minimum spend (${currency})`} error={errors.minimum_amount} hint="The cart's subtotal before discounts. Empty: none.">
            {(p) => <input {...p} name="minimum_amount" inputMode="decimal" value={draft.minimum_amount} onChange={(e) => set('minimum_amount')(e.target.value)} />}
          </Field>
          <Field label="Individual use only" error={errors.individual_use}>
            {(p) => (
              <input
                {...p}
                name="individual_use"
                type="checkbox"
                checked={draft.individual_use}
                onChange={(e) => set('individual_use')(e.target.checked)}
              />
            )}
          </Field>
          <Field label="Products" error={errors.product_ids} hint="Product ids, separated by commas. Empty: every product.">
            {(p) => <input {...p} name="product_ids" value={draft.product_ids} onChange={(e) => set('product_ids')(e.target.value)} />}
          </Field>
          <Field label="Exclude products" error={errors.excluded_product_ids} hint="Product ids, separated by commas.">
            {(p) => <input {...p} name="excluded_product_ids" value={draft.excluded_product_ids} onChange={(e) => set('excluded_product_ids')(e.target.value)} />}
          </Field>
          <Field label="Product categories" error={errors.product_categories} hint="Hold Ctrl (or Cmd) to choose several. None: every category.">
            {categorySelect('product_categories')}
          </Field>
          <Field label="Exclude categories" error={errors.excluded_product_categories}>
            {categorySelect('excluded_product_categories')}
          </Field>
        </fieldset>
        <fieldset>
          <legend>Usage limits</legend>
          <Field label="Usage limit per coupon" error={errors.usage_limit} hint="Orders in all. Empty: unlimited.">
            {(p) => <input {...p} name="usage_limit" type="number" min={0} step={1} value={draft.usage_limit} onChange={(e) => set('usage_limit')(e.target.value)} />}
          </Field>
          <Field label="Usage limit per user" error={errors.usage_limit_per_user} hint="Per customer account or billing email. Empty: unlimited.">
            {(p) => (
              <input
                {...p}
                name="usage_limit_per_user"
                type="number"
                min={0}
                step={1}
                value={draft.usage_limit_per_user}
                onChange={(e) => set('usage_limit_per_user')(e.target.value)}
              />
            )}
          </Field>
        </fieldset>
        <p>
          <button type="submit" className="admin-primary" disabled={saving || loading}>
            {saving ? 'Saving…' : id === undefined ? 'Create coupon' : 'Save coupon'}
          </button>
        </p>
      </form>
    </section>
  );
}
