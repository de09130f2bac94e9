// The payment methods: bank transfer (with the shop's accounts), cash on
// delivery, and the PayPal wallet's credentials. A save sends the version
// the form was loaded with, as the settings screen does. The PayPal secret
// is never sent back by the server: the field stays empty, and saving it
// empty keeps the secret in force. Credentials are checked with PayPal
// before they are saved; the wallet takes saved ones at the next start.

import { useRef, useState } from 'react';
import { adminCall, paramError } from '../api';
import type { ScreenProps } from '../screens';
import { Field } from '../ui/Field';
import { useSettingsForm } from '../ui/settings-form';
import { formatDate } from '../ui/format';
import { CheckResult, LastSaved, NewerOffer, section, SettingsForm } from '../ui/SettingsParts';
import './payments.css';

export const PAYMENTS_PATH = '/wp-json/vitrine/v1/admin/payments';
export const PAYPAL_TEST_PATH = '/wp-json/vitrine/v1/admin/payments/paypal/test';

export interface BankAccount {
  account_name: string;
  bank_name: string;
  account_number: string;
  routing_number: string;
  iban: string;
  bic: string;
}

export interface PaymentSettings {
  bacs: { enabled: boolean; title: string; description: string; accounts: BankAccount[] };
  cod: { enabled: boolean; title: string; instructions: string };
  paypal: { enabled: boolean; client_id: string; secret?: string; secret_set: boolean; environment: 'sandbox' | 'live' };
  paypal_applies_at_restart?: boolean;
  version: number;
  updated_at?: string;
}

const emptyAccount: BankAccount = { account_name: '', bank_name: '', account_number: '', routing_number: '', iban: '', bic: '' };

/** The form never holds the stored PayPal secret: empty means "keep it". */
const withoutSecret = (d: PaymentSettings): PaymentSettings => ({ ...d, paypal: { ...d.paypal, secret: '' } });

