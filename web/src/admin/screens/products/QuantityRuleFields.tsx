// A product's or a variation's quantity rules as the editor shows them: the
// minimum, the maximum and the multiple, each empty for none.

import { Field } from '../../ui/Field';

export interface QuantityRuleInputs {
  min_qty: string;
  max_qty: string;
  step: string;
}

export function QuantityRuleFields({ value, onChange, error }: { value: QuantityRuleInputs; onChange: (patch: Partial<QuantityRuleInputs>) => void; error?: (field: string) => string | undefined }) {
  return (
    <>
      <Field label="Minimum quantity" hint="Empty: 1." error={error?.('quantity_rules.minimum')}>
        {(p) => <input {...p} inputMode="numeric" value={value.min_qty} onChange={(e) => onChange({ min_qty: e.target.value })} />}
      </Field>
      <Field label="Maximum quantity" hint="Empty: no maximum." error={error?.('quantity_rules.maximum')}>
        {(p) => <input {...p} inputMode="numeric" value={value.max_qty} onChange={(e) => onChange({ max_qty: e.target.value })} />}
      </Field>
      <Field label="Sold in multiples of" hint="Empty: any quantity." error={error?.('quantity_rules.multiple_of')}>
        {(p) => <input {...p} inputMode="numeric" value={value.step} onChange={(e) => onChange({ step: e.target.value })} />}
      </Field>
    </>
  );
}
