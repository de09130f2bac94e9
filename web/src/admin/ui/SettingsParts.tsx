// The parts the settings-like screens (the shop's settings, payment methods)
// write alike around their fields: titled groups, the offer of a copy someone
// else saved meanwhile, and when the document was last saved.

import type { ReactNode } from 'react';
import { formatDate } from './format';

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
