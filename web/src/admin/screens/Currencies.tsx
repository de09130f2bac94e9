// Currencies and exchange rates: the currencies shoppers may switch to,
// their rates to the base currency, how prices are written and rounded in
// each, and a rates file to move them all at once. A change reaches the
// storefront's switcher within a few seconds.

import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { adminCall, paramError, type AdminError } from '../api';
import type { ScreenProps } from '../screens';
import { Field } from '../ui/Field';
import { Notices, useNotices } from '../ui/Notices';
import { useFocusAfterCommit } from '../ui/focus';
import { Options } from '../../ui/Options';
import { AdminTable } from '../ui/AdminTable';

export const CURRENCIES_PATH = '/wp-json/vitrine/v1/admin/currencies';

export interface CurrencyRow {
  code: string;
  name: string;
  base: boolean;
  decimals: number;
  symbol: string;
  position: 'left' | 'right' | 'left_space' | 'right_space';
  thousand_separator: string;
  decimal_separator: string;
  rate: string;
  rate_date: string;
  rounding: 'none' | 'nearest' | 'up' | 'down';
  step: number;
  ending: number;
  enabled: boolean;
  order: number;
}

type Draft = Omit<CurrencyRow, 'name' | 'base' | 'rate_date'>;

const POSITIONS: [CurrencyRow['position'], string][] = [
  ['left', 'Before the amount ($9.99)'],
  ['right', 'After the amount (9.99$)'],
  ['left_space', 'Before, with a space ($ 9.99)'],
  ['right_space', 'After, with a space (9.99 $)'],
];

