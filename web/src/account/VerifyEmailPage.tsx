import { useEffect, useRef } from 'react';
import type { VerifyEmailPage as VerifyEmailData } from '../types';
import './account-links.css';
import { PageContainer } from '../ui/PageContainer';

const texts: Record<VerifyEmailData['outcome'], string> = {
  pending: 'Your email address is not verified yet. Open the link we emailed you, or ask for a new one.',
  verified: 'Thank you: your email address is verified.',
  invalid: 'This verification link is invalid, has expired or has already been used.',
  sent: 'A new verification link is on its way. It may take a few minutes to arrive.',
  limited: 'Too many verification links were asked for. Please try again in an hour.',
};

/** The outcome of an email verification link, and the form asking for a new one. */
export function VerifyEmailPage({ data }: { data: VerifyEmailData }) {
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => notice.current?.focus(), []);
  const bad = data.outcome === 'invalid' || data.outcome === 'limited' || !!data.error;
  return (
    <PageContainer className="account-links-page">
      <h1>Verify your email address</h1>
      <div ref={notice} tabIndex={-1} className={`account-link-notice account-link-notice--${bad ? 'error' : data.outcome === 'verified' ? 'success' : 'info'}`} role={bad ? 'alert' : 'status'}>
        {data.error && <p>{data.error}</p>}
        <p>{texts[data.outcome]}</p>
      </div>
      {data.nonce && (
        <form method="post" action="/my-account/verify-email/">
          <input type="hidden" name="_wpnonce" value={data.nonce} />
          <button type="submit" className="button">
            Send a new verification link
          </button>
        </form>
      )}
      <p>
        <a href="/my-account/">{data.logged_in ? 'Go to your account' : 'Log in to your account'}</a>
      </p>
    </PageContainer>
  );
}
