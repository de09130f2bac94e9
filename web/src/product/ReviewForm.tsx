import { useRef, useState, type FormEvent } from 'react';
import type { Review, ReviewFormSettings, ViewerSettings } from '../types';
import { obtainProof } from '../account/login/botcheck';
import { StarRating } from './StarRating';
import { ServerFragment } from '../lib/server-fragments';
import { InputField, TextAreaField } from '../ui/Field';
import { checkReview, postReview, type FieldError, type ReviewField } from './review-form';

const BOTCHECK_FAILED = 'The bot check could not be verified. Please try again.';

/**
 * WooCommerce's review form (#review_form_wrapper, #respond, .comment-form):
 * stars, text, and a guest's name and email; a logged-in customer is
 * "Logged in as …". It posts to /wp-comments-post.php. With scripts the
 * post is a fetch: the form is checked first (a missing rating is the
 * spec's "Please select a rating", in an alert, with focus on the stars, and
 * nothing is sent), the bot-check solved, and the answer shown in place
 * (errors in the alert with focus on the field; the new review handed to
 * onPosted). Without scripts the browser posts the form itself.
 */
export function ReviewForm({
  form,
  productName,
  firstReview,
  user,
  onPosted,
}: {
  form: ReviewFormSettings;
  productName: string;
  firstReview: boolean;
  user?: ViewerSettings;
  onPosted: (review: Review, message: string) => void;
}) {
  const guest = !user?.logged_in;
  const [rating, setRating] = useState(0);
  const [error, setError] = useState<FieldError | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const ratingRef = useRef<HTMLInputElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);

  if (form.verified_only && (guest || form.eligible === false)) {
    return (
      <div id="review_form_wrapper">
        <p className="woocommerce-verification-required">Only logged in customers who have purchased this product may leave a review.</p>
      </div>
    );
  }

  const focusField = (f: ReviewField | '', el: HTMLFormElement) => {
    if (f === 'rating') {
      ratingRef.current?.focus();
      return;
    }
    const input = f ? (el.elements.namedItem(f) as HTMLElement | null) : null;
    if (input && typeof input.focus === 'function') input.focus();
    else alertRef.current?.focus();
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const el = e.currentTarget;
    const fd = new FormData(el);
    const text = (k: string) => {
      const v = fd.get(k);
      return typeof v === 'string' ? v : '';
    };
    const problem = checkReview(
      { rating, comment: text('comment'), author: text('author'), email: text('email') },
      { ratingsRequired: form.ratings_required, guest },
    );
    if (problem) {
      setError(problem);
      focusField(problem.field, el);
      return;
    }
    setError(null);
    setBusy(true);
    setStatus('Sending your review…');
    try {
      let proof = '';
      try {
        proof = await obtainProof(form.botcheck, hostRef.current ?? document.body);
      } catch {
        setError({ field: '', message: BOTCHECK_FAILED });
        alertRef.current?.focus();
        return;
      }
      const body = new URLSearchParams();
      fd.forEach((v, k) => body.append(k, typeof v === 'string' ? v : ''));
      body.set('rating', rating ? String(rating) : '');
      body.set('altcha', proof);
      const res = await postReview(form.action, body);
      if (!res.ok) {
        setError(res.error);
        focusField(res.error.field, el);
        return;
      }
      onPosted(res.posted.review, res.posted.message);
    } finally {
      setBusy(false);
      setStatus('');
    }
  };

  const errorId = 'review-form-error';
  const invalid = (f: ReviewField) => error?.field === f;
  // A field in error is marked so and points to the one alert (and to its own notes, if any).
  const marks = (f: ReviewField, notes?: string) => ({
    'aria-invalid': invalid(f) || undefined,
    'aria-describedby': [invalid(f) ? errorId : '', notes].filter(Boolean).join(' ') || undefined,
  });
  // A guest's name or email (WordPress's comment fields).
  const guestField = (f: 'author' | 'email', label: string, type: string, autoComplete: string, maxLength: number, notes?: string) => (
    <InputField wrapper="p" className={`comment-form-${f}`} label={label} id={f} name={f} type={type} autoComplete={autoComplete} size={30} maxLength={maxLength} required {...marks(f, notes)} />
  );
  return (
    <div id="review_form_wrapper">
      <div id="review_form">
        <div id="respond" className="comment-respond">
          <h3 id="reply-title" className="comment-reply-title">
            {firstReview ? `Be the first to review \u201c${productName}\u201d` : 'Add a review'}
          </h3>
          <form
            action={form.action}
            method="post"
            id="commentform"
            className="comment-form"
            noValidate
            onSubmit={onSubmit}
            aria-labelledby="reply-title"
          >
            {/* The fields are the same on every product page: the server
                renders them once (lib/server-fragments.tsx); the product's
                id is in the hidden input after them. */}
            <ServerFragment
              tag="div"
              props={{ className: 'comment-form__fields' }}
              cacheKey={() => JSON.stringify(['review-fields', form.ratings_required, guest, user?.display_name, user?.logout_url])}
            >
              {() => (
                <>
                  <div
                    id={errorId}
                    ref={alertRef}
                    className={error ? 'woocommerce-error review-form-error' : 'review-form-error'}
                    role="alert"
                    tabIndex={-1}
                  >
                    {error ? error.message : ''}
                  </div>
                  {guest ? (
                    <p className="comment-notes">
                      <span id="email-notes">Your email address will not be published.</span> Required fields are marked{' '}
                      <span className="required">*</span>
                    </p>
                  ) : (
                    <p className="logged-in-as">
                      {`Logged in as ${user?.display_name ?? ''}. `}
                      {user?.logout_url && <a href={user.logout_url}>Log out?</a>}
                    </p>
                  )}
                  <StarRating
                    ref={ratingRef}
                    value={rating}
                    onChange={(n) => {
                      setRating(n);
                      if (error?.field === 'rating') setError(null);
                    }}
                    required={form.ratings_required}
                    invalid={invalid('rating')}
                    errorId={errorId}
                  />
                  {/* The shop's field (ui/Field.tsx): the label above, the box
                      as wide as the column, the same font as the page. The one
                      error shows in the alert above; a field in error points to it. */}
                  <TextAreaField
                    wrapper="p"
                    className="comment-form-comment"
                    label="Your review"
                    id="comment"
                    name="comment"
                    cols={45}
                    rows={8}
                    required
                    {...marks('comment')}
                  />
                  {guest && (
                    <div className="comment-form__guest">
                      {guestField('author', 'Name', 'text', 'name', 245)}
                      {guestField('email', 'Email', 'email', 'email', 100, 'email-notes')}
                    </div>
                  )}
                </>
              )}
            </ServerFragment>
            <input type="hidden" name="comment_post_ID" value={form.product_id} />
            <input type="hidden" name="altcha" value="" />
            <p className="form-submit">
              <input
                name="submit"
                type="submit"
                id="submit"
                className="submit button"
                value="Submit"
                aria-disabled={busy || undefined}
              />
            </p>
            <p className="screen-reader-text" role="status" aria-live="polite">
              {status}
            </p>
          </form>
          <div ref={hostRef} hidden />
        </div>
      </div>
    </div>
  );
}
