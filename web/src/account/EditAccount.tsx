import type { AccountPage, FormErrors } from '../types';
import { AlertPrefs } from './AlertPrefs';
import type { ReactNode } from 'react';
import { Field, type ControlProps } from '../ui/Field';
import { SaveButton } from './SaveButton';

type Form = NonNullable<AccountPage['account_form']>;

/** One field of the account forms: the shop's field in WooCommerce's markup (p#name_field.form-row, name-hint, name-error). */
function Row({
  name,
  label,
  required,
  errors,
  hint,
  control,
  wide = true,
}: {
  name: string;
  label: string;
  required?: boolean;
  errors: FormErrors | null;
  hint?: string;
  control: (p: ControlProps) => ReactNode;
  wide?: boolean;
}) {
  return (
    <Field
      wrapper="p"
      wrapperId={`${name}_field`}
      className={`woocommerce-form-row form-row${wide ? ' form-row-wide' : ''}`}
      invalidClassName="woocommerce-invalid"
      id={name}
      label={label}
      required={required}
      hint={hint}
      hintId={`${name}-hint`}
      hintClassName="description"
      error={errors?.fields?.[name]}
      errorId={`${name}-error`}
      errorClassName="checkout-inline-error-message"
    >
      {control}
    </Field>
  );
}

/**
 * Account details (names, email, password change) and, apart, deleting the
 * account. Passwords are never sent back by the server; the other values
 * are the ones entered when a submit was refused.
 */
export function EditAccountForm({ form, errors }: { form: Form; errors: FormErrors | null }) {
  const text = (name: string, value: string, autoComplete: string, type = 'text') => (p: ControlProps) => (
    <input {...p} type={type} className="woocommerce-Input input-text" name={name} defaultValue={value} autoComplete={autoComplete} required />
  );
  const password = (name: string, autoComplete: string) => (p: ControlProps) => (
    <input {...p} type="password" className="woocommerce-Input input-text" name={name} autoComplete={autoComplete} />
  );
  return (
    <>
      <form className="woocommerce-EditAccountForm edit-account" action="/my-account/edit-account/" method="post">
        <div className="account-name-row">
          <Row name="account_first_name" label="First name" required errors={errors} wide={false} control={text('account_first_name', form.first_name, 'given-name')} />
          <Row name="account_last_name" label="Last name" required errors={errors} wide={false} control={text('account_last_name', form.last_name, 'family-name')} />
        </div>
        <Row
          name="account_display_name"
          label="Display name"
          required
          errors={errors}
          hint="This will be how your name will be displayed in the account section and in reviews"
          control={text('account_display_name', form.display_name, 'nickname')}
        />
        <Row
          name="account_email"
          label="Email address"
          required
          errors={errors}
          hint="Changing it needs your current password below."
          control={text('account_email', form.email, 'email', 'email')}
        />
        <fieldset>
          <legend>Password change</legend>
          <Row name="password_current" label="Current password (leave blank to leave unchanged)" errors={errors} control={password('password_current', 'current-password')} />
          <Row name="password_1" label="New password (leave blank to leave unchanged)" errors={errors} control={password('password_1', 'new-password')} />
          <Row name="password_2" label="Confirm new password" errors={errors} control={password('password_2', 'new-password')} />
        </fieldset>
        <SaveButton nonceName="save-account-details-nonce" nonce={form.nonce} action="save_account_details" name="save_account_details" label="Save changes" className="woocommerce-Button button" />
      </form>

      <AlertPrefs />

      <section className="account-privacy" aria-labelledby="privacy-data-heading">
        <h2 id="privacy-data-heading">Your personal data</h2>
        <p id="privacy-data-explained">
          You can ask for a copy of the personal data this shop keeps about you, or ask for it to be erased. We email you a link to confirm the request. A copy
          comes as a download link by email; an erasure is completed by the shop's staff, and keeps your past orders' amounts without your name or contact
          details.
        </p>
        <form action="/my-account/privacy-request/" method="post" className="account-privacy-form" aria-describedby="privacy-data-explained">
          <input type="hidden" name="privacy-request-nonce" value={form.privacy_nonce} />
          <p className="account-privacy-actions">
            <button type="submit" className="button" name="request_type" value="export_personal_data">
              Request a copy of my data
            </button>
            <button type="submit" className="button" name="request_type" value="remove_personal_data">
              Request erasure of my data
            </button>
          </p>
        </form>
      </section>

      <section className="account-delete" aria-labelledby="delete-account-heading">
        <h2 id="delete-account-heading">Delete account</h2>
        <p id="delete-account-explained">
          Deleting your account logs you out everywhere and cannot be undone. Your past orders are kept for the shop's records, without a link to an
          account.
        </p>
        <form action="/my-account/delete-account/" method="post" className="account-delete-form" aria-describedby="delete-account-explained">
          <Row
            name="delete_password"
            label="Password"
            required
            errors={errors}
            control={(p) => <input {...p} type="password" className="woocommerce-Input input-text" name="delete_password" autoComplete="current-password" required />}
          />
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
