import { useState } from 'react';
import type { AccountPage, Address, CheckoutCountry, FormErrors } from '../types';
import { AddressFields } from '../checkout/AddressFields';
import { findCountry, validateField, type AddressKey, type FieldDef } from '../checkout/fields';
import { AddressLines } from '../order/OrderReceivedPage';
import { SaveButton } from './SaveButton';

type Book = NonNullable<AccountPage['addresses']>;
type Form = NonNullable<AccountPage['address_form']>;

/** Both saved addresses with their edit links (WooCommerce's address book). */
export function AddressBook({ addresses }: { addresses?: Book }) {
  const cols: { kind: 'billing' | 'shipping'; title: string; a: Address | null | undefined; lines: string[] }[] = [
    { kind: 'billing', title: 'Billing address', a: addresses?.billing, lines: addresses?.billing_lines ?? [] },
    { kind: 'shipping', title: 'Shipping address', a: addresses?.shipping, lines: addresses?.shipping_lines ?? [] },
  ];
  return (
    <>
      <p>The following addresses will be used on the checkout page by default.</p>
      <div className="woocommerce-Addresses addresses account-addresses">
        {cols.map((c) => (
          <section key={c.kind} className={`woocommerce-Address ${c.kind}-address`} aria-labelledby={`${c.kind}-address-title`}>
            <header className="woocommerce-Address-title title">
              <h2 id={`${c.kind}-address-title`}>{c.title}</h2>
              <a href={`/my-account/edit-address/${c.kind}/`} className="edit" aria-label={`${c.a ? 'Edit' : 'Add'} ${c.title.toLowerCase()}`}>
                {c.a ? 'Edit' : 'Add'}
              </a>
            </header>
            {c.a ? (
              <AddressLines lines={c.lines} phone={c.kind === 'billing' ? c.a.phone : undefined} email={c.kind === 'billing' ? c.a.email : undefined} />
            ) : (
              <p>You have not set up this type of address yet.</p>
            )}
          </section>
        ))}
      </div>
    </>
  );
}

/**
 * One address form, with the checkout's fields and rules (labels and
 * required fields follow the country). Posts without scripts; the server
 * validates with the checkout's rules and answers its messages.
 */
export function EditAddressForm({
  form,
  countries,
  errors,
  phoneRequired,
}: {
  form: Form;
  countries: CheckoutCountry[];
  errors: FormErrors | null;
  phoneRequired?: boolean;
}) {
  const [value, setValue] = useState<Address>(() => ({ ...form.values }));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>(() => ({ ...(errors?.fields ?? {}) }));
  const onChange = (key: AddressKey, v: string) => {
    setValue((a) => {
      const next = { ...a, [key]: v };
      if (key === 'country') {
        // A state of another country means nothing in this one.
        const c = findCountry(countries, v);
        if (!c || !c.states.some((s) => s.code === a.state)) next.state = '';
      }
      return next;
    });
  };
  const onBlur = (def: FieldDef) => {
    const msg = validateField(form.kind, def, String(value[def.key] ?? ''));
    setFieldErrors((errs) => {
      const next = { ...errs };
      if (msg) next[def.name] = msg;
      else delete next[def.name];
      return next;
    });
  };
  return (
    <form method="post" action={`/my-account/edit-address/${form.kind}/`} className="account-address-form">
      <AddressFields
        kind={form.kind}
        value={value}
        countries={countries}
        errors={fieldErrors}
        onChange={onChange}
        onBlur={onBlur}
        phoneRequired={form.kind === 'billing' && phoneRequired !== false}
      />
      <SaveButton nonceName="woocommerce-edit-address-nonce" nonce={form.nonce} action="edit_address" name="save_address" label="Save address" />
    </form>
  );
}
