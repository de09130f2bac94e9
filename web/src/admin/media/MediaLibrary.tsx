// The media library: upload images (UploadZone), browse them as a grid or
// a list with search and pages, and open one to see its sizes, edit its
// title, alt text and caption, or delete it after a confirmation
// (/wp-admin/media/<id>/ opens one at once). Focus follows: opening an image moves it to the details'
// heading, closing them back to the image's tile, a deletion to the
// library's heading; every result is announced (Notices).

import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { adminCall, paramError, withQuery, type AdminError } from '../api';
import type { ScreenProps } from '../screens';
import { Field } from '../ui/Field';
import { Notices, useNotices } from '../ui/Notices';
import { StorageUse } from '../ui/StorageUse';
import { Pager } from '../ui/Pager';
import { formatDate } from '../ui/format';
import { MEDIA_PATH, srcsetOf, thumbnailOf, type Attachment } from './api';
import { ConfirmDialog } from './ConfirmDialog';
import { UploadZone } from './UploadZone';
import './media.css';
import { AdminTable } from '../ui/AdminTable';

const PER_PAGE = 40;

type View = 'grid' | 'list';

export default function MediaLibrary({ params }: ScreenProps) {
  const [openId, setOpenId] = useState<number | null>(() => (params[0] && /^\d+$/.test(params[0]) ? Number(params[0]) : null));
  const [items, setItems] = useState<Attachment[]>([]);
  const [total, setTotal] = useState(0);
  const [totalPages, setTotalPages] = useState(0);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [view, setView] = useState<View>(() => (window.localStorage?.getItem('vitrine-media-view') === 'list' ? 'list' : 'grid'));
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<AdminError | null>(null);
  const { notices, push, dismiss } = useNotices();
  const listHeading = useRef<HTMLHeadingElement>(null);
  const returnTo = useRef<number | null>(null);

  const load = useCallback(async (p: number, q: string) => {
    setLoading(true);
    setError(null);
    const r = await adminCall<Attachment[]>('GET', withQuery(MEDIA_PATH, { page: p, per_page: PER_PAGE, search: q }));
    setLoading(false);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setItems(r.data);
    setTotal(r.total ?? r.data.length);
    setTotalPages(r.totalPages ?? 1);
  }, []);

  useEffect(() => {
    void load(page, query);
  }, [page, query, load]);

  // Back from the details: focus the image's tile again.
  useEffect(() => {
    if (openId === null && returnTo.current !== null) {
      const el = document.querySelector<HTMLElement>(`[data-media-id="${returnTo.current}"]`);
      returnTo.current = null;
      (el ?? listHeading.current)?.focus();
    }
  }, [openId, items]);

  const onUploaded = useCallback(
    (a: Attachment) => {
      setItems((its) => (page === 1 && !query ? [a, ...its.filter((x) => x.id !== a.id)].slice(0, PER_PAGE) : its));
      setTotal((t) => t + 1);
    },
    [page, query],
  );

  const setViewKept = (v: View) => {
    setView(v);
    try {
      window.localStorage?.setItem('vitrine-media-view', v);
    } catch {
      /* private mode: the choice lasts the visit */
    }
  };

  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    setPage(1);
    setQuery(search.trim());
  };

  return (
    <div className="media-library">
      <Notices notices={notices} dismiss={dismiss} />
      <section aria-labelledby="media-add-heading" className="admin-card">
        <h2 id="media-add-heading">Add images</h2>
        <UploadZone onUploaded={onUploaded} />
        <StorageUse part="media" label="Media files" refresh={items.length} />
      </section>

      {openId !== null ? (
        <MediaDetails
          key={openId}
          id={openId}
          onClose={() => {
            returnTo.current = openId;
            setOpenId(null);
          }}
          onSaved={(a) => {
            setItems((its) => its.map((x) => (x.id === a.id ? a : x)));
            push('success', `Saved the details of “${a.title.raw || a.slug}”.`);
          }}
          onDeleted={(a) => {
            setItems((its) => its.filter((x) => x.id !== a.id));
            setTotal((t) => Math.max(0, t - 1));
            push('success', `Deleted “${a.title.raw || a.slug}”.`);
            setOpenId(null);
            listHeading.current?.focus();
          }}
          onError={(text) => push('error', text)}
        />
      ) : null}

      <section aria-labelledby="media-list-heading">
        <h2 id="media-list-heading" ref={listHeading} tabIndex={-1}>
          Library
        </h2>
        <div className="admin-toolbar">
          <form role="search" onSubmit={onSearch} className="media-search">
            <Field label="Search images">{(p) => <input {...p} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />}</Field>
            <button type="submit">Search</button>
          </form>
          <div role="group" aria-label="View" className="media-view">
            <button type="button" aria-pressed={view === 'grid'} onClick={() => setViewKept('grid')}>
              Grid
            </button>
            <button type="button" aria-pressed={view === 'list'} onClick={() => setViewKept('list')}>
              List
            </button>
          </div>
        </div>
        {error ? (
          <div role="alert" className="admin-notice admin-notice--error">
            <p>{error.message}</p>
          </div>
        ) : null}
        {view === 'grid' ? (
          <ul className="media-grid" aria-busy={loading || undefined}>
            {items.map((a) => {
              const t = thumbnailOf(a, 150);
              return (
                <li key={a.id}>
                  <button type="button" className="media-tile" data-media-id={a.id} aria-pressed={a.id === openId} onClick={() => setOpenId(a.id)}>
                    <img src={t.source_url} width={t.width} height={t.height} alt="" loading="lazy" />
                    <span className="media-tile__title">{a.title.raw || a.slug}</span>
                    {a.alt_text ? null : <span className="media-tile__flag">No alt text</span>}
                  </button>
                </li>
              );
            })}
          </ul>
        ) : (
          <AdminTable className="media-table" caption="Images, newest first" columns={['Image', 'Title', 'Alt text', 'Type', 'Dimensions', 'Uploaded']} busy={loading}>
            {items.map((a) => {
              const t = thumbnailOf(a, 60);
              return (
                <tr key={a.id}>
                  <td>
                    <img className="media-table__thumb" src={t.source_url} alt="" loading="lazy" />
                  </td>
                  <td>
                    <button type="button" className="media-link" data-media-id={a.id} onClick={() => setOpenId(a.id)}>
                      {a.title.raw || a.slug}
                    </button>
                  </td>
                  <td>{a.alt_text || <span className="media-tile__flag">None</span>}</td>
                  <td>{a.mime_type.replace('image/', '').toUpperCase()}</td>
                  <td>
                    {a.media_details.width}×{a.media_details.height}
                  </td>
                  <td>{a.date ? <time dateTime={a.date + 'Z'}>{formatDate(a.date + 'Z')}</time> : '—'}</td>
                </tr>
              );
            })}
          </AdminTable>
        )}
        <p aria-live="polite" className="admin-list-status">
          {loading ? 'Loading…' : total === 0 ? (query ? `No images match “${query}”.` : 'No images yet: upload the first above.') : `${total} ${total === 1 ? 'image' : 'images'}.`}
        </p>
        <Pager page={page} totalPages={totalPages} onPage={setPage} label="Library pages" />
      </section>
    </div>
  );
}

