import type { Review, StoreProduct } from '../types';
import { decodeEntities, formatDate, formatRating } from '../lib/format';
import { Stars } from '../ui/Stars';

export function Reviews({ product, reviews }: { product: StoreProduct; reviews: Review[] }) {
  const name = decodeEntities(product.name);
  const count = product.review_count;
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
        {reviews.length > 0 ? (
          <ol className="commentlist">
            {reviews.map((r) => (
              <li key={r.id} id={`li-comment-${r.id}`} className="review">
                <article id={`comment-${r.id}`} className="comment_container">
                  <div className="comment-text">
                    <Stars rating={r.rating} />
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
              </li>
            ))}
          </ol>
        ) : (
          <p className="woocommerce-noreviews">There are no reviews yet.</p>
        )}
      </div>
    </div>
  );
}
