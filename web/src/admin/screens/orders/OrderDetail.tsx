// One order: its lines, totals, addresses, payment and attribution; the
// status change, the refund form (an amount and a reason, per-line
// quantities and amounts, restock), the notes with their form, and the
// mail log with "send again". Every action answers in the notices' live
// region; after a refund the focus moves to the refunds' heading, after a
// note to the notes' list, so keyboard users land on what changed.

import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { adminCall, paramError, type AdminError } from '../../api';
import { BASE, Link } from '../../router';
import { Field } from '../../ui/Field';
import { Notices, useNotices } from '../../ui/Notices';
import { formatDate, formatMoney } from '../../ui/format';
import {
  customerName,
  emailsPath,
  finishPath,
  fromMinor,
  MAIL_LABELS,
  ORDERS_PATH,
  statusLabel,
  toMinor,
  type OrderDetail as Order,
  type OrderNote,
  type OrderRefund,
} from './types';
import { Options } from '../../../ui/Options';
import { AdminTable } from '../../ui/AdminTable';

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `k-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export function OrderDetail({ id }: { id: number }) {
  const [order, setOrder] = useState<Order | null>(null);
  const [error, setError] = useState<AdminError | null>(null);
  const { notices, push, dismiss } = useNotices();

  const load = useCallback(async () => {
    const r = await adminCall<Order>('GET', `${ORDERS_PATH}/${id}`);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setError(null);
    setOrder(r.data);
  }, [id]);

  useEffect(() => {
    void load();
  }, [load]);

  if (error && !order) {
    return (
      <div role="alert" className="admin-notice admin-notice--error">
        <p>{error.message}</p>
        <p>
          <Link to={BASE + 'orders/'}>Back to the orders</Link>
        </p>
      </div>
    );
  }
  if (!order) return <p className="admin-loading">Loading the order…</p>;

  const money = (v: string) => formatMoney(v, order.currency);
  return (
    <article aria-labelledby="order-heading" className="order-detail">
      <p>
        <Link to={BASE + 'orders/'}>← All orders</Link>
      </p>
      <h2 id="order-heading">
        Order #{order.number} <span className={`order-status order-status--${order.status}`}>{statusLabel(order.status)}</span>
      </h2>
      <p className="order-meta">
        Placed <time dateTime={order.date_created_gmt + 'Z'}>{formatDate(order.date_created_gmt + 'Z')}</time> by {customerName(order)}
        {order.date_paid_gmt ? (
          <>
            {' '}
            · paid <time dateTime={order.date_paid_gmt + 'Z'}>{formatDate(order.date_paid_gmt + 'Z')}</time>
          </>
        ) : (
          ' · not paid'
        )}
      </p>
      {order.test_payment ? <p className="admin-notice">Test order: {order.test_payment}, no money moves.</p> : null}
      {order.date_anonymised_gmt ? (
        <p className="admin-notice">
          Personal data removed on <time dateTime={order.date_anonymised_gmt + 'Z'}>{formatDate(order.date_anonymised_gmt + 'Z')}</time>: names, addresses, email, phone
          and IP address read “[deleted]”; amounts, items and taxes are kept.
        </p>
      ) : null}
      <Notices notices={notices} dismiss={dismiss} />

      <StatusForm order={order} onDone={(o, text) => (setOrder(o), push('success', text))} onError={(m) => push('error', m)} />

      <section aria-labelledby="order-items" className="admin-card">
        <h3 id="order-items">Items</h3>
        <AdminTable caption={<>Items of order #{order.number}</>} columns={['Product', 'Price', 'Quantity', 'Total', 'Refunded']}>
          {order.line_items.map((l) => (
            <tr key={l.id}>
              <th scope="row">
                {l.name}
                {l.meta_data.length ? <span className="order-line__meta"> — {l.meta_data.map((m) => `${m.display_key}: ${m.display_value}`).join(', ')}</span> : null}
                {l.sku ? <span className="order-line__sku"> (SKU {l.sku})</span> : null}
              </th>
              <td>{money(l.price)}</td>
              <td>{l.quantity}</td>
              <td>{money(l.total)}</td>
              <td>
                {l.refunded_quantity || Number(l.refunded_total) ? `${l.refunded_quantity} · ${money(l.refunded_total)}` : '—'}
                {l.restocked ? <span className="order-line__meta"> ({l.restocked} back in stock)</span> : null}
              </td>
            </tr>
          ))}
        </AdminTable>
        <dl className="order-totals">
          {order.coupon_lines.map((cp) => (
            <div key={cp.code}>
              <dt>Coupon: {cp.code}</dt>
              <dd>−{money(cp.discount)}</dd>
            </div>
          ))}
          {order.shipping_lines.map((s, i) => (
            <div key={i}>
              <dt>Shipping ({s.method_title})</dt>
              <dd>{money(s.total)}</dd>
            </div>
          ))}
          {(
            [
              ['Tax', order.total_tax],
              ['Total', order.total],
              ['Refunded', order.total_refunded],
              ['Left to refund', order.refund_left],
            ] as const
          ).map(([label, amount]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{money(amount)}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="order-columns">
        <section aria-labelledby="order-billing" className="admin-card">
          <h3 id="order-billing">Billing address</h3>
          <AddressBlock lines={order.vitrine_address_lines?.billing} />
          {order.billing.email ? (
            <p>
              <a href={`mailto:${order.billing.email}`}>{order.billing.email}</a>
            </p>
          ) : null}
          {order.billing.phone ? <p>{order.billing.phone}</p> : null}
        </section>
        <section aria-labelledby="order-shipping" className="admin-card">
          <h3 id="order-shipping">Shipping address</h3>
          <AddressBlock lines={order.vitrine_address_lines?.shipping} />
          {order.customer_note ? (
            <p>
              <strong>Customer's note:</strong> {order.customer_note}
            </p>
          ) : null}
        </section>
        <section aria-labelledby="order-payment" className="admin-card">
          <h3 id="order-payment">Payment and origin</h3>
          <dl className="order-dl">
            <dt>Payment method</dt>
            <dd>{order.payment_method_title || order.payment_method || '—'}</dd>
            {order.transaction_id ? (
              <>
                <dt>Transaction</dt>
                <dd>
                  <code>{order.transaction_id}</code>
                </dd>
              </>
            ) : null}
            {Object.entries(order.attribution)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, v]) => (
                <div key={k} className="order-dl__row">
                  <dt>{attributionLabel(k)}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            {Object.keys(order.attribution).length === 0 ? (
              <>
                <dt>Origin</dt>
                <dd>Unknown</dd>
              </>
            ) : null}
          </dl>
        </section>
      </div>

      <Refunds order={order} onRefunded={(o, text) => (setOrder(o), push('success', text))} onError={(m) => push('error', m)} reload={load} />
      <Notes order={order} onAdded={(n, text) => (setOrder({ ...order, notes: [n, ...order.notes] }), push('success', text))} onError={(m) => push('error', m)} />
      <Mails order={order} onSent={(text) => (void load(), push('success', text))} onError={(m) => push('error', m)} />
    </article>
  );
}

/** An address as the server wrote it for its country (the storefront's and the mails' lines): text, one a line. */
function AddressBlock({ lines }: { lines?: string[] }) {
  if (!lines || lines.length === 0) return <p>No address.</p>;
  return (
    <address>
      {lines.map((l, i) => (
        <span key={i}>
          {i > 0 && <br />}
          {l}
        </span>
      ))}
    </address>
  );
}

const ATTRIBUTION: Record<string, string> = {
  source_type: 'Source type',
  utm_source: 'Source',
  utm_medium: 'Medium',
  utm_campaign: 'Campaign',
  referrer: 'Referrer',
  session_entry: 'Entry page',
  session_pages: 'Pages viewed',
  session_count: 'Visits',
  device_type: 'Device',
  user_agent: 'Browser',
};

function attributionLabel(k: string): string {
  return ATTRIBUTION[k] ?? k.replace(/_/g, ' ');
}

function StatusForm({ order, onDone, onError }: { order: Order; onDone: (o: Order, text: string) => void; onError: (m: string) => void }) {
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<string>();
  useEffect(() => setTo(''), [order.status]);
  if (order.next_statuses.length === 0) {
    return (
      <p className="admin-card">
        This order is {statusLabel(order.status).toLowerCase()}: its status no longer changes.
      </p>
    );
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!to) {
      setFieldError('Choose the new status.');
      return;
    }
    setBusy(true);
    setFieldError(undefined);
    const r = await adminCall<Order>('PUT', `${ORDERS_PATH}/${order.id}`, { status: to });
    setBusy(false);
    if (!r.ok) {
      setFieldError(paramError(r.error, 'status'));
      onError(r.error.message);
      return;
    }
    onDone(r.data, `Order #${r.data.number} is now ${statusLabel(r.data.status).toLowerCase()}.`);
  };
  return (
    <form className="admin-card order-status-form" onSubmit={submit} aria-labelledby="order-status-heading">
      <h3 id="order-status-heading">Status</h3>
      <div className="admin-toolbar">
        <Field label="New status" error={fieldError} hint={to === 'refunded' ? `Refunds what is left (${formatMoney(order.refund_left, order.currency)}) and puts the items back in stock.` : to === 'cancelled' ? 'Puts the items back in stock.' : undefined}>
          {(p) => (
            <select {...p} value={to} onChange={(e) => setTo(e.target.value)}>
              <option value="">Choose…</option>
              <Options items={order.next_statuses.map((s) => [s, statusLabel(s)])} />
            </select>
          )}
        </Field>
        <button type="submit" className="admin-primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change status'}
        </button>
      </div>
    </form>
  );
}

