// The one-field forms that add a named thing (an attribute, an attribute's
// value, a tag): the name, the refusal on the field, and after an add the
// field emptied and added(name) (a notice, a reload).

import { useState, type FormEvent } from 'react';
import { firstMessage, type AdminResult } from '../../api';
import { Field } from '../../ui/Field';

export function AddByName({ label, hint, button, post, added }: {
  label: string;
  hint?: string;
  /** The submit button's text. */
  button: string;
  post: (name: string) => Promise<AdminResult<{ name: string }>>;
  added: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    const r = await post(name);
    if (!r.ok) {
      setError(firstMessage(r.error));
      return;
    }
    setName('');
    await added(r.data.name);
  };
  return (
    <form className="admin-toolbar" onSubmit={(e) => void submit(e)} noValidate>
      <Field label={label} hint={hint} error={error}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <button type="submit">{button}</button>
    </form>
  );
}
