// The contact inbox: messages by status beside a reading pane. Opening a
// message (its address is ?message=ID, so the list stays as it was) marks
// it read; the pane shows its fields, its attachments as download links
// (or says the retention removed them), the replies sent, and a reply
// form whose mail goes to the address the visitor gave. Deleting asks
// first, in place; results are announced in the notices' live region.

import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { currentRestNonce } from '../../../lib/rest';
import { adminCall, paramError, withQuery, type AdminError } from '../../api';
import { BASE, Link, useRouter } from '../../router';
import type { ScreenProps } from '../../screens';
import { StorageUse } from '../../ui/StorageUse';
import { Field } from '../../ui/Field';
import { Notices, useNotices } from '../../ui/Notices';
import { DataTable, type Tab } from '../../ui/DataTable';
import { useCounts, useListData, useListQuery } from '../../ui/list';
import { formatDate } from '../../ui/format';
import './inbox.css';

export interface MessageFile {
  id: number;
  name: string;
  mime_type: string;
  size: number;
  purged: boolean;
  download: string;
}

export interface MessageReply {
  id: number;
  date: string;
  author: string;
  to: string;
  subject: string;
  message: string;
  mail: 'queued' | 'sent' | 'failed';
}

export interface AdminMessage {
  id: number;
  date: string;
  status: 'new' | 'read' | 'replied' | 'trash';
  form_id: number;
  form_title: string;
  name: string;
  email: string;
  subject: string;
  excerpt: string;
  fields: { name: string; label: string; value: string }[];
  files: MessageFile[];
  replies: MessageReply[];
  client_ip: string;
  customer_id: number;
}

export const MESSAGES_PATH = '/wp-json/vitrine/v1/admin/messages';

const TABS: Tab[] = [
  { status: 'all', label: 'All' },
  { status: 'new', label: 'New' },
  { status: 'read', label: 'Read' },
  { status: 'replied', label: 'Replied' },
  { status: 'trash', label: 'Trash' },
];

const PER_PAGE = 20;

const MAIL_STATE: Record<MessageReply['mail'], string> = { queued: 'waiting to be sent', sent: 'sent', failed: 'could not be sent' };

/**
 * A file's download address: a plain link (the browser saves the file), so
 * the REST nonce the admin's calls send in X-WP-Nonce goes in _wpnonce.
 */
export function downloadURL(path: string): string {
  return withQuery(path, { _wpnonce: currentRestNonce() });
}

