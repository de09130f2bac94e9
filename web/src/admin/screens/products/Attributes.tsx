// Global attributes and their swatches: how each attribute's values show
// on product pages (drop-down, colour, image or label), and each value's
// colour or image. Values are added here too; products choose among them
// in the editor.

import { useCallback, useEffect, useState } from 'react';
import { adminCall, firstMessage } from '../../api';
import type { ScreenProps } from '../../screens';
import { Field } from '../../ui/Field';
import { Notices, useNotices } from '../../ui/Notices';
import { PRODUCTS, type GlobalAttribute, type SwatchTerm } from './types';
import { AddByName } from './AddByName';
import './products.css';
import { Options } from '../../../ui/Options';
import { AdminTable } from '../../ui/AdminTable';

const TYPES: [GlobalAttribute['type'], string][] = [
  ['select', 'Drop-down'],
  ['color', 'Colour swatches'],
  ['image', 'Image swatches'],
  ['label', 'Label buttons'],
];

export default function Attributes(_: ScreenProps) {
  const [attrs, setAttrs] = useState<GlobalAttribute[] | null>(null);
  const { notices, push, dismiss } = useNotices();
  const load = useCallback(async () => {
    const r = await adminCall<GlobalAttribute[]>('GET', PRODUCTS + '/attributes');
    if (r.ok) setAttrs(r.data);
    else push('error', r.error.message);
  }, [push]);
  useEffect(() => {
    void load();
  }, [load]);


  return (
    <div>
      <Notices notices={notices} dismiss={dismiss} />
      {attrs?.map((a) => <AttributeCard key={a.id} attr={a} push={push} reload={load} />)}
      {attrs?.length === 0 ? <p>No attributes yet.</p> : null}
      <AddByName
        label="New attribute"
        hint="For example Material."
        button="Add attribute"
        post={(name) => adminCall<GlobalAttribute>('POST', PRODUCTS + '/attributes', { name, type: 'select' })}
        added={async (name) => {
          push('success', `Attribute “${name}” added.`);
          await load();
        }}
      />
    </div>
  );
}

function AttributeCard({ attr, push, reload }: { attr: GlobalAttribute; push: (k: 'success' | 'error' | 'info', t: string) => void; reload: () => Promise<void> }) {
  const [type, setType] = useState(attr.type);
  const saveType = async () => {
    const r = await adminCall('PUT', `${PRODUCTS}/attributes/${attr.id}`, { type });
    if (!r.ok) return push('error', r.error.message);
    push('success', `${attr.name} now shows as ${TYPES.find(([t]) => t === type)?.[1].toLowerCase()}.`);
    await reload();
  };
  return (
    <section className="admin-card" aria-labelledby={`pa-attr-${attr.id}`}>
      <h2 id={`pa-attr-${attr.id}`}>{attr.name}</h2>
      <div className="admin-toolbar">
        <Field label={`How ${attr.name} shows on product pages`}>
          {(p) => (
            <select {...p} value={type} onChange={(e) => setType(e.target.value as GlobalAttribute['type'])}>
              <Options items={TYPES} />
            </select>
          )}
        </Field>
        <button type="button" disabled={type === attr.type} onClick={() => void saveType()} aria-label={`Save swatch type of ${attr.name}`}>
          Save swatch type
        </button>
      </div>
      <FilterSettings attr={attr} push={push} reload={reload} />
      <AdminTable caption={<>{attr.name} values</>} columns={['Value', 'Colour', 'Image address', { label: 'Actions', hidden: true }]}>
        {attr.terms.map((t) => (
          <TermRow key={t.id} attr={attr} term={t} push={push} reload={reload} />
        ))}
      </AdminTable>
      <AddByName
        label={`New ${attr.name} value`}
        button="Add value"
        post={(name) => adminCall<SwatchTerm>('POST', `${PRODUCTS}/attributes/${attr.id}/terms`, { name })}
        added={async (name) => {
          push('success', `${attr.name} “${name}” added.`);
          await reload();
        }}
      />
    </section>
  );
}

