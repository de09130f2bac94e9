import { useId } from 'react';
import type { OrderBy } from '../types';
import { SORT_OPTIONS, keptQuery } from './listing-helpers';

export function SortForm({ orderby, url }: { orderby: OrderBy; url: string }) {
  const id = useId();
  const hidden = keptQuery(url).filter(([k]) => k !== 'orderby');
  return (
    <form method="get" className="woocommerce-ordering">
      <label htmlFor={id} className="screen-reader-text">
        Shop order
      </label>
      <select
        name="orderby"
        className="orderby"
        id={id}
        defaultValue={orderby}
        onChange={(e) => e.currentTarget.form?.submit()}
      >
        {SORT_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hidden.map(([k, v], i) => (
        <input key={k + i} type="hidden" name={k} value={v} />
      ))}
      <noscript>
        <button type="submit" className="button">
          Sort
        </button>
      </noscript>
    </form>
  );
}
