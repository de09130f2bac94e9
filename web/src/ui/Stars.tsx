import { formatRating } from '../lib/format';

/** CSS-drawn five-star rating with an accessible name. */
export function Stars({ rating, className = '' }: { rating: string | number; className?: string }) {
  const r = formatRating(rating);
  const pct = (parseFloat(r) / 5) * 100;
  return (
    <div className={('star-rating ' + className).trim()} role="img" aria-label={`Rated ${r} out of 5`}>
      <span className="star-rating__fill" style={{ width: pct + '%' }} />
    </div>
  );
}
