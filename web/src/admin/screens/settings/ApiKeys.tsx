// Settings > Advanced > REST API: the keys other software uses to call the
// shop's REST API as one of its users (internal/integration, through
// /wp-json/vitrine/v1/admin/api-keys). Administrators only: a key acts as
// its user, so making one for an administrator is an administrator's
// decision. A new key's consumer key and secret are shown once, in a panel
// that takes the focus, with copy buttons; the shop keeps no readable copy.

import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { adminCall, paramError, withQuery, type AdminError } from '../../api';
import type { ScreenProps } from '../../screens';
import { AdminTable } from '../../ui/AdminTable';
import { Confirm } from '../../ui/Confirm';
import { Field } from '../../ui/Field';
import { Notices, useNotices } from '../../ui/Notices';
import { useFocusAfterCommit } from '../../ui/focus';
import { useFormDraft } from '../../ui/form-draft';
import { formatDate } from '../../ui/format';
import { Options } from '../../../ui/Options';

export const API_KEYS_PATH = '/wp-json/vitrine/v1/admin/api-keys';
export const USERS_PATH = '/wp-json/wc/v3/customers';

export type Permission = 'read' | 'write' | 'read_write';

export interface ApiKey {
  id: number;
  description: string;
  permissions: Permission;
  truncated_key: string;
  user_id: number;
  user: { id: number; name: string; email: string; role: string } | null;
  date_created: string;
  last_access: string | null;
}

export interface CreatedKey extends ApiKey {
  consumer_key: string;
  consumer_secret: string;
}

interface UserRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  username: string;
  role: string;
}

export const PERMISSIONS: [Permission, string][] = [
  ['read', 'Read'],
  ['write', 'Write'],
  ['read_write', 'Read/Write'],
];

const ROLES: Record<string, string> = { administrator: 'Administrator', shop_manager: 'Shop manager', customer: 'Customer' };

function userLabel(u: UserRow): string {
  const name = `${u.first_name} ${u.last_name}`.trim() || u.username;
  const who = name && name !== u.email ? `${name} (${u.email})` : u.email;
  return `${who} — ${ROLES[u.role] ?? u.role}`;
}

