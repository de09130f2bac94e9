import { useCallback, useRef } from 'react';
import type { AccountLoginPage } from '../../types';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';
import './login.css';
import { PageContainer } from '../../ui/PageContainer';
import { Later } from '../../lib/hydrate-later';

/**
 * My account for a visitor: the login and registration forms side by side
 * (stacked on small screens), as WooCommerce lays them out. Both need
 * scripts for the invisible bot-check; without them a notice says so and
 * the server refuses the forms with its bot-check error.
 */
export function LoginPage({ data }: { data: AccountLoginPage }) {
  const hostRef = useRef<HTMLDivElement>(null);
  const proofHost = useCallback(() => hostRef.current ?? document.body, []);
  return (
    <PageContainer className="woocommerce account-login">
      <h1 className="page-title">My account</h1>
      <noscript>
        <p className="woocommerce-info">
          Logging in and registering need JavaScript: the forms run a short, invisible check that you are not a robot. Please turn JavaScript on and reload the page.
        </p>
      </noscript>
      <div className="u-columns col2-set" id="customer_login">
        {/* Each form hydrates after the page's first pass, in a task of its
            own (lib/hydrate-later.tsx); a submit before that is held. */}
        <Later>
        <div className="u-column1 col-1">
          <h2 id="login-heading">Login</h2>
          <LoginForm data={data} proofHost={proofHost} />
        </div>
        </Later>
        <Later>
        <div className="u-column2 col-2">
          <h2 id="register-heading">Register</h2>
          <RegisterForm data={data} proofHost={proofHost} />
        </div>
        </Later>
      </div>
      {/* The bot-check widget works here, never shown. */}
      <div ref={hostRef} className="account-login__botcheck" hidden />
    </PageContainer>
  );
}
