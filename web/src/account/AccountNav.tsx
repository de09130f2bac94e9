/** The my-account navigation, shared by every account page. */
export type AccountSection = 'dashboard' | 'orders' | 'edit-address' | 'edit-account' | 'security';

const items: { section: AccountSection; label: string; href: string }[] = [
  { section: 'dashboard', label: 'Dashboard', href: '/my-account/' },
  { section: 'orders', label: 'Orders', href: '/my-account/orders/' },
  { section: 'edit-address', label: 'Addresses', href: '/my-account/edit-address/' },
  { section: 'edit-account', label: 'Account details', href: '/my-account/edit-account/' },
  { section: 'security', label: 'Security', href: '/my-account/security/' },
];

export function AccountNav({ current, logoutUrl }: { current: AccountSection; logoutUrl: string }) {
  return (
    <nav className="woocommerce-MyAccount-navigation" aria-label="Account pages">
      <ul>
        {items.map((it) => (
          <li key={it.section} className={`woocommerce-MyAccount-navigation-link woocommerce-MyAccount-navigation-link--${it.section}${it.section === current ? ' is-active' : ''}`}>
            <a href={it.href} aria-current={it.section === current ? 'page' : undefined}>
              {it.label}
            </a>
          </li>
        ))}
        <li className="woocommerce-MyAccount-navigation-link woocommerce-MyAccount-navigation-link--customer-logout">
          <a href={logoutUrl}>Log out</a>
        </li>
      </ul>
    </nav>
  );
}
