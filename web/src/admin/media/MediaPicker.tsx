// MediaPicker: choose images from the media library, for any form that
// needs them (the product editor's gallery, a category's image, a swatch).
//
//   <MediaPicker label="Product images" value={ids} onChange={(ids, items) => …} multiple />
//
// Props:
//   value     the chosen attachments' ids, in order (the first is a
//             product's main image);
//   onChange  called with the new ids, in order, and the attachments they
//             are (WordPress's /wp/v2/media shape: source_url, alt_text,
//             media_details.sizes…);
//   multiple  several images (default: one; choosing another replaces it);
//   label     the group's name (default "Images"); hint: a line under it.
//
// It shows the chosen images with a button to remove each (and, with
// multiple, to move them earlier or later), and a "Choose from the library"
// button that opens a dialog: search, pages, upload (the library's
// UploadZone: what is uploaded there is chosen at once), and a checkbox
// (or radio button) per image. Everything is reachable by keyboard; focus
// returns to the opener when the dialog closes.

import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { adminCall, withQuery } from '../api';
import { Pager } from '../ui/Pager';
import { MEDIA_PATH, thumbnailOf, type Attachment } from './api';
import { Dialog } from './Dialog';
import { UploadZone } from './UploadZone';
import './media.css';

export interface MediaPickerProps {
  value: number[];
  onChange: (ids: number[], items: Attachment[]) => void;
  multiple?: boolean;
  label?: string;
  hint?: string;
}

const PER_PAGE = 24;

