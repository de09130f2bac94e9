// The one labelled form field of the shop, the storefront's and the admin's:
// a label tied to its control, an optional hint and an optional error, both
// read by aria-describedby, and aria-invalid while the error shows. The
// control is an input (password included), a textarea, a select, or any
// control the caller renders with the props handed to it. Its look lives in
// styles/main.css (.field, and every text-like control) and in the admin's
// stylesheet for the admin's classes.

import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

/** What the control of a field must carry. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
  'aria-required'?: true;
}

export interface FieldFrame {
  label: ReactNode;
  /** The control's id; one is made when it is absent. */
  id?: string;
  hint?: ReactNode;
  error?: ReactNode;
  /** Marks the label with "*" (and the control with aria-required). */
  required?: boolean;
  /** Says "(optional)" after the label, WooCommerce's way. */
  optional?: boolean;
  /** Also say "Required" to screen readers inside the label (WooCommerce's markup). */
  requiredText?: boolean;
  /** The wrapper's element (WooCommerce's forms use p.form-row) and its id. */
  wrapper?: 'p' | 'div';
  wrapperId?: string;
  /** Extra classes: the wrapper's (plugins' form-row classes), the label's, the hint's, the error's. */
  className?: string;
  invalidClassName?: string;
  labelClassName?: string;
  hintClassName?: string;
  errorClassName?: string;
  /** Fixed ids for the hint and the error (scripts and tests that look them up). */
  hintId?: string;
  errorId?: string;
  /** The error element's role (an error that appears after a submit may want "alert"). */
  errorRole?: 'alert';
}

function join(...names: (string | false | undefined)[]) {
  return names.filter(Boolean).join(' ');
}

/** The frame: label, the control the children render, error, hint. */
export function Field({ children, ...f }: FieldFrame & { children: (p: ControlProps) => ReactNode }) {
  const made = useId();
  const id = f.id ?? made;
  const hintId = f.hint ? (f.hintId ?? id + '-hint') : undefined;
  const errorId = f.error ? (f.errorId ?? id + '-error') : undefined;
  const described = join(errorId, hintId) || undefined;
  const Wrapper = f.wrapper ?? 'div';
  const Note = Wrapper === 'p' ? 'span' : 'p';
  return (
    <Wrapper id={f.wrapperId} className={join('field', f.error ? 'field--invalid' : undefined, f.className, f.error ? f.invalidClassName : undefined)}>
      <label htmlFor={id} className={join('field__label', f.labelClassName) || undefined}>
        {f.label}
        {f.required ? (
          <>
            &nbsp;<span className="required" aria-hidden="true">*</span>
            {f.requiredText && <span className="screen-reader-text">Required</span>}
          </>
        ) : f.optional ? (
          <>
            {' '}
            <span className="optional">(optional)</span>
          </>
        ) : null}
      </label>
      {children({ id, 'aria-describedby': described, 'aria-invalid': f.error ? true : undefined, 'aria-required': f.required ? true : undefined })}
      {f.error ? (
        <Note id={errorId} className={join('field__error', f.errorClassName)} role={f.errorRole}>
          {f.error}
        </Note>
      ) : null}
      {f.hint ? (
        <Note id={hintId} className={join('field__hint', f.hintClassName)}>
          {f.hint}
        </Note>
      ) : null}
    </Wrapper>
  );
}

const FRAME_KEYS = [
  'label',
  'id',
  'hint',
  'error',
  'required',
  'optional',
  'requiredText',
  'wrapper',
  'wrapperId',
  'className',
  'invalidClassName',
  'labelClassName',
  'hintClassName',
  'errorClassName',
  'hintId',
  'errorId',
  'errorRole',
] as const;

/** Splits a field's props into the frame's and the control's. */
function split<T extends FieldFrame>(props: T): [FieldFrame, Omit<T, keyof FieldFrame>] {
  const frame: Record<string, unknown> = {};
  const rest = { ...props } as unknown as Record<string, unknown>;
  for (const k of FRAME_KEYS) {
    if (k in rest) {
      frame[k] = rest[k];
      delete rest[k];
    }
  }
  return [frame as unknown as FieldFrame, rest as unknown as Omit<T, keyof FieldFrame>];
}

type Own<T> = Omit<T, keyof FieldFrame | 'children'> & FieldFrame & { controlClassName?: string };

/** An input field: text, email, password, tel, number… (the type says which). */
export function InputField(props: Own<InputHTMLAttributes<HTMLInputElement>> & { ref?: Ref<HTMLInputElement> }) {
  const [frame, { controlClassName, ...input }] = split(props);
  return (
    <Field {...frame}>
      {(p) => <input className={join('input-text', controlClassName)} required={frame.required} {...p} {...input} />}
    </Field>
  );
}

/** A textarea field. */
export function TextAreaField(props: Own<TextareaHTMLAttributes<HTMLTextAreaElement>> & { ref?: Ref<HTMLTextAreaElement> }) {
  const [frame, { controlClassName, ...area }] = split(props);
  return (
    <Field {...frame}>
      {(p) => <textarea className={join('input-text', controlClassName)} required={frame.required} {...p} {...area} />}
    </Field>
  );
}

/** A select field; its options are the children. */
export function SelectField({ children, ...props }: Own<SelectHTMLAttributes<HTMLSelectElement>> & { children: ReactNode; ref?: Ref<HTMLSelectElement> }) {
  const [frame, { controlClassName, ...select }] = split(props);
  return (
    <Field {...frame}>
      {(p) => (
        <select className={controlClassName} required={frame.required} {...p} {...select}>
          {children}
        </select>
      )}
    </Field>
  );
}
