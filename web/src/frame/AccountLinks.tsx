import type { ViewerSettings } from '../types';

/**
 * The header's account links: "My account" for a visitor; for a logged-in
 * customer their name (announced as "My account: <name>") and "Log out".
 */
export function AccountLinks({ user }: { user?: ViewerSettings }) {
  if (!user?.logged_in) {
    return (
      <nav className="header-account" aria-label="Account">
        <a href="/my-account/">My account</a>
      </nav>
    );
  }
  const name = user.display_name?.trim();
  return (
    <nav className="header-account" aria-label="Account">
      <a href="/my-account/" className={name ? 'header-account__name' : undefined} title={name || undefined}>
        {name ? (
          <>
            <span className="screen-reader-text">My account:</span> {name}
          </>
        ) : (
          'My account'
        )}
      </a>
      {user.logout_url && <a href={user.logout_url}>Log out</a>}
    </nav>
  );
}
