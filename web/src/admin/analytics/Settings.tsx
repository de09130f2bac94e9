// The analytics settings: the shop's time zone, which sets where a report's
// days begin and end, and the order statuses the reports leave out
// (WooCommerce's default: pending, failed and cancelled). Saved whole with
// the version it was loaded with, like the other settings documents.

import { paramError } from '../api';
import { Field } from '../ui/Field';
import { useSettingsForm } from '../ui/settings-form';
import { section, SettingsForm } from '../ui/SettingsParts';
import { SETTINGS_PATH } from './types';
import { setShopZone } from './data';

export { SETTINGS_PATH };

export interface AnalyticsSettingsDoc {
  time_zone: string;
  excluded_statuses: string[];
  /** Every status an order can have (the choices). */
  statuses?: string[];
  version: number;
}

const LABELS: Record<string, string> = {
  pending: 'Pending payment',
  processing: 'Processing',
  'on-hold': 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  failed: 'Failed',
};

function zones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
}

export default function AnalyticsSettings() {
  const settings = useSettingsForm<AnalyticsSettingsDoc>({
    path: SETTINGS_PATH,
    // The reports' "today" follows the zone loaded and saved here.
    fromServer: (d) => {
      setShopZone(d.time_zone);
      return d;
    },
    toServer: (d) => ({ time_zone: d.time_zone.trim(), excluded_statuses: d.excluded_statuses, version: d.version }),
    saved: 'Analytics settings saved. The reports follow them now.',
    stale: { load: true, message: 'Someone else saved the analytics settings meanwhile. Reload the page to see theirs.' },
  });
  const { doc, setDoc, loadError, error } = settings;
  if (loadError) return <p role="alert">{loadError}</p>;
  if (!doc) return <p>Loading…</p>;
  const statuses = doc.statuses ?? Object.keys(LABELS);
  const toggle = (s: string, on: boolean) => setDoc({ ...doc, excluded_statuses: on ? [...doc.excluded_statuses, s] : doc.excluded_statuses.filter((x) => x !== s) });
  return (
    <SettingsForm state={settings} saveLabel="Save analytics settings">
      {section(
        'Days',
        <Field label="Time zone" hint="Where a report's days begin and end, as a place name (Europe/Paris, America/New_York). UTC by default." error={paramError(error, 'time_zone')}>
          {(p) => (
            <>
              <input {...p} data-field="time_zone" list="an-zones" autoComplete="off" value={doc.time_zone} onChange={(e) => setDoc({ ...doc, time_zone: e.target.value })} />
              <datalist id="an-zones">
                {zones().map((z) => (
                  <option key={z} value={z} />
                ))}
              </datalist>
            </>
          )}
        </Field>,
      )}
      <fieldset className="admin-card" data-field="excluded_statuses">
        <legend>Orders left out of the reports</legend>
        <p className="admin-field__hint">Orders with these statuses are not counted. WooCommerce leaves out pending, failed and cancelled orders.</p>
        {paramError(error, 'excluded_statuses') ? <p className="admin-field__error">{paramError(error, 'excluded_statuses')}</p> : null}
        {statuses.map((s) => (
          <label key={s} className="an-check">
            <input type="checkbox" checked={doc.excluded_statuses.includes(s)} onChange={(e) => toggle(s, e.target.checked)} /> {LABELS[s] ?? s}
          </label>
        ))}
      </fieldset>
    </SettingsForm>
  );
}
