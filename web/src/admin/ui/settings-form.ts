// One settings document edited as a form (the shop's settings, payment
// methods, shipping and tax): loaded once, saved whole with the version it
// was loaded with, and refused saves handled the same way everywhere: the
// message in the notices, the field messages on their fields and the focus
// on the first refused field, in the same commit; a save refused because
// someone else saved meanwhile ("vitrine_settings_stale") either offers
// their copy (newer, takeNewer) or loads it at once, as the screen chooses.

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { adminCall, type AdminError } from '../api';
import { useNotices } from './Notices';
import { useFocusAfterCommit } from './focus';

export interface SettingsFormOptions<T> {
  path: string;
  /** The form's copy of a document from the server (e.g. a secret emptied). */
  fromServer?: (doc: T) => T;
  /** What a save sends for the form's state. */
  toServer?: (doc: T) => unknown;
  /** The notice after a save. */
  saved: string;
  /**
   * A save refused as stale: 'offer' keeps the form and offers the newer
   * copy (newer, takeNewer, which pushes taken); 'load' loads it at once and
   * pushes message.
   */
  stale: { offer: true; taken: string } | { load: true; message: string };
}

export function useSettingsForm<T>(opts: SettingsFormOptions<T>) {
  const { path, fromServer = (d: T) => d, toServer = (d: T) => d, saved, stale } = opts;
  const [doc, setDoc] = useState<T | null>(null);
  const [loadError, setLoadError] = useState('');
  const [error, setError] = useState<AdminError | undefined>();
  const [newer, setNewer] = useState<T | null>(null);
  const [saving, setSaving] = useState(false);
  const { notices, push, clear, dismiss } = useNotices();
  const focusAfterCommit = useFocusAfterCommit();
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    void adminCall<T>('GET', path).then((r) => (r.ok ? setDoc(fromServer(r.data)) : setLoadError(r.error.message)));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loaded once per screen
  }, [path]);

  /** Focuses the control of a field (its data-field) once the render is in. */
  const focusField = (field: string) =>
    focusAfterCommit(() => formRef.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (saving || !doc) return;
    setSaving(true);
    clear();
    setError(undefined);
    const r = await adminCall<T>('PUT', path, toServer(doc));
    setSaving(false);
    if (r.ok) {
      setDoc(fromServer(r.data));
      setNewer(null);
      push('success', saved);
      return;
    }
    setError(r.error);
    push('error', r.error.message);
    if (r.error.code === 'vitrine_settings_stale') {
      const current = r.error.data?.current as T | undefined;
      if ('offer' in stale) {
        setNewer(current ?? null);
        return;
      }
      if (current) {
        setDoc(fromServer(current));
        push('error', stale.message);
        return;
      }
    }
    // Take the keyboard to the field the server refused.
    const params = r.error.data?.params as Record<string, string> | undefined;
    const field = params && Object.keys(params)[0];
    if (field) focusField(field);
  };

  const takeNewer = () => {
    if (!newer || !('offer' in stale)) return;
    setDoc(fromServer(newer));
    setNewer(null);
    setError(undefined);
    push('info', stale.taken);
  };

  return { doc, setDoc, loadError, error, saving, newer, takeNewer, save, notices, push, dismiss, focusAfterCommit, focusField, formRef };
}
