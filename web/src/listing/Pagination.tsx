import { pageHref, pageList } from './listing-helpers';

export function Pagination({
  base,
  page,
  totalPages,
  url,
  hidden = false,
}: {
  base: string;
  page: number;
  totalPages: number;
  url: string;
  hidden?: boolean;
}) {
  if (totalPages <= 1) return null;
  const pages = pageList(page, totalPages);
  return (
    <nav className="woocommerce-pagination" aria-label="Product pagination" hidden={hidden || undefined}>
      <ul className="page-numbers">
        {page > 1 && (
          <li>
            <a className="prev page-numbers" rel="prev" href={pageHref(base, page - 1, url)}>
              <span aria-hidden="true">←</span> Previous
            </a>
          </li>
        )}
        {pages.map((n, i) =>
          n === 0 ? (
            <li key={'gap' + i}>
              <span className="page-numbers dots">…</span>
            </li>
          ) : (
            <li key={n}>
              {n === page ? (
                <span aria-current="page" className="page-numbers current">
                  <span className="screen-reader-text">Page</span> {n}
                </span>
              ) : (
                <a className="page-numbers" href={pageHref(base, n, url)}>
                  <span className="screen-reader-text">Page</span> {n}
                </a>
              )}
            </li>
          ),
        )}
        {page < totalPages && (
          <li>
            <a className="next page-numbers" rel="next" href={pageHref(base, page + 1, url)}>
              Next <span aria-hidden="true">→</span>
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}
