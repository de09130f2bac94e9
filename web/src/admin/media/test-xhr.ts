// A stand-in for XMLHttpRequest in the media tests: uploads (UploadZone,
// uploadMedia) post with XHR for their progress. Each send reports some
// progress, then answers the next queued answer.
import { vi } from 'vitest';

export interface XHRAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export class FakeXHR {
  static answers: XHRAnswer[] = [];
  static sent: { url: string; headers: Record<string, string>; file: File | null }[] = [];
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  withCredentials = false;
  status = 0;
  responseText = '';
  private url = '';
  private reqHeaders: Record<string, string> = {};
  private resHeaders: Record<string, string> = {};

  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.reqHeaders[k] = v;
  }
  getResponseHeader(k: string): string | null {
    const hit = Object.entries(this.resHeaders).find(([h]) => h.toLowerCase() === k.toLowerCase());
    return hit ? hit[1] : null;
  }
  abort() {
    this.onabort?.();
  }
  send(body: FormData) {
    const file = body.get('file');
    FakeXHR.sent.push({ url: this.url, headers: this.reqHeaders, file: file instanceof File ? file : null });
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 2 });
      const a = FakeXHR.answers.shift();
      if (!a) {
        this.onerror?.();
        return;
      }
      this.status = a.status;
      this.responseText = JSON.stringify(a.body);
      this.resHeaders = a.headers ?? {};
      this.onload?.();
    }, 0);
  }
}

export function stubXHR() {
  FakeXHR.answers = [];
  FakeXHR.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXHR);
}

/** An attachment as the API answers it. */
export function attachment(id: number, title: string, alt = '', extra: Partial<{ missing: string[] }> = {}) {
  const base = `/media/uploads/2026/11/${title.toLowerCase()}-ab12`;
  return {
    id,
    date: '2026-11-24T10:00:00',
    slug: title.toLowerCase(),
    title: { raw: title, rendered: title },
    author: 3,
    alt_text: alt,
    caption: { raw: '', rendered: '' },
    media_type: 'image',
    mime_type: 'image/jpeg',
    source_url: base + '.jpg',
    media_details: {
      width: 1400,
      height: 700,
      file: base.slice('/media/'.length) + '.jpg',
      sizes: {
        medium: { file: 'x-300x150.jpg', width: 300, height: 150, mime_type: 'image/jpeg', source_url: base + '-300x150.jpg' },
        woocommerce_single: { file: 'x-600x300.jpg', width: 600, height: 300, mime_type: 'image/jpeg', source_url: base + '-600x300.jpg' },
        large: { file: 'x-1200x600.jpg', width: 1200, height: 600, mime_type: 'image/jpeg', source_url: base + '-1200x600.jpg' },
        full: { file: 'x.jpg', width: 1400, height: 700, mime_type: 'image/jpeg', source_url: base + '.jpg' },
      },
    },
    missing_image_sizes: extra.missing ?? [],
  };
}
