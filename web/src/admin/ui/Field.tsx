// A labelled form control with its hint and its error: the label names it,
// aria-describedby reads the hint and the error, aria-invalid marks it.

import { useId, type ReactNode } from 'react';

export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export function Field({ label, hint, error, required, children }: { label: string; hint?: string; error?: string; required?: boolean; children: (p: ControlProps) => ReactNode }) {
  const id = useId();
  const hintId = hint ? id + '-hint' : undefined;
  const errorId = error ? id + '-error' : undefined;
  const described = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={'admin-field' + (error ? ' admin-field--error' : '')}>
      <label htmlFor={id}>
        {label}
        {required ? (
          <span className="admin-required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {error ? (
        <p id={errorId} className="admin-field__error">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="admin-field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
