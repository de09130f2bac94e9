// The review form's logic, apart from React: the checks made before
// sending (the server makes them again), the star group's keys, the
// comment-page URLs, and the post itself (POST /wp-comments-post.php with
// Accept: application/json, docs/api.md).

import type { Review } from '../types';

export const RATING_REQUIRED = 'Please select a rating';
export const FILL_REQUIRED = 'Please fill the required fields.';
export const BAD_EMAIL = 'Please enter a valid email address.';
export const EMPTY_TEXT = 'Please type your comment text.';
export const AWAITING = 'Your review is awaiting approval';

export type ReviewField = 'rating' | 'comment' | 'author' | 'email';

export interface ReviewValues {
  rating: number; // 0: none chosen
  comment: string;
  author: string;
  email: string;
}

export interface FieldError {
  field: ReviewField | '';
  message: string;
}

/** WordPress's is_email, roughly: local@domain.tld with no spaces. */
export function looksLikeEmail(s: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(s.trim());
}

/**
 * The first problem of a review, in the server's order and with its texts
 * (review.Service.validate), or null. Guests give a name and an email.
 */
export function checkReview(v: ReviewValues, opts: { ratingsRequired: boolean; guest: boolean }): FieldError | null {
  if (opts.ratingsRequired && !(v.rating >= 1 && v.rating <= 5)) return { field: 'rating', message: RATING_REQUIRED };
  if (opts.guest) {
    if (!v.author.trim()) return { field: 'author', message: FILL_REQUIRED };
    if (!v.email.trim()) return { field: 'email', message: FILL_REQUIRED };
    if (!looksLikeEmail(v.email)) return { field: 'email', message: BAD_EMAIL };
  }
  if (!v.comment.trim()) return { field: 'comment', message: EMPTY_TEXT };
  return null;
}

/** The label of star n: "1 of 5 stars". */
export function starLabel(n: number): string {
  return `${n} of 5 stars`;
}

/** The path of reviews page n of a product whose page is base ("/product/x/"). */
export function commentPagePath(base: string, n: number): string {
  return n <= 1 ? base : `${base}comment-page-${n}/`;
}

/** The page numbers to link: all of them up to 7, else the ends and the current one's neighbours (0 = a gap). */
export function pageNumbers(current: number, pages: number): number[] {
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1);
  const out: number[] = [];
  for (let n = 1; n <= pages; n++) {
    if (n === 1 || n === pages || Math.abs(n - current) <= 1) out.push(n);
    else if (out[out.length - 1] !== 0) out.push(0);
  }
  return out;
}

/** The JSON answer to a review post. */
export interface ReviewPosted {
  id: number;
  product_id: number;
  status: 'approved' | 'hold';
  message: string;
  redirect: string;
  review: Review;
}

export type PostResult = { ok: true; posted: ReviewPosted } | { ok: false; status: number; error: FieldError };

const NETWORK = 'Your review could not be sent. Please check your connection and try again.';

/** Sends a review (form fields as WordPress names them) and reads the answer. */
export async function postReview(action: string, body: URLSearchParams, fetcher: typeof fetch = fetch): Promise<PostResult> {
  let res: Response;
  try {
    res = await fetcher(action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  } catch {
    return { ok: false, status: 0, error: { field: '', message: NETWORK } };
  }
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    /* not JSON: handled below */
  }
  if (res.ok && data && typeof (data as ReviewPosted).id === 'number') return { ok: true, posted: data as ReviewPosted };
  const e = (data ?? {}) as { message?: unknown; data?: { field?: unknown } };
  const field = typeof e.data?.field === 'string' ? (e.data.field as ReviewField) : '';
  const message = typeof e.message === 'string' && e.message ? e.message : NETWORK;
  return { ok: false, status: res.status, error: { field, message } };
}