export function MediaPicker({ value, onChange, multiple = false, label = 'Images', hint }: MediaPickerProps) {
  const id = useId();
  const [known, setKnown] = useState<Record<number, Attachment>>({});
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const key = value.join(',');

  // The chosen images' details, when the form starts with ids only.
  useEffect(() => {
    const missing = value.filter((v) => !known[v]);
    if (missing.length === 0) return;
    let live = true;
    void adminCall<Attachment[]>('GET', withQuery(MEDIA_PATH, { include: missing.join(','), per_page: 100 })).then((r) => {
      if (live && r.ok) setKnown((k) => ({ ...k, ...Object.fromEntries(r.data.map((a) => [a.id, a])) }));
    });
    return () => {
      live = false;
    };
  }, [key]);

  const emit = (ids: number[], extra: Attachment[] = []) => {
    const all: Record<number, Attachment> = { ...known, ...Object.fromEntries(extra.map((a) => [a.id, a])) };
    setKnown(all);
    onChange(ids, ids.map((i) => all[i]).filter(Boolean));
  };

  const nameOf = (i: number) => known[i]?.title.raw || known[i]?.slug || `Image ${i}`;

  const remove = (i: number) => {
    emit(value.filter((v) => v !== i));
    setStatus(`Removed ${nameOf(i)}.`);
    opener.current?.focus();
  };
  const move = (i: number, by: -1 | 1) => {
    const at = value.indexOf(i);
    const to = at + by;
    if (to < 0 || to >= value.length) return;
    const ids = [...value];
    [ids[at], ids[to]] = [ids[to], ids[at]];
    emit(ids);
    setStatus(`${nameOf(i)} is now image ${to + 1} of ${ids.length}.`);
  };

  return (
    <fieldset className="media-picker" aria-describedby={hint ? id + '-hint' : undefined}>
      <legend>{label}</legend>
      {hint ? (
        <p id={id + '-hint'} className="admin-field__hint">
          {hint}
        </p>
      ) : null}
      {value.length ? (
        <ul className="media-picker__chosen">
          {value.map((i, n) => {
            const a = known[i];
            const t = a ? thumbnailOf(a, 150) : null;
            return (
              <li key={i}>
                {t ? <img src={t.source_url} alt={a?.alt_text || ''} width={t.width} height={t.height} /> : <span className="media-picker__missing">Loading…</span>}
                <span className="media-picker__name">{nameOf(i)}</span>
                <span className="media-picker__buttons">
                  {multiple && n > 0 ? (
                    <button type="button" onClick={() => move(i, -1)}>
                      Earlier<span className="screen-reader-text">: {nameOf(i)}</span>
                    </button>
                  ) : null}
                  {multiple && n < value.length - 1 ? (
                    <button type="button" onClick={() => move(i, 1)}>
                      Later<span className="screen-reader-text">: {nameOf(i)}</span>
                    </button>
                  ) : null}
                  <button type="button" className="admin-danger" onClick={() => remove(i)}>
                    Remove{' '}<span className="screen-reader-text">{nameOf(i)}</span>
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="media-picker__none">No image chosen.</p>
      )}
      <button type="button" ref={opener} onClick={() => setOpen(true)}>
        {value.length && !multiple ? 'Replace from the library' : 'Choose from the library'}
      </button>
      <p role="status" className="screen-reader-text">
        {status}
      </p>
      {open ? (
        <PickerDialog
          title={`Choose ${label.toLowerCase()}`}
          multiple={multiple}
          initial={value}
          onCancel={() => {
            setOpen(false);
            opener.current?.focus();
          }}
          onDone={(ids, items) => {
            setOpen(false);
            emit(ids, items);
            setStatus(ids.length === 0 ? 'No image chosen.' : `${ids.length} ${ids.length === 1 ? 'image' : 'images'} chosen.`);
            opener.current?.focus();
          }}
        />
      ) : null}
    </fieldset>
  );
}

function PickerDialog({ title, multiple, initial, onCancel, onDone }: { title: string; multiple: boolean; initial: number[]; onCancel: () => void; onDone: (ids: number[], items: Attachment[]) => void }) {
  const id = useId();
  const [chosen, setChosen] = useState<number[]>(initial);
  const [items, setItems] = useState<Attachment[]>([]);
  const [seen, setSeen] = useState<Record<number, Attachment>>({});
  const [page, setPage] = useState(1);
  const [pages, setPages] = useState(0);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    setLoading(true);
    void adminCall<Attachment[]>('GET', withQuery(MEDIA_PATH, { page, per_page: PER_PAGE, search: query })).then((r) => {
      if (!live) return;
      setLoading(false);
      if (!r.ok) {
        setError(r.error.message);
        return;
      }
      setError('');
      setItems(r.data);
      setPages(r.totalPages ?? 1);
      setSeen((s) => ({ ...s, ...Object.fromEntries(r.data.map((a) => [a.id, a])) }));
    });
    return () => {
      live = false;
    };
  }, [page, query]);

  const toggle = (i: number, on: boolean) => setChosen((c) => (multiple ? (on ? [...c.filter((x) => x !== i), i] : c.filter((x) => x !== i)) : on ? [i] : []));

  const onUploaded = useCallback(
    (a: Attachment) => {
      setItems((its) => [a, ...its.filter((x) => x.id !== a.id)]);
      setSeen((s) => ({ ...s, [a.id]: a }));
      setChosen((c) => (multiple ? [...c.filter((x) => x !== a.id), a.id] : [a.id]));
    },
    [multiple],
  );

  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    setPage(1);
    setQuery(search.trim());
  };

  return (
    <Dialog labelledBy={id + '-title'} onClose={onCancel} initialFocus={searchRef} className="media-dialog--picker">
      <h2 id={id + '-title'}>{title}</h2>
      <form role="search" onSubmit={onSearch} className="media-search">
        <label htmlFor={id + '-search'}>Search images</label>
        <input id={id + '-search'} ref={searchRef} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="submit">Search</button>
      </form>
      <details className="media-picker__upload">
        <summary>Upload new images</summary>
        <UploadZone onUploaded={onUploaded} />
      </details>
      {error ? (
        <p role="alert" className="admin-field__error">
          {error}
        </p>
      ) : null}
      <fieldset className="media-picker__grid-wrap">
        <legend className="screen-reader-text">{multiple ? 'Images to use' : 'Image to use'}</legend>
        <ul className="media-grid media-grid--picker" aria-busy={loading || undefined}>
          {items.map((a) => {
            const t = thumbnailOf(a, 150);
            const name = a.title.raw || a.slug;
            return (
              <li key={a.id}>
                <label className="media-choice">
                  <input type={multiple ? 'checkbox' : 'radio'} name={id + '-choice'} checked={chosen.includes(a.id)} onChange={(e) => toggle(a.id, e.target.checked)} />
                  <img src={t.source_url} width={t.width} height={t.height} alt="" loading="lazy" />
                  <span className="media-tile__title">{name}</span>
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <p aria-live="polite" className="admin-list-status">
        {loading ? 'Loading…' : items.length === 0 ? (query ? `No images match “${query}”.` : 'The library is empty: upload an image above.') : `${chosen.length} chosen.`}
      </p>
      <Pager page={page} totalPages={pages} onPage={setPage} label="Library pages" />
      <div className="media-details__actions">
        <button type="button" className="admin-primary" onClick={() => onDone(chosen, chosen.map((i) => seen[i]).filter(Boolean))}>
          {multiple ? 'Use these images' : 'Use this image'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
