import type { PageLink } from '../types';

/** The privacy policy's path (contentpage.PrivacySlug). */
export const PRIVACY_PATH = '/privacy-policy/';
/** The terms page's path (contentpage.TermsSlug). */
export const TERMS_PATH = '/terms/';

/** The published page at path among a page's content pages, if any. */
export function pageAt(pages: PageLink[] | undefined, path: string): PageLink | undefined {
  return pages?.find((p) => p.url === path);
}
