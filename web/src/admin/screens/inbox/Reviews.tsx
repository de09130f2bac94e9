// The moderation queue: reviews by status (held ones first: "Pending" is
// the default), with approve, unapprove, spam, trash, restore, delete for
// good and the shop's reply. Every action is a button; its result is
// announced in the notices' live region, and focus moves to where the
// work continues: the next review when one leaves the list, the reply box
// when it opens, the review when the reply is saved.

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { adminCall, paramError, withQuery } from '../../api';
import { BASE, Link } from '../../router';
import type { ScreenProps } from '../../screens';
import { Field } from '../../ui/Field';
import { Notices, useNotices } from '../../ui/Notices';
import { DataTable, type Tab } from '../../ui/DataTable';
import { useCounts, useListData, useListQuery } from '../../ui/list';
import { formatDate } from '../../ui/format';
import './inbox.css';

export interface AdminReview {
  id: number;
  date_created: string;
  product_id: number;
  product_name: string;
  product_permalink: string;
  status: 'hold' | 'approved' | 'spam' | 'trash';
  reviewer: string;
  reviewer_email: string;
  review: string; // escaped HTML paragraphs
  rating: number;
  verified: boolean;
  reply: { text: string; author: string; date: string } | null;
}

export const REVIEWS_PATH = '/wp-json/wc/v3/products/reviews';
export const REVIEW_COUNTS_PATH = '/wp-json/vitrine/v1/admin/reviews/counts';
const replyPath = (id: number) => `/wp-json/vitrine/v1/admin/reviews/${id}/reply`;

const TABS: Tab[] = [
  { status: 'hold', label: 'Pending' },
  { status: 'all', label: 'All' },
  { status: 'approved', label: 'Approved' },
  { status: 'spam', label: 'Spam' },
  { status: 'trash', label: 'Trash' },
];

const PER_PAGE = 20;

type Action = 'approved' | 'hold' | 'spam' | 'trash' | 'delete';

const DONE: Record<Action, (who: string) => string> = {
  approved: (who) => `The review by ${who} was approved.`,
  hold: (who) => `The review by ${who} is back in the pending queue.`,
  spam: (who) => `The review by ${who} was marked as spam.`,
  trash: (who) => `The review by ${who} was moved to the trash.`,
  delete: (who) => `The review by ${who} was deleted permanently.`,
};

/** The buttons a review in a status offers: [action, label]. */
function actionsFor(status: AdminReview['status']): [Action, string][] {
  switch (status) {
    case 'hold':
      return [['approved', 'Approve'], ['spam', 'Spam'], ['trash', 'Trash']];
    case 'approved':
      return [['hold', 'Unapprove'], ['spam', 'Spam'], ['trash', 'Trash']];
    case 'spam':
      return [['hold', 'Not spam'], ['trash', 'Trash']];
    default:
      return [['hold', 'Restore'], ['delete', 'Delete permanently']];
  }
}

/** Whether a review in status belongs to the view. */
function inView(view: string, status: string): boolean {
  return view === status || (view === 'all' && (status === 'hold' || status === 'approved'));
}

/** All counts the reviews shown on the shop or waiting to be. */
const withAll = (c: Record<string, number>) => ({ ...c, all: (c.hold ?? 0) + (c.approved ?? 0) });