interface DetailsProps {
  id: number;
  onClose: () => void;
  onSaved: (a: Attachment) => void;
  onDeleted: (a: Attachment) => void;
  onError: (text: string) => void;
}

/** One image: its sizes, its text fields, and its deletion. */
function MediaDetails({ id, onClose, onSaved, onDeleted, onError }: DetailsProps) {
  const [a, setA] = useState<Attachment | null>(null);
  const [loadError, setLoadError] = useState('');
  const [title, setTitle] = useState('');
  const [alt, setAlt] = useState('');
  const [caption, setCaption] = useState('');
  const [saving, setSaving] = useState(false);
  const [fieldError, setFieldError] = useState<AdminError | null>(null);
  const [confirming, setConfirming] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let live = true;
    void adminCall<Attachment>('GET', `${MEDIA_PATH}/${id}`).then((r) => {
      if (!live) return;
      if (!r.ok) {
        setLoadError(r.error.message);
        return;
      }
      setA(r.data);
      setTitle(r.data.title.raw);
      setAlt(r.data.alt_text);
      setCaption(r.data.caption.raw);
    });
    return () => {
      live = false;
    };
  }, [id]);

  useEffect(() => {
    if (a || loadError) heading.current?.focus();
  }, [a, loadError]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setFieldError(null);
    const r = await adminCall<Attachment>('POST', `${MEDIA_PATH}/${id}`, { title, alt_text: alt, caption });
    setSaving(false);
    if (!r.ok) {
      setFieldError(r.error);
      onError(r.error.message);
      return;
    }
    setA(r.data);
    onSaved(r.data);
  };

  const remove = async () => {
    if (!a) return;
    const r = await adminCall('DELETE', `${MEDIA_PATH}/${id}?force=true`);
    setConfirming(false);
    if (!r.ok) {
      onError(r.error.message);
      deleteButton.current?.focus();
      return;
    }
    onDeleted(a);
  };

  const name = a ? a.title.raw || a.slug : '';
  const sizes = a ? Object.entries(a.media_details.sizes).sort(([, x], [, y]) => x.width - y.width) : [];
  return (
    <section className="admin-card media-details" aria-labelledby="media-details-heading" onKeyDown={(e) => e.key === 'Escape' && !confirming && onClose()}>
      <h2 id="media-details-heading" ref={heading} tabIndex={-1}>
        {a ? `Image: ${name}` : loadError ? 'Image not found' : 'Loading the image…'}
      </h2>
      {loadError ? <p>{loadError}</p> : null}
      {a ? (
        <div className="media-details__body">
          <figure className="media-details__preview">
            <img src={thumbnailOf(a, 600).source_url} srcSet={srcsetOf(a) || undefined} sizes="(max-width: 900px) 100vw, 400px" alt={a.alt_text} width={a.media_details.width} height={a.media_details.height} />
          </figure>
          <div>
            <dl className="media-details__facts">
              <dt>File</dt>
              <dd>{a.media_details.file}</dd>
              <dt>Type</dt>
              <dd>{a.mime_type}</dd>
              <dt>Dimensions</dt>
              <dd>
                {a.media_details.width}×{a.media_details.height} pixels
              </dd>
              {a.date ? (
                <>
                  <dt>Uploaded</dt>
                  <dd>{formatDate(a.date + 'Z')}</dd>
                </>
              ) : null}
            </dl>
            <h3>Sizes</h3>
            <ul className="media-sizes" aria-label="Sizes">
              {sizes.map(([n, s]) => (
                <li key={n}>
                  <a href={s.source_url} target="_blank" rel="noreferrer">
                    {n}
                    {' '}<span className="screen-reader-text">(opens in a new tab)</span>
                  </a>{' '}
                  {s.width}×{s.height}
                </li>
              ))}
            </ul>
            {a.missing_image_sizes.length ? <p>Sizes not made yet: {a.missing_image_sizes.join(', ')}.</p> : null}
            <form onSubmit={save} noValidate>
              <Field label="Alt text" hint="Describe the image for people who cannot see it; leave empty only when it is decorative." error={paramError(fieldError ?? undefined, 'alt_text')}>
                {(p) => <textarea {...p} rows={2} value={alt} onChange={(e) => setAlt(e.target.value)} maxLength={500} />}
              </Field>
              <Field label="Title" error={paramError(fieldError ?? undefined, 'title')}>
                {(p) => <input {...p} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />}
              </Field>
              <Field label="Caption" error={paramError(fieldError ?? undefined, 'caption')}>
                {(p) => <textarea {...p} rows={2} value={caption} onChange={(e) => setCaption(e.target.value)} maxLength={1000} />}
              </Field>
              <div className="media-details__actions">
                <button type="submit" className="admin-primary" disabled={saving}>
                  {saving ? 'Saving…' : 'Save'}
                </button>
                <button type="button" ref={deleteButton} className="admin-danger" onClick={() => setConfirming(true)}>
                  Delete permanently
                </button>
                <button type="button" onClick={onClose}>
                  Close{' '}<span className="screen-reader-text">the image's details</span>
                </button>
              </div>
            </form>
          </div>
        </div>
      ) : (
        <button type="button" onClick={onClose}>
          Back to the library
        </button>
      )}
      {confirming && a ? (
        <ConfirmDialog
          title={`Delete “${name}”?`}
          confirmLabel="Delete"
          onConfirm={() => void remove()}
          onCancel={() => {
            setConfirming(false);
            deleteButton.current?.focus();
          }}
        >
          This removes the image and all its sizes from the library, and from every product that shows it. It cannot be undone.
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
