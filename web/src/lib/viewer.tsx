import { useEffect, useState } from 'react';
import { App } from '../App';
import type { PageData, ViewerSettings } from '../types';
import { pageHydrated } from './page-hydration';

/**
 * The viewer's part of a shared page. A cached page is the same for every
 * viewer (settings.user is the visitor's); for a logged-in viewer the server
 * adds, at send time, a script #vitrine-viewer holding who they are and what
 * of the page is theirs alone: the edit links for staff, their own held
 * reviews, whether they may review. The app hydrates the shared page as the
 * server rendered it, then shows the viewer's part (ViewerRoot): no
 * hydration mismatch, and no request of its own.
 */
export interface ViewerPart {
  user: ViewerSettings;
  /** Page fields, merged into the page data (objects merged key by key, the rest replaced). */
  page?: Record<string, unknown>;
}

/** The viewer's part in the document, or null (a visitor, or a page rendered for its viewer alone). */
export function readViewer(doc: Document = document): ViewerPart | null {
  const text = doc.getElementById('vitrine-viewer')?.textContent;
  if (!text) return null;
  try {
    const v = JSON.parse(text) as ViewerPart;
    return v && typeof v === 'object' && v.user && typeof v.user === 'object' ? v : null;
  } catch {
    return null;
  }
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function merge(base: Record<string, unknown>, part: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(part)) {
    out[k] = isPlain(v) && isPlain(base[k]) ? merge(base[k], v) : v;
  }
  return out;
}

/** The page data as the viewer sees it: their settings.user and their page fields. */
export function withViewer(data: PageData, v: ViewerPart): PageData {
  const merged = (v.page ? merge(data as unknown as Record<string, unknown>, v.page) : { ...data }) as unknown as PageData;
  if ('settings' in merged && merged.settings) {
    return { ...merged, settings: { ...merged.settings, user: v.user } } as PageData;
  }
  return merged;
}

/**
 * The app with the viewer's part: the first render is the shared page (what
 * the server sent), and the viewer's part is shown once the page has hydrated
 * (the page's chunk may still be loading when the layout has).
 */
export function ViewerRoot({ data, viewer }: { data: PageData; viewer: ViewerPart | null }) {
  const [shown, setShown] = useState(data);
  useEffect(() => {
    if (!viewer) return;
    let live = true;
    void pageHydrated().then(() => {
      if (live) setShown(withViewer(data, viewer));
    });
    return () => {
      live = false;
    };
  }, [data, viewer]);
  return <App data={shown} />;
}
