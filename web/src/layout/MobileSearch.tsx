import { useEffect, useRef, useState } from 'react';
import type { NavCategory } from '../types';
import { SearchForm } from '../ui/SearchForm';
import './mobile-search.css';

/**
 * The phone header's search (under the large breakpoint, with scripts,
 * where the bar's own search moves into the menu): a magnifier button
 * named "Search products" that opens a search box under the bar, with the
 * focus in its field. Escape, or the button again, closes it and gives
 * the focus back to the button. Without scripts the bar's form shows.
 */
export function MobileSearch({ search, minChars, categories }: { search: string; minChars?: number; categories?: NavCategory[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLInputElement>('input[type="search"], input[name="s"]')?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="search-toggle"
        aria-label="Search products"
        aria-expanded={open}
        aria-controls="mobile-search"
        onClick={() => (open ? close() : setOpen(true))}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
          <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      <div
        id="mobile-search"
        ref={panel}
        className="mobile-search"
        hidden={!open}
        onKeyDown={(e) => {
          // Escape closes the live search's suggestions first when they
          // are open (the field says so), then the box.
          if (e.key === 'Escape' && (e.target as HTMLElement).getAttribute('aria-expanded') !== 'true') {
            e.stopPropagation();
            close();
          }
        }}
      >
        {open && <SearchForm idBase="mobile-search-form" label="Product search (phone)" defaultValue={search} live categories={categories} minChars={minChars} />}
      </div>
    </>
  );
}
