// The shop search's settings: the owner's synonyms (one group a line,
// words or phrases separated by commas: "tee, t-shirt"), saved with the
// version the form was loaded with as the other settings screens do; and
// the searches shoppers made that found nothing, most asked first.

import type { AdminError } from '../api';
import type { ScreenProps } from '../screens';
import { Field } from '../ui/Field';
import { useSettingsForm } from '../ui/settings-form';
import { formatDate } from '../ui/format';
import { LastSaved, NewerOffer, section, SettingsForm } from '../ui/SettingsParts';

export const SEARCH_PATH = '/wp-json/vitrine/v1/admin/search';

export interface SearchMiss {
  query: string;
  count: number;
  last_seen: string;
}

export interface SearchSettings {
  synonyms: string[][];
  version: number;
  updated_at?: string;
  misses: SearchMiss[];
}

/** The form's copy: the groups as lines of text. */
interface SearchForm extends SearchSettings {
  text: string;
}

export const synonymsText = (groups: string[][]): string => groups.map((g) => g.join(', ')).join('\n');

export const synonymsFromText = (text: string): string[][] =>
  text
    .split('\n')
    .map((l) => l.split(',').map((t) => t.trim()).filter(Boolean))
    .filter((g) => g.length > 0);

/** The first refusal of a synonym group: its field ("synonyms[2]") and message. */
function synonymError(e: AdminError | undefined): { field: string; message: string } | undefined {
  const params = e?.data?.params as Record<string, string> | undefined;
  const field = Object.keys(params ?? {}).find((k) => k.startsWith('synonyms'));
  if (!field || !params) return undefined;
  const m = /^synonyms\[(\d+)\]$/.exec(field);
  return { field, message: m ? `Line ${Number(m[1]) + 1}: ${params[field]}` : params[field] };
}

export default function Search(_: ScreenProps) {
  const settings = useSettingsForm<SearchForm>({
    path: SEARCH_PATH,
    fromServer: (d) => ({ ...d, misses: d.misses ?? [], text: synonymsText(d.synonyms ?? []) }),
    toServer: (d) => ({ synonyms: synonymsFromText(d.text), version: d.version }),
    saved: 'Search synonyms saved. Searches use them at once.',
    stale: { offer: true, taken: 'The synonyms saved by someone else are loaded. Make your changes again and save.' },
  });
  const { doc: form, setDoc: setForm, loadError, error, newer, takeNewer } = settings;

  if (loadError) return <p role="alert">{loadError}</p>;
  if (!form) return <p>Loading…</p>;
  const bad = synonymError(error);

  return (
    <SettingsForm state={settings} saveLabel="Save synonyms">
      {newer ? (
        <NewerOffer load="Load their synonyms" onLoad={takeNewer}>
          <p>Saved by someone else on {newer.updated_at ? formatDate(newer.updated_at) : 'another screen'}.</p>
        </NewerOffer>
      ) : null}
      <LastSaved doc={form} what="the synonyms are" />
      {section(
        'Synonyms',
        <Field
          label="Synonyms"
          error={bad?.message}
          hint="One group a line, words or phrases that mean the same separated by commas: “tee, t-shirt”. A search for one finds the others."
        >
          {(p) => <textarea {...p} data-field={bad?.field ?? 'synonyms'} rows={8} value={form.text} onChange={(e) => setForm({ ...form, text: e.target.value })} />}
        </Field>,
      )}
      {section(
        'Searches without results',
        form.misses.length === 0 ? (
          <p>No search has come back empty yet.</p>
        ) : (
          <table className="admin-table">
            <caption>Most asked first; the words as searched, without accents or punctuation.</caption>
            <thead>
              <tr>
                <th scope="col">Search</th>
                <th scope="col">Times</th>
                <th scope="col">Last</th>
              </tr>
            </thead>
            <tbody>
              {form.misses.map((m) => (
                <tr key={m.query}>
                  <td>{m.query}</td>
                  <td>{m.count}</td>
                  <td>{formatDate(m.last_seen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ),
      )}
    </SettingsForm>
  );
}
