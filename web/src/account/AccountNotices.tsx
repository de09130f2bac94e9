import { useEffect, useRef } from 'react';
import type { FormErrors } from '../types';

/**
 * The account pages' notices: a success notice (a polite live region) and
 * a refused form's errors. Errors arrive with a server-rendered page, so
 * after hydration focus moves to them (a screen reader reads them, and Tab
 * goes on into the form); each field's message links to its field.
 */
export function AccountNotices({ notice, errors }: { notice: string; errors: FormErrors | null }) {
  const errorRef = useRef<HTMLDivElement>(null);
  const list = errors?.notices ?? [];
  const fieldOf = (text: string) => Object.entries(errors?.fields ?? {}).find(([, m]) => m === text)?.[0];
  useEffect(() => {
    if (list.length > 0) errorRef.current?.focus();
    // Only once, for the page as it arrived.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="woocommerce-notices-wrapper">
      <div role="status" aria-live="polite" className="account-status">
        {notice && <p className="woocommerce-message">{notice}</p>}
      </div>
      {list.length > 0 && (
        <div ref={errorRef} tabIndex={-1} className="account-errors" aria-labelledby="account-errors-title">
          <p id="account-errors-title" className="screen-reader-text">
            {list.length === 1 ? 'There is a problem:' : `There are ${list.length} problems:`}
          </p>
          <ul className="woocommerce-error" role="alert">
            {list.map((text, i) => {
              const field = fieldOf(text);
              return <li key={i}>{field ? <a href={`#${field}`}>{text}</a> : text}</li>;
            })}
          </ul>
        </div>
      )}
    </div>
  );
}

/** A field's message, tied to its input by id (`${name}-error`). */
export function FieldError({ name, errors }: { name: string; errors: FormErrors | null }) {
  const msg = errors?.fields?.[name];
  if (!msg) return null;
  return (
    <span className="checkout-inline-error-message" id={`${name}-error`}>
      {msg}
    </span>
  );
}

/** aria attributes of an input with an optional error. */
export function errorProps(name: string, errors: FormErrors | null, hint?: string) {
  const has = !!errors?.fields?.[name];
  const described = [has ? `${name}-error` : '', hint || ''].filter(Boolean).join(' ');
  return {
    'aria-invalid': has ? (true as const) : undefined,
    'aria-describedby': described || undefined,
  };
}
