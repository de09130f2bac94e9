import { useId } from 'react';

export function SearchForm({
  className = '',
  defaultValue = '',
  label = 'Product search',
}: {
  className?: string;
  defaultValue?: string;
  /** Names the search landmark; must differ when a page has two search forms. */
  label?: string;
}) {
  const id = useId();
  return (
    <form role="search" aria-label={label} method="get" action="/" className={('woocommerce-product-search search-form ' + className).trim()}>
      <label className="screen-reader-text" htmlFor={id}>
        Search for products
      </label>
      <input
        type="search"
        id={id}
        className="search-field"
        name="s"
        placeholder="Search products…"
        defaultValue={defaultValue}
        autoComplete="off"
      />
      <input type="hidden" name="post_type" value="product" />
      <button type="submit" className="search-submit">
        <svg aria-hidden="true" focusable="false" width="18" height="18" viewBox="0 0 24 24">
          <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M20 20l-4-4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span className="screen-reader-text">Search</span>
      </button>
    </form>
  );
}
