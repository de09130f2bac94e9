import type { Address, CheckoutCountry } from '../types';
import { decodeEntities } from '../lib/format';
import { addressFields, findCountry, type AddressKey, type AddressKind, type FieldDef } from './fields';

interface Props {
  kind: AddressKind;
  value: Address;
  countries: CheckoutCountry[];
  errors: Record<string, string>;
  onChange: (key: AddressKey, value: string) => void;
  onBlur: (def: FieldDef) => void;
  phoneRequired?: boolean;
  /**
   * Mark required fields with the native required attribute (default). The
   * shipping block before scripts does not: the browser would refuse the
   * form even when "Ship to a different address?" is not ticked.
   */
  nativeRequired?: boolean;
}

function RequiredMark({ required }: { required: boolean }) {
  return required ? (
    <>
      {' '}
      <span className="required" aria-hidden="true">
        *
      </span>
    </>
  ) : (
    <>
      {' '}
      <span className="optional">(optional)</span>
    </>
  );
}

function rowClass(def: FieldDef, error: string): string {
  const pos = def.key === 'first_name' ? 'form-row-first' : def.key === 'last_name' ? 'form-row-last' : 'form-row-wide';
  // field: the shop's field look (ui/Field.tsx, styles/main.css), shared
  // with every other form; the WooCommerce classes stay for its scripts.
  let c = `form-row field ${pos} ${def.name}_field`;
  if (def.required) c += ' validate-required';
  if (def.input === 'email') c += ' validate-email';
  if (def.input === 'tel') c += ' validate-phone';
  if (def.key === 'state') c += ' validate-state';
  if (error) c += ' woocommerce-invalid';
  return c;
}

/**
 * One address block of the classic checkout (billing_* or shipping_* names):
 * the fields follow the chosen country (labels, required marks, the state as a
 * select, a text field or nothing). Each field shows its own message, linked
 * with aria-describedby.
 */
export function AddressFields({ kind, value, countries, errors, onChange, onBlur, phoneRequired, nativeRequired = true }: Props) {
  const country = findCountry(countries, value.country);
  const defs = addressFields(kind, country, { phoneRequired });
  return (
    <div className={`woocommerce-${kind}-fields__field-wrapper address-fields`}>
      {defs.map((def) => {
        const v = String(value[def.key] ?? '');
        if (def.hidden) return <input key={def.name} type="hidden" name={def.name} id={def.name} value="" />;
        const error = errors[def.name] || '';
        const errorId = `${def.name}-error`;
        const common = {
          id: def.name,
          name: def.name,
          autoComplete: def.autocomplete,
          required: nativeRequired ? def.required : undefined,
          'aria-required': !nativeRequired && def.required ? (true as const) : undefined,
          'aria-invalid': error ? (true as const) : undefined,
          'aria-describedby': error ? errorId : undefined,
          onBlur: () => onBlur(def),
        };
        let control;
        if (def.input === 'country') {
          if (countries.length === 1) {
            control = (
              <>
                <strong>{decodeEntities(countries[0].name)}</strong>
                <input type="hidden" name={def.name} id={def.name} value={countries[0].code} />
              </>
            );
          } else {
            control = (
              <select {...common} className="country_to_state country_select" value={v} onChange={(e) => onChange(def.key, e.target.value)}>
                <option value="">Select a country / region…</option>
                {countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {decodeEntities(c.name)}
                  </option>
                ))}
              </select>
            );
          }
        } else if (def.input === 'state' && country) {
          control = (
            <select {...common} className="state_select" value={v} onChange={(e) => onChange(def.key, e.target.value)}>
              <option value="">Select an option…</option>
              {country.states.map((s) => (
                <option key={s.code} value={s.code}>
                  {decodeEntities(s.name)}
                </option>
              ))}
            </select>
          );
        } else {
          control = (
            <input
              {...common}
              type={def.input === 'email' ? 'email' : def.input === 'tel' ? 'tel' : 'text'}
              className="input-text"
              value={v}
              placeholder={def.placeholder}
              onChange={(e) => onChange(def.key, e.target.value)}
            />
          );
        }
        const single = def.input === 'country' && countries.length === 1;
        return (
          <p key={def.name} className={rowClass(def, error)} id={`${def.name}_field`}>
            {single ? (
              <span className="checkout-label">{def.label}</span>
            ) : (
              <label htmlFor={def.name} className={def.key === 'address_2' ? 'screen-reader-text' : 'field__label'}>
                {def.label}
                <RequiredMark required={def.required} />
              </label>
            )}
            <span className="woocommerce-input-wrapper">{control}</span>
            {error && (
              <span className="checkout-inline-error-message field__error" id={errorId}>
                {error}
              </span>
            )}
          </p>
        );
      })}
    </div>
  );
}