export default function Reviews({ location }: ScreenProps) {
  const query = useListQuery(location, { base: `${BASE}reviews/`, statuses: TABS.map((t) => t.status), filters: ['product'] });
  const { status, search, page } = query;
  // ?product=ID shows one product's reviews (a link from its edit screen).
  const product = /^\d+$/.test(query.filter('product')) ? query.filter('product') : '';
  const data = useListData<AdminReview>(withQuery(REVIEWS_PATH, { status, search, product, page, per_page: PER_PAGE }));
  const { rows: items, setRows: setItems, setTotal } = data;
  const { counts, reload: loadCounts } = useCounts(REVIEW_COUNTS_PATH, withAll, data);
  const [busy, setBusy] = useState<number | null>(null);
  const [replying, setReplying] = useState<number | null>(null);
  const { notices, push, dismiss } = useNotices();
  const refs = useRef(new Map<number, HTMLElement>());
  const statusLine = useRef<HTMLParagraphElement>(null);
  const focusNext = useRef<number | 'list' | null>(null);

  // Focus after an action changed the list.
  useEffect(() => {
    const f = focusNext.current;
    if (f === null) return;
    focusNext.current = null;
    if (f === 'list') statusLine.current?.focus();
    else refs.current.get(f)?.focus();
  }, [items, replying]);

  const act = async (r: AdminReview, action: Action) => {
    setBusy(r.id);
    const res =
      action === 'delete'
        ? await adminCall<{ deleted: boolean }>('DELETE', `${REVIEWS_PATH}/${r.id}?force=true`)
        : await adminCall<AdminReview>('PUT', `${REVIEWS_PATH}/${r.id}`, { status: action });
    setBusy(null);
    if (!res.ok) {
      push('error', res.error.message);
      return;
    }
    push('success', DONE[action](r.reviewer));
    loadCounts();
    if (action !== 'delete' && inView(status, action)) {
      const updated = res.data as AdminReview;
      focusNext.current = r.id;
      setItems((list) => list.map((i) => (i.id === r.id ? updated : i)));
      return;
    }
    const at = items.findIndex((i) => i.id === r.id);
    const next = items[at + 1] ?? items[at - 1];
    focusNext.current = next ? next.id : 'list';
    setReplying((id) => (id === r.id ? null : id));
    setTotal((t) => Math.max(0, t - 1));
    setItems((list) => list.filter((i) => i.id !== r.id));
  };

  const replied = (before: AdminReview, after: AdminReview, removed: boolean) => {
    setReplying(null);
    loadCounts();
    if (removed) push('success', `The reply to ${before.reviewer} was removed.`);
    else if (before.status === 'hold') push('success', `The review by ${before.reviewer} was approved and your reply saved; both show on the product page.`);
    else push('success', `Your reply to ${before.reviewer} was saved; it shows under the review on the product page.`);
    if (inView(status, after.status)) {
      focusNext.current = after.id;
      setItems((list) => list.map((i) => (i.id === after.id ? after : i)));
    } else {
      const at = items.findIndex((i) => i.id === after.id);
      const next = items[at + 1] ?? items[at - 1];
      focusNext.current = next ? next.id : 'list';
      setTotal((t) => Math.max(0, t - 1));
      setItems((list) => list.filter((i) => i.id !== after.id));
    }
  };

  return (
    <section aria-labelledby="reviews-heading">
      <h2 id="reviews-heading" className="screen-reader-text">
        Product reviews
      </h2>
      <Notices notices={notices} dismiss={dismiss} />
      <DataTable
        label="Reviews"
        noun={{ one: 'review', many: 'reviews' }}
        query={query}
        data={data}
        className="inbox-list"
        tabs={{ label: 'Reviews by status', items: TABS, counts }}
        search={{ label: 'Search reviews' }}
        filters={
          product ? (
            <p>
              Showing the reviews of one product{items[0] ? ` (${items[0].product_name})` : ''}.{' '}
              <Link to={query.href({ product: undefined })}>Show the reviews of every product</Link>
            </p>
          ) : null
        }
        empty={status === 'hold' ? 'No review is waiting for moderation.' : 'No reviews here.'}
        statusRef={statusLine}
        pagerLabel="Reviews pages"
        item={(r) => (
              <article
                className="inbox-item"
                tabIndex={-1}
                aria-labelledby={`review-${r.id}-title`}
                ref={(el) => {
                  if (el) refs.current.set(r.id, el);
                  else refs.current.delete(r.id);
                }}
              >
                <h3 id={`review-${r.id}-title`}>
                  {r.reviewer} on{' '}
                  {r.product_permalink ? (
                    <a href={r.product_permalink} target="_blank" rel="noreferrer">
                      {r.product_name}
                      <span className="screen-reader-text"> (opens the product page in a new tab)</span>
                    </a>
                  ) : (
                    r.product_name
                  )}
                </h3>
                <p className="inbox-meta">
                  {status === 'all' ? <span className={`inbox-badge inbox-badge--${r.status}`}>{r.status === 'hold' ? 'Pending' : 'Approved'}</span> : null}{' '}
                  {r.rating > 0 ? (
                    <span>
                      <span aria-hidden="true">{'★'.repeat(r.rating) + '☆'.repeat(5 - r.rating)}</span>
                      <span className="screen-reader-text">Rated {r.rating} of 5</span>
                    </span>
                  ) : (
                    'No rating'
                  )}{' '}
                  · {r.reviewer_email}
                  {r.verified ? ' · verified owner' : ''} · <time dateTime={r.date_created + 'Z'}>{formatDate(r.date_created + 'Z')}</time>
                </p>
                <div className="inbox-text" dangerouslySetInnerHTML={{ __html: r.review }} />
                {r.reply ? (
                  <div className="inbox-reply">
                    <p>
                      <strong>Shop reply</strong> by {r.reply.author} · <time dateTime={r.reply.date}>{formatDate(r.reply.date)}</time>
                    </p>
                    <p className="inbox-reply__text">{r.reply.text}</p>
                  </div>
                ) : null}
                {replying === r.id ? (
                  <ReplyForm
                    review={r}
                    onDone={(after, removed) => replied(r, after, removed)}
                    onCancel={() => {
                      focusNext.current = r.id;
                      setReplying(null);
                    }}
                  />
                ) : (
                  <div className="inbox-actions" role="group" aria-label={`Actions for the review by ${r.reviewer}`}>
                    {r.status === 'hold' || r.status === 'approved' ? (
                      <button type="button" className="admin-primary" disabled={busy === r.id} onClick={() => setReplying(r.id)}>
                        {r.reply ? 'Edit reply' : r.status === 'hold' ? 'Approve and reply' : 'Reply'}
                      </button>
                    ) : null}
                    {actionsFor(r.status).map(([action, label]) => (
                      <button key={action} type="button" className={action === 'delete' || action === 'spam' ? 'admin-danger' : undefined} disabled={busy === r.id} onClick={() => void act(r, action)}>
                        {label}
                      </button>
                    ))}
                  </div>
                )}
              </article>
        )}
      />
    </section>
  );
}

