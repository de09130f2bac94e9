// Privacy requests (internal/privacy, through
// /wp-json/vitrine/v1/admin/privacy-requests), as WordPress's Tools >
// Export / Erase Personal Data: staff add a request for any address (the
// person confirms it by email), see customers' requests and where each
// stands, download a built export, and approve a confirmed erasure (a
// confirmation dialog first: it cannot be undone).

import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { currentRestNonce } from '../../lib/rest';
import { adminCall, paramError, withQuery, type AdminError } from '../api';
import type { ScreenProps } from '../screens';
import { AdminTable } from '../ui/AdminTable';
import { Confirm } from '../ui/Confirm';
import { Field } from '../ui/Field';
import { Notices, useNotices } from '../ui/Notices';
import { useFocusAfterCommit } from '../ui/focus';
import { useFormDraft } from '../ui/form-draft';
import { formatDate } from '../ui/format';
import { Options } from '../../ui/Options';
import './privacy.css';

export const PRIVACY_PATH = '/wp-json/vitrine/v1/admin/privacy-requests';

export type Kind = 'export' | 'erase';

export interface Erased {
  orders_anonymised: number;
  reviews: number;
  reviews_mode: string;
  contact_messages_deleted: number;
  account_deleted: boolean;
}

export interface PrivacyRequest {
  id: number;
  type: Kind;
  email: string;
  user_id: number;
  source: 'customer' | 'staff';
  status: 'pending' | 'confirmed' | 'completed';
  date_created: string;
  confirm_expires: string;
  date_confirmed: string | null;
  date_completed: string | null;
  download_expires: string | null;
  downloaded: boolean;
  has_export: boolean;
  result: Erased | null;
}

const KINDS: [Kind, string][] = [
  ['export', 'Export personal data'],
  ['erase', 'Erase personal data'],
];

const FIELDS = ['type', 'email'] as const;

/** What a request's status means, in words. */
export function statusText(r: PrivacyRequest): string {
  if (r.status === 'pending') return new Date(r.confirm_expires).getTime() < Date.now() ? 'Link expired, never confirmed' : 'Waiting for the person to confirm';
  if (r.status === 'confirmed') return r.type === 'erase' ? 'Confirmed: waiting for your approval' : 'Confirmed: export not built';
  if (r.type === 'erase') return 'Erased';
  return r.downloaded ? 'Exported and downloaded' : 'Exported: download link mailed';
}

function resultText(e: Erased): string {
  const reviews = e.reviews_mode === 'delete' ? 'deleted' : 'anonymised';
  return `${e.orders_anonymised} orders anonymised, ${e.reviews} reviews ${reviews}, ${e.contact_messages_deleted} messages deleted${e.account_deleted ? ', account deleted' : ''}.`;
}

