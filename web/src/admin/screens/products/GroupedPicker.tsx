// A list of linked products: a grouped product's children, a product's
// up-sells or cross-sells. The chosen products in order, each with a
// remove button, and a search (by name) among the published products (for
// a group, the simple and external ones) to add more. Keyboard: type,
// Enter or "Search", Tab to a result's "Add" button. Adding or removing
// says so in a live region and puts the focus back in the search box.

import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { adminCall, withQuery } from '../../api';
import { Field } from '../../ui/Field';
import { PRODUCTS, type Product } from './types';

export interface Child {
  id: number;
  name: string;
}

interface PickerProps {
  self: number | null;
  value: Child[];
  /** onChange takes an update of the current list (names may arrive after an add). */
  onChange: (update: (v: Child[]) => Child[]) => void;
  error?: string;
}

/** What one list is called: its legend, where products go ("to the group"), which products fit. */
export interface PickerWords {
  legend: string;
  listLabel: string;
  into: string;
  empty: string;
  search: string;
  hint: string;
  none: string;
  /** The product types the list takes; all when absent. */
  types?: Product['type'][];
}

const GROUPED: PickerWords = {
  legend: 'Grouped products',
  listLabel: 'Products in this group',
  into: 'the group',
  empty: 'No products in this group yet.',
  search: 'Find products to add',
  hint: 'Published simple and external products, by name.',
  none: 'No published simple or external product matches.',
  types: ['simple', 'external'],
};

export const UPSELLS: PickerWords = {
  legend: 'Up-sells',
  listLabel: 'Up-sells of this product',
  into: 'the up-sells',
  empty: 'No up-sells. They are shown on the product page as “You may also like…”.',
  search: 'Find up-sells to add',
  hint: 'Published products, by name.',
  none: 'No published product matches.',
};

export const CROSS_SELLS: PickerWords = {
  legend: 'Cross-sells',
  listLabel: 'Cross-sells of this product',
  into: 'the cross-sells',
  empty: 'No cross-sells. They are kept with the product; the cart does not offer them yet.',
  search: 'Find cross-sells to add',
  hint: 'Published products, by name.',
  none: 'No published product matches.',
};

export function GroupedPicker(props: PickerProps) {
  return <ProductPicker {...props} words={GROUPED} />;
}

export function ProductPicker({ self, value, onChange, error, words }: PickerProps & { words: PickerWords }) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Child[] | null>(null);
  const [status, setStatus] = useState('');
  const box = useRef<HTMLInputElement>(null);

  // Children loaded with the product come as ids: fetch their names.
  const missing = value.filter((c) => c.name === '').map((c) => c.id);
  useEffect(() => {
    if (missing.length === 0) return;
    let gone = false;
    void Promise.all(missing.map((id) => adminCall<Product>('GET', `${PRODUCTS}/${id}`))).then((rs) => {
      if (gone) return;
      const names = new Map<number, string>();
      rs.forEach((r, i) => names.set(missing[i], r.ok ? r.data.name : `Product #${missing[i]}`));
      onChange((v) => v.map((c) => (names.has(c.id) ? { ...c, name: names.get(c.id) ?? '' } : c)));
    });
    return () => {
      gone = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [missing.join(',')]);

  const search = async () => {
    const r = await adminCall<Product[]>('GET', withQuery(PRODUCTS, { search: query.trim(), status: 'publish', per_page: 20 }));
    if (!r.ok) {
      setResults([]);
      setStatus(r.error.message);
      return;
    }
    const found = r.data.filter((p) => (!words.types || words.types.includes(p.type)) && p.id !== self).map((p) => ({ id: p.id, name: p.name }));
    setResults(found);
    setStatus(found.length === 0 ? words.none : `${found.length} ${found.length === 1 ? 'product' : 'products'} found.`);
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault(); // not the product form's submit
      void search();
    }
  };

  const add = (c: Child) => {
    onChange((v) => [...v, c]);
    setStatus(`Added ${c.name}.`);
    box.current?.focus();
  };
  const remove = (c: Child) => {
    onChange((v) => v.filter((x) => x.id !== c.id));
    setStatus(`Removed ${c.name}.`);
    box.current?.focus();
  };

  const addable = (results ?? []).filter((r) => !value.some((c) => c.id === r.id));
  return (
    <fieldset>
      <legend>{words.legend}</legend>
      {value.length > 0 ? (
        <ul className="pa-images" aria-label={words.listLabel}>
          {value.map((c) => (
            <li key={c.id}>
              <span>{c.name || `Product #${c.id}`}</span>
              <button type="button" aria-label={`Remove ${c.name || `product #${c.id}`} from ${words.into}`} onClick={() => remove(c)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="admin-field__hint">{words.empty}</p>
      )}
      <div className="pa-row pa-bulk">
        {/* A refusal is the search box's: it is marked invalid and takes the focus. */}
        <Field label={words.search} hint={words.hint} error={error}>
          {(p) => <input {...p} ref={box} type="search" value={query} onChange={(e) => setQuery(e.target.value)} onKeyDown={onKey} />}
        </Field>
        <button type="button" onClick={() => void search()}>
          Search
        </button>
      </div>
      {addable.length > 0 ? (
        <ul className="pa-images" aria-label={`Products found for ${words.into}`}>
          {addable.map((r) => (
            <li key={r.id}>
              <span>{r.name}</span>
              <button type="button" aria-label={`Add ${r.name} to ${words.into}`} onClick={() => add(r)}>
                Add
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <p role="status" className="admin-list-status">
        {status}
      </p>
    </fieldset>
  );
}
