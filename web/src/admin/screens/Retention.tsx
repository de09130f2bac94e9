// Data retention: how long the shop keeps personal data, one period in
// months per rule (0 keeps it for ever, the default). Saved like the
// other settings documents (the version it was loaded with; a save
// someone else overtook is offered, not overwritten). The shop applies
// the rules itself, every hour, a batch at a time; the newest run's
// counts show here and in the activity log.

import type { ScreenProps } from '../screens';
import { Field } from '../ui/Field';
import { useSettingsForm } from '../ui/settings-form';
import { formatDate } from '../ui/format';
import { LastSaved, NewerOffer, section, SettingsForm } from '../ui/SettingsParts';
import { paramError } from '../api';

export const RETENTION_PATH = '/wp-json/vitrine/v1/admin/retention';

export interface RetentionRun {
  at: string;
  accounts_deleted: number;
  account_orders_anonymised: number;
  guest_orders_anonymised: number;
  orders_deleted: number;
  more: boolean;
}

export interface RetentionSettings {
  inactive_account_months: number;
  guest_order_months: number;
  failed_order_months: number;
  version: number;
  updated_at?: string;
  last_run: RetentionRun | null;
  batch: number;
  every_seconds: number;
}

type Period = 'inactive_account_months' | 'guest_order_months' | 'failed_order_months';

/** The form holds what was typed; the server names a period it cannot take. */
type Form = Omit<RetentionSettings, Period> & Record<Period, string>;

const PERIODS: { key: Period; label: string; hint: string }[] = [
  {
    key: 'inactive_account_months',
    label: 'Delete inactive customer accounts after (months)',
    hint: 'An account with no log-in and no order for this long is deleted, as if its owner deleted it; its orders stay for the books with their personal data removed. Staff accounts are never deleted.',
  },
  {
    key: 'guest_order_months',
    label: 'Remove personal data from guest orders after (months)',
    hint: 'Processing, completed and refunded orders placed without an account: names, addresses, email, phone and IP address are replaced with “[deleted]”. Amounts, items and taxes are kept.',
  },
  {
    key: 'failed_order_months',
    label: 'Delete cancelled and failed orders after (months)',
    hint: 'These orders are deleted for good.',
  },
];

const fromServer = (d: RetentionSettings): Form => ({
  ...d,
  inactive_account_months: String(d.inactive_account_months),
  guest_order_months: String(d.guest_order_months),
  failed_order_months: String(d.failed_order_months),
});

// A period that is not a whole number is sent as -1, which the server
// refuses on its field with the rule's message.
const months = (v: string) => (/^\s*\d+\s*$/.test(v) ? Number(v) : v.trim() === '' ? 0 : -1);

const toServer = (f: Form) => ({
  version: f.version,
  inactive_account_months: months(f.inactive_account_months),
  guest_order_months: months(f.guest_order_months),
  failed_order_months: months(f.failed_order_months),
});

function runSummary(r: RetentionRun): string {
  const parts: string[] = [];
  if (r.accounts_deleted) parts.push(`${r.accounts_deleted} inactive account${r.accounts_deleted === 1 ? '' : 's'} deleted`);
  const anonymised = r.account_orders_anonymised + r.guest_orders_anonymised;
  if (anonymised) parts.push(`${anonymised} order${anonymised === 1 ? '' : 's'} anonymised`);
  if (r.orders_deleted) parts.push(`${r.orders_deleted} order${r.orders_deleted === 1 ? '' : 's'} deleted`);
  return parts.length ? parts.join(', ') + (r.more ? '; more is due and follows at once.' : '.') : 'nothing was due.';
}

export default function Retention(_: ScreenProps) {
  const settings = useSettingsForm<Form>({
    path: RETENTION_PATH,
    fromServer: fromServer as unknown as (d: Form) => Form,
    toServer,
    saved: 'Data retention saved. The next hourly run applies it.',
    stale: { offer: true, taken: 'The data retention settings saved by someone else are loaded. Make your changes again and save.' },
  });
  const { doc: form, setDoc: setForm, loadError, error, newer, takeNewer } = settings;

  if (loadError) return <p role="alert">{loadError}</p>;
  if (!form) return <p>Loading…</p>;

  const hours = Math.round(form.every_seconds / 3600);
  return (
    <SettingsForm state={settings} saveLabel="Save data retention">
      {newer ? (
        <NewerOffer load="Load their data retention settings" onLoad={takeNewer}>
          <p>Saved by someone else on {newer.updated_at ? formatDate(newer.updated_at) : 'another screen'}.</p>
        </NewerOffer>
      ) : null}
      <LastSaved doc={form} what="the data retention settings are" />
      {section(
        'Personal data retention',
        <>
          <p className="admin-field__hint">
            Enter 0 to keep the data for ever. The shop applies these rules every {hours === 1 ? 'hour' : `${hours} hours`}, at most {form.batch} accounts and
            orders per rule at a time.
          </p>
          {PERIODS.map(({ key, label, hint }) => (
            <Field key={key} label={label} error={paramError(error, key)} hint={hint}>
              {(p) => (
                <input
                  {...p}
                  data-field={key}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={1200}
                  step={1}
                  value={form[key]}
                  onChange={(e) => setForm({ ...form, [key]: e.target.value })}
                />
              )}
            </Field>
          ))}
        </>,
      )}
      {section(
        'Last run',
        form.last_run ? (
          <p>
            <time dateTime={form.last_run.at}>{formatDate(form.last_run.at)}</time>: {runSummary(form.last_run)}
          </p>
        ) : (
          <p>No run yet: runs start once a rule is on.</p>
        ),
      )}
    </SettingsForm>
  );
}
