import type { PageLink } from '../types';
import { decodeEntities } from '../lib/format';
import { pageAt, PRIVACY_PATH } from '../lib/legal';

/**
 * The privacy sentence under the checkout's and the registration form's
 * fields (WooCommerce's woocommerce-privacy-policy-text): what the data is
 * used for, linking the published privacy policy. No policy published: no
 * sentence (there is nothing to point to).
 */
export function PrivacyText({ pages, purpose }: { pages?: PageLink[]; purpose: string }) {
  const policy = pageAt(pages, PRIVACY_PATH);
  if (!policy) return null;
  return (
    <div className="woocommerce-privacy-policy-text">
      <p>
        We use your personal data {purpose}, and for the other purposes described in our{' '}
        <a href={policy.url} className="woocommerce-privacy-policy-link" target="_blank" rel="noopener">
          {decodeEntities(policy.title)}
          <span className="screen-reader-text"> (opens in a new tab)</span>
        </a>
        .
      </p>
    </div>
  );
}
