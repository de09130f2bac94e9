// Adding images: a file input (the keyboard's way, and a screen reader's)
// inside a zone that also takes files dropped on it. Each file uploads on
// its own (uploadMedia: progress, then the post-process retries) with a row
// saying where it is; the rows are a live region, so "Uploaded" and each
// file's error are announced.

import { useCallback, useId, useState, type DragEvent } from 'react';
import { ACCEPT, MAX_UPLOAD_BYTES, POST_PROCESS_RETRIES, uploadMedia, type Attachment, type UploadPhase } from './api';

interface Item {
  key: number;
  name: string;
  phase: UploadPhase | null;
  done: boolean;
  error: string;
}

let nextKey = 1;

function statusText(it: Item): string {
  if (it.error) return it.error;
  if (it.done) return 'Uploaded.';
  const p = it.phase;
  if (!p || p.kind === 'uploading') return 'Uploading…';
  if (p.kind === 'processing') return p.attempt === 1 ? 'Making the image sizes…' : `Making the image sizes (try ${p.attempt} of ${POST_PROCESS_RETRIES})…`;
  return 'Removing the failed upload…';
}

export function UploadZone({ onUploaded, label = 'Upload images' }: { onUploaded: (a: Attachment) => void; label?: string }) {
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const id = useId();

  const update = (key: number, patch: Partial<Item>) => setItems((its) => its.map((it) => (it.key === key ? { ...it, ...patch } : it)));

  const start = useCallback(
    (files: File[]) => {
      const added = files.map((f) => ({ key: nextKey++, name: f.name, phase: null, done: false, error: '' }));
      setItems((its) => [...added, ...its.filter((it) => !it.done || it.error)].slice(0, 50));
      files.forEach((file, i) => {
        const key = added[i].key;
        void uploadMedia(file, (phase) => update(key, { phase })).then((r) => {
          if (r.ok) {
            update(key, { done: true });
            onUploaded(r.attachment);
          } else update(key, { error: r.error.message });
        });
      });
    },
    [onUploaded],
  );

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const files = Array.from(e.dataTransfer?.files ?? []);
    if (files.length) start(files);
  };

  return (
    <div
      className={'media-drop' + (over ? ' media-drop--over' : '')}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="media-drop"
    >
      <p className="media-drop__text">Drop images here, or</p>
      <label htmlFor={id} className="media-drop__label">
        {label}
      </label>
      <input
        id={id}
        className="media-drop__input"
        type="file"
        accept={ACCEPT}
        multiple
        aria-describedby={id + '-hint'}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length) start(files);
        }}
      />
      <p id={id + '-hint'} className="admin-field__hint">
        JPEG, PNG, GIF or WebP, up to {MAX_UPLOAD_BYTES / 1024 / 1024} MB each.
      </p>
      <ul className="media-uploads" aria-live="polite" aria-label="Uploads">
        {items.map((it) => (
          <li key={it.key} className={'media-upload' + (it.error ? ' media-upload--error' : it.done ? ' media-upload--done' : '')}>
            <span className="media-upload__name">{it.name}</span>
            {!it.done && !it.error && it.phase?.kind === 'uploading' ? (
              <progress max={Math.max(it.phase.total, 1)} value={it.phase.loaded} aria-label={`Uploading ${it.name}`} />
            ) : null}
            <span className="media-upload__status">
              {it.error ? <span className="screen-reader-text">{it.name}: </span> : null}
              {statusText(it)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
