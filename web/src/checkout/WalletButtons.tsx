export type FundingSource = 'paypal' | 'paylater';

/**
 * The wallet's buttons in place of "Place order" (spec sections 1 and 9:
 * PayPal and pay-later, no card buttons). They run the early checkout
 * validation and then the redirect to the wallet's approval page.
 */
export function WalletButtons({ busy, onPay }: { busy: FundingSource | null; onPay: (f: FundingSource) => void }) {
  const b = (f: FundingSource, label: string) => (
    <button
      type="button"
      className={`wallet-button wallet-button--${f}`}
      data-funding-source={f}
      onClick={() => onPay(f)}
      aria-disabled={busy ? true : undefined}
      aria-busy={busy === f ? true : undefined}
    >
      {busy === f ? <span className="wallet-button__busy">{`${label}…`}</span> : label}
    </button>
  );
  return (
    <div className="ppc-button-wrapper wallet-buttons" id="ppc-button-ppcp-gateway" role="group" aria-label="Pay with PayPal">
      {b('paypal', 'PayPal')}
      {b('paylater', 'Pay Later')}
    </div>
  );
}
