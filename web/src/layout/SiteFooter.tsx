import type { PageLink, ShopDetails } from '../types';
import { decodeEntities } from '../lib/format';
import { pageAt, PRIVACY_PATH, TERMS_PATH } from '../lib/legal';
import './footer.css';

const METHODS: Record<string, string> = { bacs: 'Bank transfer', cod: 'Cash on delivery', paypal: 'PayPal' };

/** A plain mark per payment method (decorative: the list names them). */
function MethodIcon({ id }: { id: string }) {
  const common = { viewBox: '0 0 40 26', width: 40, height: 26, 'aria-hidden': true, focusable: false } as const;
  switch (id) {
    case 'bacs': // a bank's front
      return (
        <svg {...common}>
          <rect x="0.5" y="0.5" width="39" height="25" rx="4" fill="#fff" stroke="currentColor" />
          <path d="M20 5 11 10h18z" fill="currentColor" />
          <path d="M13 11v8M18 11v8M22 11v8M27 11v8M11 20h18" stroke="currentColor" strokeWidth="1.6" />
        </svg>
      );
    case 'cod': // a banknote
      return (
        <svg {...common}>
          <rect x="0.5" y="0.5" width="39" height="25" rx="4" fill="#fff" stroke="currentColor" />
          <rect x="7" y="7" width="26" height="12" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <circle cx="20" cy="13" r="3" fill="none" stroke="currentColor" strokeWidth="1.6" />
        </svg>
      );
    case 'paypal': // a wallet
      return (
        <svg {...common}>
          <rect x="0.5" y="0.5" width="39" height="25" rx="4" fill="#fff" stroke="currentColor" />
          <path d="M9 8h20a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H9z" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <circle cx="26" cy="14" r="1.6" fill="currentColor" />
        </svg>
      );
    default:
      return null;
  }
}

/**
 * The footer's shop details: contact (address, email, phone), the social
 * profiles the owner set, the payment methods the checkout offers (marks
 * hidden from screen readers, which read the list's names), the legal
 * pages that are published, and "© year shop name" with the year the
 * server rendered the page in.
 */
export function FooterDetails({ name, shop, pages, year }: { name: string; shop?: ShopDetails; pages?: PageLink[]; year?: number }) {
  const lines = shop?.address_lines ?? [];
  const social = shop?.social ?? [];
  const methods = (shop?.payments ?? []).filter((m) => METHODS[m]);
  const legal = [pageAt(pages, PRIVACY_PATH), pageAt(pages, TERMS_PATH)].filter((p): p is PageLink => !!p);
  const contact = lines.length > 0 || shop?.email || shop?.phone;
  return (
    <div className="footer-details">
      {contact && (
        <section className="footer-contact" aria-labelledby="footer-contact-title">
          <h2 id="footer-contact-title" className="footer-heading">
            Contact
          </h2>
          <address>
            {lines.map((l, i) => (
              <span key={i} className="footer-address-line">
                {l}
              </span>
            ))}
            {shop?.email && (
              <a className="footer-email" href={`mailto:${shop.email}`}>
                {shop.email}
              </a>
            )}
            {shop?.phone && (
              <a className="footer-phone" href={`tel:${shop.phone.replace(/[^0-9+]/g, '')}`}>
                {shop.phone}
              </a>
            )}
          </address>
        </section>
      )}
      {social.length > 0 && (
        <nav className="footer-social" aria-label="Social media">
          <ul>
            {social.map((s) => (
              <li key={s.network}>
                <a href={s.url} rel="me noopener noreferrer" className={`social-${s.network}`}>
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {methods.length > 0 && (
        <section className="footer-payments" aria-labelledby="footer-payments-title">
          <h2 id="footer-payments-title" className="footer-heading">
            We accept
          </h2>
          <ul className="payment-icons">
            {methods.map((m) => (
              <li key={m} className={`payment-icon payment-icon--${m}`}>
                <MethodIcon id={m} />
                <span className="screen-reader-text">{METHODS[m]}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="footer-bottom">
        {legal.length > 0 && (
          <nav aria-label="Legal">
            <ul className="footer-legal">
              {legal.map((p) => (
                <li key={p.url}>
                  <a href={p.url}>{decodeEntities(p.title)}</a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <p className="footer-copyright">{`© ${year ? `${year} ` : ''}${decodeEntities(name)}`}</p>
      </div>
    </div>
  );
}
