// A grouped product's children: the chosen products in order, each with a
// remove button, and a search (by name) among the published simple and
// external products to add more. Keyboard: type, Enter or "Search", Tab to
// a result's "Add" button. Adding or removing says so in a live region
// and puts the focus back in the search box.

import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { adminCall, withQuery } from '../../api';
import { Field } from '../../ui/Field';
import { PRODUCTS, type Product } from './types';

export interface Child {
  id: number;
  name: string;
}

/** onChange takes an update of the current list (names may arrive after an add). */
export function GroupedPicker({ self, value, onChange, error }: { self: number | null; value: Child[]; onChange: (update: (v: Child[]) => Child[]) => void; error?: string }) {
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
    const found = r.data.filter((p) => (p.type === 'simple' || p.type === 'external') && p.id !== self).map((p) => ({ id: p.id, name: p.name }));
    setResults(found);
    setStatus(found.length === 0 ? 'No published simple or external product matches.' : `${found.length} ${found.length === 1 ? 'product' : 'products'} found.`);
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
      <legend>Grouped products</legend>
      {error ? (
        <p className="admin-field__error" role="alert">
          {error}
        </p>
      ) : null}
      {value.length > 0 ? (
        <ul className="pa-images" aria-label="Products in this group">
          {value.map((c) => (
            <li key={c.id}>
              <span>{c.name || `Product #${c.id}`}</span>
              <button type="button" aria-label={`Remove ${c.name || `product #${c.id}`} from the group`} onClick={() => remove(c)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="admin-field__hint">No products in this group yet.</p>
      )}
      <div className="pa-row pa-bulk">
        <Field label="Find products to add" hint="Published simple and external products, by name.">
          {(p) => <input {...p} ref={box} type="search" value={query} onChange={(e) => setQuery(e.target.value)} onKeyDown={onKey} />}
        </Field>
        <button type="button" onClick={() => void search()}>
          Search
        </button>
      </div>
      {addable.length > 0 ? (
        <ul className="pa-images" aria-label="Products found">
          {addable.map((r) => (
            <li key={r.id}>
              <span>{r.name}</span>
              <button type="button" aria-label={`Add ${r.name} to the group`} onClick={() => add(r)}>
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