/** Copies text to the clipboard; false when the browser refuses. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission): select the text so the keyboard can copy it.
  }
  field?.select();
  return false;
}

export default function ApiKeys({ data }: ScreenProps) {
  if (data.user.role !== 'administrator') {
    return (
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">REST API keys</h2>
        <p>Only an administrator can see, add or revoke REST API keys: a key acts with its user’s rights.</p>
      </section>
    );
  }
  return <KeyManager me={data.user} />;
}

function KeyManager({ me }: { me: { id: number; name: string } }) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [loadError, setLoadError] = useState<AdminError | null>(null);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [adding, setAdding] = useState(false);
  const { notices, push, dismiss } = useNotices();
  const listHeading = useRef<HTMLHeadingElement>(null);
  const createdHeading = useRef<HTMLHeadingElement>(null);
  const formHeading = useRef<HTMLHeadingElement>(null);
  const focusAfterCommit = useFocusAfterCommit();

  const load = useCallback(async () => {
    const r = await adminCall<ApiKey[]>('GET', API_KEYS_PATH);
    if (!r.ok) {
      setLoadError(r.error);
      return;
    }
    setLoadError(null);
    setKeys(r.data);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const onCreated = (k: CreatedKey) => {
    setCreated(k);
    setAdding(false);
    setKeys((ks) => [...(ks ?? []), k]);
    push('success', `API key “${k.description}” generated. Copy its consumer key and secret now.`);
    focusAfterCommit(() => createdHeading.current);
  };

  const revoke = async (k: ApiKey) => {
    setRevoking(null);
    const r = await adminCall('DELETE', `${API_KEYS_PATH}/${k.id}`);
    if (!r.ok) {
      push('error', r.error.status === 404 ? `The key “${k.description}” was already revoked.` : r.error.message);
      if (r.error.status === 404) void load();
      return;
    }
    setKeys((ks) => (ks ?? []).filter((x) => x.id !== k.id));
    if (created?.id === k.id) setCreated(null);
    push('success', `API key “${k.description}” revoked. Software using it can no longer reach the shop.`);
    // The row and its button are gone: the keyboard goes back to the list.
    focusAfterCommit(() => listHeading.current);
  };

  return (
    <section aria-labelledby="keys-heading">
      <div className="admin-toolbar">
        <h2 id="keys-heading" ref={listHeading} tabIndex={-1}>
          REST API keys
        </h2>
        {!adding ? (
          <button
            type="button"
            onClick={() => {
              setAdding(true);
              focusAfterCommit(() => formHeading.current);
            }}
          >
            Add key
          </button>
        ) : null}
      </div>
      <p className="admin-field__hint">Keys let other software (accounting, stock sync, automation tools) use the shop’s REST API at /wp-json/wc/v3/ as the key’s user.</p>
      <Notices notices={notices} dismiss={dismiss} />
      {created ? (
        <CreatedPanel
          created={created}
          heading={createdHeading}
          notify={(text) => push('info', text)}
          onDone={() => {
            setCreated(null);
            focusAfterCommit(() => listHeading.current);
          }}
        />
      ) : null}
      {adding ? (
        <KeyForm
          me={me}
          heading={formHeading}
          onCreated={onCreated}
          onCancel={() => {
            setAdding(false);
            focusAfterCommit(() => listHeading.current);
          }}
        />
      ) : null}
      {loadError ? (
        <div role="alert" className="admin-notice admin-notice--error">
          <p>{loadError.message}</p>
          <button type="button" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : keys === null ? (
        <p>Loading…</p>
      ) : keys.length === 0 ? (
        <p>No API keys yet. Add one to connect other software to the shop.</p>
      ) : (
        <div className="adv-scroll" role="region" aria-label="REST API keys, oldest first" tabIndex={0}>
          <AdminTable className="adv-table" caption="REST API keys, oldest first" columns={['Description', 'User', 'Permissions', 'Consumer key ending in', 'Last access', { label: 'Actions', hidden: true }]}>
            {keys.map((k) => (
              <tr key={k.id}>
                <td>{k.description}</td>
                <td>{k.user ? `${k.user.name} (${k.user.email})` : `Deleted user #${k.user_id}`}</td>
                <td>{PERMISSIONS.find(([p]) => p === k.permissions)?.[1] ?? k.permissions}</td>
                <td>
                  <code>…{k.truncated_key}</code>
                </td>
                <td>{k.last_access ? <time dateTime={k.last_access}>{formatDate(k.last_access)}</time> : 'Never'}</td>
                <td>
                  <button type="button" className="admin-danger" aria-label={`Revoke key ${k.description}`} onClick={() => setRevoking(k)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </AdminTable>
        </div>
      )}
      {revoking ? (
        <Confirm title={`Revoke the key “${revoking.description}”?`} confirmLabel="Revoke key" danger onConfirm={() => void revoke(revoking)} onCancel={() => setRevoking(null)}>
          <p>Software using the key ending in …{revoking.truncated_key} loses access at once. This cannot be undone: a new key would have to be added and given to it.</p>
        </Confirm>
      ) : null}
    </section>
  );
}

/** The new key's consumer key and secret, shown this once. */
function CreatedPanel({ created, heading, notify, onDone }: { created: CreatedKey; heading: React.RefObject<HTMLHeadingElement | null>; notify: (text: string) => void; onDone: () => void }) {
  const keyField = useRef<HTMLInputElement>(null);
  const secretField = useRef<HTMLInputElement>(null);
  const copy = async (what: string, text: string, field: HTMLInputElement | null) => {
    const ok = await copyText(text, field);
    notify(ok ? `${what} copied.` : `${what} selected: press Ctrl+C (or Cmd+C) to copy it.`);
  };
  const row = (label: string, value: string, field: React.RefObject<HTMLInputElement | null>) => (
    <div className="adv-copy">
      <Field label={label}>{(p) => <input {...p} ref={field} type="text" readOnly value={value} onFocus={(e) => e.target.select()} spellCheck={false} autoComplete="off" />}</Field>
      <button type="button" aria-label={`Copy ${label.toLowerCase()}`} onClick={() => void copy(label, value, field.current)}>
        Copy
      </button>
    </div>
  );
  return (
    <section className="admin-card adv-secret" aria-labelledby="key-created-heading">
      <h2 id="key-created-heading" ref={heading} tabIndex={-1}>
        API key generated: “{created.description}”
      </h2>
      <p className="adv-warning">Copy the consumer key and secret now. They will not be shown again: the shop keeps no readable copy of the key.</p>
      {row('Consumer key', created.consumer_key, keyField)}
      {row('Consumer secret', created.consumer_secret, secretField)}
      <p className="admin-field__hint">
        The key acts as {created.user ? created.user.name : `user #${created.user_id}`} with {PERMISSIONS.find(([p]) => p === created.permissions)?.[1].toLowerCase()} access. Over HTTPS, send them as HTTP Basic credentials; over plain HTTP, sign requests with OAuth 1.0a.
      </p>
      <button type="button" onClick={onDone}>
        I have copied them
      </button>
    </section>
  );
}

interface KeyDraft {
  description: string;
  user_id: string;
  permissions: Permission;
}

