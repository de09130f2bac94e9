// The end of a WooCommerce account form (edit account, edit address): the
// form's nonce and action as hidden fields and the submit button, named as
// WooCommerce's form handler reads them.

export function SaveButton({ nonceName, nonce, action, name, label, className = 'button' }: { nonceName: string; nonce: string; action: string; name: string; label: string; className?: string }) {
  return (
    <p>
      <input type="hidden" name={nonceName} value={nonce} />
      <input type="hidden" name="action" value={action} />
      <button type="submit" className={className} name={name} value={label}>
        {label}
      </button>
    </p>
  );
}
