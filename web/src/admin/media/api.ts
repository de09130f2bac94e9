// The media library's calls (/wp-json/wp/v2/media, internal/adminapi/media.go)
// and the spec's upload flow: POST the file with upload progress; when the
// answer is a server error after the file was stored (the answer names it in
// X-WP-Upload-Attachment-ID), ask for its sizes with post-process
// create-image-subsizes up to five times, then delete the upload and say
// "Media upload failed…".

import { adminCall, decodeEntities, NETWORK_ERROR, type AdminError } from '../api';
import { currentRestNonce, refreshRestNonce } from '../../lib/rest';

export const MEDIA_PATH = '/wp-json/wp/v2/media';

/** The largest file the server accepts (media.MaxUploadBytes). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** What the file input offers; the server decides by the file's content. */
export const ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';

/** The spec's text when an upload's sizes cannot be made (post_process). */
export const UPLOAD_FAILED = 'Media upload failed. If this is a photo or a large image, please scale it down and try again.';

/** How many times the sizes are asked for again (the spec's 5). */
export const POST_PROCESS_RETRIES = 5;

export interface MediaSize {
  file: string;
  width: number;
  height: number;
  mime_type: string;
  source_url: string;
}

/** WordPress's attachment, with the fields the admin uses. */
export interface Attachment {
  id: number;
  date: string | null;
  slug: string;
  title: { raw: string; rendered: string };
  author: number;
  alt_text: string;
  caption: { raw: string; rendered: string };
  media_type: string;
  mime_type: string;
  source_url: string;
  media_details: { width: number; height: number; file: string; sizes: Record<string, MediaSize> };
  missing_image_sizes: string[];
}

/** The smallest size at least minWidth wide (or the largest there is), for a thumbnail. */
export function thumbnailOf(a: Attachment, minWidth = 150): MediaSize {
  const sizes = Object.values(a.media_details.sizes ?? {}).sort((x, y) => x.width - y.width);
  return sizes.find((s) => s.width >= minWidth) ?? sizes[sizes.length - 1] ?? {
    file: a.media_details.file, width: a.media_details.width, height: a.media_details.height, mime_type: a.mime_type, source_url: a.source_url,
  };
}

/** A srcset of the attachment's sizes ("url 300w, …"). */
export function srcsetOf(a: Attachment): string {
  return Object.values(a.media_details.sizes ?? {})
    .filter((s) => s.width > 0)
    .sort((x, y) => x.width - y.width)
    .map((s) => `${s.source_url} ${s.width}w`)
    .join(', ');
}

export type UploadPhase = { kind: 'uploading'; loaded: number; total: number } | { kind: 'processing'; attempt: number } | { kind: 'deleting' };

export type UploadOutcome = { ok: true; attachment: Attachment } | { ok: false; error: AdminError };

interface RawAnswer {
  status: number;
  json: unknown;
  attachmentId: number | null;
}

/** POSTs the file with XMLHttpRequest, for its upload progress. */
function send(file: File, fields: Record<string, string>, nonce: string, onProgress: (loaded: number, total: number) => void, signal?: AbortSignal): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', MEDIA_PATH);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (nonce) xhr.setRequestHeader('X-WP-Nonce', nonce);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    };
    xhr.onload = () => {
      let json: unknown = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        json = null;
      }
      const id = Number.parseInt(xhr.getResponseHeader('X-WP-Upload-Attachment-ID') ?? '', 10);
      resolve({ status: xhr.status, json, attachmentId: Number.isFinite(id) && id > 0 ? id : null });
    };
    xhr.onerror = () => reject(new Error('network'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    for (const [k, v] of Object.entries(fields)) if (v) form.append(k, v);
    xhr.send(form);
  });
}

function errorOf(a: RawAnswer): AdminError {
  const e = (a.json ?? {}) as { code?: string; message?: string; data?: Record<string, unknown> };
  return {
    code: e.code || 'http_' + a.status,
    message: decodeEntities(e.message || `The shop answered with an error (${a.status}).`),
    status: a.status,
    data: e.data,
  };
}

/**
 * Uploads one file by the spec's flow, telling onPhase where it is. Never
 * throws (but for an abort): a refusal comes back as its error.
 */
export async function uploadMedia(file: File, onPhase: (p: UploadPhase) => void, opts: { fields?: Record<string, string>; signal?: AbortSignal } = {}): Promise<UploadOutcome> {
  if (file.size > MAX_UPLOAD_BYTES) {
    return { ok: false, error: { code: 'rest_upload_file_too_big', status: 413, message: `This file is too large: images may be up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.` } };
  }
  const progress = (loaded: number, total: number) => onPhase({ kind: 'uploading', loaded, total });
  progress(0, file.size);
  let answer: RawAnswer;
  try {
    const nonce = currentRestNonce();
    answer = await send(file, opts.fields ?? {}, nonce, progress, opts.signal);
    if (answer.status === 403 && (answer.json as { code?: string } | null)?.code === 'rest_cookie_invalid_nonce') {
      const fresh = await refreshRestNonce();
      if (fresh && fresh !== nonce) answer = await send(file, opts.fields ?? {}, fresh, progress, opts.signal);
    }
  } catch (e) {
    if ((e as Error)?.name === 'AbortError') throw e;
    return { ok: false, error: { code: 'network', message: NETWORK_ERROR, status: 0 } };
  }
  if (answer.status >= 200 && answer.status < 300) return { ok: true, attachment: answer.json as Attachment };
  if (answer.status < 500 || answer.attachmentId === null) return { ok: false, error: errorOf(answer) };

  // Stored, but the sizes failed: ask again, then give up and delete it.
  const id = answer.attachmentId;
  for (let attempt = 1; attempt <= POST_PROCESS_RETRIES; attempt++) {
    onPhase({ kind: 'processing', attempt });
    const r = await adminCall<Attachment>('POST', `${MEDIA_PATH}/${id}/post-process`, { action: 'create-image-subsizes' }, { signal: opts.signal });
    if (r.ok) return { ok: true, attachment: r.data };
  }
  onPhase({ kind: 'deleting' });
  await adminCall('DELETE', `${MEDIA_PATH}/${id}?force=true`, undefined, { signal: opts.signal });
  return { ok: false, error: { code: 'upload_failed', status: 500, message: UPLOAD_FAILED } };
}
