import { forwardRef } from 'react';
import { starLabel } from './review-form';

/**
 * The review form's star rating: five real radio inputs named "rating"
 * (values 1..5) in a fieldset, drawn as stars. Being radios, the group is
 * one Tab stop and the arrow keys move and select, as browsers do for any
 * radio group; each star's label is "N of 5 stars". The ref is the first
 * radio (or the checked one), where focus goes when the rating is missing.
 */
export const StarRating = forwardRef<
  HTMLInputElement,
  {
    value: number;
    onChange: (n: number) => void;
    required: boolean;
    invalid: boolean;
    errorId?: string;
  }
>(function StarRating({ value, onChange, required, invalid, errorId }, ref) {
  return (
    <fieldset className="comment-form-rating" aria-describedby={invalid ? errorId : undefined}>
      <legend id="rating-legend">
        Your rating{required && <span className="required"> *</span>}
      </legend>
      <p className={`stars${value ? ' selected' : ''}`}>
        {[1, 2, 3, 4, 5].map((n) => (
          <span key={n} className={`star star-${n}${n <= value ? ' on' : ''}${n === value ? ' active' : ''}`}>
            <input
              ref={(n === 1 && !value) || n === value ? ref : undefined}
              type="radio"
              name="rating"
              id={`rating-${n}`}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              required={required && n === 1}
              aria-invalid={invalid || undefined}
            />
            <label htmlFor={`rating-${n}`}>
              <span className="screen-reader-text">{starLabel(n)}</span>
              <span className="star-glyph" aria-hidden="true">
                ★
              </span>
            </label>
          </span>
        ))}
      </p>
    </fieldset>
  );
});