export default function Currencies(_: ScreenProps) {
  const [rows, setRows] = useState<CurrencyRow[] | null>(null);
  const [loadError, setLoadError] = useState('');
  const [editing, setEditing] = useState<Draft | null>(null);
  const [isNew, setIsNew] = useState(false);
  const [error, setError] = useState<AdminError | undefined>();
  const [busy, setBusy] = useState(false);
  const { notices, push, clear, dismiss } = useNotices();
  const focusAfterCommit = useFocusAfterCommit();
  const formHeading = useRef<HTMLHeadingElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);

  const load = useCallback(async () => {
    const r = await adminCall<CurrencyRow[]>('GET', CURRENCIES_PATH);
    if (r.ok) setRows(r.data);
    else setLoadError(r.error.message);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  // Opening the form takes focus to its heading (once per opening).
  const [opened, setOpened] = useState(0);
  useEffect(() => {
    if (opened) formHeading.current?.focus();
  }, [opened]);

  const open = (d: Draft, fresh: boolean) => {
    returnFocus.current = document.activeElement as HTMLElement | null;
    setEditing(d);
    setIsNew(fresh);
    setError(undefined);
    setOpened((n) => n + 1);
    clear();
  };
  const close = () => {
    setEditing(null);
    setError(undefined);
    focusAfterCommit(() => returnFocus.current);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing || busy) return;
    const code = editing.code.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(code)) {
      setError({ code: 'rest_invalid_param', message: 'A currency code has three letters.', status: 400, data: { params: { code: 'A currency code has three letters, such as EUR.' } } });
      return;
    }
    setBusy(true);
    const r = await adminCall<CurrencyRow>('PUT', `${CURRENCIES_PATH}/${code}`, { ...editing, code });
    setBusy(false);
    if (!r.ok) {
      setError(r.error);
      push('error', r.error.message);
      return;
    }
    push('success', `${r.data.code} saved. The shop’s currency switcher shows the change within a few seconds.`);
    setEditing(null);
    await load();
    focusAfterCommit(() => document.getElementById(`currency-${r.data.code}`));
  };

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    clear();
    const r = await adminCall<{ format: string; date: string; updated: string[]; unknown: string[]; stale: string[] }>('POST', `${CURRENCIES_PATH}/rates`, await file.text(), {
      headers: { 'Content-Type': 'text/plain' },
    });
    if (!r.ok) {
      push('error', (paramError(r.error, 'file') ?? r.error.message) as string);
      return;
    }
    const moved = r.data.updated.length ? `Rates moved for ${r.data.updated.join(', ')}.` : 'No current rate moved.';
    push('success', `Rates of ${r.data.date} imported. ${moved}`);
    await load();
  };

  if (loadError) return <p role="alert">{loadError}</p>;
  if (!rows) return <p>Loading…</p>;
  const base = rows.find((r) => r.base);
  const err = (f: string) => paramError(error, f);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => editing && setEditing({ ...editing, [k]: v });

  return (
    <>
      <Notices notices={notices} dismiss={dismiss} />
      <p>
        Prices are kept in the base currency, {base ? `${base.name} (${base.code})` : ''}. A rate is how many units of a currency one unit of the base buys.
      </p>
      <AdminTable caption="Currencies" columns={['Currency', 'Rate', 'Rate date', 'Offered', { label: 'Actions', hidden: true }]}>
        {rows.map((c) => (
          <tr key={c.code}>
            <th scope="row">
              {c.name} ({c.code})
            </th>
            <td>{c.base ? '1 (base)' : c.rate}</td>
            <td>{c.base ? '' : c.rate_date || 'set by hand'}</td>
            <td>{c.base || c.enabled ? 'Yes' : 'No'}</td>
            <td>
              {c.base ? null : (
                <button type="button" id={`currency-${c.code}`} aria-label={`Edit ${c.code}`} onClick={() => open(c, false)}>
                  Edit
                </button>
              )}
            </td>
          </tr>
        ))}
      </AdminTable>
      <p>
        <button
          type="button"
          onClick={() =>
            open({ code: '', decimals: 2, symbol: '', position: 'left', thousand_separator: ',', decimal_separator: '.', rate: '', rounding: 'none', step: 1, ending: 0, enabled: true, order: rows.length }, true)
          }
        >
          Add a currency
        </button>
      </p>
      {editing ? (
        <form className="admin-card" onSubmit={(e) => void save(e)} noValidate aria-labelledby="currency-form-title">
          <h2 id="currency-form-title" ref={formHeading} tabIndex={-1}>
            {isNew ? 'Add a currency' : `Edit ${editing.code}`}
          </h2>
          {isNew ? (
            <Field label="Currency code" error={err('code')} hint="Three letters (ISO 4217), such as EUR." required>
              {(p) => <input {...p} type="text" value={editing.code} maxLength={3} autoComplete="off" onChange={(e) => set('code', e.target.value.toUpperCase())} />}
            </Field>
          ) : null}
          <Field label="Rate" error={err('rate')} hint={`Units of this currency for 1 ${base?.code ?? ''}.`} required>
            {(p) => <input {...p} type="text" inputMode="decimal" value={editing.rate} autoComplete="off" onChange={(e) => set('rate', e.target.value)} />}
          </Field>
          {isNew ? null : (
            <>
              <Field label="Symbol" error={err('symbol')}>
                {(p) => <input {...p} type="text" value={editing.symbol} maxLength={8} onChange={(e) => set('symbol', e.target.value)} />}
              </Field>
              <Field label="Symbol position" error={err('position')}>
                {(p) => (
                  <select {...p} value={editing.position} onChange={(e) => set('position', e.target.value as CurrencyRow['position'])}>
                    <Options items={POSITIONS} />
                  </select>
                )}
              </Field>
              <Field label="Thousands separator" error={err('thousand_sep')}>
                {(p) => <input {...p} type="text" value={editing.thousand_separator} maxLength={2} onChange={(e) => set('thousand_separator', e.target.value)} />}
              </Field>
              <Field label="Decimal separator" error={err('decimal_sep')}>
                {(p) => <input {...p} type="text" value={editing.decimal_separator} maxLength={2} onChange={(e) => set('decimal_separator', e.target.value)} />}
              </Field>
              <Field label="Decimals" error={err('decimals')}>
                {(p) => <input {...p} type="number" min={0} max={4} value={editing.decimals} onChange={(e) => set('decimals', Number(e.target.value))} />}
              </Field>
              <Field label="Rounding" error={err('rounding')}>
                {(p) => (
                  <select {...p} value={editing.rounding} onChange={(e) => set('rounding', e.target.value as CurrencyRow['rounding'])}>
                    <option value="none">None</option>
                    <option value="nearest">To the nearest step</option>
                    <option value="up">Up to the step</option>
                    <option value="down">Down to the step</option>
                  </select>
                )}
              </Field>
              <Field label="Step (minor units)" error={err('step')} hint="With two decimals, 100 rounds to whole units and 5 to 0.05.">
                {(p) => <input {...p} type="number" min={1} value={editing.step} onChange={(e) => set('step', Number(e.target.value))} />}
              </Field>
              <Field label="Ending (minor units)" error={err('ending')} hint="Step 100 with ending 99 makes prices end in .99.">
                {(p) => <input {...p} type="number" min={0} value={editing.ending} onChange={(e) => set('ending', Number(e.target.value))} />}
              </Field>
            </>
          )}
          <div className="admin-check">
            <input id="currency-enabled" type="checkbox" checked={editing.enabled} onChange={(e) => set('enabled', e.target.checked)} />
            <label htmlFor="currency-enabled">Offered to shoppers</label>
          </div>
          <p className="admin-actions">
            <button type="submit" className="admin-primary" disabled={busy}>
              {busy ? 'Saving…' : 'Save currency'}
            </button>{' '}
            <button type="button" onClick={close}>
              Cancel
            </button>
          </p>
        </form>
      ) : null}
      <section aria-labelledby="rates-file">
        <h2 id="rates-file">Import a rates file</h2>
        <Field label="Rates file" hint="The European Central Bank’s daily XML, or a CSV of code,rate[,date] lines.">
          {(p) => <input {...p} type="file" accept=".xml,.csv,text/csv,text/xml,application/xml" onChange={(e) => void importFile(e.target.files?.[0])} />}
        </Field>
      </section>
    </>
  );
}