export default function Payments(_: ScreenProps) {
  const settings = useSettingsForm<PaymentSettings>({
    path: PAYMENTS_PATH,
    fromServer: withoutSecret,
    toServer: (d) => ({ ...d, paypal: { ...d.paypal, secret: d.paypal.secret || undefined } }),
    saved: 'Payment methods saved. The checkout offers them at once; PayPal credentials take effect when the shop restarts.',
    stale: { offer: true, taken: 'The payment methods saved by someone else are loaded. Make your changes again and save.' },
  });
  const { doc: form, setDoc: setForm, loadError, error, newer, takeNewer, push, focusAfterCommit, focusField } = settings;
  const [checking, setChecking] = useState(false);
  const [check, setCheck] = useState<{ ok: boolean; text: string } | null>(null);
  const addRef = useRef<HTMLButtonElement>(null);

  if (loadError) return <p role="alert">{loadError}</p>;
  if (!form) return <p>Loading…</p>;

  const err = (field: string) => paramError(error, field);
  const setBacs = (v: Partial<PaymentSettings['bacs']>) => setForm({ ...form, bacs: { ...form.bacs, ...v } });
  const setCod = (v: Partial<PaymentSettings['cod']>) => setForm({ ...form, cod: { ...form.cod, ...v } });
  const setPayPal = (v: Partial<PaymentSettings['paypal']>) => setForm({ ...form, paypal: { ...form.paypal, ...v } });
  const setAccount = (i: number, k: keyof BankAccount, v: string) => setBacs({ accounts: form.bacs.accounts.map((a, j) => (j === i ? { ...a, [k]: v } : a)) });

  const addAccount = () => {
    const i = form.bacs.accounts.length;
    setBacs({ accounts: [...form.bacs.accounts, { ...emptyAccount }] });
    focusField(`bacs.accounts[${i}].account_name`);
  };
  const removeAccount = (i: number) => {
    setBacs({ accounts: form.bacs.accounts.filter((_, j) => j !== i) });
    push('info', `Account ${i + 1} removed. Save to apply.`);
    focusAfterCommit(() => addRef.current);
  };

  const checkPayPal = async () => {
    if (checking) return;
    setChecking(true);
    setCheck(null);
    const p = form.paypal;
    const r = await adminCall<{ ok: boolean; message: string }>('POST', PAYPAL_TEST_PATH, { client_id: p.client_id, secret: p.secret || undefined, environment: p.environment });
    setChecking(false);
    setCheck(r.ok ? { ok: true, text: r.data.message } : { ok: false, text: r.error.message });
  };

  const text = (label: string, field: string, value: string, onChange: (v: string) => void, hint?: string) => (
    <Field label={label} error={err(field)} hint={hint}>
      {(p) => <input {...p} data-field={field} type="text" value={value} autoComplete="off" onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
  const area = (label: string, field: string, value: string, onChange: (v: string) => void, hint?: string) => (
    <Field label={label} error={err(field)} hint={hint}>
      {(p) => <textarea {...p} data-field={field} rows={3} value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
  const enabled = (id: string, label: string, checked: boolean, onChange: (v: boolean) => void) => (
    <div className="admin-check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );

  return (
    <SettingsForm state={settings} saveLabel="Save payment methods">
      {newer ? (
        <NewerOffer load="Load their payment methods" onLoad={takeNewer}>
          <p>Saved by someone else on {newer.updated_at ? formatDate(newer.updated_at) : 'another screen'}.</p>
        </NewerOffer>
      ) : null}
      <LastSaved doc={form} what="the payment methods are" />
      {section(
        'Direct bank transfer',
        <>
          {enabled('pay-bacs', 'Offer direct bank transfer', form.bacs.enabled, (v) => setBacs({ enabled: v }))}
          {text('Title', 'bacs.title', form.bacs.title, (v) => setBacs({ title: v }), 'Leave empty for “Direct bank transfer”.')}
          {area('Instructions', 'bacs.description', form.bacs.description, (v) => setBacs({ description: v }), 'Shown at checkout, on the order page and in the order email; empty for the default text.')}
          <h3 id="pay-accounts">Accounts</h3>
          {form.bacs.accounts.length === 0 ? <p>No accounts: the instructions list none.</p> : null}
          <ol className="payments-accounts" aria-labelledby="pay-accounts">
            {form.bacs.accounts.map((a, i) => {
              const f = `bacs.accounts[${i}].`;
              return (
                <li key={i}>
                  <fieldset>
                    <legend>Account {i + 1}</legend>
                    {text('Account name', f + 'account_name', a.account_name, (v) => setAccount(i, 'account_name', v))}
                    {text('Bank name', f + 'bank_name', a.bank_name, (v) => setAccount(i, 'bank_name', v))}
                    {text('Account number', f + 'account_number', a.account_number, (v) => setAccount(i, 'account_number', v))}
                    {text('Sort code or routing number', f + 'routing_number', a.routing_number, (v) => setAccount(i, 'routing_number', v))}
                    {text('IBAN', f + 'iban', a.iban, (v) => setAccount(i, 'iban', v))}
                    {text('BIC / SWIFT', f + 'bic', a.bic, (v) => setAccount(i, 'bic', v))}
                    <button type="button" onClick={() => removeAccount(i)}>
                      Remove account {i + 1}
                    </button>
                  </fieldset>
                </li>
              );
            })}
          </ol>
          <button type="button" ref={addRef} onClick={addAccount}>
            Add an account
          </button>
        </>,
      )}
      {section(
        'Cash on delivery',
        <>
          {enabled('pay-cod', 'Offer cash on delivery', form.cod.enabled, (v) => setCod({ enabled: v }))}
          {text('Title', 'cod.title', form.cod.title, (v) => setCod({ title: v }), 'Leave empty for “Cash on delivery”.')}
          {area('Instructions', 'cod.instructions', form.cod.instructions, (v) => setCod({ instructions: v }), 'Empty for “Pay with cash upon delivery.”')}
        </>,
      )}
      {section(
        'PayPal',
        <>
          <p className="admin-field__hint">The wallet takes saved PayPal settings when the shop next starts; new credentials are checked with PayPal before they are saved.</p>
          {enabled('pay-paypal', 'Offer PayPal', form.paypal.enabled, (v) => setPayPal({ enabled: v }))}
          <Field label="Environment" error={err('paypal.environment')}>
            {(p) => (
              <select {...p} data-field="paypal.environment" value={form.paypal.environment} onChange={(e) => setPayPal({ environment: e.target.value as 'sandbox' | 'live' })}>
                <option value="sandbox">Sandbox (test payments)</option>
                <option value="live">Live</option>
              </select>
            )}
          </Field>
          {text('Client id', 'paypal.client_id', form.paypal.client_id, (v) => setPayPal({ client_id: v }))}
          <Field label="Secret" error={err('paypal.secret')} hint={form.paypal.secret_set ? 'A secret is saved; it is never shown. Leave empty to keep it.' : 'No secret saved yet.'}>
            {(p) => <input {...p} data-field="paypal.secret" type="password" autoComplete="new-password" value={form.paypal.secret ?? ''} onChange={(e) => setPayPal({ secret: e.target.value })} />}
          </Field>
          <button type="button" onClick={() => void checkPayPal()} disabled={checking}>
            {checking ? 'Checking…' : 'Check the credentials'}
          </button>
          <CheckResult result={check} />
        </>,
      )}
    </SettingsForm>
  );
}
