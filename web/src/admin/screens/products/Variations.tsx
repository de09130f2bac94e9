// A variable product's variations: generated from the attributes marked
// "Used for variations" (every combination once), edited in a table, and
// in bulk (set or change the price of the chosen rows, set their stock).
// Edits stay in the table until "Save variations", which sends the changed
// rows in one batch with the product's version; a stale version is the
// editor's conflict.

import { Fragment, useCallback, useEffect, useState } from 'react';
import { adminCall, type AdminError } from '../../api';
import { Field } from '../../ui/Field';
import { QuantityRuleFields } from './QuantityRuleFields';
import type { Notice } from '../../ui/Notices';
import { PRODUCTS, dateInput, gmtOf, localDateTime, saleDateGMT, wholeNumber, type Variation } from './types';
import { ColumnHeads } from '../../../ui/ColumnHeads';
import { Options } from '../../../ui/Options';

interface Row {
  id: number;
  label: string;
  sku: string;
  regular_price: string;
  sale_price: string;
  sale_from: string; // date inputs, the browser's days
  sale_to: string;
  manage_stock: boolean;
  stock_quantity: string;
  enabled: boolean;
  // The row's details: threshold, quantity rules, pre-order.
  low_stock: string;
  min_qty: string;
  max_qty: string;
  step: string;
  pre_order: boolean;
  pre_order_at: string; // datetime-local, the browser's time zone
  pre_order_label: string;
}

const ruleInput = (n: number) => (n > 0 ? String(n) : '');

const rowOf = (v: Variation): Row => ({
  id: v.id,
  label: v.attributes.map((a) => a.option || `Any ${a.name}`).join(' / ') || `#${v.id}`,
  sku: v.sku,
  regular_price: v.regular_price,
  sale_price: v.sale_price,
  sale_from: dateInput(v.date_on_sale_from_gmt),
  sale_to: dateInput(v.date_on_sale_to_gmt),
  manage_stock: v.manage_stock,
  stock_quantity: v.stock_quantity === null ? '' : String(v.stock_quantity),
  enabled: v.enabled,
  low_stock: v.low_stock_amount === null ? '' : String(v.low_stock_amount),
  min_qty: ruleInput(v.quantity_rules.minimum),
  max_qty: ruleInput(v.quantity_rules.maximum),
  step: ruleInput(v.quantity_rules.multiple_of),
  pre_order: v.pre_order,
  pre_order_at: localDateTime(v.pre_order_date_gmt),
  pre_order_label: v.pre_order_label,
});

const BULK: Record<string, string> = {
  regular: 'Set regular prices',
  increase: 'Increase regular prices by %',
  decrease: 'Decrease regular prices by %',
  sale: 'Set sale prices',
  clearsale: 'Remove sale prices',
  stock: 'Set stock quantities',
};

/** price × (1 ± pct/100), to two decimals. */
function scale(price: string, pct: number, up: boolean): string {
  const n = Number.parseFloat(price);
  if (!Number.isFinite(n)) return price;
  const v = n * (1 + ((up ? 1 : -1) * pct) / 100);
  return Math.max(0, Math.round(v * 100) / 100).toFixed(2);
}

