import type { InputHTMLAttributes } from 'react';

/**
 * One labelled field of the login and registration forms, in WooCommerce's
 * markup: required fields say so to screen readers, and help text is tied
 * to the input with aria-describedby.
 */
export function FormRow({
  label,
  help,
  ...input
}: { id: string; label: string; help?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const helpId = help ? `${input.id}_help` : undefined;
  return (
    <p className="woocommerce-form-row woocommerce-form-row--wide form-row form-row-wide">
      <label htmlFor={input.id}>
        {label}
        {input.required ? (
          <>
            &nbsp;<span className="required" aria-hidden="true">*</span>
            <span className="screen-reader-text">Required</span>
          </>
        ) : (
          <>
            {' '}
            <span className="optional">(optional)</span>
          </>
        )}
      </label>
      <input className="woocommerce-Input woocommerce-Input--text input-text" aria-required={input.required || undefined} aria-describedby={helpId} {...input} />
      {help && (
        <span id={helpId} className="description">
          {help}
        </span>
      )}
    </p>
  );
}
