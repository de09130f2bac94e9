// Settings > Advanced > Webhooks: the webhooks (internal/webhook) on
// WooCommerce's /wp-json/wc/v3/webhooks. The list (/wp-admin/settings/
// advanced/webhooks/), the form that adds one (.../new/) or edits one
// (.../<id>/) with its delivery log underneath. A webhook the shop
// disabled after failed deliveries says why, from its log.

import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { adminCall, paramError, withQuery, type AdminError } from '../../api';
import { Link, useRouter } from '../../router';
import type { ScreenProps } from '../../screens';
import { AdminTable } from '../../ui/AdminTable';
import { Confirm } from '../../ui/Confirm';
import { Field } from '../../ui/Field';
import { Notices, useNotices } from '../../ui/Notices';
import { useFocusAfterCommit } from '../../ui/focus';
import { useFormDraft } from '../../ui/form-draft';
import { formatDate } from '../../ui/format';
import { Options } from '../../../ui/Options';

export const WEBHOOKS_PATH = '/wp-json/wc/v3/webhooks';
const WEBHOOKS_BASE = '/wp-admin/settings/advanced/webhooks/';

export type WebhookStatus = 'active' | 'paused' | 'disabled';

export interface Webhook {
  id: number;
  name: string;
  status: WebhookStatus;
  topic: string;
  delivery_url: string;
  date_created_gmt: string;
  date_modified_gmt: string | null;
}

export interface Delivery {
  id: number;
  delivery_id: string;
  topic: string;
  /** Seconds, "0.123". */
  duration: string;
  summary: string;
  request_method: string;
  request_url: string;
  request_headers: Record<string, string>;
  request_body_size: number;
  /** "0" when no answer came. */
  response_code: string;
  response_message: string;
  date_created_gmt: string;
}

export const STATUSES: [WebhookStatus, string][] = [
  ['active', 'Active'],
  ['paused', 'Paused'],
  ['disabled', 'Disabled'],
];

/** The topics the shop raises (internal/webhook's Topics), as WooCommerce names them. */
export const TOPICS: [string, string][] = [
  ['order.created', 'Order created'],
  ['order.updated', 'Order updated'],
  ['order.deleted', 'Order deleted'],
  ['product.created', 'Product created'],
  ['product.updated', 'Product updated'],
  ['product.deleted', 'Product deleted'],
  ['product.restored', 'Product restored'],
  ['coupon.created', 'Coupon created'],
  ['coupon.updated', 'Coupon updated'],
  ['coupon.deleted', 'Coupon deleted'],
];

/** Failed deliveries in a row that disable a webhook (internal/webhook's MaxFailures). */
export const MAX_FAILURES = 5;

const topicLabel = (t: string) => TOPICS.find(([v]) => v === t)?.[1] ?? t;
const statusLabel = (s: string) => STATUSES.find(([v]) => v === s)?.[1] ?? s;
/** WooCommerce's *_gmt dates carry no zone: they are UTC. */
const utc = (d: string) => (/[zZ]|[+-]\d\d:?\d\d$/.test(d) ? d : d + 'Z');

function delivered(d: Delivery): boolean {
  const code = Number(d.response_code);
  return code >= 200 && code < 300;
}

/**
 * Why a disabled webhook is disabled, from its newest attempts: after
 * MAX_FAILURES failures in a row the shop disabled it. null: its last
 * delivery did not fail (staff disabled it), or it has none.
 */
export function disabledReason(log: Delivery[]): string | null {
  let failed = 0;
  while (failed < log.length && !delivered(log[failed])) failed++;
  if (failed === 0) return null;
  const last = log[0];
  const when = formatDate(utc(last.date_created_gmt));
  if (failed >= MAX_FAILURES) {
    return `The shop disabled it after ${MAX_FAILURES} failed deliveries in a row. The last, on ${when}: ${last.summary}. Correct the delivery URL or the receiver, then set it to Active.`;
  }
  return `Its last delivery failed, on ${when}: ${last.summary}.`;
}

/** A notice for the next webhook screen (the frame remounts a screen when its address changes). */
let flash: string | null = null;

