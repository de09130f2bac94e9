import type { AccountPage as AccountData } from '../types';
import { decodeEntities } from '../lib/format';
import { AccountNav, type AccountSection } from './AccountNav';
import { AccountNotices } from './AccountNotices';
import { OrdersTable, ViewOrder } from './AccountOrders';
import { AddressBook, EditAddressForm } from './EditAddress';
import { EditAccountForm } from './EditAccount';
import './account.css';
import { PageContainer } from '../ui/PageContainer';

const headings: Record<AccountData['section'], string> = {
  dashboard: 'My account',
  orders: 'Orders',
  'view-order': 'Order',
  'edit-address': 'Addresses',
  'edit-account': 'Account details',
};

function navSection(s: AccountData['section']): AccountSection {
  return s === 'view-order' ? 'orders' : s;
}

function Dashboard({ data }: { data: AccountData }) {
  const name = decodeEntities(data.customer.display_name || data.customer.email);
  return (
    <>
      <p>
        Hello <strong>{name}</strong> (not <strong>{name}</strong>? <a href={data.logout_url}>Log out</a>)
      </p>
      <p>
        From your account dashboard you can view your <a href="/my-account/orders/">recent orders</a>, manage your{' '}
        <a href="/my-account/edit-address/">shipping and billing addresses</a>, and{' '}
        <a href="/my-account/edit-account/">edit your password and account details</a>.
      </p>
      {!data.customer.email_verified && (
        <p className="woocommerce-info account-unverified">
          Your email address is not verified yet. Orders you placed as a guest with it appear here once it is.
        </p>
      )}
    </>
  );
}

function Section({ data }: { data: AccountData }) {
  switch (data.section) {
    case 'orders':
      return data.orders ? <OrdersTable orders={data.orders} /> : null;
    case 'view-order':
      return <ViewOrder order={data.order} />;
    case 'edit-address':
      return data.address_form ? (
        <EditAddressForm form={data.address_form} countries={data.countries ?? []} errors={data.errors} phoneRequired={data.phone_required} />
      ) : (
        <AddressBook addresses={data.addresses} />
      );
    case 'edit-account':
      return data.account_form ? <EditAccountForm form={data.account_form} errors={data.errors} /> : null;
    default:
      return <Dashboard data={data} />;
  }
}

/** The my-account pages for a logged-in customer: navigation and one section. */
export function AccountPage({ data }: { data: AccountData }) {
  let heading = headings[data.section];
  if (data.section === 'view-order' && data.order) heading = `Order #${data.order.number}`;
  if (data.section === 'edit-address' && data.address_form) heading = data.address_form.kind === 'shipping' ? 'Shipping address' : 'Billing address';
  return (
    <PageContainer className="account-page woocommerce">
      <h1>{heading}</h1>
      <div className="account-layout">
        <AccountNav current={navSection(data.section)} logoutUrl={data.logout_url} />
        <div className="woocommerce-MyAccount-content">
          <AccountNotices notice={data.notice} errors={data.errors} />
          <Section data={data} />
        </div>
      </div>
    </PageContainer>
  );
}