/** The form's fields in their order on screen. */
const KEY_FIELDS = ['description', 'user_id', 'permissions'] as const;

function KeyForm({ me, heading, onCreated, onCancel }: { me: { id: number; name: string }; heading: React.RefObject<HTMLHeadingElement | null>; onCreated: (k: CreatedKey) => void; onCancel: () => void }) {
  const { draft, errors, set, form, showErrors, focusAfterCommit } = useFormDraft<KeyDraft>({ description: '', user_id: String(me.id), permissions: 'read' }, KEY_FIELDS);
  const userId = draft.user_id;
  const [search, setSearch] = useState('');
  const [users, setUsers] = useState<UserRow[]>([]);
  const [searching, setSearching] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<AdminError | undefined>();

  // The users to choose from: staff and customers, those matching the search.
  useEffect(() => {
    let live = true;
    setSearching(true);
    const t = setTimeout(
      () => {
        void adminCall<UserRow[]>('GET', withQuery(USERS_PATH, { role: 'all', search: search.trim(), per_page: 20, orderby: 'name', order: 'asc' })).then((r) => {
          if (!live) return;
          setSearching(false);
          if (r.ok && Array.isArray(r.data)) setUsers(r.data);
        });
      },
      search ? 250 : 0,
    );
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [search]);

  // The chosen user stays in the list while a search shows others.
  const [chosen, setChosen] = useState<UserRow | null>(null);
  const options: [string, string][] = [];
  if (!users.some((u) => String(u.id) === userId)) {
    if (chosen && String(chosen.id) === userId) options.push([userId, userLabel(chosen)]);
    else if (userId === String(me.id)) options.push([userId, `${me.name} (you)`]);
  }
  for (const u of users) options.push([String(u.id), userLabel(u)]);
  const choose = (id: string) => {
    set('user_id')(id);
    setChosen(users.find((u) => String(u.id) === id) ?? null);
  };

  const fieldError = (f: string) => errors[f];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const errs: Record<string, string> = {};
    if (!draft.description.trim()) errs.description = 'Describe what the key is for, such as “Accounting sync”.';
    if (!userId) errs.user_id = 'Choose the user the key acts as.';
    setError(undefined);
    if (showErrors(errs)) return;
    setSaving(true);
    const r = await adminCall<CreatedKey>('POST', API_KEYS_PATH, { description: draft.description.trim(), user_id: Number(userId), permissions: draft.permissions });
    setSaving(false);
    if (!r.ok) {
      setError(r.error);
      const serverErrs: Record<string, string> = {};
      for (const f of KEY_FIELDS) {
        const m = paramError(r.error, f);
        if (m) serverErrs[f] = m;
      }
      if (!showErrors(serverErrs)) focusAfterCommit(() => form.current?.querySelector<HTMLElement>('[role="alert"] p'));
      return;
    }
    onCreated(r.data);
  };

  const general = error && !KEY_FIELDS.some((f) => paramError(error, f)) ? error.message : null;

  return (
    <form ref={form} className="admin-card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="key-form-heading">
      <h2 id="key-form-heading" ref={heading} tabIndex={-1}>
        Add a key
      </h2>
      {general ? (
        <div role="alert" className="admin-notice admin-notice--error">
          <p tabIndex={-1}>{general}</p>
        </div>
      ) : null}
      <Field label="Description" required error={fieldError('description')} hint="What the key is for, so it can be told apart and revoked later.">
        {(p) => <input {...p} name="description" maxLength={200} autoComplete="off" value={draft.description} onChange={(e) => set('description')(e.target.value)} />}
      </Field>
      <Field label="Find a user" hint="Search staff and customers by name or email; the list below shows the matches.">
        {(p) => <input {...p} type="search" autoComplete="off" value={search} onChange={(e) => setSearch(e.target.value)} />}
      </Field>
      <Field label="User" required error={fieldError('user_id')} hint={searching ? 'Searching…' : 'The key acts as this user, with their role’s rights.'}>
        {(p) => (
          <select {...p} name="user_id" value={userId} onChange={(e) => choose(e.target.value)}>
            {options.length === 0 ? <option value="">No user matches the search</option> : null}
            <Options items={options} />
          </select>
        )}
      </Field>
      <Field label="Permissions" error={fieldError('permissions')} hint="Read: GET requests only. Write: create, change and delete only. Read/Write: both.">
        {(p) => (
          <select {...p} name="permissions" value={draft.permissions} onChange={(e) => set('permissions')(e.target.value as Permission)}>
            <Options items={PERMISSIONS} />
          </select>
        )}
      </Field>
      <p className="adv-actions">
        <button type="submit" className="admin-primary" disabled={saving}>
          {saving ? 'Generating…' : 'Generate API key'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </form>
  );
}
