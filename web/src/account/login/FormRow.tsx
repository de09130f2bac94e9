import type { InputHTMLAttributes } from 'react';
import { InputField } from '../../ui/Field';

/**
 * One labelled field of the login and registration forms, in WooCommerce's
 * markup (p.woocommerce-form-row, input.woocommerce-Input), drawn by the
 * shop's one field component (ui/Field.tsx): required fields say so to
 * screen readers, and help text is tied to the input with aria-describedby.
 */
export function FormRow({
  label,
  help,
  id,
  required,
  ...input
}: { id: string; label: string; help?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <InputField
      wrapper="p"
      className="woocommerce-form-row woocommerce-form-row--wide form-row form-row-wide"
      label={label}
      id={id}
      required={required}
      requiredText
      optional={!required}
      hint={help}
      hintId={help ? `${id}_help` : undefined}
      hintClassName="description"
      controlClassName="woocommerce-Input woocommerce-Input--text"
      {...input}
    />
  );
}