export default function Privacy(_: ScreenProps) {
  const [rows, setRows] = useState<PrivacyRequest[] | null>(null);
  const [loadError, setLoadError] = useState<AdminError | null>(null);
  const [approving, setApproving] = useState<PrivacyRequest | null>(null);
  const { notices, push, dismiss } = useNotices();
  const listHeading = useRef<HTMLHeadingElement>(null);
  const focusAfterCommit = useFocusAfterCommit();

  const load = useCallback(async () => {
    const r = await adminCall<PrivacyRequest[]>('GET', PRIVACY_PATH);
    if (!r.ok) {
      setLoadError(r.error);
      return;
    }
    setLoadError(null);
    setRows(r.data);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const approve = async (req: PrivacyRequest) => {
    setApproving(null);
    const r = await adminCall<PrivacyRequest>('POST', `${PRIVACY_PATH}/${req.id}/approve`);
    if (!r.ok) {
      push('error', r.error.message);
      void load();
      return;
    }
    setRows((rs) => (rs ?? []).map((x) => (x.id === r.data.id ? r.data : x)));
    push('success', r.data.result ? `Personal data erased: ${resultText(r.data.result)}` : 'Export built; its download link was mailed.');
    // The row's button is gone: the keyboard goes back to the list.
    focusAfterCommit(() => listHeading.current);
  };

  return (
    <div className="privacy-screen">
      <p className="admin-field__hint">
        A person may ask for a copy of the personal data the shop keeps about them, or for its erasure. Each request is confirmed by the person with a link
        mailed to the address. An export is then built and its download link mailed; an erasure waits for your approval here. Erasing anonymises the
        person’s orders (amounts, products and taxes stay), anonymises or deletes their reviews (as Settings say), and deletes their contact messages and
        their account.
      </p>
      <Notices notices={notices} dismiss={dismiss} />
      <RequestForm
        onCreated={(req) => {
          setRows((rs) => [req, ...(rs ?? [])]);
          push('success', `Request added. A confirmation link was emailed to ${req.email}.`);
        }}
      />
      <h2 id="privacy-list-heading" ref={listHeading} tabIndex={-1}>
        Requests
      </h2>
      {loadError ? (
        <div role="alert" className="admin-notice admin-notice--error">
          <p>{loadError.message}</p>
          <button type="button" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : rows === null ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>No privacy requests yet.</p>
      ) : (
        <div className="privacy-scroll" role="region" aria-labelledby="privacy-list-heading" tabIndex={0}>
          <AdminTable caption="Privacy requests, newest first" columns={['Email', 'Type', 'Status', 'Requested', { label: 'Actions', hidden: true }]}>
            {rows.map((r) => (
              <tr key={r.id} data-request={r.id}>
                <td>{r.email || <em>Erased (request #{r.id})</em>}</td>
                <td>
                  {r.type === 'export' ? 'Export' : 'Erasure'}
                  {r.source === 'customer' ? ' (from My account)' : ''}
                </td>
                <td>
                  {statusText(r)}
                  {r.result ? <div className="admin-field__hint">{resultText(r.result)}</div> : null}
                </td>
                <td>
                  <time dateTime={r.date_created}>{formatDate(r.date_created)}</time>
                </td>
                <td>
                  {r.status === 'confirmed' ? (
                    <button type="button" className={r.type === 'erase' ? 'admin-danger' : 'admin-primary'} onClick={() => setApproving(r)}>
                      {r.type === 'erase' ? `Erase data of ${r.email}` : `Build export of ${r.email}`}
                    </button>
                  ) : r.has_export ? (
                    <a href={withQuery(`${PRIVACY_PATH}/${r.id}/export`, { _wpnonce: currentRestNonce() })} download={`personal-data-${r.id}.zip`}>
                      Download export of {r.email}
                    </a>
                  ) : null}
                </td>
              </tr>
            ))}
          </AdminTable>
        </div>
      )}
      {approving ? (
        <Confirm
          title={approving.type === 'erase' ? `Erase the personal data of ${approving.email}?` : `Build the export of ${approving.email}?`}
          confirmLabel={approving.type === 'erase' ? 'Erase personal data' : 'Build export'}
          danger={approving.type === 'erase'}
          onConfirm={() => void approve(approving)}
          onCancel={() => setApproving(null)}
        >
          {approving.type === 'erase' ? (
            <p>Their orders are anonymised, their reviews anonymised or deleted, their contact messages and their account deleted. This cannot be undone.</p>
          ) : (
            <p>The export is built now and its one-time download link mailed to the person.</p>
          )}
        </Confirm>
      ) : null}
    </div>
  );
}

interface Draft {
  type: Kind;
  email: string;
}

function RequestForm({ onCreated }: { onCreated: (r: PrivacyRequest) => void }) {
  const { draft, setDraft, errors, set, form, showErrors, focusAfterCommit } = useFormDraft<Draft>({ type: 'export', email: '' }, FIELDS);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<AdminError | undefined>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const errs: Record<string, string> = {};
    if (!draft.email.trim()) errs.email = 'Enter the email address of the person the request is for.';
    setError(undefined);
    if (showErrors(errs)) return;
    setSaving(true);
    const r = await adminCall<PrivacyRequest>('POST', PRIVACY_PATH, { type: draft.type, email: draft.email.trim() });
    setSaving(false);
    if (!r.ok) {
      setError(r.error);
      const serverErrs: Record<string, string> = {};
      for (const f of FIELDS) {
        const m = paramError(r.error, f);
        if (m) serverErrs[f] = m;
      }
      if (!showErrors(serverErrs)) focusAfterCommit(() => form.current?.querySelector<HTMLElement>('[role="alert"] p'));
      return;
    }
    setDraft({ type: draft.type, email: '' });
    onCreated(r.data);
  };

  const general = error && !FIELDS.some((f) => paramError(error, f)) ? error.message : null;

  return (
    <form ref={form} className="admin-card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="privacy-form-heading">
      <h2 id="privacy-form-heading">Add a request</h2>
      {general ? (
        <div role="alert" className="admin-notice admin-notice--error">
          <p tabIndex={-1}>{general}</p>
        </div>
      ) : null}
      <Field label="Type" error={errors.type}>
        {(p) => (
          <select {...p} name="type" value={draft.type} onChange={(e) => set('type')(e.target.value as Kind)}>
            <Options items={KINDS} />
          </select>
        )}
      </Field>
      <Field label="Email address" required error={errors.email} hint="The person is emailed a link to confirm the request.">
        {(p) => <input {...p} name="email" type="email" autoComplete="off" maxLength={254} value={draft.email} onChange={(e) => set('email')(e.target.value)} />}
      </Field>
      <p>
        <button type="submit" className="admin-primary" disabled={saving}>
          {saving ? 'Sending…' : 'Send request'}
        </button>
      </p>
    </form>
  );
}