export default function Webhooks({ params }: ScreenProps) {
  if (params[0] === 'new') return <WebhookForm />;
  if (params[0] && /^\d+$/.test(params[0])) return <WebhookForm id={Number(params[0])} />;
  return <WebhookList />;
}

/** Loads a disabled webhook's reason (its newest attempts). */
function useDisabledReason(hook: Pick<Webhook, 'id' | 'status'> | null): string | null {
  const [reason, setReason] = useState<string | null>(null);
  const id = hook?.id;
  const disabled = hook?.status === 'disabled';
  useEffect(() => {
    setReason(null);
    if (!id || !disabled) return;
    let live = true;
    void adminCall<Delivery[]>('GET', withQuery(`${WEBHOOKS_PATH}/${id}/deliveries`, { per_page: MAX_FAILURES })).then((r) => {
      if (live && r.ok && Array.isArray(r.data)) setReason(disabledReason(r.data));
    });
    return () => {
      live = false;
    };
  }, [id, disabled]);
  return reason;
}

function StatusCell({ hook }: { hook: Webhook }) {
  const reason = useDisabledReason(hook);
  return (
    <>
      {statusLabel(hook.status)}
      {reason ? <p className="adv-why">{reason}</p> : null}
    </>
  );
}

function WebhookList() {
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [total, setTotal] = useState(0);
  const [loadError, setLoadError] = useState<AdminError | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const { notices, push, dismiss } = useNotices();
  const heading = useRef<HTMLHeadingElement>(null);
  const focusAfterCommit = useFocusAfterCommit();

  const load = useCallback(async () => {
    const r = await adminCall<Webhook[]>('GET', withQuery(WEBHOOKS_PATH, { per_page: 100 }));
    if (!r.ok) {
      setLoadError(r.error);
      return;
    }
    setLoadError(null);
    setHooks(r.data);
    setTotal(r.total ?? r.data.length);
  }, []);
  useEffect(() => {
    void load();
    if (flash) {
      push('success', flash);
      flash = null;
    }
  }, [load, push]);

  const remove = async (h: Webhook) => {
    setDeleting(null);
    const r = await adminCall('DELETE', `${WEBHOOKS_PATH}/${h.id}?force=true`);
    if (!r.ok) {
      push('error', r.error.message);
      return;
    }
    setHooks((hs) => (hs ?? []).filter((x) => x.id !== h.id));
    setTotal((n) => n - 1);
    push('success', `Webhook “${h.name}” deleted.`);
    focusAfterCommit(() => heading.current);
  };

  return (
    <section aria-labelledby="webhooks-heading">
      <div className="admin-toolbar">
        <h2 id="webhooks-heading" ref={heading} tabIndex={-1}>
          Webhooks
        </h2>
        <Link to={`${WEBHOOKS_BASE}new/`} className="admin-button">
          Add webhook
        </Link>
      </div>
      <p className="admin-field__hint">A webhook posts an order, product or coupon’s REST API JSON to a URL when it is created, updated or deleted, signed with the webhook’s secret.</p>
      <Notices notices={notices} dismiss={dismiss} />
      {loadError ? (
        <div role="alert" className="admin-notice admin-notice--error">
          <p>{loadError.message}</p>
          <button type="button" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : hooks === null ? (
        <p>Loading…</p>
      ) : hooks.length === 0 ? (
        <p>No webhooks yet.</p>
      ) : (
        <>
          <div className="adv-scroll" role="region" aria-label="Webhooks, oldest first" tabIndex={0}>
            <AdminTable className="adv-table" caption="Webhooks, oldest first" columns={['Name', 'Status', 'Topic', 'Delivery URL', { label: 'Actions', hidden: true }]}>
              {hooks.map((h) => (
                <tr key={h.id}>
                  <td>
                    <Link to={`${WEBHOOKS_BASE}${h.id}/`}>{h.name}</Link>
                  </td>
                  <td>
                    <StatusCell hook={h} />
                  </td>
                  <td>{topicLabel(h.topic)}</td>
                  <td>
                    <code>{h.delivery_url}</code>
                  </td>
                  <td>
                    <button type="button" className="admin-danger" aria-label={`Delete webhook ${h.name}`} onClick={() => setDeleting(h)}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </AdminTable>
          </div>
          {total > hooks.length ? <p className="admin-list-status">The first {hooks.length} of {total} webhooks are shown.</p> : null}
        </>
      )}
      {deleting ? (
        <Confirm title={`Delete the webhook “${deleting.name}”?`} confirmLabel="Delete permanently" danger onConfirm={() => void remove(deleting)} onCancel={() => setDeleting(null)}>
          <p>Its deliveries stop and its delivery log is deleted with it.</p>
        </Confirm>
      ) : null}
    </section>
  );
}

interface Draft {
  name: string;
  status: WebhookStatus;
  topic: string;
  delivery_url: string;
  secret: string;
}

/** A random secret, as WooCommerce offers one in a new webhook's form. */
export function randomSecret(): string {
  const b = new Uint8Array(24);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

const FIELD_ORDER = ['name', 'status', 'topic', 'delivery_url', 'secret'];

/** The field a refusal names: rest_invalid_param's params, or WooCommerce's topic and URL codes. */
function fieldErrors(e: AdminError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of FIELD_ORDER) {
    const m = paramError(e, f);
    if (m) out[f] = m;
  }
  if (e.code === 'woocommerce_rest_shop_webhook_invalid_topic') out.topic = e.message;
  if (e.code === 'woocommerce_rest_shop_webhook_invalid_delivery_url') out.delivery_url = e.message;
  return out;
}

function WebhookForm({ id }: { id?: number }) {
  const { navigate } = useRouter();
  const { draft, setDraft, errors, setErrors, set, form, showErrors, focusAfterCommit } = useFormDraft<Draft>(
    () => ({ name: '', status: 'active', topic: 'order.created', delivery_url: '', secret: id === undefined ? randomSecret() : '' }),
    FIELD_ORDER,
  );
  const [hook, setHook] = useState<Webhook | null>(null);
  const [loading, setLoading] = useState(id !== undefined);
  const [saving, setSaving] = useState(false);
  const [loadError, setLoadError] = useState<AdminError | null>(null);
  const [deleting, setDeleting] = useState(false);
  const { notices, push, dismiss } = useNotices();
  const heading = useRef<HTMLHeadingElement>(null);
  const reason = useDisabledReason(hook);
  const [logVersion, setLogVersion] = useState(0);

  useEffect(() => {
    if (flash) {
      push('success', flash);
      flash = null;
      focusAfterCommit(() => heading.current);
    }
  }, [push, focusAfterCommit]);

  useEffect(() => {
    if (id === undefined) return;
    let live = true;
    void adminCall<Webhook>('GET', `${WEBHOOKS_PATH}/${id}`).then((r) => {
      if (!live) return;
      setLoading(false);
      if (!r.ok) {
        setLoadError(r.error);
        return;
      }
      setHook(r.data);
      setDraft({ name: r.data.name, status: r.data.status, topic: r.data.topic, delivery_url: r.data.delivery_url, secret: '' });
    });
    return () => {
      live = false;
    };
  }, [id]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const errs: Record<string, string> = {};
    if (!/^https?:\/\/\S+$/i.test(draft.delivery_url.trim())) errs.delivery_url = 'A delivery URL starting with http:// or https:// is required.';
    if (Object.keys(errs).length) {
      push('error', 'The webhook was not saved: correct the fields marked below.');
      showErrors(errs);
      return;
    }
    const body: Record<string, string> = { name: draft.name.trim(), status: draft.status, topic: draft.topic, delivery_url: draft.delivery_url.trim() };
    // On an edit, an empty secret keeps the current one.
    if (id === undefined || draft.secret !== '') body.secret = draft.secret;
    setSaving(true);
    const r = id === undefined ? await adminCall<Webhook>('POST', WEBHOOKS_PATH, body) : await adminCall<Webhook>('PUT', `${WEBHOOKS_PATH}/${id}`, body);
    setSaving(false);
    if (!r.ok) {
      const errs = fieldErrors(r.error);
      push('error', Object.keys(errs).length ? 'The webhook was not saved: correct the fields marked below.' : r.error.message);
      showErrors(errs);
      return;
    }
    setErrors({});
    if (id === undefined) {
      flash = r.data.status === 'active' ? `Webhook “${r.data.name}” created. A ping is on its way to the delivery URL.` : `Webhook “${r.data.name}” created.`;
      navigate(`${WEBHOOKS_BASE}${r.data.id}/`, { replace: true });
      return;
    }
    setHook(r.data);
    setDraft({ name: r.data.name, status: r.data.status, topic: r.data.topic, delivery_url: r.data.delivery_url, secret: '' });
    setLogVersion((n) => n + 1);
    push('success', `Webhook “${r.data.name}” saved.`);
    focusAfterCommit(() => heading.current);
  };

  const remove = async () => {
    setDeleting(false);
    if (id === undefined || !hook) return;
    const r = await adminCall('DELETE', `${WEBHOOKS_PATH}/${id}?force=true`);
    if (!r.ok) {
      push('error', r.error.message);
      return;
    }
    flash = `Webhook “${hook.name}” deleted.`;
    navigate(WEBHOOKS_BASE, { replace: true });
  };

  if (loadError) {
    return (
      <div role="alert" className="admin-notice admin-notice--error">
        <p>{loadError.status === 404 ? 'This webhook does not exist (it may have been deleted).' : loadError.message}</p>
        <Link to={WEBHOOKS_BASE}>Back to the webhooks</Link>
      </div>
    );
  }

  return (
    <section aria-labelledby="webhook-form-heading" aria-busy={loading || undefined}>
      <p>
        <Link to={WEBHOOKS_BASE}>← All webhooks</Link>
      </p>
      <h2 id="webhook-form-heading" ref={heading} tabIndex={-1}>
        {id === undefined ? 'Add webhook' : `Edit webhook ${hook?.name ?? ''}`}
      </h2>
      <Notices notices={notices} dismiss={dismiss} />
      {hook?.status === 'disabled' && reason ? (
        <div className="admin-notice admin-notice--error">
          <p>
            <strong>Disabled.</strong> {reason}
          </p>
        </div>
      ) : null}
      <form ref={form} className="admin-card" onSubmit={(e) => void save(e)} noValidate aria-labelledby="webhook-form-heading">
        <Field label="Name" error={errors.name} hint="Empty: the shop names it after the date it was made.">
          {(p) => <input {...p} name="name" maxLength={200} autoComplete="off" value={draft.name} onChange={(e) => set('name')(e.target.value)} />}
        </Field>
        <Field label="Status" error={errors.status} hint="Active: delivered. Paused: events are not sent. Disabled: as paused; the shop also disables a webhook whose deliveries keep failing.">
          {(p) => (
            <select {...p} name="status" value={draft.status} onChange={(e) => set('status')(e.target.value as WebhookStatus)}>
              <Options items={STATUSES} />
            </select>
          )}
        </Field>
        <Field label="Topic" error={errors.topic} hint={draft.topic === 'order.deleted' ? 'The shop never deletes orders, so this topic is never sent.' : 'The event that sends the webhook.'}>
          {(p) => (
            <select {...p} name="topic" value={draft.topic} onChange={(e) => set('topic')(e.target.value)}>
              <Options items={TOPICS} />
            </select>
          )}
        </Field>
        <Field label="Delivery URL" required error={errors.delivery_url} hint="Where the JSON is posted. Addresses on the shop’s own network are refused.">
          {(p) => <input {...p} name="delivery_url" type="url" inputMode="url" required autoComplete="off" spellCheck={false} value={draft.delivery_url} onChange={(e) => set('delivery_url')(e.target.value)} />}
        </Field>
        <Field
          label="Secret"
          error={errors.secret}
          hint={id === undefined ? 'Signs each delivery (X-WC-Webhook-Signature): give it to the receiver. A random one is filled in.' : 'Leave empty to keep the current secret; type a new one to replace it.'}
        >
          {(p) => <input {...p} name="secret" autoComplete="off" spellCheck={false} value={draft.secret} onChange={(e) => set('secret')(e.target.value)} />}
        </Field>
        <p className="adv-actions">
          <button type="submit" className="admin-primary" disabled={saving || loading}>
            {saving ? 'Saving…' : id === undefined ? 'Save webhook' : 'Save changes'}
          </button>
          {id !== undefined && hook ? (
            <button type="button" className="admin-danger" onClick={() => setDeleting(true)}>
              Delete permanently
            </button>
          ) : null}
        </p>
      </form>
      {id !== undefined && hook ? <DeliveryLog id={id} version={logVersion} /> : null}
      {deleting && hook ? (
        <Confirm title={`Delete the webhook “${hook.name}”?`} confirmLabel="Delete permanently" danger onConfirm={() => void remove()} onCancel={() => setDeleting(false)}>
          <p>Its deliveries stop and its delivery log is deleted with it.</p>
        </Confirm>
      ) : null}
    </section>
  );
}

/** A webhook's last attempts, newest first, each one's request and response expandable. */
function DeliveryLog({ id, version }: { id: number; version: number }) {
  const [log, setLog] = useState<Delivery[] | null>(null);
  const [error, setError] = useState<AdminError | null>(null);
  const [loading, setLoading] = useState(false);
  const [status, setStatus] = useState('');
  const load = useCallback(
    async (announce: boolean) => {
      setLoading(true);
      const r = await adminCall<Delivery[]>('GET', `${WEBHOOKS_PATH}/${id}/deliveries`);
      setLoading(false);
      if (!r.ok) {
        setError(r.error);
        return;
      }
      setError(null);
      setLog(r.data);
      if (announce) setStatus(`Delivery log reloaded: ${r.data.length} ${r.data.length === 1 ? 'attempt' : 'attempts'}.`);
    },
    [id],
  );
  useEffect(() => {
    void load(false);
  }, [load, version]);

  return (
    <section className="adv-log" aria-labelledby="webhook-log-heading">
      <div className="admin-toolbar">
        <h2 id="webhook-log-heading">Delivery log</h2>
        <button type="button" disabled={loading} onClick={() => void load(true)}>
          Reload log
        </button>
      </div>
      <p className="admin-field__hint">The last 50 attempts, newest first. For each, the shop keeps the request’s headers and size and the response’s status, not the bodies.</p>
      <p role="status" className="screen-reader-text">
        {status}
      </p>
      {error ? (
        <p role="alert">{error.message}</p>
      ) : log === null ? (
        <p>Loading…</p>
      ) : log.length === 0 ? (
        <p>No deliveries yet.</p>
      ) : (
        <div className="adv-scroll" role="region" aria-label="Delivery attempts, newest first" tabIndex={0}>
          <AdminTable caption="Delivery attempts, newest first" columns={['Time', 'Topic', 'Response', 'Duration', 'Details']} busy={loading}>
            {log.map((d) => (
              <tr key={d.id}>
                <td>
                  <time dateTime={utc(d.date_created_gmt)}>{formatDate(utc(d.date_created_gmt))}</time>
                </td>
                <td>{d.topic === 'ping' ? 'Ping' : topicLabel(d.topic)}</td>
                <td>
                  {delivered(d) ? '' : <span className="screen-reader-text">Failed: </span>}
                  {d.response_code === '0' ? 'No answer' : d.response_code} {d.response_code === '0' || d.response_message !== '' ? d.response_message : ''}
                </td>
                <td>{Number(d.duration).toFixed(2)} s</td>
                <td>
                  <details>
                    <summary>Request and response</summary>
                    <dl>
                      <dt>Request</dt>
                      <dd>
                        <code>
                          {d.request_method} {d.request_url}
                        </code>
                      </dd>
                      <dt>Request headers</dt>
                      <dd>
                        <pre>
                          {Object.entries(d.request_headers)
                            .sort(([a], [b]) => a.localeCompare(b))
                            .map(([k, v]) => `${k}: ${v}`)
                            .join('\n')}
                        </pre>
                      </dd>
                      <dt>Request body</dt>
                      <dd>{d.request_body_size} bytes (not kept)</dd>
                      <dt>Response</dt>
                      <dd>{d.summary}</dd>
                      {d.delivery_id ? (
                        <>
                          <dt>Delivery ID</dt>
                          <dd>
                            <code>{d.delivery_id}</code>
                          </dd>
                        </>
                      ) : null}
                    </dl>
                  </details>
                </td>
              </tr>
            ))}
          </AdminTable>
        </div>
      )}
    </section>
  );
}
