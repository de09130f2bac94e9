import { useRef, useState } from 'react';
import type { ProductPage, Review } from '../types';
import { decodeEntities, formatDate, formatRating } from '../lib/format';
import { Stars } from '../ui/Stars';
import { ReviewForm } from './ReviewForm';
import { AWAITING, commentPagePath, pageNumbers } from './review-form';

/** The product's path ("/product/x/") from its permalink. */
function productPath(permalink: string): string {
  return permalink.replace(/^[a-z]+:\/\/[^/]+/i, '') || '/';
}

/** Bars of the approved reviews by stars, 5 to 1, each with its text for assistive technology. */
export function RatingHistogram({ counts, total }: { counts: number[]; total: number }) {
  if (total <= 0) return null;
  return (
    <div className="rating-histogram">
      <h3 className="screen-reader-text">Ratings</h3>
      <ul>
        {[5, 4, 3, 2, 1].map((n) => {
          const c = counts[n - 1] ?? 0;
          const pct = Math.round((c / total) * 100);
          return (
            <li key={n} className="rating-histogram__row">
              <span className="rating-histogram__label" aria-hidden="true">{`${n} ★`}</span>
              <span className="rating-histogram__bar" aria-hidden="true">
                <span className="rating-histogram__fill" style={{ width: `${pct}%` }} />
              </span>
              <span className="rating-histogram__count" aria-hidden="true">
                {c}
              </span>
              <span className="screen-reader-text">{`${n} ${n === 1 ? 'star' : 'stars'}: ${c} ${c === 1 ? 'review' : 'reviews'} (${pct}%)`}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function ReviewItem({ r, focusRef }: { r: Review; focusRef?: (el: HTMLElement | null) => void }) {
  return (
    <li id={`li-comment-${r.id}`} className={`review${r.pending ? ' review--pending' : ''}`}>
      <article id={`comment-${r.id}`} className="comment_container" tabIndex={focusRef ? -1 : undefined} ref={focusRef}>
        <div className="comment-text">
          {r.rating > 0 && <Stars rating={r.rating} />}
          {r.pending ? (
            <p className="meta">
              <em className="woocommerce-review__awaiting-approval">{AWAITING}</em>
            </p>
          ) : null}
          <p className="meta">
            <strong className="woocommerce-review__author">{decodeEntities(r.reviewer)}</strong>{' '}
            {r.verified && <em className="woocommerce-review__verified verified">(verified owner)</em>}{' '}
            <span className="woocommerce-review__dash" aria-hidden="true">
              –
            </span>{' '}
            <time className="woocommerce-review__published-date" dateTime={r.date_created}>
              {r.formatted_date_created || formatDate(r.date_created)}
            </time>
          </p>
          <div className="description" dangerouslySetInnerHTML={{ __html: r.review }} />
        </div>
      </article>
      {r.reply ? (
        <ul className="children">
          <li id={`li-comment-${r.id}-reply`} className="review review--reply">
            <article className="comment_container" aria-label={`Reply from ${decodeEntities(r.reply.author)}`}>
              <div className="comment-text">
                <p className="meta">
                  <strong className="woocommerce-review__author">{decodeEntities(r.reply.author)}</strong>{' '}
                  <em className="woocommerce-review__shop">(shop reply)</em>{' '}
                  <span className="woocommerce-review__dash" aria-hidden="true">
                    –
                  </span>{' '}
                  <time className="woocommerce-review__published-date" dateTime={r.reply.date_created}>
                    {r.reply.formatted_date_created || formatDate(r.reply.date_created)}
                  </time>
                </p>
                <div className="description" dangerouslySetInnerHTML={{ __html: r.reply.reply }} />
              </div>
            </article>
          </li>
        </ul>
      ) : null}
    </li>
  );
}

function Pagination({ base, page, pages }: { base: string; page: number; pages: number }) {
  if (pages <= 1) return null;
  const href = (n: number) => commentPagePath(base, n) + '#comments';
  return (
    <nav className="woocommerce-pagination comments-pagination" aria-label="Reviews pages">
      <ul className="page-numbers">
        {page > 1 && (
          <li>
            <a className="prev page-numbers" rel="prev" href={href(page - 1)}>
              ← <span>Newer reviews</span>
            </a>
          </li>
        )}
        {pageNumbers(page, pages).map((n, i) =>
          n === 0 ? (
            <li key={`gap-${i}`}>
              <span className="page-numbers dots">…</span>
            </li>
          ) : (
            <li key={n}>
              {n === page ? (
                <span aria-current="page" className="page-numbers current">
                  <span className="screen-reader-text">Page </span>
                  {n}
                </span>
              ) : (
                <a className="page-numbers" href={href(n)}>
                  <span className="screen-reader-text">Page </span>
                  {n}
                </a>
              )}
            </li>
          ),
        )}
        {page < pages && (
          <li>
            <a className="next page-numbers" rel="next" href={href(page + 1)}>
              <span>Older reviews</span> →
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}

export function Reviews({ data }: { data: ProductPage }) {
  const product = data.product;
  const name = decodeEntities(product.name);
  const count = product.review_count;
  const paging = data.review_paging ?? { page: 1, pages: 1, total: count, per_page: 10 };
  const [posted, setPosted] = useState<{ review: Review; message: string } | null>(null);
  const focusNew = useRef(false);
  const pending = [...(posted ? [posted.review] : []), ...(data.pending_reviews ?? []).filter((r) => r.id !== posted?.review.id)];
  const approvedNew = posted && !posted.review.pending ? posted.review : null;
  const list = [...pending.filter((r) => r.pending), ...(approvedNew ? [approvedNew] : []), ...data.reviews.filter((r) => r.id !== approvedNew?.id)];
  const base = productPath(product.permalink);
  return (
    <div id="reviews" className="woocommerce-Reviews">
      <div id="comments">
        <h2 className="woocommerce-Reviews-title">
          {count > 0 ? `${count} ${count === 1 ? 'review' : 'reviews'} for \u201c${name}\u201d` : 'Reviews'}
        </h2>
        {count > 0 && (
          <div className="reviews-average">
            <Stars rating={product.average_rating} />
            <span>{`${formatRating(product.average_rating)} out of 5`}</span>
          </div>
        )}
        <RatingHistogram counts={data.rating_counts ?? []} total={paging.total} />
        {list.length > 0 ? (
          <ol className="commentlist">
            {list.map((r) => (
              <ReviewItem
                key={r.id}
                r={r}
                focusRef={
                  posted?.review.id === r.id
                    ? (el) => {
                        if (el && focusNew.current) {
                          focusNew.current = false;
                          el.focus();
                        }
                      }
                    : undefined
                }
              />
            ))}
          </ol>
        ) : (
          <p className="woocommerce-noreviews">There are no reviews yet.</p>
        )}
        <Pagination base={base} page={paging.page} pages={paging.pages} />
      </div>
      {data.review_form &&
        (posted ? (
          <p className="woocommerce-review-thanks" role="status">
            {posted.message}
          </p>
        ) : (
          <ReviewForm
            form={data.review_form}
            productName={name}
            firstReview={count === 0}
            user={data.settings?.user}
            onPosted={(review, message) => {
              focusNew.current = true;
              setPosted({ review, message });
            }}
          />
        ))}
    </div>
  );
}
