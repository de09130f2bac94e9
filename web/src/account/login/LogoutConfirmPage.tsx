import type { AccountLogoutPage } from '../../types';
import { PageContainer } from '../../ui/PageContainer';

/** A log-out link without a valid nonce: the customer confirms (WooCommerce's wording). */
export function LogoutConfirmPage({ data }: { data: AccountLogoutPage }) {
  return (
    <PageContainer narrow className="woocommerce account-logout">
      <h1 className="page-title">Log out</h1>
      <div className="woocommerce-info" role="status">
        Are you sure you want to log out? <a href={data.logout_url}>Confirm and log out</a>
      </div>
      <p>
        <a href="/my-account/">Back to my account</a>
      </p>
    </PageContainer>
  );
}
