import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { NavCategory } from '../types';
import { decodeEntities } from '../lib/format';
import { useHydrated } from '../listing/hydrated';
import { comboReducer, initialCombo, selectable, suggestionsText } from '../search/combobox';
import { categoryOptions, createSuggester } from '../search/suggest';
import '../search/search.css';

/**
 * The product search form. A plain GET form to "/" (s, post_type=product)
 * that works before scripts load. With `live`, once hydrated, the text field
 * becomes an ARIA combobox with suggestions from admin-ajax
 * action=flatsome_ajax_search_products (spec sections 2, 4, 9; protocol-notes
 * section 6), optionally limited to a category (`categories`: the nav tree).
 */
export function SearchForm({
  className = '',
  defaultValue = '',
  label = 'Product search',
  live = false,
  categories,
  minChars = 3,
  idBase,
}: {
  className?: string;
  defaultValue?: string;
  /** Names the search landmark; must differ when a page has two search forms. */
  label?: string;
  /** Live suggestions (the header's form). */
  live?: boolean;
  /** Categories for the optional category select (top level and children). */
  categories?: NavCategory[];
  /** settings.search_min_chars. */
  minChars?: number;
  /**
   * The ids' stem, fixed and unique per page, not useId: the header's forms
   * are rendered once and reused by the server (lib/server-fragments.tsx),
   * and a useId inside a reused part would shift every id after it.
   */
  idBase: string;
}) {
  const id = idBase;
  const hydrated = useHydrated();
  const enhanced = live && hydrated;
  const [state, dispatch] = useReducer(comboReducer, defaultValue, initialCombo);
  const [category, setCategory] = useState('');
  const [announce, setAnnounce] = useState('');
  const form = useRef<HTMLFormElement>(null);
  const listbox = useRef<HTMLUListElement>(null);
  const options = useMemo(() => (live ? categoryOptions(categories) : []), [live, categories]);

  const suggester = useMemo(
    () =>
      live
        ? createSuggester({
            minChars: Math.max(1, minChars || 3),
            onResults: (items) => {
              dispatch({ type: 'results', items });
              setAnnounce(suggestionsText(items));
            },
            onClear: () => {
              dispatch({ type: 'clear' });
              setAnnounce('');
            },
            onError: () => dispatch({ type: 'clear' }),
          })
        : null,
    [live, minChars],
  );
  useEffect(() => () => suggester?.cancel(), [suggester]);

  // Keep the active option in view inside the scrolling panel.
  useEffect(() => {
    if (state.active < 0 || !listbox.current) return;
    const el = listbox.current.children[state.active] as HTMLElement | undefined;
    el?.scrollIntoView?.({ block: 'nearest' });
  }, [state.active]);

  const optionId = (i: number) => `${id}-opt-${i}`;
  const listId = `${id}-listbox`;
  const activeItem = state.active >= 0 ? state.items[state.active] : undefined;

  const go = (i: number) => {
    const s = state.items[i];
    if (!selectable(s)) return;
    suggester?.cancel();
    window.location.assign(s.url);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (!enhanced) return;
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        dispatch({ type: 'down' });
        break;
      case 'ArrowUp':
        e.preventDefault();
        dispatch({ type: 'up' });
        break;
      case 'Enter':
        if (state.open && activeItem && selectable(activeItem)) {
          e.preventDefault();
          go(state.active);
        }
        // otherwise the form submits to the full results page
        break;
      case 'Escape':
        // Also stops the browser clearing the field on the first Escape.
        e.preventDefault();
        if (!state.open) suggester?.cancel();
        dispatch({ type: 'escape' });
        if (!state.open) setAnnounce('');
        break;
      default:
    }
  };

  const panelOpen = enhanced && state.open && state.items.length > 0;

  return (
    <form
      ref={form}
      role="search"
      aria-label={label}
      method="get"
      action="/"
      className={('woocommerce-product-search search-form ' + (live ? 'live-search ' : '') + className).trim()}
      onSubmit={() => suggester?.cancel()}
      onBlur={(e) => {
        if (enhanced && !e.currentTarget.contains(e.relatedTarget as Node | null)) dispatch({ type: 'close' });
      }}
    >
      {live && options.length > 0 && (
        <>
          <label className="screen-reader-text" htmlFor={`${id}-cat`}>
            Category
          </label>
          <select
            id={`${id}-cat`}
            className="search-category"
            // Sent only when a category is chosen (scripts drop the empty value).
            name={hydrated && !category ? undefined : 'product_cat'}
            value={category}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setCategory(v);
              suggester?.update(state.query, v);
            }}
          >
            <option value="">All categories</option>
            {options.map((o) => (
              <option key={o.id} value={String(o.id)}>
                {decodeEntities(o.label)}
              </option>
            ))}
          </select>
        </>
      )}
      <label className="screen-reader-text" htmlFor={id}>
        Search for products
      </label>
      <input
        type="search"
        id={id}
        className="search-field"
        name="s"
        placeholder="Search products…"
        value={state.query}
        onChange={(e) => {
          const v = e.currentTarget.value;
          dispatch({ type: 'input', query: v });
          suggester?.update(v, category);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => {
          if (enhanced && state.items.length > 0 && state.query.trim().length >= minChars) dispatch({ type: 'down' });
        }}
        autoComplete="off"
        role={enhanced ? 'combobox' : undefined}
        aria-autocomplete={enhanced ? 'list' : undefined}
        aria-expanded={enhanced ? panelOpen : undefined}
        aria-controls={enhanced ? listId : undefined}
        aria-activedescendant={enhanced && panelOpen && state.active >= 0 ? optionId(state.active) : undefined}
      />
      <input type="hidden" name="post_type" value="product" />
      <button type="submit" className="search-submit">
        <svg aria-hidden="true" focusable="false" width="18" height="18" viewBox="0 0 24 24">
          <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M20 20l-4-4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span className="screen-reader-text">Search</span>
      </button>
      {enhanced && (
        <>
          <div className="search-suggestions" hidden={!panelOpen}>
            <ul
              ref={listbox}
              id={listId}
              role="listbox"
              aria-label="Search suggestions"
              // Keep focus in the text field when an option is clicked.
              onMouseDown={(e) => e.preventDefault()}
            >
              {state.items.map((s, i) => {
                const ok = selectable(s);
                return (
                  <li
                    key={s.id + ':' + i}
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === state.active}
                    aria-disabled={ok ? undefined : true}
                    data-url={ok ? s.url : undefined}
                    className={
                      'search-suggestion' + (i === state.active ? ' is-active' : '') + (ok ? '' : ' search-suggestion--none')
                    }
                    onClick={() => go(i)}
                    onMouseMove={() => ok && i !== state.active && dispatch({ type: 'hover', index: i })}
                  >
                    {ok && (
                      <span className="search-suggestion__img">
                        {s.img ? <img src={s.img} alt="" width={40} height={40} loading="lazy" decoding="async" /> : null}
                      </span>
                    )}
                    <span className="search-suggestion__name">{decodeEntities(s.value)}</span>
                    {ok && s.price ? (
                      // Server-generated price HTML (the only HTML field rendered).
                      <span className="search-suggestion__price" dangerouslySetInnerHTML={{ __html: s.price }} />
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </div>
          <div className="screen-reader-text" role="status" aria-live="polite">
            {announce}
          </div>
        </>
      )}
    </form>
  );
}