/** The reply box: opens with focus in it; Escape or Cancel closes it and gives focus back. */
function ReplyForm({ review, onDone, onCancel }: { review: AdminReview; onDone: (r: AdminReview, removed: boolean) => void; onCancel: () => void }) {
  const [text, setText] = useState(review.reply?.text ?? '');
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => box.current?.focus(), []);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    const r = await adminCall<AdminReview>('PUT', replyPath(review.id), { text });
    setSending(false);
    if (!r.ok) {
      setError(paramError(r.error, 'reply') ?? r.error.message);
      box.current?.focus();
      return;
    }
    onDone(r.data, false);
  };
  const remove = async () => {
    setSending(true);
    const r = await adminCall<AdminReview>('DELETE', replyPath(review.id));
    setSending(false);
    if (!r.ok) {
      setError(r.error.message);
      return;
    }
    onDone(r.data, true);
  };
  return (
    <form
      className="inbox-form"
      aria-label={`Reply to the review by ${review.reviewer}`}
      onSubmit={send}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <Field label={`Your reply to ${review.reviewer}`} hint="Shown under the review on the product page, in the shop's name." error={error} required>
        {(p) => <textarea {...p} ref={box} value={text} onChange={(e) => setText(e.target.value)} rows={4} />}
      </Field>
      <div className="inbox-actions">
        <button type="submit" className="admin-primary" disabled={sending}>
          {review.status === 'hold' ? 'Approve and reply' : 'Save reply'}
        </button>
        {review.reply ? (
          <button type="button" className="admin-danger" disabled={sending} onClick={() => void remove()}>
            Remove reply
          </button>
        ) : null}
        <button type="button" disabled={sending} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
