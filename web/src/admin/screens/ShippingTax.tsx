// Shipping zones and tax rates: each zone's regions and methods (flat
// rate, free shipping, local pickup), the methods for everywhere else, and
// the tax rates by country and state. Saved as one document, with the
// version it was loaded at; a refused field is named and focused.

import { paramError, type AdminError } from '../api';
import type { ScreenProps } from '../screens';
import { useSettingsForm } from '../ui/settings-form';
import { SettingsForm } from '../ui/SettingsParts';
import { Options } from '../../ui/Options';

export const SHIPPING_TAX_PATH = '/wp-json/vitrine/v1/admin/shipping-tax';

export interface MethodRow {
  instance_id: number;
  method_id: 'flat_rate' | 'free_shipping' | 'local_pickup';
  title: string;
  cost: string;
  taxable: boolean;
  min_amount: string;
}
export interface ZoneRow {
  id: number;
  name: string;
  locations: string[];
  methods: MethodRow[];
}
export interface TaxRateRow {
  id: number;
  country: string;
  state: string;
  rate: string;
  name: string;
  priority: number;
  shipping: boolean;
}
export interface ShippingTaxDoc {
  prices_include_tax: boolean;
  tax_rates: TaxRateRow[];
  zones: ZoneRow[];
  rest_of_world: { methods: MethodRow[] };
  version: number;
  updated_at?: string;
  currency?: string;
}

const METHOD_NAMES: Record<MethodRow['method_id'], string> = { flat_rate: 'Flat rate', free_shipping: 'Free shipping', local_pickup: 'Local pickup' };

/** A small labelled input that reports the server's refusal for its field path. */
function Cell({ label, field, error, children }: { label: string; field: string; error?: AdminError; children: (p: { id: string; 'data-field': string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => React.ReactNode }) {
  const id = 'st-' + field.replace(/[^a-z0-9]+/gi, '-');
  const msg = paramError(error, field);
  return (
    <div className={'admin-field' + (msg ? ' admin-field--error' : '')}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'data-field': field, 'aria-invalid': msg ? true : undefined, 'aria-describedby': msg ? id + '-error' : undefined })}
      {msg ? (
        <p id={id + '-error'} className="admin-field__error">
          {msg}
        </p>
      ) : null}
    </div>
  );
}