export function formatSize(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** All counts what is not in the trash. */
const withAll = (c: Record<string, number>) => ({ ...c, all: (c.new ?? 0) + (c.read ?? 0) + (c.replied ?? 0) });

export default function Messages({ location }: ScreenProps) {
  const { navigate } = useRouter();
  const query = useListQuery(location, { base: `${BASE}messages/`, statuses: TABS.map((t) => t.status) });
  const { status, search, page } = query;
  const openParam = location.search.get('message') ?? '';
  const openId = /^\d+$/.test(openParam) ? Number(openParam) : null;
  const data = useListData<AdminMessage>(withQuery(MESSAGES_PATH, { status, search, page, per_page: PER_PAGE }));
  const { setRows: setItems, reload } = data;
  const { counts, reload: loadCounts } = useCounts(`${MESSAGES_PATH}/counts`, withAll, data);
  const { notices, push, dismiss } = useNotices();
  const statusLine = useRef<HTMLParagraphElement>(null);

  // The pane opened or changed a message: the list and the counts follow.
  const changed = useCallback(
    (m: AdminMessage) => {
      setItems((list) => list.map((i) => (i.id === m.id ? { ...i, status: m.status, replies: m.replies } : i)));
      loadCounts();
    },
    [loadCounts, setItems],
  );

  // A message left the view (trash, delete): back to the list.
  const gone = (text: string) => {
    push('success', text);
    navigate(query.href(), { replace: true });
    reload();
    window.setTimeout(() => statusLine.current?.focus(), 0);
  };

  return (
    <section aria-labelledby="messages-heading">
      <h2 id="messages-heading" className="screen-reader-text">
        Contact messages
      </h2>
      <Notices notices={notices} dismiss={dismiss} />
      <DataTable
        label="Messages"
        noun={{ one: 'message', many: 'messages' }}
        query={query}
        data={data}
        className="inbox-list inbox-messages"
        tabs={{ label: 'Messages by status', items: TABS, counts }}
        intro={<StorageUse part="contact_files" label="Contact files" refresh={counts} />}
        search={{ label: 'Search messages' }}
        empty="No messages here."
        statusRef={statusLine}
        pagerLabel="Messages pages"
        item={(m) => (
          // The list's query stays in the link: reading a message keeps the list as it was.
          <Link to={query.href({ message: m.id })} className="inbox-item" aria-current={m.id === openId ? 'true' : undefined}>
            <span className={m.status === 'new' ? 'inbox-unread' : undefined}>{m.name || m.email || 'A visitor'}</span>{' '}
            {m.status === 'new' ? <span className="inbox-badge">New</span> : null}
            {m.status === 'replied' ? <span className="inbox-badge inbox-badge--approved">Replied</span> : null}
            <br />
            <span className={m.status === 'new' ? 'inbox-unread' : undefined}>{m.subject}</span>
            <br />
            <span className="inbox-meta">
              {m.excerpt}
              <br />
              <time dateTime={m.date}>{formatDate(m.date)}</time>
              {m.files.length > 0 ? ` · ${m.files.length} ${m.files.length === 1 ? 'attachment' : 'attachments'}` : ''}
            </span>
          </Link>
        )}
        aside={
          openId ? (
            <Reader key={openId} id={openId} onChange={changed} onGone={gone} push={push} />
          ) : (
            <p className="admin-card">Choose a message in the list to read it.</p>
          )
        }
      />
    </section>
  );
}

type Push = (kind: 'success' | 'error' | 'info', text: string) => void;

/** The reading pane of one message. */
function Reader({ id, onChange, onGone, push }: { id: number; onChange: (m: AdminMessage) => void; onGone: (text: string) => void; push: Push }) {
  const [m, setM] = useState<AdminMessage | null>(null);
  const [error, setError] = useState<AdminError | null>(null);
  const [confirm, setConfirm] = useState<'trash' | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const history = useRef(new Map<number, HTMLElement>());
  const focusReply = useRef<number | null>(null);

  useEffect(() => {
    let live = true;
    void adminCall<AdminMessage>('GET', `${MESSAGES_PATH}/${id}`).then((r) => {
      if (!live) return;
      if (!r.ok) {
        setError(r.error);
        return;
      }
      setM(r.data);
      onChange(r.data);
    });
    return () => {
      live = false;
    };
  }, [id, onChange]);

  // Once loaded, focus goes to the message's heading: reading starts there.
  const loaded = m !== null;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);

  useEffect(() => {
    if (focusReply.current !== null) {
      history.current.get(focusReply.current)?.focus();
      focusReply.current = null;
    }
  }, [m]);

  if (error) {
    return (
      <div role="alert" className="admin-notice admin-notice--error">
        <p>{error.message}</p>
      </div>
    );
  }
  if (!m) return <p className="admin-loading">Loading the message…</p>;

  const setStatus = async (status: 'new' | 'read', text: string) => {
    setBusy(true);
    const r = await adminCall<AdminMessage>('PUT', `${MESSAGES_PATH}/${m.id}`, { status });
    setBusy(false);
    if (!r.ok) {
      push('error', r.error.message);
      return;
    }
    setM(r.data);
    onChange(r.data);
    push('success', text);
  };
  const remove = async (force: boolean) => {
    setBusy(true);
    const r = await adminCall<unknown>('DELETE', `${MESSAGES_PATH}/${m.id}${force ? '?force=true' : ''}`);
    setBusy(false);
    setConfirm(null);
    if (!r.ok) {
      push('error', r.error.message);
      deleteButton.current?.focus();
      return;
    }
    onGone(force ? 'The message was deleted permanently.' : 'The message was moved to the trash. You can restore it from the Trash.');
  };
  const who = m.name || m.email || 'a visitor';

  return (
    <article className="inbox-item" aria-labelledby="message-title">
      <h2 id="message-title" ref={heading} tabIndex={-1}>
        {m.subject}
      </h2>
      <p className="inbox-meta">
        From {m.name || 'a visitor'} {m.email ? <>&lt;{m.email}&gt;</> : '(no valid email address)'} · <time dateTime={m.date}>{formatDate(m.date)}</time> · {m.form_title}
        {m.status === 'trash' ? ' · in the trash' : ''}
      </p>
      <dl className="inbox-fields">
        {m.fields.map((f) => (
          <div key={f.name}>
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      {m.files.length > 0 ? (
        <>
          <h3>Attachments</h3>
          <ul className="inbox-files">
            {m.files.map((f) => (
              <li key={f.id}>
                {f.purged ? (
                  <>
                    {f.name} ({f.mime_type}, {formatSize(f.size)}): removed after the retention period.
                  </>
                ) : (
                  <>
                    <a href={downloadURL(f.download)} download={f.name}>
                      {f.name}
                    </a>{' '}
                    ({f.mime_type}, {formatSize(f.size)})
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {m.replies.length > 0 ? (
        <>
          <h3>Replies</h3>
          <ol className="inbox-history">
            {m.replies.map((r) => (
              <li
                key={r.id}
                tabIndex={-1}
                className="inbox-reply"
                ref={(el) => {
                  if (el) history.current.set(r.id, el);
                  else history.current.delete(r.id);
                }}
              >
                <p>
                  <strong>{r.subject}</strong> to {r.to} by {r.author}, <time dateTime={r.date}>{formatDate(r.date)}</time> (mail {MAIL_STATE[r.mail]})
                </p>
                <p className="inbox-fields">
                  <span style={{ whiteSpace: 'pre-wrap' }}>{r.message}</span>
                </p>
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {confirm ? (
        <Confirm
          text={confirm === 'delete' ? `Delete the message from ${who} permanently? This cannot be undone.` : `Move the message from ${who} to the trash?`}
          confirmLabel={confirm === 'delete' ? 'Delete permanently' : 'Move to trash'}
          busy={busy}
          onConfirm={() => void remove(confirm === 'delete')}
          onCancel={() => {
            setConfirm(null);
            window.setTimeout(() => deleteButton.current?.focus(), 0);
          }}
        />
      ) : (
        <div className="inbox-actions" role="group" aria-label="Message actions">
          {m.status === 'trash' ? (
            <button type="button" disabled={busy} onClick={() => void setStatus('read', 'The message was restored from the trash.')}>
              Restore
            </button>
          ) : (
            <button type="button" disabled={busy} onClick={() => void setStatus('new', 'The message is marked as unread.')}>
              Mark as unread
            </button>
          )}
          <button type="button" ref={deleteButton} className="admin-danger" disabled={busy} onClick={() => setConfirm(m.status === 'trash' ? 'delete' : 'trash')}>
            {m.status === 'trash' ? 'Delete permanently…' : 'Delete…'}
          </button>
        </div>
      )}
      {m.status === 'trash' ? null : m.email ? (
        <ReplyForm
          message={m}
          onSent={(reply) => {
            push('success', `Your reply to ${reply.to} is on its way.`);
            const next = { ...m, status: 'replied' as const, replies: [...m.replies, reply] };
            focusReply.current = reply.id;
            setM(next);
            onChange(next);
          }}
          onRefused={(text) => push('error', text)}
        />
      ) : (
        <p>This message has no valid email address, so it cannot be answered by mail.</p>
      )}
    </article>
  );
}

/** An in-place confirmation: focus on its confirm button; Escape or Cancel backs out. */
function Confirm({ text, confirmLabel, busy, onConfirm, onCancel }: { text: ReactNode; confirmLabel: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const id = useId();
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => yes.current?.focus(), []);
  return (
    <div
      className="inbox-confirm"
      role="group"
      aria-labelledby={id}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <p id={id}>{text}</p>
      <div className="inbox-actions">
        <button type="button" ref={yes} className="admin-danger" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function ReplyForm({ message, onSent, onRefused }: { message: AdminMessage; onSent: (r: MessageReply) => void; onRefused: (text: string) => void }) {
  const [subject, setSubject] = useState(`Re: ${message.subject}`.slice(0, 200));
  const [text, setText] = useState('');
  const [error, setError] = useState<AdminError | null>(null);
  const [sending, setSending] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const subjectRef = useRef<HTMLInputElement>(null);
  const send = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    const r = await adminCall<MessageReply>('POST', `${MESSAGES_PATH}/${message.id}/replies`, { subject, message: text });
    setSending(false);
    if (!r.ok) {
      setError(r.error);
      if (paramError(r.error, 'subject')) subjectRef.current?.focus();
      else if (paramError(r.error, 'message')) textRef.current?.focus();
      else onRefused(r.error.message);
      return;
    }
    setError(null);
    setText('');
    onSent(r.data);
  };
  return (
    <form className="inbox-form" aria-labelledby="reply-heading" onSubmit={send} noValidate>
      <h3 id="reply-heading">Reply by email to {message.email}</h3>
      <Field label="Subject" error={paramError(error ?? undefined, 'subject')}>
        {(p) => <input {...p} ref={subjectRef} type="text" maxLength={200} value={subject} onChange={(e) => setSubject(e.target.value)} />}
      </Field>
      <Field label="Your reply" required error={paramError(error ?? undefined, 'message')}>
        {(p) => <textarea {...p} ref={textRef} required rows={6} value={text} onChange={(e) => setText(e.target.value)} />}
      </Field>
      <div className="inbox-actions">
        <button type="submit" className="admin-primary" disabled={sending}>
          {sending ? 'Sending…' : 'Send reply'}
        </button>
      </div>
    </form>
  );
}
