import type { AccountPage, FormErrors } from '../types';
import { FieldError, errorProps } from './AccountNotices';

type Form = NonNullable<AccountPage['account_form']>;

function Row({
  name,
  label,
  required,
  errors,
  hint,
  children,
  wide = true,
}: {
  name: string;
  label: string;
  required?: boolean;
  errors: FormErrors | null;
  hint?: string;
  children: React.ReactNode;
  wide?: boolean;
}) {
  const invalid = !!errors?.fields?.[name];
  return (
    <p className={`woocommerce-form-row form-row ${wide ? 'form-row-wide' : ''}${invalid ? ' woocommerce-invalid' : ''}`} id={`${name}_field`}>
      <label htmlFor={name}>
        {label}
        {required && (
          <>
            {' '}
            <span className="required" aria-hidden="true">
              *
            </span>
          </>
        )}
      </label>
      {children}
      {hint && (
        <span className="description" id={`${name}-hint`}>
          {hint}
        </span>
      )}
      <FieldError name={name} errors={errors} />
    </p>
  );
}

/**
 * Account details (names, email, password change) and, apart, deleting the
 * account. Passwords are never sent back by the server; the other values
 * are the ones entered when a submit was refused.
 */
export function EditAccountForm({ form, errors }: { form: Form; errors: FormErrors | null }) {
  const text = (name: string, value: string, autoComplete: string, hint?: string, type = 'text') => (
    <input
      type={type}
      className="woocommerce-Input input-text"
      name={name}
      id={name}
      defaultValue={value}
      autoComplete={autoComplete}
      required
      {...errorProps(name, errors, hint ? `${name}-hint` : undefined)}
    />
  );
  const password = (name: string, autoComplete: string) => (
    <input type="password" className="woocommerce-Input input-text" name={name} id={name} autoComplete={autoComplete} {...errorProps(name, errors)} />
  );
  return (
    <>
      <form className="woocommerce-EditAccountForm edit-account" action="/my-account/edit-account/" method="post">
        <div className="account-name-row">
          <Row name="account_first_name" label="First name" required errors={errors} wide={false}>
            {text('account_first_name', form.first_name, 'given-name')}
          </Row>
          <Row name="account_last_name" label="Last name" required errors={errors} wide={false}>
            {text('account_last_name', form.last_name, 'family-name')}
          </Row>
        </div>
        <Row
          name="account_display_name"
          label="Display name"
          required
          errors={errors}
          hint="This will be how your name will be displayed in the account section and in reviews"
        >
          {text('account_display_name', form.display_name, 'nickname', 'hint')}
        </Row>
        <Row name="account_email" label="Email address" required errors={errors} hint="Changing it needs your current password below.">
          {text('account_email', form.email, 'email', 'hint', 'email')}
        </Row>
        <fieldset>
          <legend>Password change</legend>
          <Row name="password_current" label="Current password (leave blank to leave unchanged)" errors={errors}>
            {password('password_current', 'current-password')}
          </Row>
          <Row name="password_1" label="New password (leave blank to leave unchanged)" errors={errors}>
            {password('password_1', 'new-password')}
          </Row>
          <Row name="password_2" label="Confirm new password" errors={errors}>
            {password('password_2', 'new-password')}
          </Row>
        </fieldset>
        <p>
          <input type="hidden" name="save-account-details-nonce" value={form.nonce} />
          <input type="hidden" name="action" value="save_account_details" />
          <button type="submit" className="woocommerce-Button button" name="save_account_details" value="Save changes">
            Save changes
          </button>
        </p>
      </form>

      <section className="account-delete" aria-labelledby="delete-account-heading">
        <h2 id="delete-account-heading">Delete account</h2>
        <p id="delete-account-explained">
          Deleting your account logs you out everywhere and cannot be undone. Your past orders are kept for the shop's records, without a link to an
          account.
        </p>
        <form action="/my-account/delete-account/" method="post" className="account-delete-form" aria-describedby="delete-account-explained">
          <Row name="delete_password" label="Password" required errors={errors}>
            <input
              type="password"
              className="woocommerce-Input input-text"
              name="delete_password"
              id="delete_password"
              autoComplete="current-password"
              required
              {...errorProps('delete_password', errors)}
            />
          </Row>
          <p>
            <input type="hidden" name="delete-account-nonce" value={form.delete_nonce} />
            <button type="submit" className="button account-delete-button">
              Delete account
            </button>
          </p>
        </form>
      </section>
    </>
  );
}