function Methods({ prefix, methods, onChange, error, zoneName }: { prefix: string; methods: MethodRow[]; onChange: (m: MethodRow[]) => void; error?: AdminError; zoneName: string }) {
  const set = (i: number, patch: Partial<MethodRow>) => onChange(methods.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  return (
    <div className="st-methods">
      {methods.map((m, i) => {
        const f = `${prefix}methods[${i}].`;
        return (
          <fieldset key={i} className="st-row">
            <legend>
              {zoneName}: method {i + 1} ({METHOD_NAMES[m.method_id] ?? m.method_id})
            </legend>
            <Cell label="Kind" field={f + 'method_id'} error={error}>
              {(p) => (
                <select {...p} value={m.method_id} onChange={(e) => set(i, { method_id: e.target.value as MethodRow['method_id'], cost: e.target.value === 'free_shipping' ? '0' : m.cost })}>
                  <Options items={Object.entries(METHOD_NAMES)} />
                </select>
              )}
            </Cell>
            <Cell label="Title" field={f + 'title'} error={error}>
              {(p) => <input {...p} type="text" value={m.title} onChange={(e) => set(i, { title: e.target.value })} />}
            </Cell>
            {m.method_id === 'free_shipping' ? (
              <Cell label="Minimum order" field={f + 'min_amount'} error={error}>
                {(p) => <input {...p} type="text" inputMode="decimal" value={m.min_amount} onChange={(e) => set(i, { min_amount: e.target.value })} />}
              </Cell>
            ) : (
              <Cell label="Cost" field={f + 'cost'} error={error}>
                {(p) => <input {...p} type="text" inputMode="decimal" value={m.cost} onChange={(e) => set(i, { cost: e.target.value })} />}
              </Cell>
            )}
            <div className="admin-check">
              <input id={`st-${prefix}${i}-taxable`} type="checkbox" checked={m.taxable} onChange={(e) => set(i, { taxable: e.target.checked })} />
              <label htmlFor={`st-${prefix}${i}-taxable`}>Taxable</label>
            </div>
            <button type="button" className="admin-danger" onClick={() => onChange(methods.filter((_, j) => j !== i))} aria-label={`Remove ${zoneName}: method ${i + 1}`}>
              Remove
            </button>
          </fieldset>
        );
      })}
      <button type="button" aria-label={`Add a method to ${zoneName}`} onClick={() => onChange([...methods, { instance_id: 0, method_id: 'flat_rate', title: 'Flat rate', cost: '0', taxable: true, min_amount: '' }])}>
        Add a method
      </button>
    </div>
  );
}

export default function ShippingTax(_: ScreenProps) {
  const settings = useSettingsForm<ShippingTaxDoc>({
    path: SHIPPING_TAX_PATH,
    saved: 'Shipping and tax saved. Carts are priced with them from now on.',
    stale: { load: true, message: 'Someone else saved these settings meanwhile: theirs are loaded. Make your changes again and save.' },
  });
  const { doc, setDoc, loadError, error } = settings;
  if (loadError) return <p role="alert">{loadError}</p>;
  if (!doc) return <p>Loading…</p>;

  const setZone = (i: number, patch: Partial<ZoneRow>) => setDoc({ ...doc, zones: doc.zones.map((z, j) => (j === i ? { ...z, ...patch } : z)) });
  const setRate = (i: number, patch: Partial<TaxRateRow>) => setDoc({ ...doc, tax_rates: doc.tax_rates.map((t, j) => (j === i ? { ...t, ...patch } : t)) });

  return (
    <SettingsForm state={settings} saveLabel="Save shipping and tax">
      <p className="admin-field__hint">Amounts are in {doc.currency ?? 'the shop’s currency'}, excluding tax. A shopper’s address takes the first zone that lists its country or state; everywhere else takes the last section’s methods.</p>
      <h2>Shipping zones</h2>
      {doc.zones.map((z, i) => (
        <fieldset key={i} className="admin-card">
          <legend>{z.name || `Zone ${i + 1}`}</legend>
          <Cell label="Zone name" field={`zones[${i}].name`} error={error}>
            {(p) => <input {...p} type="text" value={z.name} onChange={(e) => setZone(i, { name: e.target.value })} />}
          </Cell>
          <Cell label="Regions" field={`zones[${i}].locations`} error={error}>
            {(p) => (
              <input
                {...p}
                type="text"
                value={z.locations.join(', ')}
                aria-describedby={[p['aria-describedby'], 'st-regions-hint'].filter(Boolean).join(' ')}
                onChange={(e) => setZone(i, { locations: e.target.value.split(',').map((s) => s.trim()).filter(Boolean) })}
              />
            )}
          </Cell>
          {z.locations.map((_, j) => paramError(error, `zones[${i}].locations[${j}].country`) ?? paramError(error, `zones[${i}].locations[${j}].state`)).filter(Boolean).map((m) => (
            <p key={m} className="admin-field__error">
              {m}
            </p>
          ))}
          <Methods prefix={`zones[${i}].`} methods={z.methods} zoneName={z.name || `Zone ${i + 1}`} error={error} onChange={(methods) => setZone(i, { methods })} />
          <p>
            <button type="button" className="admin-danger" aria-label={`Remove the zone ${z.name || i + 1}`} onClick={() => setDoc({ ...doc, zones: doc.zones.filter((_, j) => j !== i) })}>
              Remove the zone
            </button>
          </p>
        </fieldset>
      ))}
      <p id="st-regions-hint" className="admin-field__hint">
        Regions: country codes, or country:state codes, separated by commas (US, CA, US:NY).
      </p>
      <p>
        <button type="button" onClick={() => setDoc({ ...doc, zones: [...doc.zones, { id: 0, name: '', locations: [], methods: [] }] })}>
          Add a zone
        </button>
      </p>
      <fieldset className="admin-card">
        <legend>Everywhere else</legend>
        <Methods prefix="rest_of_world." methods={doc.rest_of_world.methods} zoneName="Everywhere else" error={error} onChange={(methods) => setDoc({ ...doc, rest_of_world: { methods } })} />
      </fieldset>
      <h2>Tax</h2>
      <div className="admin-check">
        <input id="st-inclusive" type="checkbox" checked={doc.prices_include_tax} onChange={(e) => setDoc({ ...doc, prices_include_tax: e.target.checked })} />
        <label htmlFor="st-inclusive">Prices are entered including tax</label>
      </div>
      {doc.tax_rates.map((t, i) => {
        const f = `tax_rates[${i}].`;
        return (
          <fieldset key={i} className="st-row admin-card">
            <legend>
              Tax rate {i + 1}
              {t.name ? ` (${t.name})` : ''}
            </legend>
            <Cell label="Country" field={f + 'country'} error={error}>
              {(p) => <input {...p} type="text" maxLength={2} value={t.country} onChange={(e) => setRate(i, { country: e.target.value.toUpperCase() })} />}
            </Cell>
            <Cell label="State (optional)" field={f + 'state'} error={error}>
              {(p) => <input {...p} type="text" value={t.state} onChange={(e) => setRate(i, { state: e.target.value.toUpperCase() })} />}
            </Cell>
            <Cell label="Rate (%)" field={f + 'rate'} error={error}>
              {(p) => <input {...p} type="text" inputMode="decimal" value={t.rate} onChange={(e) => setRate(i, { rate: e.target.value })} />}
            </Cell>
            <Cell label="Name" field={f + 'name'} error={error}>
              {(p) => <input {...p} type="text" value={t.name} onChange={(e) => setRate(i, { name: e.target.value })} />}
            </Cell>
            <div className="admin-check">
              <input id={`st-rate-${i}-shipping`} type="checkbox" checked={t.shipping} onChange={(e) => setRate(i, { shipping: e.target.checked })} />
              <label htmlFor={`st-rate-${i}-shipping`}>Also on shipping</label>
            </div>
            <button type="button" className="admin-danger" onClick={() => setDoc({ ...doc, tax_rates: doc.tax_rates.filter((_, j) => j !== i) })} aria-label={`Remove tax rate ${i + 1}`}>
              Remove
            </button>
          </fieldset>
        );
      })}
      <p>
        <button type="button" onClick={() => setDoc({ ...doc, tax_rates: [...doc.tax_rates, { id: 0, country: '', state: '', rate: '', name: 'Tax', priority: 0, shipping: true }] })}>
          Add a tax rate
        </button>
      </p>
    </SettingsForm>
  );
}
