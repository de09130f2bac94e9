// The parts the settings-like screens (the shop's settings, payment methods)
// write alike around their fields: titled groups, the offer of a copy someone
// else saved meanwhile, and when the document was last saved.

import type { FormEvent, ReactNode, RefObject } from 'react';
import { formatDate } from './format';
import { Notices, type Notice } from './Notices';

/** What SettingsForm takes of useSettingsForm's state. */
interface FormState {
  formRef: RefObject<HTMLFormElement | null>;
  save: (e: FormEvent) => Promise<void>;
  saving: boolean;
  notices: Notice[];
  dismiss: (id: number) => void;
}

/** A settings document's form: its notices first, then the fields (children), then the save button (saying what it saves). */
export function SettingsForm({ state, saveLabel, children }: { state: FormState; saveLabel: string; children: ReactNode }) {
  const { formRef, save, saving, notices, dismiss } = state;
  return (
    <form ref={formRef} onSubmit={(e) => void save(e)} noValidate aria-busy={saving || undefined}>
      <Notices notices={notices} dismiss={dismiss} />
      {children}
      <p>
        <button type="submit" className="admin-primary" disabled={saving}>
          {saving ? 'Saving…' : saveLabel}
        </button>
      </p>
    </form>
  );
}

/** A titled group of a settings form. */
export const section = (title: string, children: ReactNode) => (
  <fieldset className="admin-card">
    <legend>{title}</legend>
    {children}
  </fieldset>
);

/** A save was refused as stale: what the newer copy says (children) and the button that loads it. */
export function NewerOffer({ load, onLoad, children }: { load: string; onLoad: () => void; children: ReactNode }) {
  return (
    <div className="admin-notice admin-notice--error">
      {children}
      <button type="button" onClick={onLoad}>
        {load}
      </button>
    </div>
  );
}

/** When doc was last saved; never saved, the shop runs on its start-up options until what (e.g. "these settings are") first saved. */
export function LastSaved({ doc, what }: { doc: { version: number; updated_at?: string }; what: string }) {
  return <p className="admin-field__hint">{doc.version === 0 ? `The shop runs on its start-up options until ${what} first saved.` : `Last saved ${doc.updated_at ? formatDate(doc.updated_at) : ''}.`}</p>;
}

/** The answer of a check run from the form (a test message, a credentials check): a status when it passed, an alert when it did not. */
export function CheckResult({ result }: { result: { ok: boolean; text: string } | null }) {
  return (
    <>
      <div role="status" className="admin-inline-status">
        {result?.ok ? <p>{result.text}</p> : null}
      </div>
      <div role="alert" className="admin-inline-status">
        {result && !result.ok ? <p className="admin-field__error">{result.text}</p> : null}
      </div>
    </>
  );
}