export function Variations({
  productId,
  version,
  setVersion,
  unsaved,
  currency,
  onStale,
  push,
}: {
  productId: number;
  version: number;
  setVersion: (v: number) => void;
  unsaved: boolean;
  currency: string;
  onStale: (e: AdminError) => void;
  push: (kind: Notice['kind'], text: string) => void;
}) {
  const [rows, setRows] = useState<Row[]>([]);
  const [orig, setOrig] = useState<Row[]>([]);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [action, setAction] = useState('');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [rowError, setRowError] = useState('');
  const [open, setOpen] = useState<Set<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  const take = useCallback((vs: Variation[]) => {
    const rs = vs.map(rowOf);
    setRows(rs);
    setOrig(rs);
    setChosen(new Set());
  }, []);

  useEffect(() => {
    void adminCall<Variation[]>('GET', `${PRODUCTS}/${productId}/variations`).then((r) => {
      if (r.ok) take(r.data);
    });
  }, [productId, take]);

  const edit = (id: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const changed = rows.filter((r) => JSON.stringify(r) !== JSON.stringify(orig.find((o) => o.id === r.id)));

  const generate = async () => {
    setBusy(true);
    const r = await adminCall<{ count: number; version: number; variations: Variation[] }>('POST', `${PRODUCTS}/${productId}/variations/generate`, { version });
    setBusy(false);
    if (!r.ok) {
      if (r.status === 409) return onStale(r.error);
      return push('error', r.error.message);
    }
    setVersion(r.data.version);
    take(r.data.variations);
    setStatus(r.data.count === 0 ? 'Every combination already has a variation.' : `${r.data.count} variations added. Give them prices and save.`);
  };

  const applyBulk = () => {
    const n = Number.parseFloat(value);
    setRows((rs) =>
      rs.map((r) => {
        if (!chosen.has(r.id)) return r;
        switch (action) {
          case 'regular':
            return { ...r, regular_price: value.trim() };
          case 'increase':
          case 'decrease':
            return Number.isFinite(n) ? { ...r, regular_price: scale(r.regular_price, n, action === 'increase') } : r;
          case 'sale':
            return { ...r, sale_price: value.trim() };
          case 'clearsale':
            return { ...r, sale_price: '', sale_from: '', sale_to: '' };
          case 'stock':
            return { ...r, manage_stock: true, stock_quantity: value.trim() };
        }
        return r;
      }),
    );
    setStatus(`${BULK[action]}: applied to ${chosen.size} ${chosen.size === 1 ? 'variation' : 'variations'}. Save variations to keep it.`);
  };

  const save = async () => {
    // Whole numbers only: a typo is named before anything is sent.
    for (const r of changed) {
      for (const [v, what] of [
        [r.low_stock, 'low stock threshold'],
        [r.min_qty, 'minimum quantity'],
        [r.max_qty, 'maximum quantity'],
        [r.step, 'quantity multiple'],
      ] as const) {
        if (wholeNumber(v) === undefined) {
          const text = `${r.label}: the ${what} must be a whole number, or empty.`;
          setRowError(text);
          setOpen((s) => new Set(s).add(r.id));
          return push('error', `Variations not saved. ${text}`);
        }
      }
    }
    setBusy(true);
    setRowError('');
    const update = changed.map((r) => ({
      id: r.id,
      sku: r.sku,
      regular_price: r.regular_price,
      sale_price: r.sale_price,
      // A schedule belongs to a sale price: without one it is cleared.
      date_on_sale_from_gmt: r.sale_price.trim() ? saleDateGMT(r.sale_from, false) : '',
      date_on_sale_to_gmt: r.sale_price.trim() ? saleDateGMT(r.sale_to, true) : '',
      manage_stock: r.manage_stock,
      ...(r.manage_stock && r.stock_quantity.trim() !== '' ? { stock_quantity: Number.parseInt(r.stock_quantity, 10) } : {}),
      // The count the row was loaded with: the server applies the
      // difference, so units sold meanwhile stay sold.
      ...(r.manage_stock && r.stock_quantity.trim() !== '' && (orig.find((o) => o.id === r.id)?.stock_quantity ?? '').trim() !== ''
        ? { original_stock_quantity: Number.parseInt(orig.find((o) => o.id === r.id)!.stock_quantity, 10) }
        : {}),
      enabled: r.enabled,
      low_stock_amount: wholeNumber(r.low_stock) ?? null,
      quantity_rules: { minimum: wholeNumber(r.min_qty) ?? 0, maximum: wholeNumber(r.max_qty) ?? 0, multiple_of: wholeNumber(r.step) ?? 0 },
      pre_order: r.pre_order,
      pre_order_date_gmt: r.pre_order ? gmtOf(r.pre_order_at) : '',
      pre_order_label: r.pre_order_label,
    }));
    const r = await adminCall<{ version: number; variations: Variation[] }>('POST', `${PRODUCTS}/${productId}/variations/batch`, { version, update });
    setBusy(false);
    if (!r.ok) {
      if (r.status === 409) return onStale(r.error);
      const params = r.error.data?.params as Record<string, string> | undefined;
      const m = params ? Object.keys(params)[0]?.match(/^update\[(\d+)\]/) : null;
      const which = m ? changed[Number(m[1])]?.label : '';
      const text = params ? `${which ? which + ': ' : ''}${Object.values(params)[0]}` : r.error.message;
      setRowError(text);
      return push('error', `Variations not saved. ${text}`);
    }
    setVersion(r.data.version);
    take(r.data.variations);
    push('success', `${update.length} ${update.length === 1 ? 'variation' : 'variations'} saved.`);
  };

  const all = rows.length > 0 && rows.every((r) => chosen.has(r.id));
  return (
    <section aria-labelledby="pa-variations-heading" className="admin-card">
      <h2 id="pa-variations-heading">Variations</h2>
      <p>
        <button type="button" onClick={() => void generate()} disabled={busy || unsaved}>
          Generate variations
        </button>{' '}
        {unsaved ? <span className="admin-field__hint">Save the product first: variations are made from its saved attributes.</span> : null}
      </p>
      {rows.length > 0 ? (
        <>
          <div className="admin-toolbar pa-bulk">
            <Field label="Bulk edit">
              {(p) => (
                <select {...p} value={action} onChange={(e) => setAction(e.target.value)}>
                  <option value="">Choose an edit</option>
                  <Options items={Object.entries(BULK)} />
                </select>
              )}
            </Field>
            {action && action !== 'clearsale' ? (
              <Field label={action === 'stock' ? 'Quantity' : action === 'increase' || action === 'decrease' ? 'Percent' : `Price (${currency})`}>
                {(p) => <input {...p} inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} />}
              </Field>
            ) : null}
            <button type="button" disabled={!action || chosen.size === 0} onClick={applyBulk}>
              Apply to {chosen.size} selected
            </button>
          </div>
          {rowError ? (
            <p className="admin-field__error" role="alert">
              {rowError}
            </p>
          ) : null}
          <table className="admin-table pa-variations">
            <caption className="screen-reader-text">Variations of this product</caption>
            <ColumnHeads
              lead={
                <td>
                  <input type="checkbox" aria-label="Select all variations" checked={all} onChange={() => setChosen(all ? new Set() : new Set(rows.map((r) => r.id)))} />
                </td>
              }
              columns={['Variation', 'SKU', 'Regular price', 'Sale price', 'Sale starts', 'Sale ends', 'Stock', 'Enabled', { label: 'Details', hidden: true }]}
            />
            <tbody>
              {rows.map((r) => (
                <Fragment key={r.id}>
                <tr>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${r.label}`}
                      checked={chosen.has(r.id)}
                      onChange={() =>
                        setChosen((s) => {
                          const n = new Set(s);
                          if (n.has(r.id)) n.delete(r.id);
                          else n.add(r.id);
                          return n;
                        })
                      }
                    />
                  </td>
                  <th scope="row">{r.label}</th>
                  <td>
                    <input aria-label={`SKU of ${r.label}`} value={r.sku} onChange={(e) => edit(r.id, { sku: e.target.value })} />
                  </td>
                  <td>
                    <input aria-label={`Regular price of ${r.label}`} inputMode="decimal" value={r.regular_price} onChange={(e) => edit(r.id, { regular_price: e.target.value })} />
                  </td>
                  <td>
                    <input aria-label={`Sale price of ${r.label}`} inputMode="decimal" value={r.sale_price} onChange={(e) => edit(r.id, { sale_price: e.target.value })} />
                  </td>
                  <td>
                    <input
                      aria-label={`Sale of ${r.label} starts on`}
                      type="date"
                      value={r.sale_from}
                      disabled={!r.sale_price.trim()}
                      onChange={(e) => edit(r.id, { sale_from: e.target.value })}
                    />
                  </td>
                  <td>
                    <input aria-label={`Sale of ${r.label} ends on`} type="date" value={r.sale_to} disabled={!r.sale_price.trim()} onChange={(e) => edit(r.id, { sale_to: e.target.value })} />
                  </td>
                  <td>
                    <input
                      aria-label={`Stock quantity of ${r.label}`}
                      type="number"
                      step={1}
                      value={r.stock_quantity}
                      placeholder={r.manage_stock ? '' : 'not tracked'}
                      onChange={(e) => edit(r.id, { stock_quantity: e.target.value, manage_stock: e.target.value.trim() !== '' })}
                    />
                  </td>
                  <td>
                    <input type="checkbox" aria-label={`${r.label} is for sale`} checked={r.enabled} onChange={(e) => edit(r.id, { enabled: e.target.checked })} />
                  </td>
                  <td>
                    <button type="button" aria-expanded={open.has(r.id)} aria-controls={`pa-variation-more-${r.id}`} aria-label={`More of ${r.label}`} onClick={() => toggle(r.id)}>
                      {r.pre_order ? 'More (pre-order)' : 'More'}
                    </button>
                  </td>
                </tr>
                {open.has(r.id) ? (
                  <tr id={`pa-variation-more-${r.id}`} className="pa-variation-more">
                    <td colSpan={10}>
                      <fieldset>
                        <legend>{r.label}: quantity rules and pre-order</legend>
                        <div className="pa-row">
                          <Field label="Low stock threshold" hint="Empty: the shop's.">
                            {(p) => <input {...p} inputMode="numeric" value={r.low_stock} onChange={(e) => edit(r.id, { low_stock: e.target.value })} />}
                          </Field>
                          <QuantityRuleFields value={r} onChange={(patch) => edit(r.id, patch)} />
                        </div>
                        <div className="pa-row">
                          <div className="admin-field">
                            <label>
                              <input type="checkbox" checked={r.pre_order} onChange={(e) => edit(r.id, { pre_order: e.target.checked })} /> Pre-order
                            </label>
                          </div>
                          {r.pre_order ? (
                            <>
                              <Field label="Available from" hint="In your time zone; shown on the product page.">
                                {(p) => <input {...p} type="datetime-local" value={r.pre_order_at} onChange={(e) => edit(r.id, { pre_order_at: e.target.value })} />}
                              </Field>
                              <Field label="Button label" hint="Empty: “Pre-order now”.">
                                {(p) => <input {...p} maxLength={60} value={r.pre_order_label} onChange={(e) => edit(r.id, { pre_order_label: e.target.value })} />}
                              </Field>
                            </>
                          ) : null}
                        </div>
                      </fieldset>
                    </td>
                  </tr>
                ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
          <p>
            <button type="button" className="admin-primary" disabled={busy || changed.length === 0} onClick={() => void save()}>
              Save variations
            </button>{' '}
            <span className="admin-field__hint">{changed.length ? `${changed.length} changed` : 'No changes'}</span>
          </p>
        </>
      ) : (
        <p>No variations yet. Choose the attribute values above, mark them “Used for variations”, save, then generate.</p>
      )}
      <p role="status" className="admin-list-status">
        {status}
      </p>
    </section>
  );
}