interface LineDraft {
  quantity: string;
  amount: string;
}

function Refunds({ order, onRefunded, onError, reload }: { order: Order; onRefunded: (o: Order, text: string) => void; onError: (m: string) => void; reload: () => Promise<void> }) {
  const formId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [key, setKey] = useState(newKey);
  const [lines, setLines] = useState<Record<number, LineDraft>>({});
  const [amount, setAmount] = useState('');
  const [amountTouched, setAmountTouched] = useState(false);
  const [reason, setReason] = useState('');
  const [restock, setRestock] = useState(true);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<AdminError | null>(null);
  const dec = order.currency_decimals;
  const left = toMinor(order.refund_left, dec) ?? 0;
  const refundable = left > 0 && ['processing', 'completed', 'on-hold'].includes(order.status);
  const via = order.refund_method === 'manual' ? null : order.payment_method_title || order.refund_method;

  useEffect(() => {
    if (open) first.current?.focus();
  }, [open]);

  const lineSum = Object.values(lines).reduce((s, l) => s + (toMinor(l.amount || '0', dec) ?? 0), 0);
  const shownAmount = amountTouched ? amount : lineSum > 0 ? fromMinor(lineSum, dec) : amount;

  const setLine = (id: number, patch: Partial<LineDraft>) => {
    setLines((ls) => {
      const cur = ls[id] ?? { quantity: '', amount: '' };
      const next = { ...cur, ...patch };
      // A quantity fills the line's amount at the price paid, unless typed.
      if (patch.quantity !== undefined && (cur.amount === '' || cur.amount === autoAmount(id, cur.quantity))) {
        next.amount = autoAmount(id, patch.quantity);
      }
      return { ...ls, [id]: next };
    });
  };
  const autoAmount = (id: number, qty: string): string => {
    const l = order.line_items.find((x) => x.id === id);
    const q = Number.parseInt(qty, 10);
    if (!l || !Number.isFinite(q) || q <= 0) return '';
    const total = (toMinor(l.total, dec) ?? 0) + (toMinor(l.total_tax, dec) ?? 0);
    return fromMinor(Math.round((total * q) / l.quantity), dec);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErr(null);
    const items = Object.entries(lines)
      .map(([id, l]) => ({ id: Number(id), quantity: Number.parseInt(l.quantity || '0', 10) || 0, refund_total: l.amount || '0' }))
      .filter((l) => l.quantity > 0 || (toMinor(l.refund_total, dec) ?? 1) > 0);
    const r = await adminCall<OrderRefund>(
      'POST',
      `${ORDERS_PATH}/${order.id}/refunds`,
      { amount: shownAmount, reason, line_items: items, restock_items: restock },
      { headers: { 'Idempotency-Key': key } },
    );
    setBusy(false);
    if (!r.ok) {
      setErr(r.error);
      onError(r.error.message);
      if (r.error.code === 'vitrine_refund_pending') void reload();
      return;
    }
    const fresh = await adminCall<Order>('GET', `${ORDERS_PATH}/${order.id}`);
    setOpen(false);
    setKey(newKey());
    setLines({});
    setAmount('');
    setAmountTouched(false);
    setReason('');
    const text = `Refunded ${formatMoney(r.data.amount, order.currency)}${r.data.refunded_payment ? ` through ${via}` : ' (recorded as a manual refund)'}.`;
    if (fresh.ok) onRefunded(fresh.data, text);
    heading.current?.focus();
  };

  const finish = async (r: OrderRefund) => {
    setBusy(true);
    const res = await adminCall<Order>('POST', finishPath(order.id, r.id));
    setBusy(false);
    if (!res.ok) {
      onError(res.error.message);
      return;
    }
    const done = res.data.refunds.find((x) => x.id === r.id);
    onRefunded(res.data, done?.status === 'completed' ? `Refunded ${formatMoney(r.amount, order.currency)} through ${via}.` : `The refund is ${done?.status ?? 'unknown'}.`);
    heading.current?.focus();
  };

  return (
    <section aria-labelledby="order-refunds" className="admin-card">
      <h3 id="order-refunds" ref={heading} tabIndex={-1}>
        Refunds
      </h3>
      {order.refunds.length ? (
        <AdminTable caption={<>Refunds of order #{order.number}</>} columns={['Date', 'Amount', 'How', 'State', 'Reason']}>
          {order.refunds.map((r) => (
            <tr key={r.id}>
              <td>
                <time dateTime={r.date_created_gmt + 'Z'}>{formatDate(r.date_created_gmt + 'Z')}</time> by {r.author || 'the shop'}
              </td>
              <td>{formatMoney(r.amount, order.currency)}</td>
              <td>
                {r.refunded_payment ? `Through ${order.payment_method_title || r.method}` : 'Manual'}
                {r.provider_refund_id ? (
                  <>
                    {' '}
                    (<code>{r.provider_refund_id}</code>)
                  </>
                ) : null}
              </td>
              <td>
                {r.status === 'completed' ? 'Refunded' : r.status === 'pending' ? 'Pending: the provider has not answered' : `Refused: ${r.error ?? ''}`}
                {r.status === 'pending' ? (
                  <>
                    {' '}
                    <button type="button" disabled={busy} onClick={() => void finish(r)}>
                      Finish this refund<span className="screen-reader-text"> of {formatMoney(r.amount, order.currency)}</span>
                    </button>
                  </>
                ) : null}
              </td>
              <td>{r.reason || '—'}</td>
            </tr>
          ))}
        </AdminTable>
      ) : (
        <p>No refunds.</p>
      )}
      {refundable ? (
        <button type="button" aria-expanded={open} aria-controls={formId} onClick={() => setOpen((o) => !o)}>
          {open ? 'Close the refund form' : 'Refund…'}
        </button>
      ) : null}
      <form id={formId} hidden={!open} onSubmit={submit} className="order-refund-form" aria-label="Refund">
        <p>
          {via
            ? `The money goes back through ${via}.`
            : `This records a manual refund: give the money back yourself (${order.payment_method_title || 'outside the shop'}).`}{' '}
          At most {formatMoney(order.refund_left, order.currency)} is left to refund.
        </p>
        <AdminTable caption="What to refund of each item" columns={['Product', 'Quantity to refund', 'Amount to refund']}>
          {order.line_items.map((l, i) => {
            const max = l.quantity - l.refunded_quantity;
            return (
              <tr key={l.id}>
                <th scope="row" id={`${formId}-line-${l.id}`}>
                  {l.name} <span className="order-line__meta">({max} of {l.quantity} left)</span>
                </th>
                <td>
                  <input
                    ref={i === 0 ? first : undefined}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={max}
                    step={1}
                    aria-label={`Quantity of ${l.name} to refund`}
                    value={lines[l.id]?.quantity ?? ''}
                    onChange={(e) => setLine(l.id, { quantity: e.target.value })}
                    disabled={max <= 0}
                  />
                </td>
                <td>
                  <input
                    type="text"
                    inputMode="decimal"
                    aria-label={`Amount to refund for ${l.name}`}
                    value={lines[l.id]?.amount ?? ''}
                    onChange={(e) => setLine(l.id, { amount: e.target.value })}
                  />
                </td>
              </tr>
            );
          })}
        </AdminTable>
        <div className="admin-field admin-field--check">
          <label>
            <input type="checkbox" checked={restock} onChange={(e) => setRestock(e.target.checked)} /> Put the refunded items back in stock
          </label>
        </div>
        <Field label={`Refund amount (${order.currency})`} required error={paramError(err ?? undefined, 'amount') ?? (err?.code === 'woocommerce_rest_invalid_refund_amount' ? err.message : undefined)} hint="The sum of the items' amounts, or any amount up to what is left (shipping included).">
          {(p) => (
            <input
              {...p}
              type="text"
              inputMode="decimal"
              required
              value={shownAmount}
              onChange={(e) => {
                setAmountTouched(true);
                setAmount(e.target.value);
              }}
            />
          )}
        </Field>
        <Field label="Reason (optional)" error={paramError(err ?? undefined, 'reason')} hint={via ? 'Shown to the customer by PayPal.' : undefined}>
          {(p) => <input {...p} type="text" maxLength={255} value={reason} onChange={(e) => setReason(e.target.value)} />}
        </Field>
        {paramError(err ?? undefined, 'line_items') ? <p className="admin-field__error">{paramError(err ?? undefined, 'line_items')}</p> : null}
        <button type="submit" className="admin-primary" disabled={busy}>
          {busy ? 'Refunding…' : via ? `Refund ${shownAmount ? formatMoney(shownAmount, order.currency) : ''} through ${via}` : `Record a manual refund${shownAmount ? ' of ' + formatMoney(shownAmount, order.currency) : ''}`}
        </button>
      </form>
    </section>
  );
}

function Notes({ order, onAdded, onError }: { order: Order; onAdded: (n: OrderNote, text: string) => void; onError: (m: string) => void }) {
  const list = useRef<HTMLOListElement>(null);
  const [text, setText] = useState('');
  const [kind, setKind] = useState<'private' | 'customer'>('private');
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setFieldError(undefined);
    const r = await adminCall<OrderNote>('POST', `${ORDERS_PATH}/${order.id}/notes`, { note: text, customer_note: kind === 'customer' });
    setBusy(false);
    if (!r.ok) {
      setFieldError(paramError(r.error, 'note') ?? paramError(r.error, 'customer_note'));
      onError(r.error.message);
      return;
    }
    setText('');
    onAdded(r.data, r.data.customer_note ? 'Note added and mailed to the customer.' : 'Private note added.');
    list.current?.focus();
  };
  return (
    <section aria-labelledby="order-notes" className="admin-card">
      <h3 id="order-notes">Notes</h3>
      <form onSubmit={submit} aria-label="Add a note">
        <Field label="Note" required error={fieldError}>
          {(p) => <textarea {...p} rows={3} required value={text} onChange={(e) => setText(e.target.value)} />}
        </Field>
        <Field label="Note type" hint={kind === 'customer' ? 'The customer is mailed the note.' : 'Only staff see it.'}>
          {(p) => (
            <select {...p} value={kind} onChange={(e) => setKind(e.target.value as 'private' | 'customer')}>
              <option value="private">Private note</option>
              <option value="customer">Note to the customer</option>
            </select>
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Adding…' : 'Add note'}
        </button>
      </form>
      <ol className="order-notes" ref={list} tabIndex={-1} aria-label="Notes, newest first">
        {order.notes.map((n) => (
          <li key={n.id} className={n.customer_note ? 'order-note order-note--customer' : 'order-note'}>
            <p>{n.note}</p>
            <p className="order-note__meta">
              {n.customer_note ? 'To the customer · ' : n.added_by_user ? 'Private · ' : 'The shop · '}
              {n.author || 'system'} · <time dateTime={n.date_created}>{formatDate(n.date_created)}</time>
            </p>
          </li>
        ))}
        {order.notes.length === 0 ? <li>No notes yet.</li> : null}
      </ol>
    </section>
  );
}

function Mails({ order, onSent, onError }: { order: Order; onSent: (text: string) => void; onError: (m: string) => void }) {
  const [kind, setKind] = useState(order.mail_kinds[0] ?? '');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const r = await adminCall<{ queued: boolean }>('POST', emailsPath(order.id), { kind });
    setBusy(false);
    if (!r.ok) {
      onError(r.error.message);
      return;
    }
    onSent(`${MAIL_LABELS[kind] ?? kind}: queued to be sent again.`);
  };
  return (
    <section aria-labelledby="order-mails" className="admin-card">
      <h3 id="order-mails">Mail log</h3>
      {order.mails.length ? (
        <AdminTable caption={<>Mails of order #{order.number}, oldest first</>} columns={['Mail', 'Queued', 'State']}>
          {order.mails.map((m) => (
            <tr key={m.id}>
              <td>{MAIL_LABELS[m.kind] ?? m.kind}</td>
              <td>
                <time dateTime={m.date_created}>{formatDate(m.date_created)}</time>
              </td>
              <td>
                {m.date_sent
                  ? `Sent ${formatDate(m.date_sent)}`
                  : m.date_failed
                    ? `Given up after ${m.attempts} attempts: ${m.last_error}`
                    : m.attempts
                      ? `Retrying (${m.attempts} attempts): ${m.last_error}`
                      : 'Waiting to be sent'}
              </td>
            </tr>
          ))}
        </AdminTable>
      ) : (
        <p>No mail about this order.</p>
      )}
      <form onSubmit={submit} className="admin-toolbar" aria-label="Send a mail again">
        <Field label="Mail to send again">
          {(p) => (
            <select {...p} value={kind} onChange={(e) => setKind(e.target.value)}>
              <Options items={order.mail_kinds.map((k) => [k, MAIL_LABELS[k] ?? k])} />
            </select>
          )}
        </Field>
        <button type="submit" disabled={busy || !kind}>
          {busy ? 'Sending…' : 'Send again'}
        </button>
      </form>
    </section>
  );
}
