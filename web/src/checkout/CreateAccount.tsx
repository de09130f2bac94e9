/**
 * A WooCommerce checkout checkbox that shows or hides a part of the form
 * (controls names it), labelled by its question.
 */
export function ToggleCheckbox({ id, name, checked, controls, onToggle, children }: { id: string; name: string; checked: boolean; controls: string; onToggle: (on: boolean) => void; children: string }) {
  return (
    <label className="woocommerce-form__label woocommerce-form__label-for-checkbox checkbox">
      <input
        id={id}
        className="woocommerce-form__input woocommerce-form__input-checkbox input-checkbox"
        type="checkbox"
        name={name}
        value="1"
        checked={checked}
        aria-controls={controls}
        onChange={(e) => onToggle(e.target.checked)}
      />{' '}
      <span>{children}</span>
    </label>
  );
}

/**
 * "Create an account?" on the checkout, for visitors (WooCommerce's
 * createaccount checkbox and account_password field). Before hydration the
 * password field is shown and not required, so the form works without
 * scripts; afterwards it shows while the box is ticked.
 */
export function CreateAccount({
  checked,
  onToggle,
  error,
  hydrated,
  onPasswordInput,
}: {
  checked: boolean;
  onToggle: (on: boolean) => void;
  error: string;
  hydrated: boolean;
  onPasswordInput: (value: string) => void;
}) {
  const errorId = 'account_password-error';
  return (
    <div className="woocommerce-account-fields">
      <p className="form-row form-row-wide create-account">
        <ToggleCheckbox id="createaccount" name="createaccount" checked={checked} controls="create-account-fields" onToggle={onToggle}>
          Create an account?
        </ToggleCheckbox>
      </p>
      <div className="create-account" id="create-account-fields" hidden={hydrated && !checked}>
        <p className={'form-row form-row-wide validate-required' + (error ? ' woocommerce-invalid' : '')} id="account_password_field">
          <label htmlFor="account_password">
            Create account password{' '}
            <span className="required" aria-hidden="true">
              *
            </span>
          </label>
          <span className="woocommerce-input-wrapper">
            <input
              type="password"
              className="input-text"
              name="account_password"
              id="account_password"
              autoComplete="new-password"
              required={hydrated && checked ? true : undefined}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : 'account_password-hint'}
              onChange={(e) => onPasswordInput(e.target.value)}
            />
          </span>
          <span className="description" id="account_password-hint" hidden={!!error}>
            At least 12 characters. Your account uses the billing email address.
          </span>
          {error && (
            <span className="checkout-inline-error-message" id={errorId}>
              {error}
            </span>
          )}
        </p>
      </div>
    </div>
  );
}
