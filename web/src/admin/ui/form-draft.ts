// The draft of an admin form and its field messages: one setter per field
// that also clears that field's message, and showErrors, which shows a
// refused save's messages and moves the focus to the first refused field
// (in the fields' order on screen) in the same commit.

import { useCallback, useRef, useState } from 'react';

import { useFocusAfterCommit } from './focus';

export type FieldErrors = Record<string, string>;

export function useFormDraft<D extends object>(initial: D | (() => D), fieldOrder: readonly string[]) {
  const [draft, setDraft] = useState<D>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const focusAfterCommit = useFocusAfterCommit();

  // set(field)(value): the field's new value, without its old message.
  const set = useCallback(
    <K extends keyof D & string>(k: K) =>
      (v: D[K]) => {
        setDraft((d) => ({ ...d, [k]: v }));
        setErrors((e) => {
          if (!e[k]) return e;
          const { [k]: _, ...rest } = e;
          return rest;
        });
      },
    [],
  );

  // showErrors shows errs and focuses the first field they name; it
  // returns false when they name none (the caller focuses its notice).
  const showErrors = useCallback(
    (errs: FieldErrors): boolean => {
      setErrors(errs);
      const first = fieldOrder.find((f) => errs[f]);
      if (first) focusAfterCommit(() => form.current?.querySelector<HTMLElement>(`[name="${first}"]`));
      return first !== undefined;
    },
    [fieldOrder, focusAfterCommit],
  );

  return { draft, setDraft, errors, setErrors, set, form, showErrors, focusAfterCommit };
}
