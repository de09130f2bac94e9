// The admin's labelled form control: the shop's one field component
// (ui/Field.tsx) with the admin's classes (admin.css). The label names the
// control, aria-describedby reads the error and the hint, aria-invalid marks it.

import type { ReactNode } from 'react';
import { Field as ShopField, type ControlProps } from '../../ui/Field';

export type { ControlProps };

export function Field({ label, hint, error, required, children }: { label: string; hint?: string; error?: string; required?: boolean; children: (p: ControlProps) => ReactNode }) {
  return (
    <ShopField
      className="admin-field"
      invalidClassName="admin-field--error"
      label={label}
      hint={hint}
      error={error}
      required={required}
      hintClassName="admin-field__hint"
      errorClassName="admin-field__error"
    >
      {children}
    </ShopField>
  );
}
