// Page links for a list: "Page 2 of 7" with previous and next.

export function Pager({ page, totalPages, onPage, label }: { page: number; totalPages: number; onPage: (p: number) => void; label: string }) {
  if (totalPages <= 1) return null;
  return (
    <nav className="admin-pager" aria-label={label}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label="Previous page">
        Previous
      </button>
      <span aria-current="page">
        Page {page} of {totalPages}
      </span>
      <button type="button" disabled={page >= totalPages} onClick={() => onPage(page + 1)} aria-label="Next page">
        Next
      </button>
    </nav>
  );
}