const QUERY_TYPES: [GlobalAttribute['filter_query_type'], string][] = [
  ['or', 'Any of them (more products)'],
  ['and', 'All of them (fewer products)'],
];

/**
 * Whether the shop's listings offer the attribute as a filter, and what
 * several chosen values mean (PUT …/attributes/{id} with filterable and
 * filter_query_type; the filters' links write the query type).
 */
function FilterSettings({ attr, push, reload }: { attr: GlobalAttribute; push: (k: 'success' | 'error' | 'info', t: string) => void; reload: () => Promise<void> }) {
  const [filterable, setFilterable] = useState(attr.filterable);
  const [queryType, setQueryType] = useState(attr.filter_query_type);
  const [saving, setSaving] = useState(false);
  const changed = filterable !== attr.filterable || queryType !== attr.filter_query_type;
  const save = async () => {
    if (saving) return;
    setSaving(true);
    const r = await adminCall('PUT', `${PRODUCTS}/attributes/${attr.id}`, { filterable, filter_query_type: queryType });
    setSaving(false);
    if (!r.ok) return push('error', firstMessage(r.error));
    push('success', filterable ? `Listings filter by ${attr.name} (${queryType === 'or' ? 'any' : 'all'} of the chosen values).` : `Listings no longer filter by ${attr.name}.`);
    await reload();
  };
  return (
    <fieldset className="pa-filter-settings">
      <legend>Listing filters</legend>
      <label className="admin-check">
        <input type="checkbox" checked={filterable} onChange={(e) => setFilterable(e.currentTarget.checked)} />
        {` Offer ${attr.name} as a filter on shop, category, tag and search pages`}
      </label>
      <Field label={`When several ${attr.name} values are chosen, show products with`}>
        {(p) => (
          <select {...p} value={queryType} disabled={!filterable} onChange={(e) => setQueryType(e.target.value as GlobalAttribute['filter_query_type'])}>
            <Options items={QUERY_TYPES} />
          </select>
        )}
      </Field>
      <button type="button" disabled={!changed || saving} onClick={() => void save()} aria-label={`Save filter settings of ${attr.name}`}>
        Save filter settings
      </button>
    </fieldset>
  );
}

function TermRow({ attr, term, push, reload }: { attr: GlobalAttribute; term: SwatchTerm; push: (k: 'success' | 'error' | 'info', t: string) => void; reload: () => Promise<void> }) {
  const [color, setColor] = useState(term.color);
  const [image, setImage] = useState(term.image_url);
  const [error, setError] = useState('');
  const save = async () => {
    setError('');
    const r = await adminCall('PUT', `${PRODUCTS}/attributes/${attr.id}/terms/${term.id}`, { color, image_url: image });
    if (!r.ok) {
      setError(firstMessage(r.error));
      return;
    }
    push('success', `${attr.name} “${term.name}” saved.`);
    await reload();
  };
  return (
    <tr>
      <th scope="row">
        {term.color ? <span className="pa-swatch" style={{ background: term.color }} aria-hidden="true" /> : null} {term.name}
        {error ? (
          <p className="admin-field__error" role="alert">
            {error}
          </p>
        ) : null}
      </th>
      <td>
        <input aria-label={`Colour of ${term.name}`} placeholder="#1f4e79" value={color} onChange={(e) => setColor(e.target.value)} aria-invalid={error ? true : undefined} />
      </td>
      <td>
        <input aria-label={`Image address of ${term.name}`} value={image} onChange={(e) => setImage(e.target.value)} />
      </td>
      <td>
        <button type="button" disabled={color === term.color && image === term.image_url} onClick={() => void save()} aria-label={`Save ${term.name}`}>
          Save
        </button>
      </td>
    </tr>
  );
}
