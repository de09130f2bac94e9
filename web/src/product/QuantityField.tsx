import { useEffect, useId, useRef, useState } from 'react';
import { raiseToMin, stepQuantity } from './quantity';
import './product.css';

export interface QuantityFieldProps {
  name: string;
  /** The input's label (visually hidden, as WooCommerce's). */
  label: string;
  min?: number;
  max?: number;
  step?: number;
  defaultValue: number;
  /** Product name for the buttons' labels ("Reduce quantity of …"), where several fields share a form. */
  productName?: string;
  id?: string;
}

/**
 * A number input with minus and plus buttons following spec section 5
 * (./quantity.ts). The input is server-rendered and works alone before (or
 * without) scripts; the buttons appear once the app runs, since they need it.
 * The input stays uncontrolled, so a value typed before hydration is kept.
 */
export function QuantityField({ name, label, min, max, step = 1, defaultValue, productName, id }: QuantityFieldProps) {
  const autoId = useId();
  const inputId = id || autoId;
  const input = useRef<HTMLInputElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);

  const attrs = () => {
    const el = input.current!;
    return { min: el.getAttribute('min'), max: el.getAttribute('max'), step: el.getAttribute('step') };
  };
  const set = (value: string) => {
    const el = input.current;
    if (!el || el.value === value) return;
    // The native setter, so React's own onChange (and value tracking) sees the change too.
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    if (setter) setter.call(el, value);
    else el.value = value;
    // Tell listeners (the variation form, later the cart) as a typed change would.
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  };
  const press = (direction: 'plus' | 'minus') => {
    const el = input.current;
    if (!el) return;
    set(stepQuantity(direction, el.value, attrs()));
  };

  // The − and + buttons beside the field.
  const stepButton = (way: 'minus' | 'plus', buttonLabel: string, sign: string) => (
    <button type="button" className={`quantity__button quantity__button--${way} ${way}`} aria-label={buttonLabel} aria-controls={inputId} onClick={() => press(way)}>
      <span aria-hidden="true">{sign}</span>
    </button>
  );

  return (
    // quantity: WooCommerce's class, which other parts (the mini cart's
    // "1 × $28.00" line) carry too; quantity-field scopes this box's look.
    <div className={'quantity quantity-field' + (enhanced ? ' quantity--buttons' : '')}>
      <label className="screen-reader-text" htmlFor={inputId}>
        {label}
      </label>
      {enhanced && stepButton('minus', productName ? `Reduce quantity of ${productName}` : 'Decrease quantity', '−')}
      <input
        ref={input}
        type="number"
        id={inputId}
        className="input-text qty text"
        name={name}
        defaultValue={defaultValue}
        min={min}
        max={max}
        step={step}
        inputMode={Number.isInteger(step) ? 'numeric' : 'decimal'}
        autoComplete="off"
        onBlur={(e) => {
          // Below min is raised to min once the shopper leaves the field.
          const el = e.currentTarget;
          const next = raiseToMin(el.value, attrs());
          if (el.value === '' || Number(el.value) < Number(next)) set(next);
        }}
      />
      {enhanced && stepButton('plus', productName ? `Increase quantity of ${productName}` : 'Increase quantity', '+')}
    </div>
  );
}
